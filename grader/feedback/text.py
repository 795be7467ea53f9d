"""Plain-text rendering of a SubmissionResult for the terminal."""

from __future__ import annotations

from grader.check_details import SearchDivergence
from grader.check_wording import cause_line
from grader.feedback.views import board_rows, divergence_view, drawing_rows
from grader.results import CheckResult, CheckStatus, SubmissionResult

STATUS_WORDS = {
    CheckStatus.PASSED: "PASS",
    CheckStatus.FAILED: "FAIL",
    CheckStatus.PARTIAL: "PARTIAL",
    CheckStatus.ERROR: "ERROR",
    CheckStatus.NOT_RUN: "NOT RUN",
    CheckStatus.MANUAL: "MANUAL",
}


def format_submission(result: SubmissionResult) -> str:
    lines = [f"{result.submission}  [{result.assignment_id}]", f"Score: {result.score:g} / {result.max_score:g}", ""]
    width = max((len(c.check_id) for c in result.checks), default=10)
    for check in result.checks:
        if check.status == CheckStatus.MANUAL:
            points = "manual"
        elif check.max_score == 0 and check.score:
            points = f"+{check.score:g} bonus"
        else:
            points = f"{check.score:g}/{check.max_score:g}"
        lines.append(f"  {STATUS_WORDS[check.status]:8} {check.check_id:{width}}  {points:>7}  {check.message}")
        lines.extend(_counterexample_lines(check, indent=" " * (14 + width)))
        lines.extend(_divergence_lines(check, indent=" " * (14 + width)))
    if result.problems:
        lines += ["", "Problems:"] + [f"  - {p}" for p in result.problems]
    transcript = result.execution.stdin_transcript if result.execution else ()
    if transcript:
        lines += ["", "Scripted input:"]
        lines += [f"  {e.prompt}{'<none left>' if e.answer is None else e.answer}" for e in transcript]
    if result.timings:
        named = ", ".join(f"{k.replace('_', ' ')} {v:.2f}s" for k, v in result.timings.items())
        lines += ["", f"Timings: {named}"]
    return "\n".join(lines)


def _counterexample_lines(check: CheckResult, indent: str) -> list[str]:
    ce = check.counterexample
    if ce is None:
        return []
    grid = board_rows(ce.board, empty=".", separator=" ") or drawing_rows(ce.drawing)
    facts = [f"call:     {ce.call}", f"expected: {ce.expected}", f"actual:   {ce.actual}"]
    last = ce.drawing.last if ce.drawing is not None else None
    if last is not None:
        facts.append(f"last move: column {last[1]} (lower case)")
    if ce.board and not grid:  # not a tic-tac-toe board: shown as it is
        facts.insert(0, f"input:    {ce.board}")
    cause = cause_line(check)
    if cause:
        facts.append(f"likely cause: {cause}")
    return _beside(grid, facts, indent)


def _divergence_lines(check: CheckResult, indent: str) -> list[str]:
    """Where a search on another game went wrong: the node drawn, what each search did there."""
    parted = divergence_view(check.detail_as(SearchDivergence))
    if parted is None:
        return []
    return _beside(drawing_rows(parted.drawing), parted.facts(), indent)


def _beside(grid: list[str], facts: list[str], indent: str) -> list[str]:
    """A drawing's lines with the facts to their right."""
    lines = []
    for n in range(max(len(grid), len(facts))):
        left = grid[n] if n < len(grid) else " " * (len(grid[0]) if grid else 0)
        right = facts[n] if n < len(facts) else ""
        lines.append(f"{indent}{left}   {right}".rstrip())
    return lines
