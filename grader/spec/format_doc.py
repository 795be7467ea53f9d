"""The reference page of ``assignment.toml`` (``docs/assignment-format.md``), written from the code.

Each check kind's fields come from its parameter dataclass (`grader.checks.registry.CHECK_KINDS`):
the field's name, type and default, and its docstring, the string literal right after the field
in the class body, read with `ast` (Python keeps no such docstrings at run time). A kind's
description is its parameter class's docstring. The defaults of the top-level keys are what
`load_assignment` gives a spec that leaves them out, so the page cannot drift from the loader.

    python -m grader.spec.format_doc            # writes docs/assignment-format.md
    python -m grader.spec.format_doc --check    # exit status 1 when that file is stale
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import tomlkit

from grader.checks.registry import CHECK_KINDS
from grader.spec import toml_words as words
from grader.spec.board import BOARD_FIELDS, board_fields
from grader.spec.field_docs import class_doc, field_docs
from grader.spec.game import GAME_FIELDS
from grader.spec.loader import load_assignment
from grader.spec.model import Assignment, Check
from reference import CODECS
from reference.grid_codec import GRID_PRESETS

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "assignment-format.md"
"""Where the page lives in a checkout."""


@dataclass(frozen=True)
class SpecKey:
    """A key of the ``[assignment]`` table."""

    name: str
    attribute: str | None
    """The `Assignment` attribute the key sets: its type and default are read from there."""
    doc: str
    example: object
    """A value other than the default, as TOML gives it; loading a spec with it must show it
    in ``attribute`` (a test checks, so that no key here is one the loader ignores)."""
    type_text: str = ""
    """Written instead of the attribute's type where the TOML value differs from it."""


ASSIGNMENT_KEYS: tuple[SpecKey, ...] = (
    SpecKey(
        "id",
        "id",
        "Stored with every result; with a check's id it seeds the positions the check draws, and a file whose name "
        "mentions it wins when a student handed in several.",
        "lab06",
    ),
    SpecKey("title", "title", "Shown at the top of every report.", "Laboratory 06"),
    SpecKey("description", "description", "A longer description, kept with the spec (no output shows it).", "Notes."),
    SpecKey(
        "encoding",
        None,
        "A board preset (see [The board](#the-board)); required unless a `[board]` table describes the board.",
        "grid-space",
        type_text="one of " + ", ".join(f'`"{name}"`' for name in sorted(CODECS)),
    ),
    SpecKey(
        "maximizer", "maximizer", "Which side the searches maximize for: a fixed player, or whoever is to move.", "X"
    ),
    SpecKey("first_player", "first_player", "Who moves first: decides whose turn it is on a board.", "O"),
    SpecKey(
        "scoring",
        "scoring",
        "`unit`: a win is +1, a loss -1, a draw 0; `depth-adjusted`: 10 - depth for a win, depth - 10 for a loss.",
        "depth-adjusted",
    ),
    SpecKey(
        "move",
        "move_format",
        "How a move is written: `index` 0-8, `position` 1-9, `rowcol` (row, col) from 0, `rowcol1` from 1.",
        "position",
    ),
    SpecKey("stdin", "stdin", "The answers `input()` receives, in order.", ["3", "n"]),
    SpecKey(
        "stdin_file",
        None,
        "A file beside `assignment.toml` holding those answers, one a line (it replaces `stdin`).",
        "STDIN.txt",
        type_text="file name",
    ),
    SpecKey("cell_timeout", "cell_timeout", "Seconds a cell may run.", 60),
    SpecKey("notebook_timeout", "notebook_timeout", "Seconds the whole notebook may run.", 600),
    SpecKey(
        "call_timeout",
        "call_timeout",
        "Seconds of CPU time one call of a student's function may use: the hard limit, past which it is stopped and "
        "has no answer (one that waits without computing: 3 times as many seconds of wall time, plus 5).",
        20,
    ),
    SpecKey(
        "slow_after",
        "slow_after",
        "The soft limit: a check whose answers are all right, one after this many seconds of CPU time, is "
        '"correct, but slower than" it and loses `slow_cost` of its points. Below `call_timeout`; left out: none.',
        8,
    ),
    SpecKey(
        "slow_cost",
        "slow_cost",
        "The share of a check's points (0 to 1) that being slower than `slow_after` costs; a check's own "
        "`slow_cost` wins over it (see [course authors](course-authors.md#time-limits)).",
        0.25,
    ),
    SpecKey(
        "check_budget_seconds",
        "check_budget_seconds",
        "What a property check may spend on its positions before it judges what it has "
        "(see [Time budgets](judging.md#time-budgets)).",
        40,
    ),
    SpecKey(
        "hypothesis_examples",
        "hypothesis_examples",
        "Positions drawn per property check, beyond its first cases, where the check sets no `examples`.",
        100,
    ),
    SpecKey(
        "reference_helpers",
        "reference_helpers",
        "Grade the checks built on a wrong lower-level function again with the reference's version in its "
        "place, so that a mistake costs once; `false` keeps every check's first result.",
        False,
    ),
    SpecKey(
        "sandbox",
        "sandbox",
        "The isolation of every student's kernel when the command's `--sandbox` and the environment's "
        "`GRADER_SANDBOX` say nothing: `bwrap`, `limits` (resource limits only: for a container where "
        "bubblewrap cannot run) or `none`. Left out: bubblewrap, and grading refuses where it cannot run "
        "(see [security](security.md#isolation-modes)).",
        "limits",
    ),
    SpecKey(
        "support",
        "support",
        "The course's own modules its handout imports (`from game_api import *`), kept in the folder's `support/`: "
        "every kernel imports them from there, read-only and ahead of any file of the same name a student hands in "
        "(see [course authors](course-authors.md#support-modules)). Each must be a `.py` file that compiles.",
        ["game_api.py"],
        type_text="list of file names",
    ),
)

