"""What a running batch tells the person who started it, on stderr.

On a terminal: a progress bar with an estimate of the time left. Elsewhere (a CI log, a pipe
through ``tee``), where a bar cannot redraw itself: one line per finished submission, so that
a long class never looks stuck. Nothing with ``--quiet``.
"""

from __future__ import annotations

import sys
from typing import TextIO

from tqdm import tqdm

from grader.class_folder.records import GradingRecord
from grader.printable import unfiltered


class ProgressReport:
    def __init__(self, total: int, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.total = total
        self.enabled = enabled and total > 0
        self.stream = stream or sys.stderr
        self.done = 0
        self.not_graded = 0
        self.bar: tqdm | None = None
        if self.enabled and self.stream.isatty():
            # The bar redraws itself with carriage returns, which the printable filter would
            # escape; it shows only counts, never student text.
            bar_stream = unfiltered(self.stream)
            self.bar = tqdm(total=total, unit="notebook", file=bar_stream, dynamic_ncols=True, smoothing=0.1)

    def finished(self, record: GradingRecord, assignment_id: str) -> None:
        """One more submission is graded (or could not be)."""
        self.done += 1
        self.not_graded += record.failure is not None
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.set_postfix_str(f"not graded: {self.not_graded}", refresh=False)
            self.bar.update(1)
            return
        print(progress_line(record, assignment_id, self.done, self.total), file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def progress_line(record: GradingRecord, assignment_id: str, done: int, total: int) -> str:
    """``[12/40] lab05 alice: 18/20 in 4.2s``, or why the submission could not be graded."""
    result = record.result
    outcome = (
        f"not graded: {first_line(record.failure)}"
        if record.failure is not None
        else f"{result.score:g}/{result.max_score:g}"
    )
    width = len(str(total))
    return (
        f"[{done:>{width}}/{total}] {assignment_id} {record.submission.student_id}: "
        f"{outcome} in {format_duration(record.seconds)}"
    )


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def format_duration(seconds: float) -> str:
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{seconds:.1f}s"
