"""From an executed solution to a draft assignment: the encoding, the board tests, the
search functions and their conventions, and the checks they make.

Each step keeps only what reproduces every answer on the probe positions; the checks are
then graded against the solution itself before anything is written (`grader.authoring.init`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import cast

from grader.authoring.aliases import aliases_for
from grader.authoring.api import Api, keep_api_checks, unchecked
from grader.authoring.board_tests import BoardTest, read_board_test
from grader.authoring.conventions import TurnEvidence, choose_conventions
from grader.authoring.discovery import Discovered
from grader.authoring.draft import BoardTable, Draft, DraftCheck, Field, NearMiss, call, slug
from grader.authoring.encodings import candidate_locations, made_objects, writes_a_board
from grader.authoring.finished_games import FinishedAnswer, finished_answer
from grader.authoring.game_roles import read_initial_state, read_successor
from grader.authoring.probes import (
    SCREEN_CALL_TIMEOUT,
    Conventions,
    Prober,
    predicate_positions,
    screening_positions,
    search_positions,
)
from grader.authoring.search_checks import NodeCounter, ReadSearch, search_checks
from grader.authoring.search_readings import SearchFunction, read_search, search_case
from grader.authoring.signatures import Signature, read_constructor, read_signatures
from grader.checks.kinds import predicates
from grader.spec.board import BoardLocation, board_fields, preset_name
from grader.spec.model import MoveFormat
from reference import Position
from reference.codecs import BoardEncoding

BOARD_FUNCTION_KINDS = ("predicate", "successor", "initial-state")
"""The kinds of check that judge a function the searches are built on."""
COUNTER_NAME = re.compile(r"(count|nodes|calls|visited|expanded|evaluated)", re.I)


@dataclass(frozen=True)
class EncodingChoice:
    conventions: Conventions
    """The board's encoding and location (the other fields are not decided here)."""
    board_tests: tuple[BoardTest, ...]
    searches: tuple[SearchFunction, ...]
    near_misses: tuple[NearMiss, ...] = ()
    """Functions that almost answer like a board test or a search under this encoding."""
    others: tuple[Conventions, ...] = ()
    """Other encodings under which as many functions were recognized."""
    written: bool = False
    """Among those, this is the one a board the source writes reads under."""

    @property
    def recognized(self) -> int:
        return len(self.board_tests) + len(self.searches)

    @property
    def telling(self) -> int:
        """Board tests other than a static score."""
        return sum(not t.expectation.scores_for_maximizer for t in self.board_tests)

    @property
    def rank(self) -> tuple[int, int]:
        return self.recognized, -len(self.near_misses)


BOARD_TEST_EXAMPLES = 200
"""Boards a full, draw or finished-game test is asked about (a missed cell shows on few)."""

SHORTLIST = 6
"""Encodings at most under which searches are asked (the first ones, presets first)."""

_SEARCH_SLOTS = frozenset({"is_max", "depth", "alpha", "beta", "depth_limit", "player"})


def _board_tests(
    prober: Prober, signatures: Sequence[Signature], conventions: Conventions, boards: Sequence[Position]
) -> EncodingChoice:
    tests: list[BoardTest] = []
    misses: list[NearMiss] = []
    for signature in dict.fromkeys(s.without_keywords() for s in signatures):
        if signature.function.name in {t.function for t in tests}:
            continue  # another candidate argument of a function already read
        if signature.inputs in ((), ("player",)):
            # A few decisive boards first: a function that is no board test under this
            # encoding (a game loop, a search) is not asked about all of them.
            screened = read_board_test(prober, signature, conventions, screening_positions(), SCREEN_CALL_TIMEOUT)
            if screened is None:
                continue
            found = read_board_test(prober, signature, conventions, boards)
            if isinstance(found, BoardTest):
                tests.append(found)
            elif found is not None:
                misses.append(found)
    return EncodingChoice(conventions, tuple(tests), (), tuple(misses))


