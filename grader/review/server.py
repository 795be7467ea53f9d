"""The review pages, served by tornado (the web server Jupyter itself runs on, already
installed with the kernels the grader starts) to this machine only.

Who may use them: the server listens on 127.0.0.1 alone and answers only requests addressed
to 127.0.0.1 or localhost (a page elsewhere cannot reach it through DNS rebinding). The
address printed carries a random token, as Jupyter's does; the first visit with it sets a
cookie (HttpOnly, SameSite=Strict) and the token leaves the address bar. A form is accepted
only from this server's own origin (the browser's Origin header) and with tornado's XSRF
token. Everything shown is rendered by autoescaped Jinja templates; a student's markdown is
rendered without its raw HTML.
"""

from __future__ import annotations

import functools
import hmac
import secrets
import socket
import sys
import urllib.parse
from collections.abc import Callable
from typing import Any

import jinja2
import tornado.httpserver
import tornado.ioloop
import tornado.netutil
import tornado.web
from markupsafe import Markup

from grader.errors import GraderError
from grader.feedback.views import format_points, status_class
from grader.overrides.decide import (
    DecisionRefused,
    EditConflict,
    decide_adjustment,
    decide_check,
    parse_points,
)
from grader.overrides.model import MalformedOverrides
from grader.overrides.refresh import GradedClass
from grader.overrides.store import Author
from grader.review.pages import class_page, student_page

COOKIE = "grader_review"
"""The access cookie's name, followed by the port: cookies do not tell ports apart, and two
classes may be reviewed at once."""
LOCAL_HOSTS = ("127.0.0.1", "localhost")


class Refused(GraderError):
    """A request turned away, with the message the page shows."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        # the reports' style sheet is shared: the pages look like the reports they sit beside
        loader=jinja2.ChoiceLoader(
            [jinja2.PackageLoader("grader.review", "templates"), jinja2.PackageLoader("grader.feedback", "templates")]
        ),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["points"] = format_points
    env.filters["status_class"] = status_class
    env.filters["quote"] = lambda text: urllib.parse.quote(text, safe="")
    return env


class LiveClass:
    """The class the pages show: read again when a batch rewrote its records meanwhile, so
    that a save never renders outputs from a result that has since been regraded."""

    def __init__(self, graded: GradedClass) -> None:
        self._graded = graded

    def current(self) -> GradedClass:
        self._graded = self._graded.current()
        return self._graded


class ReviewHandler(tornado.web.RequestHandler):
    """Every page: the host, the token (or its cookie) and, for a form, the origin."""

    def initialize(self, live: LiveClass, token: str, by: str | None) -> None:
        self.live = live
        self.token = token
        self.by = by

    @property
    def graded(self) -> GradedClass:
        return self.live.current()

    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Referrer-Policy", "same-origin")  # "no-referrer" makes a form's Origin "null"
        self.set_header("Cache-Control", "no-store")

    def check_xsrf_cookie(self) -> None:
        self._authorize()  # before tornado's own check, so that a refusal says why
        super().check_xsrf_cookie()

    def prepare(self) -> None:
        self._authorize()

    @property
    def cookie_name(self) -> str:
        port = self.request.host.rpartition(":")[2]
        return f"{COOKIE}_{port}" if port.isdigit() else COOKIE

    def _authorize(self) -> None:
        if self.request.host_name not in LOCAL_HOSTS:
            raise Refused(403, f"This page is served to 127.0.0.1 only, not to {self.request.host_name!r}.")
        given = self.get_query_argument("token", None)
        if given is not None:
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                raise Refused(403, "Wrong token: open the address `grader review` printed.")
            self.set_cookie(self.cookie_name, self.token, httponly=True, samesite="Strict", path="/")
            if self.request.method == "GET":
                query = [(k, v) for k, v in self.request.query_arguments.items() if k != "token"]
                rest = urllib.parse.urlencode([(k, x.decode()) for k, vs in query for x in vs])
                self.redirect(self.request.path + (f"?{rest}" if rest else ""))
                raise tornado.web.Finish()
            return
        cookie = self.get_cookie(self.cookie_name)
        if cookie is None or not hmac.compare_digest(cookie.encode(), self.token.encode()):
            raise Refused(
                403, "Missing or wrong token: open the address `grader review` printed (it ends in ?token=...)."
            )
        if self.request.method == "POST":
            origin = self.request.headers.get("Origin")
            own = f"{self.request.protocol}://{self.request.host}"
            if origin != own:
                raise Refused(403, f"Refused: a form sent from another origin ({origin or 'none given'}), not {own}.")

    def _handle_request_exception(self, e: BaseException) -> None:
        if isinstance(e, Refused):
            self.clear()
            self.set_default_headers()
            self.set_status(e.status)
            self.finish(self.render_page("error.html.j2", status=e.status, message=e.message))
            return
        super()._handle_request_exception(e)

    def render_page(self, template: str, **values: Any) -> str:
        return (
            environment()
            .get_template(template)
            .render(xsrf=Markup(self.xsrf_form_html()), out_dir=str(self.graded.out_dir), **values)
        )

    def student(self, student_id: str) -> str:
        """The student a path names (tornado has decoded it), known to the class."""
        if student_id not in self.graded.records:
            raise Refused(404, f"No student {student_id!r} in this class.")
        return student_id

    def decisions_or_refuse(self) -> Any:
        try:
            return self.graded.decisions()
        except MalformedOverrides as exc:
            raise Refused(500, f"overrides.toml cannot be read, so nothing can be shown or saved: {exc}") from None


class ClassHandler(ReviewHandler):
    def get(self) -> None:
        self.finish(self.render_page("class.html.j2", page=class_page(self.graded, self.decisions_or_refuse())))


class StudentHandler(ReviewHandler):
    def get(self, student: str) -> None:
        student_id = self.student(student)
        page = student_page(self.graded, self.decisions_or_refuse(), student_id)
        self.finish(
            self.render_page(
                "student.html.j2", page=page, saved=self.get_query_argument("saved", ""), error=None, attempt=None
            )
        )


class ReportHandler(ReviewHandler):
    """The student's report as written to disk (it carries its own strict CSP)."""

    def get(self, student: str) -> None:
        record = self.graded.records[self.student(student)]
        path = self.graded.out_dir / record.submission.folder_name / "report.html"
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
        self.finish(path.read_bytes())


