"""`grades.csv`: one row per student, ready for an LMS gradebook import.

Columns: ``student_id, name, total, max``, then one column per check (its id) holding the
points earned. A submission the grader itself failed on has empty score cells (no grade
rather than a false zero); one that could not be read or run scores what it scored, 0.
Manual items stay empty until the instructor marks them (``grader.overrides``), even for an
upload that could not be graded at all (a 0 there would overwrite a hand grade on import).
The cells hold the final points (the instructor's where set), and the total includes any
adjustment; when some student has one, a last ``adjustment`` column holds it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from grader.results import SubmissionResult

FIXED_COLUMNS = ("student_id", "name", "total", "max")
ADJUSTMENT_COLUMN = "adjustment"


@dataclass(frozen=True)
class GradebookRow:
    student_id: str
    name: str
    result: SubmissionResult
    withheld: bool = False
    """No scores: the grader failed on this submission (not the student)."""


def check_columns(rows: Sequence[GradebookRow]) -> list[str]:
    """Check ids in rubric order (first seen), across every row."""
    seen: dict[str, None] = {}
    for row in rows:
        for check in row.result.checks:
            seen.setdefault(check.check_id, None)
    return list(seen)


def grades_csv(rows: Sequence[GradebookRow]) -> str:
    columns = check_columns(rows)
    adjusted = any(row.result.adjustment is not None for row in rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*FIXED_COLUMNS, *columns, *([ADJUSTMENT_COLUMN] if adjusted else [])])
    for row in sorted(rows, key=lambda r: r.student_id):
        by_id = {c.check_id: c for c in row.result.checks}
        cells = []
        for check_id in columns:
            check = by_id.get(check_id)
            if row.withheld or check is None or (check.manual and not check.marked):
                cells.append("")
            else:
                cells.append(_number(check.score))
        total = "" if row.withheld else _number(row.result.score)
        adjustment = row.result.adjustment
        extra = [_number(adjustment.points) if adjustment and not row.withheld else ""] if adjusted else []
        writer.writerow(
            [_safe_cell(row.student_id), _safe_cell(row.name), total, _number(row.result.max_score), *cells, *extra]
        )
    return buffer.getvalue()


def _number(value: float) -> str:
    return f"{value:g}"


def _safe_cell(text: str) -> str:
    """Neutralise spreadsheet formulas in names taken from file names (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
