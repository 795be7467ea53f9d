"""The checks of a solution's search functions, in two steps: each function's reading under
the chosen conventions and the role it plays (collected), then the checks those roles make,
alone and in pairs (judged)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from grader.authoring.conventions import ChosenConventions, reading_under
from grader.authoring.draft import Draft, DraftCheck, call, slug
from grader.authoring.finished_games import FinishedAnswer
from grader.authoring.search_readings import IN_PLACE, SearchFunction, SearchReading
from grader.checks.kinds.games import RandomOpponentParams
from grader.checks.kinds.hygiene import NoMutationParams
from grader.checks.kinds.node_counts import Params as NodeCountParams
from grader.checks.kinds.pruning import PruningParams
from grader.checks.kinds.search import DepthParams, SearchParams
from grader.spec.call_template import CallTemplate
from reference import TIC_TAC_TOE, Position, TicTacToe

NODE_POSITIONS = (TIC_TAC_TOE.position("X........"), TIC_TAC_TOE.position("X...O...."))
"""Where node counts are compared: big enough for pruning to show, small enough to be quick."""

_ONE_SIDE_POSITIONS = tuple(
    TIC_TAC_TOE.position(text)
    for text in ("X........", "X...O...X", "X...O....", "XO.......", "O........", "O...X...O", "O...X....", "OX.......")
)
"""Where a search that plays one side only (``max()`` for O) is counted: the first two of these
that side moves on, in a game its first player began."""


def node_positions(to_move: str | None, first_player: str) -> tuple[Position, ...]:
    """Where the node counts of a search playing ``to_move`` (None: either side) are compared."""
    if to_move is None:
        return NODE_POSITIONS
    game = TicTacToe(first_player)
    legal = [b for b in _ONE_SIDE_POSITIONS if game.legality_problem(b) is None]
    return tuple(b for b in legal if game.to_move(b) == to_move)[:2]


S = TypeVar("S", bound=SearchParams)

SearchRole = Literal["alpha-beta", "minimax", "best-move"]


@dataclass(frozen=True)
class NodeCounter:
    """A global the solution adds to as a search runs, and that search."""

    name: str
    search: str
    """The function whose calls make it grow."""


@dataclass(frozen=True)
class ReadSearch:
    """A search function, how it reads under the chosen conventions, and its role."""

    search: SearchFunction
    reading: SearchReading
    role: SearchRole

    @property
    def function(self) -> str:
        return self.search.function

    def call(self, *, full_window: bool = True) -> CallTemplate:
        window = ("-inf", "inf") if full_window else ("alpha", "beta")
        return call(self.search.signature.call_text(depth_limit=False, window=window, player="to_move"))

    def params(self, kind: type[S], *, full_window: bool = True, **more: Any) -> S:
        """A check of this function of a search ``kind``: its call and how it answers, and
        ``more`` of the kind's fields."""
        reading = self.reading
        more.setdefault("call", self.call(full_window=full_window))
        if self.in_place:
            more["in_place"] = True
        return kind(
            returns=("move",) if self.in_place else (reading.returns,),
            move=reading.move,
            start_depth=reading.start_depth,
            to_move=reading.to_move,
            **more,
        )

    @property
    def in_place(self) -> bool:
        """The function plays its move on the board it is given and returns nothing."""
        return self.reading.returns == IN_PLACE

    def evidence(self) -> str:
        shape = {
            "value": "a value",
            "move": "a move",
            "value,move": "(value, move)",
            "move,value": "(move, value)",
            "row,col,value": "[row, col, value]",
        }
        reading = self.reading
        returned = shape.get(reading.returns, "(value, row, col)")
        side = f", always for {reading.to_move}" if reading.to_move else ""
        fmt = f" with {reading.move} moves" if reading.move else ""
        calls = self.search.answers
        does = f"returns {returned}{fmt}"
        if self.in_place:
            does = "returns nothing and plays a best move on the board it is given"
        said = [f"{self.function} {does}{side}, as the reference does on all {calls} calls"]
        signature = self.search.signature
        if signature.literal is not None:
            said.append(f"called with {signature.literal_text}: of the strings its code compares it with, this one")
        if signature.constructor is not None and signature.constructor.keywords:
            said.append(signature.constructor.evidence())
        return "; ".join(said)


def read_searches(searches: Sequence[SearchFunction], chosen: ChosenConventions) -> tuple[list[ReadSearch], list[str]]:
    """Each search's reading and role; notes for the functions no reading under the chosen
    conventions explains."""
    found: list[ReadSearch] = []
    notes: list[str] = []
    for search in searches:
        reading = reading_under(search, chosen)
        if reading is None:
            notes.append(
                f"`{search.function}` answers like a search, but not under the conventions the other functions share; "
                "no check was written for it."
            )
            continue
        signature = search.signature
        role: SearchRole = (
            "alpha-beta"
            if signature.has("alpha") and signature.has("beta")
            else "minimax"
            if reading.values
            else "best-move"
        )
        found.append(ReadSearch(search, reading, role))
    return found, notes