def _read_search(prober: Prober, signature: Signature, conventions: Conventions) -> SearchFunction | NearMiss | None:
    found = read_search(prober, signature, conventions)
    if not isinstance(found, SearchFunction) and signature.has("depth") and not signature.has("depth_limit"):
        # The depth may count down: the plies left to search, a depth limit.
        as_limit = replace(signature, slots=tuple("depth_limit" if s == "depth" else s for s in signature.slots))
        found = read_search(prober, as_limit, conventions) or found
    return found


def _with_searches(prober: Prober, signatures: Sequence[Signature], choice: EncodingChoice) -> EncodingChoice:
    """The searches among ``signatures``: of a function's candidate string arguments, the
    first whose answers are the reference's (where several are, the argument changes no
    answer); a near miss only when none is."""
    tested = {t.function for t in choice.board_tests} | {m.function for m in choice.near_misses}
    searches: list[SearchFunction] = []
    misses = list(choice.near_misses)
    variants: dict[str, list[Signature]] = {}
    for signature in signatures:
        if signature.function.name not in tested and set(signature.inputs) <= _SEARCH_SLOTS:
            variants.setdefault(signature.function.name, []).append(signature)
    for candidates in variants.values():
        found = [_read_search(prober, signature, choice.conventions) for signature in candidates]
        fitting = [f for f in found if isinstance(f, SearchFunction)]
        if fitting:
            searches.append(fitting[0])
        else:
            misses += [f for f in found if isinstance(f, NearMiss)][:1]
    return EncodingChoice(choice.conventions, choice.board_tests, tuple(searches), tuple(misses))


def _signatures_at(
    location: BoardLocation, signatures: Sequence[Signature], discovered: Discovered | None
) -> list[Signature]:
    """The functions that find the board at ``location``: those taking it as an argument, the
    plain functions without one that may read the global (a game loop that makes its own
    board does not, and is not played once per candidate encoding), the object's methods
    (an attribute)."""
    if location.where == "argument":
        return [s for s in signatures if s.takes_board and (s.function.owner is None or s.constructor is not None)]
    if location.where == "global":
        plain = [s for s in signatures if not s.takes_board and s.function.owner is None]
        if discovered is None:
            return plain
        return [s for s in plain if discovered.may_read(s.function, location.name)]
    owner = location.factory.function if location.factory else None
    return [s for s in signatures if not s.takes_board and s.function.owner == owner]


def choose_encoding(
    prober: Prober,
    signatures: Sequence[Signature],
    encodings: Sequence[BoardEncoding],
    locations: Sequence[BoardLocation],
    discovered: Discovered | None = None,
    written: Sequence[object] = (),
    other_game: Callable[[], bool] = lambda: False,
) -> EncodingChoice | None:
    """The encoding and location under which the most functions answer like the reference.
    Board tests are cheap to ask and narrow the candidates; searches are asked only under
    those left. Where several do equally well, the first one a board of ``written`` (the
    source's own, `SourceLiterals.boards`) reads under, else the first. Where no function
    answers like a board test under any of them, ``other_game`` is asked whether the solution
    plays another game; when it does, no search is asked and there is no choice."""
    boards = predicate_positions()
    tested: list[tuple[list[Signature], EncodingChoice]] = []
    for location in locations:
        here = _signatures_at(location, signatures, discovered)
        if here:
            tested += [(here, _board_tests(prober, here, Conventions(e, location), boards)) for e in encodings]
    if not tested or (not any(c.board_tests for _, c in tested) and other_game()):
        return None
    # A search under a wrong encoding sees every board as finished and answers like a static
    # score, so scores do not decide which encodings are worth searching under.
    most = max(c.telling for _, c in tested)
    shortlist = sorted((hc for hc in tested if hc[1].telling == most), key=lambda hc: -hc[1].recognized)[:SHORTLIST]
    choices = [_with_searches(prober, here, c) for here, c in shortlist]
    rank = max(c.rank for c in choices)
    tied = [c for c in choices if c.rank == rank]
    by_source = [c for c in tied if writes_a_board(c.conventions.encoding, written)] if len(tied) > 1 else []
    best = (by_source or tied)[0]
    if best.recognized == 0:
        return None
    others = tuple(c.conventions for c in tied if c is not best)
    return EncodingChoice(
        best.conventions, best.board_tests, best.searches, best.near_misses, others, written=bool(by_source)
    )


