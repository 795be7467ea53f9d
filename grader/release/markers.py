"""Solution markers in one cell (or one script) of a master notebook: what the solution keeps,
what the student sees.

Both conventions course staff already write are read:

* regions: ``### BEGIN SOLUTION`` / ``### END SOLUTION`` (nbgrader) or ``# BEGIN SOLUTION`` /
  ``# END SOLUTION`` (otter; ``# BEGIN SOLUTION NO PROMPT`` leaves nothing in its place). The
  student gets the stub line, at the marker's indentation, where the region was;
* one line: ``code  # SOLUTION`` (otter). An assignment keeps its target (``depth = ...``),
  any other line becomes the stub line; ``# SOLUTION NO PROMPT`` leaves nothing;
* ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS`` (nbgrader): kept in the solution, left
  out of the student's version;
* ``# LOCKED`` alone on a line: the cell is one students must leave as it is.

Marker lines themselves are in neither version. A marker that is nearly one (lower case, a
plural, an END with no BEGIN, a region left open) is an error naming its line, never text
passed through to students.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from grader.errors import GraderError

DEFAULT_STUB = "raise NotImplementedError()"
ANSWER_PLACEHOLDER = "YOUR ANSWER HERE"
"""What a markdown answer's region becomes in the student's version."""

_REGION = re.compile(
    r"^(?P<indent>\s*)#+\s*(?P<edge>BEGIN|END) (?P<what>SOLUTION|HIDDEN TESTS)(?P<quiet> NO PROMPT)?\s*$"
)
_LINE = re.compile(r"^(?P<code>\s*\S.*?)\s*#\s*SOLUTION(?P<quiet> NO PROMPT)?\s*$")
_LOCKED = re.compile(r"^\s*#\s*LOCKED\s*$")
_NEAR_MISS = re.compile(r"#.*\b(begin|end)\s+(solutions?|hidden\s+tests?|prompt)\b|#\s*locked\s*$", re.IGNORECASE)


class MarkerError(GraderError):
    """A marker that cannot be read; the message names the cell, the line and what to write."""


@dataclass(frozen=True)
class SplitSource:
    """One source read for its markers."""

    solution: str
    """The source with the marker lines taken out: what the answer key runs."""
    student: str
    """The source students get: each solution replaced, hidden tests left out."""
    marked: bool
    """Whether the source had a solution marker (a region or a line)."""
    locked: bool
    """Whether a ``# LOCKED`` line marks it as one students must leave as it is."""


def split_source(source: str, *, where: str, stub: str = DEFAULT_STUB, markdown: bool = False) -> SplitSource:
    """Read ``source``'s markers. ``where`` names it in errors ("cell 4"); ``stub`` is the line
    that stands for a solution in code, `ANSWER_PLACEHOLDER` in markdown."""
    solution: list[str] = []
    student: list[str] = []
    open_region: tuple[str, int, bool] | None = None  # (what, line number, no prompt)
    marked = locked = False
    for number, line in enumerate(source.splitlines(), start=1):
        region = _REGION.match(line)
        if region is not None:
            what, quiet = region["what"], bool(region["quiet"])
            if region["edge"] == "BEGIN":
                if open_region is not None:
                    raise MarkerError(
                        f"{where}, line {number}: BEGIN {what} inside the {open_region[0].lower()} "
                        f"begun on line {open_region[1]}; close it with END {open_region[0]} first"
                    )
                open_region = (what, number, quiet)
                if what == "SOLUTION":
                    marked = True
                    if not quiet:
                        student.append(region["indent"] + (ANSWER_PLACEHOLDER if markdown else stub))
                continue
            if open_region is None or open_region[0] != what:
                raise MarkerError(f"{where}, line {number}: END {what} with no BEGIN {what} before it")
            open_region = None
            continue
        if _near_miss(line):
            raise MarkerError(
                f"{where}, line {number}: {line.strip()!r} is not a marker; write '# BEGIN SOLUTION', "
                "'# END SOLUTION', 'code  # SOLUTION', '### BEGIN HIDDEN TESTS' or '# LOCKED' exactly"
            )
        if not markdown and _LOCKED.match(line):
            locked = True
            continue
        if open_region is not None:
            solution.append(line)
            continue
        marked_line = None if markdown else _LINE.match(line)
        if marked_line is not None:
            marked = True
            code = marked_line["code"]
            solution.append(code)
            if not marked_line["quiet"]:
                student.append(_line_stub(code, stub))
            continue
        solution.append(line)
        student.append(line)
    if open_region is not None:
        raise MarkerError(
            f"{where}, line {open_region[1]}: BEGIN {open_region[0]} is never closed by END {open_region[0]}"
        )
    if locked and marked:
        raise MarkerError(f"{where} is marked # LOCKED and holds a solution: students cannot write it")
    ending = "\n" if source.endswith("\n") else ""
    return SplitSource(_join(solution, ending), _join(student, ending), marked, locked)


def _near_miss(line: str) -> bool:
    exact = _LINE.match(line) is not None or _LOCKED.match(line) is not None
    return not exact and _NEAR_MISS.search(line) is not None


def _join(lines: list[str], ending: str) -> str:
    return "\n".join(lines) + (ending if lines else "")


def _line_stub(code: str, stub: str) -> str:
    """``target = ...`` for an assignment, else the stub line, at the line's indentation."""
    indent = code[: len(code) - len(code.lstrip())]
    try:
        statements = ast.parse(code.strip()).body
    except SyntaxError:  # a line of a compound statement (`if won:  # SOLUTION`) on its own
        return indent + stub
    if len(statements) == 1 and isinstance(statements[0], ast.Assign) and len(statements[0].targets) == 1:
        return f"{indent}{ast.unparse(statements[0].targets[0])} = ..."
    return indent + stub