def _role_checks(
    found: ReadSearch, chosen: ChosenConventions, finished: FinishedAnswer | None = None
) -> list[DraftCheck]:
    """The checks of one function: its role's, and its depth limit's. ``finished``: what it
    answers on a finished game, asked of the students too."""
    name, evidence = found.function, found.evidence()
    on_finished: dict[str, Any] = {}
    if finished is not None:
        on_finished = {"finished": finished.rule}
        evidence += f"; {finished.evidence}"
    checks: list[DraftCheck] = []
    if found.role == "alpha-beta":
        windows = ((-math.inf, math.inf), *_narrow_windows(chosen))
        params: SearchParams = found.params(PruningParams, full_window=False, windows=windows)
        title = f"{name} agrees with minimax and honours its window"
        checks.append(DraftCheck(slug(name), "alpha-beta", title, "pruning-equivalence", params, evidence))
    elif found.role == "minimax":
        title = f"{name} gives the minimax value"
        params = found.params(SearchParams, **on_finished)
        checks.append(DraftCheck(slug(name), "minimax", title, "search-value", params, evidence))
    else:
        title = f"{name} picks an optimal move"
        params = found.params(SearchParams, **on_finished)
        checks.append(DraftCheck(slug(name), "best-move", title, "search-value", params, evidence))
        ai = found.reading.to_move or (chosen.maximizer if chosen.maximizer != "to-move" else "O")
        # An optimal opponent punishes every move that throws a draw away; a random one
        # mostly does not (a best move for the wrong side).
        games = RandomOpponentParams(
            found.call(), ai=ai, opponent="optimal", games=5, seed=2024, in_place=found.in_place
        )
        title = f"{name} never loses, even to an opponent who makes no mistakes"
        why = f"{name} picks optimal moves for {ai}"
        checks.append(DraftCheck(f"{slug(name)}-never-loses", "never-loses", title, "random-opponent", games, why))
    signature = found.search.signature
    if signature.has("depth_limit") and found.reading.values:
        limited = call(signature.call_text(window=("-inf", "inf"), player="to_move"))
        params = found.params(DepthParams, call=limited, depth_limits=(1, 2, 3), max_empty=7)
        title = f"{name} stops at its depth limit"
        why = f"{signature.receiver} takes a depth limit ({signature.depth_limit_name})"
        checks.append(DraftCheck(f"{slug(name)}-depth-limit", "depth-limit", title, "depth-limited", params, why))
    return checks


def _pair_checks(found: Sequence[ReadSearch], counter: NodeCounter | None, first_player: str) -> list[DraftCheck]:
    """What the searches show together: the board left alone, alpha-beta's node reduction,
    a node counter the notebook keeps (judged through the minimax that makes it grow). An
    alpha-beta that plays one side is compared with a minimax of that side, on positions
    where it moves."""
    minimaxes = [f for f in found if f.role == "minimax"]
    alphabetas = [f for f in found if f.role == "alpha-beta"]
    if alphabetas:
        side = alphabetas[0].reading.to_move
        minimaxes.sort(key=lambda f: f.reading.to_move not in (None, side))
    checks: list[DraftCheck] = []
    if minimaxes:
        mm = minimaxes[0]
        title = f"{mm.function} leaves the board as it found it"
        why = f"{mm.search.signature.receiver} takes the board as an argument"
        no_mutation = NoMutationParams(mm.call())
        checks.append(
            DraftCheck(f"{slug(mm.function)}-no-mutation", "no-mutation", title, "no-mutation", no_mutation, why)
        )
    if alphabetas:
        ab = alphabetas[0]
        ab_call = ab.call()
        if minimaxes:
            mm = minimaxes[0]
            title = f"{ab.function} visits fewer nodes than {mm.function}"
            why = f"{mm.function} is a minimax and {ab.function} an alpha-beta of the same conventions"
            mm_call = mm.call()
        else:
            title = f"{ab.function} prunes as alpha-beta does"
            why = f"{ab.function} is an alpha-beta with no minimax beside it: its nodes are compared with the reference"
            mm_call = ab_call
        # A solution shows one move order, not whether the handout prescribes it: any order
        # a correct alpha-beta takes is accepted (the author sets "row-major" for exact counts).
        positions = node_positions(ab.reading.to_move, first_player)
        counts = NodeCountParams(mm_call, ab_call, positions=positions, move_order="any")
        why += '; move_order = "row-major" asks for the reference\'s exploration, cells tried row by row'
        checks.append(DraftCheck("node-reduction", "node-reduction", title, "node-counts", counts, why))
    # The minimax that makes the counter grow; the first one when an alpha-beta was seen to
    # (a notebook whose searches share one counter).
    counting = [f for f in minimaxes if counter is not None and f.function == counter.search] or minimaxes[:1]
    if counter is not None and counting:
        mm = counting[0]
        title = f"the global {counter.name} counts the nodes {mm.function} visits"
        counted = NodeCountParams(
            mm.call(), counter=counter.name, positions=node_positions(mm.reading.to_move, first_player)
        )
        why = f"the global {counter.name} grows while {mm.function} searches"
        checks.append(DraftCheck(f"{slug(counter.name)}-counter", "node-counter", title, "node-counts", counted, why))
    return checks


def search_checks(
    draft: Draft,
    searches: Sequence[SearchFunction],
    chosen: ChosenConventions,
    counter: NodeCounter | None = None,
    finished: Callable[[ReadSearch], FinishedAnswer | None] = lambda _: None,
) -> None:
    """The checks of the search functions, under the chosen conventions; ``finished`` tells
    what a search answers on a finished game."""
    found, notes = read_searches(searches, chosen)
    draft.notes += notes
    for read in found:
        for check in _role_checks(read, chosen, finished(read)):
            draft.add_check(check)
    for check in _pair_checks(found, counter, chosen.first_player):
        draft.add_check(check)


def _narrow_windows(chosen: ChosenConventions) -> tuple[tuple[float, float], ...]:
    return ((-1, 0), (0, 1)) if chosen.scoring == "unit" else ((-10, 0), (0, 10))