def _board_test_check(test: BoardTest) -> DraftCheck:
    expectation = test.expectation
    params = predicates.Params(
        call(test.signature.call_text()),
        cast(predicates.ExpectName, test.expect),
        boards=test.boards or expectation.draft_boards,
        codes=dict(test.codes) if expectation.takes_codes else {},
        ordered=test.ordered,
        move=test.move,
        examples=BOARD_TEST_EXAMPLES if expectation.draft_examples else None,
    )
    name = test.function
    return DraftCheck(
        slug(name), test.role, f"{name} {expectation.title}", "predicate", params, f"{name}: {test.evidence}"
    )


def find_counter(
    prober: Prober, discovered: Discovered, searches: Sequence[SearchFunction], conventions: Conventions
) -> NodeCounter | None:
    """A global a search adds to as it runs: reset to 0, it holds a positive count after a call.
    Each search that gives values is asked in turn: a notebook's plain minimax and the copy of
    it that counts its nodes are different functions."""
    names = [g for g in discovered.global_names if COUNTER_NAME.search(g)]
    for search in [s for s in searches if any(r.values for r in s.readings)] if names else []:
        reading = search.readings[0]
        asked_under = replace(conventions, first_player=reading.first_player)
        case = search_case(reading, search_positions(reading.first_player)[0], asked_under.game)
        for name in names:
            (outcome,) = prober.ask(search.signature, asked_under, [case], reset={name: 0})
            count = outcome.globals_after.get(name)
            if outcome.ok and isinstance(count, int) and not isinstance(count, bool) and count > 0:
                return NodeCounter(name, search.function)
    return None


def infer(
    prober: Prober,
    discovered: Discovered,
    encodings: Sequence[BoardEncoding],
    api: Api | None = None,
    written: Sequence[object] = (),
    other_game: Callable[[], bool] = lambda: False,
) -> tuple[Draft, EncodingChoice | None]:
    """The draft assignment: fields with evidence, checks, what is undecided and why. Every
    function is read (a helper's answers are evidence of the conventions), but only the
    functions of ``api`` get checks (`grader.authoring.api`). ``other_game``: whether the
    solution plays another game, asked only when no function answers like a board test
    (`choose_encoding`)."""
    draft = Draft()
    if api is not None:
        draft.api = api.comment(f.name for f in discovered.functions)
    signatures = _signatures(draft, discovered, api)
    made = made_objects(prober.runner, discovered, prober.call_timeout)
    locations = candidate_locations(discovered, made, encodings)
    choice = choose_encoding(prober, signatures, encodings, locations, discovered, written, other_game)
    if choice is None:
        return draft, None
    _board_fields(draft, choice)
    turns = [t for t in choice.board_tests if t.expect == "to-move"]
    turn = TurnEvidence(turns[0].function, turns[0].codes["first_player"]) if turns else None
    chosen = choose_conventions(choice.searches, turn)
    draft.fields.extend(chosen.fields)
    draft.undecided.extend(chosen.undecided)
    for test in choice.board_tests:
        if test.expectation.scores_for_maximizer and test.codes.get("maximizer") != chosen.maximizer:
            draft.notes.append(f"`{test.function}` scores for {test.codes.get('maximizer')}; no check was written.")
            continue
        draft.add_check(_board_test_check(test))
    counter = find_counter(prober, discovered, choice.searches, choice.conventions)
    board_conventions = choice.conventions

    def on_finished(found: ReadSearch) -> FinishedAnswer | None:
        return finished_answer(prober, found.search.signature, found.reading, board_conventions)

    search_checks(draft, choice.searches, chosen, counter, on_finished)
    moves = [c.params.move for c in draft.checks if getattr(c.params, "move", None)]
    fmt: MoveFormat | None = max(set(moves), key=moves.count) if moves else None
    if fmt is not None:
        draft.fields.append(Field("move", fmt, f"{moves.count(fmt)} function(s) number moves this way"))
    conventions = replace(choice.conventions, first_player=chosen.first_player)
    here = _signatures_at(choice.conventions.location, signatures, discovered)
    _game_roles(draft, prober, here, signatures, conventions, fmt)
    if api is not None:
        keep_api_checks(draft, api)
    for name in unchecked(draft, api, [f.name for f in discovered.functions]):
        draft.notes.append(f"`{name}`: none of the roles init checks; write its check by hand if the course grades it")
    # The board functions first: a check that finds one wrong leaves the reference's version
    # of it for the searches built on it, graded after it (`grader.checks.reference_helpers`).
    draft.checks.sort(key=lambda c: c.kind not in BOARD_FUNCTION_KINDS)
    draft.aliases = aliases_for(draft.jobs(), prober.defined)
    return draft, choice