CHECK_KEY_DOCS: dict[str, str] = {
    "id": "The check's id: a column of `grades.csv`, and the name `grader override` takes.",
    "kind": "One of the check kinds below.",
    "title": "What the report calls the check.",
    "points": "What the check is worth.",
    "visibility": "`hidden`: students see the check's name, status and points, never its inputs.",
    "description": "A longer description, kept with the spec (no output shows it).",
    "slow_cost": "This check's share of the points (0 to 1) lost when it is right but slower than `slow_after`.",
}
"""The common keys of a ``[[checks]]`` entry whose `Check` field has no docstring of its own."""

BOARD_KEY_DOCS: dict[str, str] = {
    "layout": '`"flat"` (9 cells, row by row) or `"rows"` (3 rows of 3).',
    "container": '`"list"`, `"tuple"`, `"string"`, `"numpy"` or `"dict"` (keyed 1-9).',
    "empty": "An empty cell's symbol: a string or an integer taken literally, or `\"None\"` (Python's None), "
    '`"digit"` (the cell\'s number as text, \'1\'..\'9\'), `"number"` (the same as an integer) or `"index"` (0..8).',
    "x": "X's mark: a string or an integer.",
    "o": "O's mark: a string or an integer.",
    "location": 'Where the board lives: `"argument"` (the default), `"attribute"` or `"global"`.',
    "factory": "With `attribute`: the call that makes the object holding the board, such as `Game()`.",
    "attribute": "With `attribute`: the object's field the board is written to.",
    "global": "With `global`: the notebook global the board is written to.",
}

_HEADER = """\
# Assignment format

<!-- Generated by `python -m grader.spec.format_doc` from the check kinds' parameter classes
and the spec loader: edit those (a field's docstring is the line after it) and run it again. -->

An assignment is a folder: `assignment.toml` (this page), `template.ipynb` (the handout),
`solution.ipynb` (which must score full marks: `grader validate`), and optionally `STDIN.txt`,
`adapter.py` and a `support/` folder of the course's own modules. A handout or solution given
as a script is kept as one, `template.py` or `solution.py`, and used wherever the notebook
would be (the notebook wins when both exist).
How to write one is in [Course authors](course-authors.md). Every field below is validated
when the assignment loads; a mistake is reported with its file, field and problem.
"""


def render() -> str:
    """The whole page."""
    parts = [
        _HEADER,
        *_assignment_section(),
        *_board_section(),
        *_game_section(),
        *_checks_section(),
        *_kinds_section(),
    ]
    return "\n".join(parts).rstrip("\n") + "\n"


# -- the sections -------------------------------------------------------------------------


def _assignment_section() -> Iterator[str]:
    defaults = _minimal_assignment()
    hints = typing.get_type_hints(Assignment)
    yield "## `[assignment]`\n"
    for key in ASSIGNMENT_KEYS:
        type_text = key.type_text or words.type_text(hints[key.attribute or ""])
        if key.name in _MINIMAL_ASSIGNMENT:
            default = "required"
        elif key.attribute is None:
            default = "optional"
        else:
            default = words.default(getattr(defaults, key.attribute))
        yield f"- **`{key.name}`** ({type_text}; {default}): {key.doc}"
    yield (
        "\n`[aliases]` maps a function's name to the other names students give it, "
        '`check_win = ["checkWin", "is_winner"]`: a check calls `check_win` when the notebook defines it, '
        "else the first of the others it defines.\n"
    )


def _board_section() -> Iterator[str]:
    missing = set(BOARD_FIELDS) ^ set(BOARD_KEY_DOCS)
    if missing:
        raise LookupError(f"[board] fields without a description here, or described but gone: {sorted(missing)}")
    yield "## The board\n"
    yield (
        "`encoding` names a preset; a `[board]` table describes any other board field by field (its fields "
        "override the preset's; without a preset the first five are required). The presets:\n"
    )
    names = list(board_fields(next(iter(CODECS.values()))))
    yield "| preset | " + " | ".join(names) + " |"
    yield "|---" * (len(names) + 1) + "|"
    for preset, encoding in sorted(CODECS.items()):
        values = board_fields(encoding)
        yield f"| `{preset}` | " + " | ".join(f"`{tomlkit.item(values[name]).as_string()}`" for name in names) + " |"
    yield "\nThe `[board]` fields:\n"
    for name in BOARD_FIELDS:
        yield f"- **`{name}`**: {BOARD_KEY_DOCS[name]}"
    yield ""


