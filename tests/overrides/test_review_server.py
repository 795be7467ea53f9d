"""The review pages through tornado's test client: who may use them, and what a form does
to overrides.toml and the outputs (and, refused, does not)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
import tornado.web
from tornado.httpclient import HTTPResponse
from tornado.testing import AsyncHTTPTestCase

from grader.overrides.refresh import GradedClass
from grader.overrides.store import overrides_path, student_version
from grader.review.server import COOKIE, local_sockets, make_app
from grader.spec.loader import load_assignment
from tests.overrides.fake_class import AUTOMATIC, MANUAL, graded_in_process, write_class

TOKEN = "test-token-0123456789"
SPACED = "dora lee&co"
_BUILT: Path | None = None


def built_class() -> Path:
    """Graded once per session; each test works on its own copy."""
    global _BUILT
    if _BUILT is None:
        root = Path(tempfile.mkdtemp(prefix="review-class-"))
        (root / "src").mkdir()
        assignment = load_assignment("depth-limits")
        source = write_class(root / "src", assignment)
        shutil.copy(source / "ana.ipynb", source / f"{SPACED}.ipynb")  # an id that must be quoted in a URL
        _BUILT = graded_in_process(source, root / "out", assignment)
    return _BUILT


class ReviewTest(AsyncHTTPTestCase):
    def get_app(self) -> tornado.web.Application:
        self.out = Path(tempfile.mkdtemp(prefix="review-out-")) / "out"
        shutil.copytree(built_class(), self.out)
        self.graded = GradedClass.load(self.out)
        return make_app(self.graded, TOKEN)

    def tearDown(self) -> None:
        shutil.rmtree(self.out.parent, ignore_errors=True)
        super().tearDown()

    # -- helpers ---------------------------------------------------------------------------
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.get_http_port()}"

    def session(self) -> dict[str, str]:
        """The cookies a browser holds after opening the printed address."""
        response = self.fetch(f"/?token={TOKEN}", follow_redirects=False)
        assert response.code == 302 and response.headers["Location"] == "/"
        cookies = {}
        for header in response.headers.get_list("Set-Cookie"):
            name, _, rest = header.partition("=")
            cookies[name] = rest.split(";")[0]
        page = self.fetch("/", headers=self.cookie_header(cookies))
        for header in page.headers.get_list("Set-Cookie"):
            name, _, rest = header.partition("=")
            cookies[name] = rest.split(";")[0]
        assert f"{COOKIE}_{self.get_http_port()}" in cookies and "_xsrf" in cookies
        return cookies

    @staticmethod
    def cookie_header(cookies: dict[str, str]) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}

    def post(
        self, path: str, fields: dict[str, str], *, cookies: dict[str, str] | None = None, origin: str | None = "own"
    ) -> HTTPResponse:
        cookies = cookies if cookies is not None else self.session()
        body = {"_xsrf": urllib.parse.unquote(cookies.get("_xsrf", "")), **fields}
        headers = self.cookie_header(cookies) | {"Content-Type": "application/x-www-form-urlencoded"}
        if origin is not None:
            headers["Origin"] = self.origin() if origin == "own" else origin
        return self.fetch(
            path, method="POST", body=urllib.parse.urlencode(body), headers=headers, follow_redirects=False
        )

    def version(self, student: str) -> str:
        return student_version(overrides_path(self.out), student)

    def outputs(self) -> dict[str, bytes]:
        return {str(p.relative_to(self.out)): p.read_bytes() for p in sorted(self.out.rglob("*")) if p.is_file()}

    # -- who may use the pages -----------------------------------------------------------------
    def test_without_the_token_nothing_is_shown(self) -> None:
        response = self.fetch("/")
        assert response.code == 403
        assert b"Missing or wrong token" in response.body and b"ana" not in response.body

    def test_a_wrong_token_is_refused(self) -> None:
        response = self.fetch("/?token=guess")
        assert response.code == 403 and b"Wrong token" in response.body
        assert COOKIE not in "".join(response.headers.get_list("Set-Cookie"))

    def test_the_token_becomes_an_http_only_strict_cookie(self) -> None:
        response = self.fetch(f"/student/ana?token={TOKEN}", follow_redirects=False)
        assert response.code == 302 and response.headers["Location"] == "/student/ana"
        cookie = next(
            h for h in response.headers.get_list("Set-Cookie") if h.startswith(f"{COOKIE}_{self.get_http_port()}=")
        )
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie

    def test_another_host_name_is_refused(self) -> None:
        cookies = self.session()
        response = self.fetch("/", headers=self.cookie_header(cookies) | {"Host": "evil.example:80"})
        assert response.code == 403 and b"127.0.0.1 only" in response.body

    def test_a_form_from_another_origin_changes_nothing(self) -> None:
        before = self.outputs()
        version = self.version("ana")
        fields = {"points": "9", "comment": "x", "version": version}
        response = self.post(f"/student/ana/check/{MANUAL}", fields, origin="http://evil.example")
        assert response.code == 403 and b"another origin" in response.body
        response = self.post(f"/student/ana/check/{MANUAL}", fields, origin=None)
        assert response.code == 403 and b"another origin" in response.body
        assert self.outputs() == before

    def test_a_form_without_the_xsrf_token_changes_nothing(self) -> None:
        before = self.outputs()
        cookies = self.session()
        del cookies["_xsrf"]
        response = self.post(
            f"/student/ana/check/{MANUAL}", {"points": "9", "version": self.version("ana")}, cookies=cookies
        )
        assert response.code == 403
        assert self.outputs() == before

    # -- what the pages show -----------------------------------------------------------------------
    def test_the_student_page_shows_the_answer_rendered_and_escaped(self) -> None:
        page = self.fetch("/student/ben", headers=self.cookie_header(self.session())).body.decode()
        assert "<strong>Observations.</strong>" in page and "<em>faster</em>" in page
        assert "<script>" not in page and "&lt;script&gt;" in page
        assert "I also timed it" in page  # the cell the student added after the answer cell
        assert "default-src 'none'" in self.fetch("/").headers["Content-Security-Policy"]

    def test_the_class_page_counts_the_manual_items_to_mark(self) -> None:
        page = self.fetch("/", headers=self.cookie_header(self.session())).body.decode()
        assert "4 manual item(s) still to mark." in page
        assert 'href="/student/ana"' in page

    # -- saving --------------------------------------------------------------------------------------
    def test_marking_a_manual_item_writes_the_file_and_the_outputs(self) -> None:
        fields = {"points": "8", "comment": "Good, but <b>why</b>?", "version": self.version("ana")}
        response = self.post(f"/student/ana/check/{MANUAL}", fields)
        assert response.code == 303 and response.headers["Location"].startswith("/student/ana?saved=")
        assert 'points = 8\ncomment = "Good, but <b>why</b>?"' in overrides_path(self.out).read_text()
        assert "ana,,108,110," in (self.out / "grades.csv").read_text()
        report = (self.out / "ana" / "report.html").read_text()
        assert "marked by your instructor" in report and "Good, but &lt;b&gt;why&lt;/b&gt;?" in report
        assert '"score": 108' in (self.out / "ana" / "results.json").read_text()

    def test_overriding_an_automatic_check_keeps_its_verdict_visible(self) -> None:
        fields = {"points": "4", "comment": "right idea", "version": self.version("ben")}
        assert self.post(f"/student/ben/check/{AUTOMATIC}", fields).code == 303
        report = (self.out / "ben" / "report.html").read_text()
        assert "points set by the instructor" in report and "(automatic: 5)" in report
        index = (self.out / "index.html").read_text()
        assert 'class="check overridden"' in index

    def test_an_adjustment_needs_a_reason(self) -> None:
        before = self.outputs()
        response = self.post(
            "/student/ben/adjustment", {"points": "-10", "reason": " ", "version": self.version("ben")}
        )
        assert response.code == 400 and b"needs a reason" in response.body
        assert self.outputs() == before
        response = self.post(
            "/student/ben/adjustment", {"points": "-10", "reason": "late", "version": self.version("ben")}
        )
        assert response.code == 303
        assert (self.out / "grades.csv").read_text().splitlines()[0].endswith(",adjustment")

    def test_points_out_of_range_are_refused_and_change_nothing(self) -> None:
        before = self.outputs()
        for points in ("11", "-1", "ten", "nan"):
            fields = {"points": points, "comment": "kept on the page", "version": self.version("ana")}
            response = self.post(f"/student/ana/check/{MANUAL}", fields)
            assert response.code == 400, points
            body = response.body.decode()
            assert "Not saved" in body and "kept on the page" in body  # what was typed is not lost
        assert self.outputs() == before

    def test_an_unknown_check_or_student_is_refused(self) -> None:
        before = self.outputs()
        response = self.post("/student/ana/check/no-such-check", {"points": "1", "version": self.version("ana")})
        assert response.code == 400 and b"has no check" in response.body
        response = self.post("/student/zed/check/observation", {"points": "1", "version": ""})
        assert response.code == 404 and b"No student" in response.body
        assert self.outputs() == before

    def test_two_tabs_never_lose_an_edit_silently(self) -> None:
        opened = self.version("ana")  # both tabs load the page
        first = self.post(f"/student/ana/check/{MANUAL}", {"points": "8", "comment": "tab one", "version": opened})
        assert first.code == 303
        before = self.outputs()
        second = self.post(f"/student/ana/check/{MANUAL}", {"points": "3", "comment": "tab two", "version": opened})
        assert second.code == 409
        body = second.body.decode()
        assert "changed elsewhere" in body and "tab two" in body
        assert self.outputs() == before and "tab one" in overrides_path(self.out).read_text()

    def test_a_student_id_that_needs_quoting(self) -> None:
        cookies = self.session()
        quoted = urllib.parse.quote(SPACED, safe="")
        assert f'href="/student/{quoted}"' in self.fetch("/", headers=self.cookie_header(cookies)).body.decode()
        page = self.fetch(f"/student/{quoted}", headers=self.cookie_header(cookies))
        assert page.code == 200 and "dora lee&amp;co" in page.body.decode()
        fields = {"points": "5", "version": self.version(SPACED)}
        response = self.post(f"/student/{quoted}/check/{MANUAL}", fields, cookies=cookies)
        assert response.code == 303 and response.headers["Location"].startswith(f"/student/{quoted}?saved=")
        assert f'[students."{SPACED}".checks.observation]' in overrides_path(self.out).read_text()

    def test_a_save_after_a_regrade_renders_the_new_result(self) -> None:
        cookies = self.session()
        self.fetch("/", headers=self.cookie_header(cookies))  # the pages have read the class
        record = self.out / "ana" / "submission_result.json"
        data = json.loads(record.read_text())
        expand = next(c for c in data["checks"] if c["id"] == "expand")
        expand["score"], expand["status"] = 0.0, "failed"  # as a regrade with a stricter spec would store it
        record.write_text(json.dumps(data))
        os.utime(record, ns=(time.time_ns(), time.time_ns() + 10**9))
        fields = {"points": "8", "version": self.version("ana")}
        assert self.post(f"/student/ana/check/{MANUAL}", fields, cookies=cookies).code == 303
        assert "ana,,98,110,10,5,0," in (self.out / "grades.csv").read_text()

    def test_a_malformed_file_is_named_and_left_alone(self) -> None:
        overrides_path(self.out).write_text("[students.ana\npoints = ", encoding="utf-8")
        before = self.outputs()
        response = self.post(f"/student/ana/check/{MANUAL}", {"points": "8", "version": ""})
        assert response.code in (400, 500) and b"not valid TOML" in response.body
        assert self.outputs() == before


def test_the_server_listens_on_localhost_only() -> None:
    sockets = local_sockets(0)
    try:
        assert [s.getsockname()[0] for s in sockets] == ["127.0.0.1"]
    finally:
        for s in sockets:
            s.close()


@pytest.fixture(autouse=True, scope="module")
def _clean_built_class() -> Iterator[None]:
    yield
    if _BUILT is not None:
        shutil.rmtree(_BUILT.parent, ignore_errors=True)