def _game_roles(
    draft: Draft,
    prober: Prober,
    here: Sequence[Signature],
    signatures: Sequence[Signature],
    conventions: Conventions,
    fmt: MoveFormat | None,
) -> None:
    """The successor (among the functions ``here``, where the board is) and the initial
    state, where the solution has them. A successor's moves are read in the format the other
    functions use first; without one, in the format its own answers fit, which then becomes
    the assignment's. An initial state is looked for only where boards are arguments: a
    function of no arguments there reads no board of the grader's."""
    for signature in dict.fromkeys(s.without_keywords() for s in here):
        successor = read_successor(prober, signature, conventions, [fmt] if fmt else [])
        if successor is not None:
            if fmt is None:
                fmt = successor.move_format
                draft.fields.append(Field("move", fmt, f"{signature.function.name} takes its moves this way"))
            draft.add_check(successor.check(fmt))
    if conventions.location.where == "argument":
        for signature in signatures:
            initial = read_initial_state(prober, signature, conventions)
            if initial is not None:
                draft.add_check(initial)


def _signatures(draft: Draft, discovered: Discovered, api: Api | None) -> list[Signature]:
    """Each function's readings; a method of a class whose constructor takes the board is
    read as called through it, the others are not probed (noted when they are the API's)."""
    constructors = {name: read_constructor(name, params) for name, params in discovered.classes.items()}
    signatures: list[Signature] = []
    for function in discovered.functions:
        if "input" in function.free_names:
            # Asked about a position, a game loop plays on it with the answers it reads; what
            # it returns then is the game's end, which looks like a win test under encodings
            # the real board tests do not fit.
            draft.notes.append(f"`{function.name}` reads input(): a game loop, not probed.")
            continue
        constructor = constructors.get(function.owner) if function.owner else None
        found = read_signatures(function, constructor)
        if not found and (api is None or api.admits(function.name)):
            draft.notes.append(
                f"`{function.name}({', '.join(p.name for p in function.parameters)})`: "
                "parameters init cannot fill; not probed."
            )
        signatures += found
    return signatures


def _board_fields(draft: Draft, choice: EncodingChoice) -> None:
    encoding, location = choice.conventions.encoding, choice.conventions.location
    evidence = f"{choice.recognized} function(s) answer like the reference with boards written this way"
    if choice.others:
        words = ", ".join(c.encoding.description for c in choice.others)
        evidence += f"; as many do with {words}"
        kept = "the one the notebook's own code writes a board in is kept" if choice.written else "the first is kept"
        draft.notes.append(f"the board could also be {words}: as many functions answer alike; {kept}")
    preset = preset_name(encoding)
    if preset is not None and location.where == "argument":
        draft.fields.append(Field("encoding", preset, f"{encoding.description}: {evidence}"))
    else:
        draft.board = BoardTable(board_fields(encoding, location), f"{encoding.description}: {evidence}")
