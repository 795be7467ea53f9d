"""Writing a draft as `assignment.toml` with tomlkit: the tables come from the spec's own
converter (`grader.spec.tables`), so the file loads back to the assignment init graded; every
inferred field carries its evidence as a comment, every undecided one is commented out with
its candidates."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tomlkit
from tomlkit.items import Table

from grader.authoring.draft import Draft
from grader.spec.tables import SpecFile, assignment_table, check_table


def _comment(text: str) -> str:
    return " ".join(text.split())


def _value(value: Any) -> Any:
    """Tables inside a table are written inline: ``codes = { X = 1, O = 2 }``."""
    if isinstance(value, Mapping):
        inline = tomlkit.inline_table()
        inline.update({k: _value(v) for k, v in value.items()})
        return inline
    return value


def _table(values: Mapping[str, Any]) -> Table:
    table = tomlkit.table()
    for name, value in values.items():
        table.add(name, _value(value))
    return table


def _assignment(spec: SpecFile, draft: Draft) -> Table:
    table = _table(assignment_table(spec.assignment))
    evidence = {f.name: f.evidence for f in draft.fields}
    evidence["stdin_file"] = "answers the notebook's input() calls"
    evidence["support"] = "the course's modules in support/: every kernel imports these, never a student's copy"
    for name, why in evidence.items():
        if name in table:
            table[name].comment(_comment(why))
            table[name].trivia.comment_ws = "  "
    for u in draft.undecided:
        literals = [tomlkit.item(c).as_string() for c in u.candidates]
        if u.name in table:
            table.add(tomlkit.comment(f"{u.name}: also possible: {', '.join(literals[1:])} ({_comment(u.why)})"))
            continue
        table.add(tomlkit.comment(f"NOT DECIDED ({_comment(u.why)}): uncomment one"))
        for literal in literals:
            table.add(tomlkit.comment(f"{u.name} = {literal}"))
    return table


_ALIASES = "Other names a student may give the same function (none is defined in the solution)"


def spec_document(spec: SpecFile, draft: Draft, *, source: str) -> tomlkit.TOMLDocument:
    """The file for ``spec``, with ``draft``'s evidence, undecided fields and notes as comments."""
    document = tomlkit.document()
    document.add(tomlkit.comment(f"Written by `grader init` from {source}."))
    document.add(tomlkit.comment("Every field below was observed in the solution; the comment beside it says how."))
    document.add(
        tomlkit.comment('Points are the defaults (docs/course-authors.md, "The checks it writes"): edit them freely.')
    )
    for line in draft.api:
        document.add(tomlkit.comment(_comment(line)))
    document.add("assignment", _assignment(spec, draft))
    if spec.game:
        if draft.game_evidence:
            document.add(tomlkit.comment(_comment(draft.game_evidence)))
        document.add("game", _table(spec.game))
    if spec.board:
        if draft.board is not None:
            document.add(tomlkit.comment(_comment(draft.board.evidence)))
        document.add("board", _table(spec.board))
    if spec.aliases:
        document.add(tomlkit.comment(_ALIASES))
        document.add("aliases", _table({name: list(others) for name, others in spec.aliases.items()}))
    evidence = {c.id: c.evidence for c in draft.checks}
    checks = tomlkit.aot()
    for check in spec.checks:
        table = tomlkit.table()
        table.add(tomlkit.comment(_comment(evidence.get(check.id, ""))))
        for name, value in check_table(check).items():
            table.add(name, _value(value))
        checks.append(table)
    document.add("checks", checks)
    if draft.notes:
        document.add(tomlkit.nl())
        document.add(tomlkit.comment("Found and not checked:"))
        for note in draft.notes:
            document.add(tomlkit.comment(f"- {_comment(note)}"))
    return document


def render_toml(spec: SpecFile, draft: Draft, *, source: str) -> str:
    return tomlkit.dumps(spec_document(spec, draft, source=source))
