"""The reports in a real browser (Debian's chromium driven by Playwright): no console
errors, no network requests, and the class table sorts when a header is clicked.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.batch.plan import BatchOptions, run_batch
from grader.spec.loader import load_assignment
from tests.batch.fake_grading import grade_by_content

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

pytestmark = pytest.mark.slow  # starts a real browser

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


def open_page(browser, path: Path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on(
        "console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: problems.append(f"request: {r.url}") if not r.url.startswith("file:") else None)
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, problems


def score_column(page) -> list[float]:
    return [
        float(v)
        for v in page.eval_on_selector_all(
            "#students-table tbody tr", "rows => rows.map(r => r.cells[2].getAttribute('data-sort'))"
        )
    ]


def test_class_index_sorts_without_console_errors(browser, class_reports: Path) -> None:
    page, problems = open_page(browser, class_reports / "index.html")
    before = score_column(page)
    page.click("#students-table th:nth-child(3)")
    ascending = score_column(page)
    assert ascending == sorted(before)
    assert page.get_attribute("#students-table th:nth-child(3)", "aria-sort") == "ascending"
    page.click("#students-table th:nth-child(3)")
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