def _game_section() -> Iterator[str]:
    yield "## `[game]`\n"
    yield (
        'The game the assignment is played on. Left out (or `name = "tic-tac-toe"`): tic-tac-toe, its board '
        "`encoding` and `[board]`, above. Any other game is one of `reference`'s games, its board a grid of "
        "`rows` x `cols` cells with the game's gravity (a piece above an empty cell is refused, naming the cell); "
        "`encoding` and `[board]` are then not read, and only the kinds that ask the game may be used: "
        + ", ".join(f"`{name}`" for name, kind in CHECK_KINDS.items() if kind.any_game)
        + " ([Another game](another-game.md)). The presets, sized to the board:\n"
    )
    yield "| preset | layout | container | empty | x | o | top_row_first |"
    yield "|---|---|---|---|---|---|---|"
    for name, encoding in GRID_PRESETS.items():
        values = (encoding.layout, encoding.container, encoding.empty, encoding.x, encoding.o, encoding.top_row_first)
        yield f"| `{name}` | " + " | ".join(f"`{words.value_text(value)}`" for value in values) + " |"
    yield "\nThe `[game]` fields:\n"
    for name, doc in GAME_FIELDS.items():
        yield f"- **`{name}`**: {doc}"
    yield ""


def _checks_section() -> Iterator[str]:
    check = _minimal_assignment().checks[0]
    hints = typing.get_type_hints(Check)
    docs = field_docs(Check)
    yield "## `[[checks]]`\n"
    yield "Every check has these keys; the other keys of an entry are its kind's, below.\n"
    for f in dataclasses.fields(Check):
        if f.name == "params":
            continue
        doc = docs.get(f.name) or CHECK_KEY_DOCS.get(f.name)
        if doc is None:
            raise LookupError(f"Check.{f.name} has no docstring and no description in CHECK_KEY_DOCS")
        value = getattr(check, f.name)
        if f.name in _MINIMAL_CHECK:
            default = "required"
        elif value == check.id:
            default = "default: the `id`"
        else:
            default = words.default(value)
        yield f"- **`{f.name}`** ({words.type_text(hints[f.name])}; {default}): {doc}"
    yield ""


def _kinds_section() -> Iterator[str]:
    yield "## Check kinds\n"
    for name, kind in CHECK_KINDS.items():
        params = kind.params
        yield f"### `{name}`\n"
        summary = class_doc(params)
        if not summary:
            raise LookupError(f"{params.__module__}.{params.__qualname__} ({name}) has no docstring")
        yield summary + "\n"
        yield from _field_items(params, name, "")
        yield ""


def _field_items(params: type, kind: str, indent: str) -> Iterator[str]:
    """One list item per field; a field holding a table of its own lists that table's fields
    under it."""
    hints = typing.get_type_hints(params)
    docs = field_docs(params)
    for f in dataclasses.fields(params):
        if f.name not in docs:
            raise LookupError(f"{params.__module__}.{params.__qualname__}.{f.name} ({kind}) has no docstring")
        yield f"{indent}- **`{f.name}`** ({words.type_text(hints[f.name])}; {words.default_text(f)}): {docs[f.name]}"
        table = words.table_type(hints[f.name])
        if table is not None:
            yield from _field_items(table, kind, indent + "    ")


# -- reading the code ---------------------------------------------------------------------

_MINIMAL_ASSIGNMENT = {"id": "minimal", "title": "Minimal", "encoding": "flat-space"}
_MINIMAL_CHECK = {"id": "clean", "kind": "runs-cleanly", "points": 1}


def spec_text(assignment: Mapping[str, object], check: Mapping[str, object]) -> str:
    """An ``assignment.toml`` with these ``[assignment]`` keys and one check (values as TOML)."""

    def table(values: Mapping[str, object]) -> str:
        return "\n".join(f"{key} = {_toml(value)}" for key, value in values.items())

    return f"[assignment]\n{table(assignment)}\n\n[[checks]]\n{table(check)}\n"


def load_spec(text: str) -> Assignment:
    """Load ``text`` as an assignment folder of its own (a ``stdin_file`` and a support module
    it names are created)."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "STDIN.txt").write_text("3\nn\n", encoding="utf-8")
        (Path(folder) / "support").mkdir()
        (Path(folder) / "support" / "game_api.py").write_text("ROWS = 6\n", encoding="utf-8")
        path = Path(folder) / "assignment.toml"
        path.write_text(text, encoding="utf-8")
        return load_assignment(path)


@cache
def _minimal_assignment() -> Assignment:
    """What the loader makes of a spec that gives only the required keys: its defaults."""
    return load_spec(spec_text(_MINIMAL_ASSIGNMENT, _MINIMAL_CHECK))


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.spec.format_doc", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOC_PATH, help=f"the page to write (default {DOC_PATH})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit status 1 when the page is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.is_file() else ""
        if current != text:
            print(f"{args.out} is stale: run python -m grader.spec.format_doc", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
