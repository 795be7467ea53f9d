"""The review page in a real browser (Debian's chromium driven by Playwright): mark a manual
item, override a check with a comment, reload, find both in every output; regrade the class
with --force and find them still there."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.overrides.refresh import GradedClass
from grader.review.server import local_sockets, make_app
from grader.spec.loader import load_assignment
from tests.feedback.test_browser import ARTIFACTS, CHROMIUM, LAUNCH_ARGS
from tests.overrides.fake_class import AUTOMATIC, MANUAL, batch, write_class

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
)
TOKEN = "browser-test-token"


@pytest.fixture
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (make system-deps installs it: apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """The review server on a free port in a thread: (its address, the class's source, OUT)."""
    import tornado.httpserver
    import tornado.ioloop

    assignment = load_assignment("depth-limits")
    (tmp_path / "src").mkdir()
    source = write_class(tmp_path / "src", assignment)
    out = tmp_path / "out"
    batch(source, out, assignment)
    sockets = local_sockets(0)
    port = sockets[0].getsockname()[1]
    started = threading.Event()
    loops: list[tornado.ioloop.IOLoop] = []

    def run() -> None:
        asyncio.set_event_loop(asyncio.new_event_loop())
        loop = tornado.ioloop.IOLoop.current()
        server = tornado.httpserver.HTTPServer(make_app(GradedClass.load(out), TOKEN, "ta"))
        server.add_sockets(sockets)
        loops.append(loop)
        started.set()
        loop.start()
        server.stop()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(30)
    yield f"http://127.0.0.1:{port}", source, out
    loops[0].add_callback(loops[0].stop)
    thread.join(10)


def grades(out: Path) -> dict[str, dict[str, str]]:
    header, *rows = (out / "grades.csv").read_text().splitlines()
    return {r.split(",")[0]: dict(zip(header.split(","), r.split(","))) for r in rows}


def assert_in_every_output(out: Path) -> None:
    table = grades(out)
    assert table["ana"][MANUAL] == "7.5" and table["ben"][AUTOMATIC] == "3"
    ana = json.loads((out / "ana" / "results.json").read_text())
    marked = [t for t in ana["tests"] if t["name"].startswith("Observation")]
    assert marked and marked[0]["score"] == 7.5 and "Sound & clear <reasoning>" in marked[0]["output"]
    ben = json.loads((out / "ben" / "results.json").read_text())
    overridden = next(t for t in ben["tests"] if t["name"].startswith("possible_actions"))
    assert overridden["score"] == 3 and "the automatic check gave 5" in overridden["output"]
    report = (out / "ana" / "report.html").read_text()
    assert "marked by your instructor" in report and "Sound &amp; clear &lt;reasoning&gt;" in report
    report = (out / "ben" / "report.html").read_text()
    assert "points set by the instructor" in report and "(automatic: 5)" in report and "Off by one" in report


def test_marks_entered_on_the_page_reach_every_output_and_survive_a_regrade(
    browser: Any, serving: tuple[str, Path, Path]
) -> None:
    address, source, out = serving
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    problems: list[str] = []
    page.on(
        "console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))

    def dismiss(dialog: Any) -> None:
        problems.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", dismiss)

    page.goto(f"{address}/?token={TOKEN}")
    assert page.url == f"{address}/"  # the token left the address bar for a cookie
    assert "3 manual item(s) still to mark." in page.inner_text("body")
    page.click("text=ana")
    answer = page.locator(f"#check-{MANUAL} .answer").first
    assert "Shallower limits" in answer.inner_text()
    page.fill(f"#points-{MANUAL}", "7.5")
    page.fill(f"#comment-{MANUAL}", "Sound & clear <reasoning>")
    page.click(f"#check-{MANUAL} button[type=submit]")
    assert "Saved: observation" in page.inner_text("#saved")

    page.goto(f"{address}/student/ben")
    assert page.evaluate("document.querySelectorAll('script').length") == 0  # ben's <script> stays text
    assert "<script>alert('x')</script>" in page.inner_text(f"#check-{MANUAL} .answer")
    page.fill(f"#points-{AUTOMATIC}", "3")
    page.fill(f"#comment-{AUTOMATIC}", "Off by one in the last row.")
    page.click(f"#check-{AUTOMATIC} button[type=submit]")
    # The form posts and the server redirects: reloading before that navigation ends races it
    # ("Not attached to an active page"), so wait for the saved page first.
    assert f"Saved: {AUTOMATIC}" in page.inner_text("#saved")
    page.reload()
    assert page.input_value(f"#points-{AUTOMATIC}") == "3"
    assert page.input_value(f"#comment-{AUTOMATIC}") == "Off by one in the last row."
    assert page.inner_text("#final-score").startswith("3 /")

    page.goto(f"{address}/student/ana")
    assert page.input_value(f"#points-{MANUAL}") == "7.5"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "review-student.png"), full_page=True)
    assert problems == []
    page.close()

    assert_in_every_output(out)
    batch(source, out, load_assignment("depth-limits"), force=True)
    assert_in_every_output(out)
