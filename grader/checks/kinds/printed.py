"""Checks on what the notebook itself printed while it ran: a pattern's matches in the output
of the cells that run a given call, against the expected values."""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.checks.context import CheckContext
from grader.checks.kind import CheckKind
from grader.execution.result import CellStatus
from grader.results import CheckResult, CheckStatus, Counterexample
from grader.spec.model import Check


@dataclass(frozen=True)
class PrintedParams:
    """What the notebook printed while it ran: the matches of ``pattern``'s group in the output of the cells whose
    source contains ``cell_contains`` begin with ``expected``."""

    pattern: str
    """A regular expression with one group, e.g. 'Recommended move: (\\d+)'."""
    expected: tuple[str, ...]
    """The values the group must match first, in order, as printed."""
    cell_contains: str = ""
    """Only read the output of cells whose source contains this text (e.g. "play()")."""
    final_pattern: str | None = None
    """A regular expression the same output must also contain, e.g. "It's a tie"."""

    def __post_init__(self) -> None:
        for name in ("pattern", "final_pattern"):
            text = getattr(self, name)
            if text is None:
                continue
            try:
                compiled = re.compile(text)
            except re.error as exc:
                raise ValueError(f"{name} is not a valid regular expression: {exc}") from None
            if name == "pattern" and compiled.groups != 1:
                raise ValueError("pattern must have exactly one group: the part that is compared")


def _printed_sequence(check: Check[PrintedParams], ctx: CheckContext) -> CheckResult:
    """What the notebook itself printed while it ran (a game's recommended moves, say)."""
    params = check.params
    cells = [c for c in (ctx.execution.cells if ctx.execution else ()) if params.cell_contains in c.source]
    where = f"the cell that runs `{params.cell_contains}`" if params.cell_contains else "the notebook"
    if not cells:
        return CheckResult.not_run(check, f"no cell contains `{params.cell_contains}`.")
    text = "\n".join(c.output for c in cells)
    found = tuple(re.findall(params.pattern, text))
    shown = ", ".join(_quoted(f) for f in found[: len(params.expected) + 2]) or "nothing"
    expected = ", ".join(_quoted(e) for e in params.expected)
    figures = {"printed": list(found)}
    problems = []
    if found[: len(params.expected)] != params.expected:
        problems.append(f"{where} printed {shown}")
    if params.final_pattern and not re.search(params.final_pattern, text):
        problems.append(f"its output never matches {params.final_pattern!r}")
    if not problems:
        return CheckResult.for_check(
            check, CheckStatus.PASSED, f"{_upper_first(where)} printed {expected}, as expected.", figures=figures
        )
    cause = None
    for n, (got, want) in enumerate(zip(found, params.expected), start=1):
        if got != want:
            cause = f"The {_ordinal(n)} printed value is {_quoted(got)} instead of {_quoted(want)}."
            break
    if not found:
        failed = [c for c in cells if c.status != CellStatus.OK]
        cause = f"The cell stopped with {failed[0].error_name or failed[0].status.value}." if failed else None
    return CheckResult.for_check(
        check,
        CheckStatus.FAILED,
        _upper_first("; ".join(problems)) + ".",
        counterexample=Counterexample(None, params.cell_contains or "the notebook", expected, shown, cause),
        figures=figures,
    )


def _quoted(text: str) -> str:
    """A printed value exactly as printed: a number as it is, anything else in quotes."""
    return text if text.isdigit() else f'"{text}"'


def _upper_first(text: str) -> str:
    """The first letter upper-cased, the rest as it was printed (``str.capitalize`` would
    lower-case "X wins!")."""
    return text[:1].upper() + text[1:]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


PRINTED_SEQUENCE = CheckKind("printed-sequence", PrintedParams, _printed_sequence)
