"""The geometry of the reports' SVG charts: node counts as bars (a student's report), the
score histogram (the class index). Templates draw them; the numbers are worked out here."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from grader.check_details import NodeCountRow

NODE_SERIES = (
    ("minimax", "your minimax"),
    ("alphabeta", "your alpha-beta"),
    ("reference_minimax", "reference minimax"),
    ("reference_alphabeta", "reference alpha-beta"),
)


@dataclass(frozen=True)
class BarView:
    label: str
    value: int
    y: float
    width: float
    series: str


@dataclass(frozen=True)
class NodeChartGroup:
    board: str
    y: float
    bars: tuple[BarView, ...]


@dataclass(frozen=True)
class NodeChart:
    """Horizontal bars: nodes visited per position, the student's against the reference's.

    Each bar's label sits above it rather than beside it, so that the chart stays narrow
    enough to fit a phone without shrinking its text."""

    groups: tuple[NodeChartGroup, ...]
    height: float
    bar_area: ClassVar[float] = 330
    bar_height: ClassVar[float] = 14
    label_height: ClassVar[float] = 15
    """Room above each bar for its label."""
    value_width: ClassVar[float] = 64
    """Room right of the longest bar for its count."""
    _caption: ClassVar[float] = 20
    _row: ClassVar[float] = 34
    _gap: ClassVar[float] = 10

    @property
    def width(self) -> float:
        return self.bar_area + self.value_width

    @classmethod
    def from_rows(cls, rows: Sequence[NodeCountRow]) -> NodeChart | None:
        """From a node-counts check's rows; None when no row has a count."""
        numbers = [n for row in rows for key, _ in NODE_SERIES if (n := _count(getattr(row, key))) is not None]
        if not numbers:
            return None
        largest = max(max(numbers), 1)
        groups = []
        y = 0.0
        for row in rows:
            top = y
            y += cls._caption
            bars = []
            for key, label in NODE_SERIES:
                value = _count(getattr(row, key))
                if value is None:
                    continue
                bars.append(BarView(label, value, y, max(1.0, cls.bar_area * value / largest), key))
                y += cls._row
            groups.append(NodeChartGroup(row.board, top, tuple(bars)))
            y += cls._gap
        return cls(tuple(groups), y)


def _count(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else None


@dataclass(frozen=True)
class HistogramBin:
    label: str
    count: int
    x: float
    height: float


def histogram(fractions: Sequence[float], bins: int = 10, height: float = 120) -> tuple[HistogramBin, ...]:
    counts = [0] * bins
    for f in fractions:
        counts[min(bins - 1, max(0, int(math.floor(f * bins + 1e-9))))] += 1
    top = max(counts, default=0) or 1
    width = 100 / bins
    return tuple(
        HistogramBin(f"{int(n * width)}–{int((n + 1) * width)}%", count, n * 36, height * count / top)
        for n, count in enumerate(counts)
    )
