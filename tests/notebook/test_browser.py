"""The in-notebook check's result as a browser draws it in a notebook page: a notebook that
checks itself, executed by nbclient and exported by nbconvert to HTML, opened in Debian's
chromium driven by Playwright (skipped, as the reports' browser test is, where either is
missing). The screenshots go to test-artifacts/: notebook-check.png (the result) and
notebook-check-page.png (the cell and its result in the page)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.feedback.test_browser import ARTIFACTS, browser  # noqa: F401
from tests.fewer_games import with_fewer_games
from tests.notebook.notebook_runs import CHECK_CELL, REPO, execute, with_cells

# Executes a notebook in a kernel and starts a real browser.
pytestmark = [pytest.mark.slow, pytest.mark.kernel]

nbconvert = pytest.importorskip("nbconvert", reason="nbconvert is not installed (pip install nbconvert)")


def test_the_result_is_drawn_inline_in_the_exported_notebook(browser, tmp_path: Path) -> None:  # noqa: F811
    fixture = REPO / "examples" / "lab05" / "dan-missing-anti-diagonal.ipynb"
    notebook = execute(with_fewer_games(with_cells(fixture, CHECK_CELL)), tmp_path)  # a few games, not 200
    body, _ = nbconvert.HTMLExporter().from_notebook_node(notebook)
    page_path = tmp_path / "notebook.html"
    page_path.write_text(body, encoding="utf-8")

    page = browser.new_page(viewport={"width": 1100, "height": 900})
    # The page nbconvert writes links scripts on the web; the result needs none of them.
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    result = page.locator(".grader-check")
    assert result.count() == 1
    result.scroll_into_view_if_needed()
    assert result.is_visible()
    assert result.locator("tr.gc-row[data-check]").count() == 9
    assert result.locator("tr.gc-row[data-status='failed']").count() == 1
    assert "8 of 9 public checks passed." in result.inner_text()

    board = result.locator("tr.gc-detail svg.board").first
    assert board.is_visible()
    box = board.bounding_box()
    assert box is not None and box["width"] >= 70 and box["height"] >= 70
    # The grid and the marks are stroked by the result's own style sheet, so they show.
    strokes = board.locator("line").evaluate_all("lines => lines.map(l => getComputedStyle(l).stroke)")
    assert strokes and all(stroke not in ("none", "") for stroke in strokes)
    assert board.locator("line.mark-x, circle.mark-o").count() >= 3
    assert result.locator("p.cause").is_visible()

    ARTIFACTS.mkdir(exist_ok=True)
    result.screenshot(path=str(ARTIFACTS / "notebook-check.png"))
    page.locator(".jp-InputArea").last.scroll_into_view_if_needed()  # the check's cell, then its result
    page.screenshot(path=str(ARTIFACTS / "notebook-check-page.png"))
    page.close()
