"""`grader init`: an assignment folder written from the instructor's solution.

The solution runs in the sandbox as a submission would (answers for its input() loop are
found if none are given); its functions are probed into a draft of typed checks, and the
solution is graded with the assignment the draft makes, in memory. A check the solution
fails is left out with a note. The TOML is then written once, into a temporary folder that
is renamed into place only when all of that succeeded, so a failure leaves nothing half
written.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from grader.authoring.answer_values import add_answer_checks
from grader.authoring.api import Api, handout_api, program_api
from grader.authoring.board_use import domain_notes, narrow_domains, trace_board_use
from grader.authoring.discovery import Discovered, discover
from grader.authoring.draft import Draft, DraftCheck
from grader.authoring.encodings import candidate_encodings, source_literals
from grader.authoring.game_inference import GameBoard, GameDraft, infer_game, read_game_board
from grader.authoring.handout import handout_from, stub_source
from grader.authoring.inference import EncodingChoice, infer
from grader.authoring.own_solution import DraftRefused, check_own_solution, only, relax_failing
from grader.authoring.probes import Conventions, ProbeHang, Prober
from grader.authoring.state_inference import infer_state_course
from grader.authoring.stdin_answers import run_with_answers
from grader.authoring.support_modules import HandedFile, SupportChoice, choose_support
from grader.authoring.time_limits import set_time_limits
from grader.authoring.titles import notebook_title
from grader.authoring.toml_writer import render_toml
from grader.checks.kinds.hygiene import RunsCleanlyParams
from grader.checks.slow_verdict import is_slow_only
from grader.errors import GraderError
from grader.execution.isolation import SandboxChoice
from grader.execution.result import CellStatus, ExecutionResult
from grader.execution.session import ExecutionOptions, NotebookSession
from grader.results import CheckResult, CheckStatus
from grader.spec.support import SUPPORT_FOLDER
from grader.spec.tables import SpecFile
from grader.submission.reader import SubmissionUnreadable, read_submission

CALL_TIMEOUT = 20.0
"""The limit on one call of the solution's own run (the written assignment's limits come
from the work its checks ask for: `grader.authoring.time_limits`)."""
PROBE_CALL_TIMEOUT = 2.0
"""A probe searches from at most five empty cells: a function that takes longer is stuck."""
PROBE_CELL_TIMEOUT = 60.0
PROBE_NOTEBOOK_TIMEOUT = 300.0
STDIN_FILE = "STDIN.txt"


@dataclass(frozen=True)
class InitRequest:
    solution: Path
    out: Path
    template: Path | None = None
    stdin: Path | None = None
    assignment_id: str | None = None
    sandbox: SandboxChoice = "auto"
    cell_timeout: float = PROBE_CELL_TIMEOUT
    """How long one cell of the solution may run."""
    support: tuple[Path, ...] = ()
    """The course's modules the notebooks import (``--support``); none given: those found
    beside the handout or the solution (`grader.authoring.support_modules`)."""
    given: frozenset[str] = frozenset()
    """Functions the handout gives whole, as the solution has them (a release knows them from the
    master's markers): left out of the API, so that no check gives their points away."""


@dataclass(frozen=True)
class InitReport:
    """What init did: the folder it wrote, or the one message saying why it wrote nothing."""

    written: Path | None
    summary: tuple[str, ...] = ()
    failure: str | None = None
    results: tuple[CheckResult, ...] = field(default=(), repr=False)
    """The written checks' results on the solution."""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds: ``probing`` the functions, ``checking`` the draft against the solution, ``total``."""

    @property
    def return_code(self) -> int:
        return 0 if self.written is not None else 1

    def __str__(self) -> str:
        if self.failure is not None:
            return f"grader init: {self.failure}"
        return "\n".join([f"wrote {self.written}", *self.summary])


class InitFailed(GraderError):
    """The solution cannot be made into an assignment; the message says what was found."""


def create_assignment(request: InitRequest) -> InitReport:
    try:
        return _create(request)
    except InitFailed as exc:
        return InitReport(None, failure=str(exc))


def _create(request: InitRequest) -> InitReport:
    if request.out.exists() and any(request.out.iterdir()):
        raise InitFailed(f"{request.out} already exists and is not empty; give a new folder")
    try:
        notebook = read_submission(request.solution).notebook
    except SubmissionUnreadable as exc:
        raise InitFailed(f"{request.solution}: {exc}") from None
    api = _api(request, notebook)
    support = _support(request, notebook)
    request = dataclasses.replace(request, support=support.modules)
    options = ExecutionOptions(
        cell_timeout=request.cell_timeout,
        notebook_timeout=PROBE_NOTEBOOK_TIMEOUT,
        sandbox=request.sandbox,
        short_limit=CALL_TIMEOUT / 4,
        support=support.modules,
    )
    started = time.monotonic()
    if request.stdin is not None:
        stdin = tuple(request.stdin.read_text(encoding="utf-8").splitlines())
        with NotebookSession(notebook, dataclasses.replace(options, stdin=stdin)) as session:
            return _author(request, notebook, api, session, session.execute(), stdin, [*support.summary], started)
    with run_with_answers(notebook, options) as (session, execution, search):
        if search.answers is None:
            raise InitFailed(f"the notebook asks for input() and {search.explanation}; give answers with --stdin")
        summary = [*support.summary]
        summary += [f"{STDIN_FILE}: {search.explanation} (found in {search.runs} run(s))"] if search.answers else []
        return _author(request, notebook, api, session, execution, search.answers or None, summary, started)


def _api(request: InitRequest, solution: nbformat.NotebookNode) -> Api:
    """The functions checks are written for: the handout's, else those the solution's own
    program shows (`grader.authoring.api`)."""
    if request.template is None:
        return program_api(solution)
    try:
        handout = read_submission(request.template).notebook
    except SubmissionUnreadable as exc:
        raise InitFailed(f"{request.template}: {exc}") from None
    return handout_api(handout, request.template.name).without_given(request.given)


def _support(request: InitRequest, solution: nbformat.NotebookNode) -> SupportChoice:
    """The support modules to store, checked before anything runs."""
    handed = [HandedFile("solution", request.solution, solution)]
    if request.template is not None:
        handed.insert(0, HandedFile("handout", request.template, read_submission(request.template).notebook))
    choice = choose_support(request.support, handed)
    if isinstance(choice, str):
        raise InitFailed(choice)
    return choice


def _names(discovered: Discovered) -> frozenset[str]:
    names = {f.name.split(".")[0] for f in discovered.functions} | set(discovered.classes)
    return frozenset(names) | frozenset(discovered.global_names)


def _require_clean(execution: ExecutionResult) -> None:
    failed = execution.failed_cells
    if not failed:
        return
    cell = failed[0]
    if cell.status is CellStatus.TIMEOUT:
        raise InitFailed(f"the solution hangs: cell {cell.number} {cell.error_message}; nothing was inferred")
    what = f"{cell.error_name}: {cell.error_message}" if cell.error_name else (cell.error_message or cell.status.value)
    raise InitFailed(f"the solution crashes: cell {cell.number} stopped with {what}; nothing was inferred")


def _require_recognized(
    discovered: Discovered, draft: Draft, choice: EncodingChoice | None, hangs: Sequence[ProbeHang], game_why: str = ""
) -> None:
    """A solution is made into an assignment only when it has a search init recognized and no
    function that answers almost, not exactly, like a board test or a search."""
    if choice is None or not draft.checks:
        defined = ", ".join(f.name for f in discovered.functions) or "no functions"
        hung = "".join(f" ({hang}; not checked)" for hang in dict.fromkeys(h for h in hangs if h.timed_out))
        raise InitFailed(
            f"this is not a tic-tac-toe solution init can read: it defines {defined}, and none answers like "
            f"a board test or a game search on any board encoding{hung}"
            + (f"; nor is it Connect Four: {game_why}" if game_why else "")
        )
    found = _found_words(draft)
    if choice.near_misses:
        wrong = "; ".join(m.sentence() for m in choice.near_misses)
        raise InitFailed(f"the solution is wrong: {wrong}. Found: {found}")
    if not _has_search(draft):
        raise InitFailed(f"found {found}; but no function answers like a minimax or a best move")


def _has_search(draft: Draft) -> bool:
    return any(c.role in ("minimax", "best-move", "alpha-beta") for c in draft.checks)


def _found_words(draft: Draft) -> str:
    return ", ".join(f"{c.call.text if c.call else c.id} ({c.role})" for c in draft.checks)


def _author(
    request: InitRequest,
    notebook: nbformat.NotebookNode,
    api: Api,
    session: NotebookSession,
    execution: ExecutionResult,
    stdin: tuple[str, ...] | None,
    summary: list[str],
    started: float,
) -> InitReport:
    """Infer the draft from the executed solution, check it against the solution in the same
    kernel, and write the folder."""
    _require_clean(execution)
    probing_from = time.monotonic()
    draft = _infer_draft(notebook, api, session, request.support)
    if request.template is not None:  # the questions are the handout's: none without one
        add_answer_checks(draft, session.calls, read_submission(request.template).notebook, notebook)
    probed_at = time.monotonic()
    results = _write_folder(request, notebook, session, execution, draft, stdin)
    finished = time.monotonic()
    timings = {
        "probing": round(probed_at - probing_from, 1),
        "checking": round(finished - probed_at, 1),
        "total": round(finished - started, 1),
    }
    return InitReport(request.out, (*summary, *_summary(draft, timings)), results=tuple(results), timings=timings)


def _infer_draft(
    notebook: nbformat.NotebookNode, api: Api, session: NotebookSession, support: Sequence[Path] = ()
) -> Draft:
    """The draft from the solution's answers; InitFailed when they make no assignment."""
    discovered = discover(session.notebook, session.calls.defined_names())
    literals = source_literals(notebook)
    encodings = candidate_encodings(literals)
    prober = Prober(session.calls, _names(discovered), PROBE_CALL_TIMEOUT)
    connect_four: list[GameBoard] = []  # its board, read when no tic-tac-toe board test is found

    def plays_connect_four() -> bool:
        read = read_game_board(session.calls, discovered, literals.strings)
        connect_four.extend([read] if isinstance(read, GameBoard) else [])
        return bool(connect_four)

    draft, choice = infer(prober, discovered, encodings, api, literals.boards, plays_connect_four)
    game_why = ""
    if choice is None or not draft.checks:
        read = infer_game(session, discovered, literals.strings, api, next(iter(connect_four), None))
        if isinstance(read, GameDraft):
            return _game_draft(read.draft, discovered)
        game_why = read
        if support:  # the course's own board and state objects live in its modules
            sources = [path.read_text(encoding="utf-8") for path in support]
            state_read = infer_state_course(session, discovered, api, sources)
            if isinstance(state_read, Draft):
                return _game_draft(state_read, discovered)
            game_why = f"{read}; nor is it written on the course's own state objects: {state_read}"
    hangs = prober.hangs_under(choice.conventions) if choice else list(prober.hung.values())
    if hangs and draft.checks and not _has_search(draft):
        raise InitFailed(f"the solution hangs: {'; '.join(map(str, hangs))}. Found: {_found_words(draft)}")
    draft.notes += [f"{hang}; not checked" for hang in hangs]
    _require_recognized(discovered, draft, choice, hangs, game_why)
    assert choice is not None  # `_require_recognized` refuses a solution without one
    _judge_where_used(draft, prober, choice.conventions, discovered)
    draft.add_check(_runs_cleanly())
    return draft


def _game_draft(draft: Draft, discovered: Discovered) -> Draft:
    """A Connect-Four draft (`grader.authoring.game_inference`), refused without a search."""
    if not _has_search(draft):
        defined = ", ".join(f.name for f in discovered.functions)
        raise InitFailed(
            f"this is Connect Four ({draft.game_evidence}), and it defines {defined}; "
            f"found {_found_words(draft) or 'no board test'}, but no function answers like a depth-limited search"
        )
    draft.add_check(_runs_cleanly())
    return draft


def _judge_where_used(draft: Draft, prober: Prober, conventions: Conventions, discovered: Discovered) -> None:
    """Each board test judged where the solution's own searches use it (`grader.authoring.board_use`)."""
    decided = {f.name: f.value for f in draft.fields}
    chosen = dataclasses.replace(
        conventions,
        maximizer=decided.get("maximizer", conventions.maximizer),
        first_player=decided.get("first_player", conventions.first_player),
        scoring=decided.get("scoring", conventions.scoring),
        move_format=decided.get("move", conventions.move_format),
    )
    plain = {f.name for f in discovered.functions if "." not in f.name}
    searches = [c for c in draft.checks if c.kind == "search-value"]
    uses = trace_board_use(prober, chosen, searches, plain)
    narrow_domains(draft, uses)
    judged = {c.call.function for c in draft.checks if c.call is not None}
    draft.notes += domain_notes(uses, judged)


def generous_limit(seconds: float, least: float) -> float:
    """``least`` doubled until it covers ``seconds``: a time limit that a busier or quieter
    machine leaves the same from one run of init to the next, so that the TOML it writes
    only changes where the solution did."""
    limit = least
    while limit < seconds:
        limit *= 2
    return limit


def _write_folder(
    request: InitRequest,
    notebook: nbformat.NotebookNode,
    session: NotebookSession,
    execution: ExecutionResult,
    draft: Draft,
    stdin: tuple[str, ...] | None,
) -> list[CheckResult]:
    """Grade the solution with the drafted assignment (leaving out the checks it fails), then
    write the folder beside its final place and rename it into place; nothing is left on
    failure."""
    slowest = max((c.duration for c in execution.cells), default=1.0)
    settings = {
        "stdin_file": STDIN_FILE if stdin else None,
        "cell_timeout": generous_limit(5 * slowest, 30.0),
        "notebook_timeout": generous_limit(5 * execution.total_duration, 300.0),
        "support": tuple(path.name for path in request.support) or None,
    }
    assignment_id = request.assignment_id or re.sub(r"[^a-z0-9-]+", "-", request.out.name.lower()).strip("-")
    title = _title(notebook, request, assignment_id)
    request.out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{request.out.name}.", dir=request.out.parent))
    try:
        _store_handed_files(request, notebook, staging)
        if request.support:
            (staging / SUPPORT_FOLDER).mkdir()
            for module in request.support:
                shutil.copyfile(module, staging / SUPPORT_FOLDER / module.name)
        if stdin:
            (staging / STDIN_FILE).write_text("\n".join(stdin) + "\n", encoding="utf-8")
        set_time_limits(draft)
        results = _own_results(draft, lambda d: d.spec(assignment_id, title, **settings), staging, session, execution)
        _drop_failing(draft, results)
        set_time_limits(draft)  # for the checks that are left
        text = render_toml(draft.spec(assignment_id, title, **settings), draft, source=request.solution.name)
        (staging / "assignment.toml").write_text(text, encoding="utf-8")
        if request.out.exists():
            request.out.rmdir()
        staging.rename(request.out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return results


def _own_results(
    draft: Draft,
    spec_of: Callable[[Draft], SpecFile],
    staging: Path,
    session: NotebookSession,
    execution: ExecutionResult,
) -> list[CheckResult]:
    """The solution graded with the draft; the checks it fails through a property init read
    from its probes alone written without it and run again (`grader.authoring.own_solution`)."""
    try:
        results = check_own_solution(spec_of(draft), staging, session, execution)
        relaxed = relax_failing(draft, results)
        if relaxed:
            again = check_own_solution(spec_of(only(draft, relaxed)), staging, session, execution)
            results = [r for r in results if r.check_id not in relaxed] + again
    except DraftRefused as exc:  # a draft the spec refuses is a bug here, said plainly
        raise InitFailed(f"the drafted assignment is not valid: {exc}") from None
    return results


def _store_handed_files(request: InitRequest, notebook: nbformat.NotebookNode, staging: Path) -> None:
    """The solution and the handout, each in the form it was given (a script stays a script:
    `Assignment.solution_path` finds either); a handout made here takes the solution's form."""
    solution_is_script = request.solution.suffix.lower() == ".py"
    if solution_is_script:
        shutil.copyfile(request.solution, staging / "solution.py")
    else:
        nbformat.write(notebook, staging / "solution.ipynb")
    if request.template is not None:
        suffix = ".py" if request.template.suffix.lower() == ".py" else ".ipynb"
        shutil.copyfile(request.template, staging / f"template{suffix}")
    elif solution_is_script:
        source = request.solution.read_text(encoding="utf-8")
        (staging / "template.py").write_text(stub_source(source), encoding="utf-8")
    else:
        nbformat.write(handout_from(notebook), staging / "template.ipynb")


def _drop_failing(draft: Draft, results: list[CheckResult]) -> None:
    """Leave out the checks the solution itself fails, with a note each (one that is right
    but slow is not failing)."""
    failing = [c for c in results if c.status not in (CheckStatus.PASSED, CheckStatus.MANUAL) and not is_slow_only(c)]
    if not failing:
        return
    draft.checks = [c for c in draft.checks if c.id not in {f.check_id for f in failing}]
    for result in failing:
        draft.notes.append(
            f"check {result.check_id} was left out: the solution itself got {result.status.value}: {result.message}"
        )
    if not _has_search(draft):
        raise InitFailed(
            f"found {_found_words(draft)}; but the solution fails its own search checks: "
            + "; ".join(f"{f.check_id}: {f.message}" for f in failing)
        )


def _summary(draft: Draft, timings: dict[str, float]) -> list[str]:
    """What was written and why, for the terminal."""
    lines = [f"  {line}" for line in draft.api]
    lines += [f"  {f.name} = {f.value!r}: {f.evidence}" for f in draft.fields]
    lines += [f"  NOT DECIDED {u.name}: one of {', '.join(map(repr, u.candidates))} ({u.why})" for u in draft.undecided]
    lines += [f"  check {c.id} ({c.kind}, {c.points:g} points)" for c in draft.checks]
    lines += [f"  note: {n}" for n in draft.notes]
    lines.append(
        f"took {timings['total']:g} s, of which probing the functions {timings['probing']:g} s "
        f"and checking the draft against the solution {timings['checking']:g} s"
    )
    return lines


def _title(solution: nbformat.NotebookNode, request: InitRequest, assignment_id: str) -> str:
    """The solution's first heading, else the handout's, else the assignment's id: never the
    answer key's file name, which every student's report would show."""
    title = notebook_title(solution)
    if title is None and request.template is not None:
        title = notebook_title(read_submission(request.template).notebook)
    return title or assignment_id


def _runs_cleanly() -> DraftCheck:
    return DraftCheck(
        "runs-cleanly",
        "runs-cleanly",
        "the notebook runs top to bottom",
        "runs-cleanly",
        RunsCleanlyParams(),
        "every cell of the solution runs",
    )
