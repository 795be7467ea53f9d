"""The reports in a real browser (Debian's chromium driven by Playwright): no console
errors, no network requests, the class table sorts when a header is clicked, similar
submissions unfold side by side with their matches marked, and a student's report fits a
phone. Screenshots go to test-artifacts/."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.batch.plan import BatchOptions, run_batch
from grader.feedback.html import render_student_report
from grader.results import CheckStatus
from grader.spec.loader import load_assignment
from tests.batch.fake_grading import grade_by_content
from tests.feedback import fabricated as fab
from tests.similarity.lab05_class import write_class

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Starts a real browser, and grades its classes with worker processes.
pytestmark = [pytest.mark.slow, pytest.mark.kernel]

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (make system-deps installs it: apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def class_reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    lab05 = load_assignment("lab05")
    source = tmp_path_factory.mktemp("class")
    texts = {
        "alice": " ".join(c.id for c in lab05.checks),
        "bob": "check-win minimax-value",
        "carol": "UNREADABLE",
        "dave": "check-draw <script>alert('owned')</script>",
        "erin": "check-win check-draw best-move",
    }
    for student, text in texts.items():
        (source / f"{student}.py").write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    run_batch(source, lab05, out, BatchOptions(jobs=2, progress=False), grade=grade_by_content)
    return out


def open_page(browser, path: Path, width: int = 1280):
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems: list[str] = []
    page.on(
        "console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: problems.append(f"request: {r.url}") if not r.url.startswith("file:") else None)

    def dismiss(dialog: Any) -> None:
        problems.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, problems


def score_column(page) -> list[float]:
    return [
        float(v)
        for v in page.eval_on_selector_all(
            "#students-table tbody td.score-col", "cells => cells.map(c => c.getAttribute('data-sort'))"
        )
    ]


def test_class_index_sorts_without_console_errors(browser, class_reports: Path) -> None:
    page, problems = open_page(browser, class_reports / "index.html")
    before = score_column(page)
    page.click("#students-table th.score-col")
    ascending = score_column(page)
    assert ascending == sorted(before)
    assert page.get_attribute("#students-table th.score-col", "aria-sort") == "ascending"
    page.click("#students-table th.score-col")
    assert score_column(page) == sorted(before, reverse=True)
    page.click("#students-table th:nth-child(1)")
    students = page.eval_on_selector_all(
        "#students-table tbody tr", "rows => rows.map(r => r.cells[0].getAttribute('data-sort'))"
    )
    assert students == sorted(students)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "class-index.png"), full_page=True)
    assert problems == []
    page.close()


@pytest.mark.parametrize("student", ["bob", "carol", "dave"])
def test_student_report_renders_without_console_errors(browser, class_reports: Path, student: str) -> None:
    page, problems = open_page(browser, class_reports / student / "report.html")
    assert page.locator("svg").count() >= (1 if student != "carol" else 0)
    assert page.evaluate("document.scripts.length") == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"report-{student}.png"), full_page=True)
    assert problems == []
    page.close()


def test_check_headers_never_break_a_word(browser, class_reports: Path) -> None:
    page, problems = open_page(browser, class_reports / "index.html", width=800)
    # Written bottom to top, a header that wrapped would be two columns of text wide.
    widths = page.eval_on_selector_all(
        "#students-table th.check-col > span",
        "spans => spans.map(s => [s.textContent, s.getBoundingClientRect().width,"
        " parseFloat(getComputedStyle(s).lineHeight) || 1.5 * parseFloat(getComputedStyle(s).fontSize)])",
    )
    assert widths
    for text, width, line in widths:
        assert width <= line * 1.2, f"the header {text!r} wraps"
    assert problems == []
    page.close()


def phone_report() -> str:
    """Everything wide a report can hold: a node chart, a board, long messages and calls,
    a game that asked for moves until its cell timed out."""
    record = fab.execution_record()
    record["cells"].append(
        # notebook position 6, the fourth code cell: `In [4]`
        {
            "index": 6,
            "number": 4,
            "source": "play()",
            "status": "timeout",
            "error_message": "the cell ran longer than 60 s",
        }
    )
    record["stdin_transcript"] += [
        {"cell_index": 6, "prompt": "Enter your move (0-8): ", "answer": move} for move in ("4", "6", None)
    ]
    long_message = (
        "`minimaxAB(board, 0, False, -inf, inf)` returned "
        "a_value_with_no_spaces_that_would_never_fit_on_a_phone_screen_without_breaking; "
        "the rest of the message goes on for a while, as long messages do. "
    ) * 2
    result = fab.submission(
        fab.public_failure(),
        fab.node_counts(),
        fab.check("a-check-with-a-long-identifier-that-does-not-fit", CheckStatus.FAILED, 0, 5, long_message),
        fab.check("runs-cleanly", CheckStatus.FAILED, 0, 0, "1 cell(s) did not run cleanly: cell 4: timeout."),
        execution=record,
    )
    return render_student_report(result, submission_name="a_rather_long_submission_file_name_v2_final.ipynb")


def test_student_report_fits_a_phone(browser, tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text(phone_report(), encoding="utf-8")
    page, problems = open_page(browser, path, width=420)
    assert page.locator("svg.node-chart").count() == 1 and page.locator("svg.board").count() == 1
    scroll, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll <= client, f"the page is {scroll} px wide in a {client} px window"
    lines = page.inner_text("#cell-4 pre.stdin").splitlines()
    assert lines == ["Enter your move (0-8): 4", "Enter your move (0-8): 6", "Enter your move (0-8): (no answer left)"]
    assert "cells 3 and 4 timed out" in page.inner_text("#summary")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-phone.png"), full_page=True)
    assert problems == []
    page.close()


@pytest.fixture(scope="module")
def similar_class(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three lab05 answers, one a disguised copy of another, and the untouched template."""
    lab05 = load_assignment("lab05")
    source = write_class(tmp_path_factory.mktemp("similar-class"))
    out = tmp_path_factory.mktemp("similar-out")
    run_batch(source, lab05, out, BatchOptions(jobs=2, progress=False), grade=grade_by_content)
    return out


def test_similar_submissions_side_by_side(browser, similar_class: Path) -> None:
    page, problems = open_page(browser, similar_class / "index.html")
    heading = page.locator("#similar-submissions h2")
    assert heading.is_visible() and heading.inner_text() == "Similar submissions"
    rows = page.locator("#similar-submissions table.similar-table tbody tr")
    assert rows.count() == 2 and "bogdan" in rows.nth(0).inner_text() and "erik" in rows.nth(0).inner_text()
    first = page.locator("#similar-1")
    assert not first.locator("mark").first.is_visible()  # folded until asked for
    first.locator("summary").click()
    sides = first.locator(".similar-side")
    assert sides.count() == 2
    left, right = (sides.nth(n).bounding_box() for n in range(2))
    assert left and right and left["x"] + left["width"] <= right["x"]  # side by side, not stacked
    for n in range(2):
        marks = sides.nth(n).locator("mark")
        assert marks.count() > 0 and marks.first.is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#similar-submissions").screenshot(path=str(ARTIFACTS / "similar-submissions.png"))
    assert problems == []
    page.close()
    report, problems = open_page(browser, similar_class / "erik" / "report.html")
    assert report.locator("#similar-submissions").count() == 0 and "bogdan" not in report.content()
    assert problems == []
    report.close()
