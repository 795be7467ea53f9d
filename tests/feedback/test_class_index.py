"""The instructor's class index: statistics, histogram, pass rates, escaping, the students table."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from grader.feedback.charts import histogram
from grader.feedback.class_index import ClassEntry, index_cell, pass_rates
from grader.feedback.html import render_class_index
from grader.results import CheckStatus
from tests.feedback import fabricated as fab


def entry(student: str, *checks, failure: str | None = None, seconds: float = 1.0) -> ClassEntry:
    return ClassEntry(
        student, f"Name {student}", False, fab.submission(*checks), f"{student}/report.html", failure, seconds
    )


def entries() -> list[ClassEntry]:
    win = fab.check("check-win", CheckStatus.PASSED, 10, 10)
    lose = fab.check("check-win", CheckStatus.FAILED, 0, 10)
    return [
        entry("ann", win, fab.node_counts(CheckStatus.PASSED), seconds=3.0),
        entry("bob", lose, fab.node_counts(CheckStatus.FAILED), seconds=9.5),
        entry("<b>eve</b>", lose, fab.node_counts(CheckStatus.FAILED), failure="not a notebook <script>x</script>"),
    ]


def test_histogram_bins_fractions() -> None:
    bins = histogram([0.0, 0.05, 0.5, 0.99, 1.0])
    assert [b.count for b in bins] == [2, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    assert max(b.height for b in bins) == pytest.approx(120)


def test_pass_rates_count_graded_submissions_only() -> None:
    rates = {r.id: r for r in pass_rates(entries())}
    assert (rates["check-win"].passed, rates["check-win"].attempted) == (1, 2)
    assert rates["node-reduction"].percent == pytest.approx(50)


def test_index_lists_everyone_and_escapes_names() -> None:
    html = render_class_index(entries(), assignment_id="lab05", title="Lab 5", skipped=[("x/y.txt", "not a notebook")])
    assert "&lt;b&gt;eve&lt;/b&gt;" in html and "<b>eve</b>" not in html
    assert "<script>x</script>" not in html
    assert html.count("<script") == 1  # only the sorting code
    assert 'href="ann/report.html"' in html
    assert "could not be graded" in html and "x/y.txt" in html
    slowest = html[html.index('id="slowest"') :]
    assert slowest.index("bob") < slowest.index("ann")
    assert 'class="chart histogram"' in html


def test_interrupted_index_says_so() -> None:
    html = render_class_index(entries(), assignment_id="lab05", title="Lab 5", complete=False)
    assert "interrupted" in html


def check_cells(html: str) -> list[str]:
    """The text of every check's badge in the students table, row by row."""
    return re.findall(
        r'<td class="check"><span class="badge [^"]*" data-sort="[^"]*" title="[^"]*">([^<]*)</span>', html
    )


def test_a_check_worth_no_points_shows_whether_it_passed() -> None:
    clean = fab.check("runs-cleanly", CheckStatus.PASSED, 0, 0)
    messy = fab.check("runs-cleanly", CheckStatus.FAILED, 0, 0)
    bonus = fab.check("bonus", CheckStatus.PASSED, 3, 0)
    html = render_class_index(
        [entry("ann", clean, bonus), entry("bob", messy, fab.check("bonus", CheckStatus.FAILED, 0, 0))],
        assignment_id="lab05",
        title="Lab 5",
    )
    assert check_cells(html) == ["\u2713", "+3", "\u2717", "\u2717"]
    assert index_cell(clean).label == "passed" and index_cell(clean).sort > index_cell(messy).sort
    assert index_cell(fab.check("x", CheckStatus.PASSED, 10, 10)).text == "10"


def test_check_headers_are_whole_ids_written_sideways() -> None:
    html = render_class_index(entries(), assignment_id="lab05", title="Lab 5")
    assert "<span>node-reduction</span></th>" in html
    style = html[html.index("<style>") : html.index("</style>")]
    assert "writing-mode: vertical-rl" in style
    assert not re.search(r"th\.check-col[^{]*\{[^}]*(overflow-wrap|word-break)", style)


def test_name_column_only_when_names_are_known() -> None:
    named = render_class_index(entries(), assignment_id="lab05", title="Lab 5")
    assert ">Name</th>" in named and ">Name ann</td>" in named
    nameless = [replace(e, display_name="") for e in entries()]
    html = render_class_index(nameless, assignment_id="lab05", title="Lab 5")
    assert ">Name</th>" not in html
    header = html[html.index('id="students-table"') : html.index("</thead>")]
    first_row = html[
        html.index("<tbody>", html.index('id="students-table"')) : html.index("</tr>", html.index("<tbody>"))
    ]
    assert len(re.findall(r"<th[ >]", header)) == len(re.findall(r"<td[ >]", first_row))
