"""Writing a draft as `assignment.toml`: every inferred field with its evidence on the same
line, every undecided one commented out with its candidates, the checks with their points."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from grader.authoring.draft import DEFAULT_POINTS, Draft

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_value(value: Any) -> str:
    """A TOML literal for a str, bool, number, list or table (inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML literal for {type(value).__name__} {value!r}")


def toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def _comment(text: str) -> str:
    return " ".join(text.split())


def render_toml(
    draft: Draft,
    *,
    assignment_id: str,
    title: str,
    source: str,
    stdin_file: str | None,
    timeouts: Mapping[str, float],
) -> str:
    lines = [
        f"# Written by `grader init` from {source}.",
        "# Every field below was observed in the solution; the comment beside it says how.",
        '# Points are the defaults (docs/course-authors.md, "The checks it writes"): edit them freely.',
        "[assignment]",
        f"id = {toml_value(assignment_id)}",
        f"title = {toml_value(title)}",
    ]
    for f in draft.fields:
        lines.append(f"{f.name} = {toml_value(f.value)}  # {_comment(f.evidence)}")
    for u in draft.undecided:
        if u.name in {f.name for f in draft.fields}:
            lines.append(
                f"# {u.name}: also possible: {', '.join(map(toml_value, u.candidates[1:]))} ({_comment(u.why)})"
            )
            continue
        lines.append(f"# NOT DECIDED ({_comment(u.why)}): uncomment one")
        lines.extend(f"# {u.name} = {toml_value(c)}" for c in u.candidates)
    if stdin_file:
        lines.append(f"stdin_file = {toml_value(stdin_file)}  # answers the notebook's input() calls")
    for name, seconds in timeouts.items():
        lines.append(f"{name} = {toml_value(seconds)}")
    if draft.board is not None:
        lines += ["", f"# {_comment(draft.board.evidence)}", "[board]"]
        lines += [f"{name} = {value}" for name, value in draft.board.fields]
    if draft.aliases:
        lines += ["", "# Other names a student may give the same function (none is defined in the solution)"]
        lines.append("[aliases]")
        lines += [f"{toml_key(name)} = {toml_value(list(others))}" for name, others in draft.aliases.items()]
    for check in draft.checks:
        lines += ["", "[[checks]]", f"# {_comment(check.evidence)}"]
        lines.append(f"id = {toml_value(check.id)}")
        lines.append(f"title = {toml_value(check.title)}")
        lines.append(f"kind = {toml_value(check.kind)}")
        lines.append(f"points = {toml_value(DEFAULT_POINTS[check.role])}")
        lines.extend(f"{toml_key(k)} = {toml_value(v)}" for k, v in check.params.items())
    if draft.notes:
        lines += ["", "# Found and not checked:"]
        lines.extend(f"# - {_comment(note)}" for note in draft.notes)
    return "\n".join(lines) + "\n"
