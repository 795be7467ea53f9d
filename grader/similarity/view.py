"""The similarity report as ``similarity.csv``, and as the "Similar submissions" section of
the class index (``_similarity.html.j2``).

Each listed pair gets the two code texts side by side, split into lines, the matched parts
of each line marked. Long stretches without a match are folded into one "N lines" row so
the matches stand out. Plain data: the template escapes every piece of student text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass

from grader.similarity.compare import HANDOUT, SimilarityReport, SimilarPair, Span

CONTEXT = 2
"""Unmatched lines shown around each matched line."""
MIN_FOLD = 4
"""Runs of unmatched lines shorter than this are shown, not folded."""
DETAILS_LIMIT = 40
"""Pairs whose code is shown; the table lists every pair."""


def similarity_csv(report: SimilarityReport) -> str:
    """``student_a,student_b,similarity`` ranked as in the report; formula-like cells neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student_a", "student_b", "similarity"])
    for pair in report.pairs:
        writer.writerow([_cell(pair.student_a), _cell(pair.student_b), f"{pair.similarity:.3f}"])
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet runs a cell starting with = + - @ (or tab, CR) as a formula: quote it."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@dataclass(frozen=True)
class Segment:
    text: str
    marked: bool


@dataclass(frozen=True)
class CodeLine:
    number: int
    """1-based line number in the code text; 0 for a fold."""
    segments: tuple[Segment, ...] = ()
    folded: int = 0
    """For a fold: how many lines without a match it stands for."""

    @property
    def marked(self) -> bool:
        return any(segment.marked for segment in self.segments)


@dataclass(frozen=True)
class SideView:
    student: str
    lines: tuple[CodeLine, ...]
    matched_lines: int
    total_lines: int


@dataclass(frozen=True)
class PairView:
    rank: int
    student_a: str
    student_b: str
    similarity: float
    percent: str
    handout: bool
    left: SideView | None
    """None (and ``right`` too) past :data:`DETAILS_LIMIT`."""
    right: SideView | None

    @property
    def anchor(self) -> str:
        return f"similar-{self.rank}"


@dataclass(frozen=True)
class SimilarityView:
    pairs: tuple[PairView, ...]
    threshold: float
    handout_threshold: float
    compared: int
    details_limit: int

    @property
    def threshold_percent(self) -> str:
        return f"{self.threshold * 100:.0f}%"

    @property
    def handout_percent(self) -> str:
        return f"{self.handout_threshold * 100:.0f}%"


def similar_pairs_view(
    report: SimilarityReport, *, context: int = CONTEXT, details_limit: int = DETAILS_LIMIT
) -> SimilarityView:
    pairs = []
    for rank, pair in enumerate(report.pairs, start=1):
        left = right = None
        if rank <= details_limit:
            (text_a, text_b), (spans_a, spans_b) = report.code_of(pair), report.matches(pair)
            left = side_view(pair.student_a, text_a, spans_a, context=context)
            right = side_view(HANDOUT if pair.handout else pair.student_b, text_b, spans_b, context=context)
        pairs.append(_pair_view(rank, pair, left, right))
    return SimilarityView(tuple(pairs), report.threshold, report.handout_threshold, report.compared, details_limit)


def _pair_view(rank: int, pair: SimilarPair, left: SideView | None, right: SideView | None) -> PairView:
    percent = f"{pair.similarity * 100:.0f}%"
    return PairView(rank, pair.student_a, pair.student_b, pair.similarity, percent, pair.handout, left, right)


def side_view(student: str, text: str, spans: tuple[Span, ...], *, context: int = CONTEXT) -> SideView:
    """One column: the lines of ``text`` with ``spans`` marked, unmatched stretches folded."""
    lines = list(_marked_lines(text, spans))
    hits = [index for index, line in enumerate(lines) if line.marked]
    keep = [not hits] * len(lines)
    for index in hits:
        for near in range(max(0, index - context), min(len(lines), index + context + 1)):
            keep[near] = True
    shown: list[CodeLine] = []
    index = 0
    while index < len(lines):
        run = index
        while run < len(lines) and not keep[run]:
            run += 1
        if run - index >= MIN_FOLD:
            shown.append(CodeLine(0, folded=run - index))
        else:
            shown.extend(lines[index:run])
        if run < len(lines):
            shown.append(lines[run])
        index = run + 1
    return SideView(student, tuple(shown), len(hits), len(lines))


def _marked_lines(text: str, spans: tuple[Span, ...]) -> Iterator[CodeLine]:
    """Every line of ``text``, cut into segments at the span edges (whitespace is never marked)."""
    start = 0
    first = 0  # the first span that may still reach the current line
    for number, line in enumerate(text.split("\n"), start=1):
        end = start + len(line)
        while first < len(spans) and spans[first][1] <= start:
            first += 1
        segments: list[Segment] = []
        cursor = start
        for span_start, span_end in spans[first:]:
            if span_start >= end:
                break
            low, high = max(span_start, cursor), min(span_end, end)
            if low >= high:
                continue
            if low > cursor:
                segments.append(Segment(text[cursor:low], False))
            piece = text[low:high]
            core = piece.strip()
            if core:  # whitespace around a match (indentation) is not marked
                head = len(piece) - len(piece.lstrip())
                segments.append(Segment(piece[:head], False))
                segments.append(Segment(core, True))
                segments.append(Segment(piece[head + len(core) :], False))
            else:
                segments.append(Segment(piece, False))
            cursor = high
        if cursor < end or not segments:
            segments.append(Segment(text[cursor:end], False))
        yield CodeLine(number, tuple(_joined(segments)))
        start = end + 1


def _joined(segments: list[Segment]) -> Iterator[Segment]:
    """Neighbouring segments of the same kind as one; empty ones dropped."""
    current: Segment | None = None
    for segment in segments:
        if not segment.text:
            continue
        if current is not None and current.marked == segment.marked:
            current = Segment(current.text + segment.text, current.marked)
            continue
        if current is not None:
            yield current
        current = segment
    if current is not None:
        yield current
