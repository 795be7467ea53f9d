"""Where the solution's own searches use its board functions, and the board domain each
board test is judged on because of it.

A course may leave a function open where its program never asks it: CS50's `actions` and
`player` may answer anything on a finished game, because its `minimax` tests `terminal`
first. So the solution's searches are run from games in progress, with every plain function
of the notebook watched (`grader.execution.channel.kernel.board_reading.watch_boards`), and a
board test the searches never asked about a finished game is judged on games in progress
only (one never asked about a game in progress, on finished games only). The check's
``boards`` says so, and its comment gives the evidence; the instructor widens it there.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from grader.authoring.draft import Draft, DraftCheck
from grader.authoring.probes import Conventions, Prober, search_positions
from grader.checks.context import NotDefined
from grader.checks.kinds.predicates import Params as PredicateParams
from grader.execution.channel.calls import Explore
from reference import Position, TicTacToe, reachable_positions

TRACE_SEED = 2024
MIN_CALLS = 20
"""Calls of a function below which its use says nothing about its domain."""
Domain = Literal["unfinished", "finished"]


@dataclass(frozen=True)
class BoardUse:
    """The boards one function was called on while the solution's searches ran."""

    function: str
    calls: int
    """Calls whose board could be read."""
    positions: int
    """Distinct boards among them."""
    finished: int
    """Calls on a won or full board."""
    searches: tuple[str, ...]
    """The search functions whose runs called it (directly or through others)."""

    @property
    def unfinished(self) -> int:
        return self.calls - self.finished

    def domain(self) -> Domain | None:
        """``unfinished`` or ``finished`` when the searches asked it about one kind of game
        only, often enough to tell; None otherwise."""
        if self.calls < MIN_CALLS:
            return None
        if self.finished == 0:
            return "unfinished"
        if self.unfinished == 0:
            return "finished"
        return None

    def evidence(self) -> str:
        by = ", ".join(f"`{name}`" for name in self.searches)
        times = f"{self.calls:,} times on {self.positions:,} positions"
        if self.finished == 0:
            return f"judged on games in progress only: the solution's {by} called it {times}, none finished"
        return f"judged on finished games only: the solution's {by} called it {times}, all finished"


def trace_positions(first_player: str) -> tuple[Position, ...]:
    """Games in progress the searches are run from: init's search probes (2 to 5 empty cells)
    and a few seeded ones with 6 and 7, whose trees still take a plain search a fraction of a
    second."""
    game = TicTacToe(first_player)
    rng = random.Random(TRACE_SEED)
    deeper = [b for b in sorted(reachable_positions(first_player), key=str) if not game.is_terminal(b)]
    extra = [b for empty in (6, 7) for b in rng.sample([b for b in deeper if 9 - game.pieces(b) == empty], 4)]
    return (*search_positions(first_player), *extra)


def trace_board_use(
    prober: Prober, conventions: Conventions, searches: Sequence[DraftCheck], watched: Iterable[str]
) -> dict[str, BoardUse]:
    """Run each search check's call from `trace_positions` (those with the side to move it
    plays, when it plays one) with the ``watched`` functions recording their boards."""
    ctx = prober.context(conventions)
    names = tuple(sorted(set(watched)))
    explore = Explore(marks=conventions.encoding.marks, watch=names, record=False)  # the boards, not the nodes
    boards: dict[str, dict[str, int]] = {}
    callers: dict[str, list[str]] = {}
    for check in searches:
        template = check.call
        if template is None:
            continue
        try:
            student = ctx.student(template, explore=explore, timeout=prober.call_timeout)
        except NotDefined:
            continue
        side = getattr(check.params, "to_move", None)
        game = TicTacToe(conventions.first_player)
        chosen = [b for b in trace_positions(conventions.first_player) if side is None or game.to_move(b) == side]
        requests = [(str(b), ctx.placeholders(b)) for b in chosen]
        for answer in student.ask_many(requests, partial=True):
            exploration = answer.outcome.exploration
            if exploration is None:
                continue
            for name, seen in exploration.uses.items():
                if name == student.function:
                    continue
                mine = boards.setdefault(name, {})
                for board, count in seen.items():
                    if board is not None:
                        mine[board] = mine.get(board, 0) + count
                if any(board is not None for board in seen):
                    callers.setdefault(name, [])
                    if student.function not in callers[name]:
                        callers[name].append(student.function)
    return {name: _use(name, seen, callers.get(name, [])) for name, seen in boards.items() if seen}


def _use(name: str, seen: Mapping[str, int], callers: Sequence[str]) -> BoardUse:
    game = TicTacToe()  # whether a game is over does not depend on who began it
    finished = sum(count for board, count in seen.items() if game.is_terminal(game.position(board)))
    return BoardUse(name, sum(seen.values()), len(seen), finished, tuple(callers))


def narrow_domains(draft: Draft, uses: Mapping[str, BoardUse]) -> None:
    """Judge each board test of one board on the kind of game the searches asked it about,
    with the evidence in its comment; the other checks are left as they are."""
    for index, check in enumerate(draft.checks):
        params = check.params
        if not isinstance(params, PredicateParams) or params.call.placeholders != {"board"}:
            continue  # a win test told the player, a move test told the cell: asked as the check asks
        use = uses.get(params.call.function)
        domain = None if use is None else use.domain()
        if use is None or domain is None or params.boards not in ("reachable", domain):
            continue  # arbitrary boards are asked for a function that must not assume a game
        narrowed = dataclasses.replace(params, boards=domain)
        draft.checks[index] = dataclasses.replace(
            check, params=narrowed, evidence=f"{check.evidence}; {use.evidence()}"
        )


def domain_notes(uses: Mapping[str, BoardUse], checked: Iterable[str]) -> list[str]:
    """For the functions no check judges (the side to move, the successor), where the
    searches used them: what a check of them should be judged on."""
    done = set(checked)
    return [
        f"`{use.function}` has no check; a check of it is {use.evidence()}"
        for use in uses.values()
        if use.function not in done and use.domain() is not None
    ]