class DecisionHandler(ReviewHandler):
    """A form saved: the decision is checked, written, and the student's outputs rendered
    anew; refused, the page says why and shows what was typed, and nothing changes."""

    def save(self, student_id: str, what: str, attempt: dict[str, str], write: Callable[[Author, str], Any]) -> None:
        try:
            write(Author.now(self.by), self.get_body_argument("version", ""))
        except DecisionRefused as exc:
            conflict = isinstance(exc, EditConflict)
            self.set_status(409 if conflict else 400)
            message = (
                f"Not saved: the marks of {student_id} were changed elsewhere (another tab, `grader override` or a "
                "hand edit of overrides.toml) since this page was loaded. Their current state is shown below; "
                "enter yours again."
                if conflict
                else f"Not saved: {exc}."
            )
            page = student_page(self.graded, self.decisions_or_refuse(), student_id)
            self.finish(
                self.render_page(
                    "student.html.j2", page=page, saved="", error=message, attempt=attempt | {"what": what}
                )
            )
            return
        target = f"/student/{urllib.parse.quote(student_id, safe='')}?saved={urllib.parse.quote(what)}"
        self.redirect(target + f"#check-{urllib.parse.quote(what)}", status=303)


class CheckDecisionHandler(DecisionHandler):
    def post(self, student: str, check_id: str) -> None:
        student_id = self.student(student)
        points_text = self.get_body_argument("points", "")
        comment = self.get_body_argument("comment", "")

        def write(author: Author, version: str) -> None:
            decide_check(self.graded, student_id, check_id, parse_points(points_text), comment, author, version)

        self.save(student_id, check_id, {"points": points_text, "comment": comment}, write)


class AdjustmentHandler(DecisionHandler):
    def post(self, student: str) -> None:
        student_id = self.student(student)
        points_text = self.get_body_argument("points", "")
        reason = self.get_body_argument("reason", "")

        def write(author: Author, version: str) -> None:
            points = parse_points(points_text, signed=True)
            decide_adjustment(self.graded, student_id, points, reason, author, version)

        self.save(student_id, "adjustment", {"points": points_text, "reason": reason}, write)


def make_app(graded: GradedClass, token: str, by: str | None = None) -> tornado.web.Application:
    args = {"live": LiveClass(graded), "token": token, "by": by}
    return tornado.web.Application(
        [
            (r"/", ClassHandler, args),
            (r"/student/([^/]+)", StudentHandler, args),
            (r"/student/([^/]+)/report", ReportHandler, args),
            (r"/student/([^/]+)/check/([^/]+)", CheckDecisionHandler, args),
            (r"/student/([^/]+)/adjustment", AdjustmentHandler, args),
        ],
        xsrf_cookies=True,
        xsrf_cookie_kwargs={"httponly": True, "samesite": "Strict"},
    )


def local_sockets(port: int) -> list[socket.socket]:
    """Listening sockets on 127.0.0.1 alone (``port`` 0: any free port)."""
    return tornado.netutil.bind_sockets(port, address="127.0.0.1", family=socket.AF_INET)


def serve(graded: GradedClass, *, port: int = 0, by: str | None = None) -> int:
    """Serve until interrupted; prints the address with its token."""
    token = secrets.token_urlsafe(24)
    sockets = local_sockets(port)
    bound = sockets[0].getsockname()[1]
    server = tornado.httpserver.HTTPServer(make_app(graded, token, by))
    server.add_sockets(sockets)
    print(f"Reviewing {graded.out_dir} ({graded.assignment.id}, {len(graded.records)} students).")
    print(f"Open http://127.0.0.1:{bound}/?token={token}", flush=True)
    print("Stop with Ctrl-C.", file=sys.stderr, flush=True)
    try:
        tornado.ioloop.IOLoop.current().start()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
