"""Explorations: the reference's traces against alpha-beta written the way students write it.

The student programs below are seed 003's ``max_alpha_beta``/``min_alpha_beta`` (global
``current_state``, cut on ``>=``/``<=``, window -2..2) and seed 004's ``minimaxAB`` (the
board as a list argument, ``beta <= alpha``), each mistake made by editing their text as a
student would. They record the board at each call and share no code with reference.trace.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import pytest
from hypothesis import given, settings

import reference.trace as trace_module
from reference.engine import Rules
from reference.mistakes import MISTAKES, Mistake
from reference.search import SearchSpec, alphabeta, minimax_nodes
from reference.strategies import nonterminal_boards, reachable_boards, windows
from reference.tictactoe import Board, O
from reference.trace import (
    MAX_STEPS,
    Trace,
    alphabeta_trace,
    cause_sentence,
    first_divergence,
    fitting_mistakes,
    minimax_trace,
    reproduces,
    rules_trace,
    steps_digest,
)
from tests.seed_sources import LAB05_RECORDS_VISITS, LAB05_SOLUTION, SEED_003_ALPHABETA, edited

SEED003 = SearchSpec()


def name_cause(student: list[str], board: Board, spec: SearchSpec, **options: Any) -> str | None:
    """The words that name the mistakes reproducing ``student``'s exploration, if any."""
    return cause_sentence(fitting_mistakes(student, board, spec, **options))


# The seeds' searches, each keeping the board of every call in ``visited``.
SEED_003 = "visited = []\n" + edited(
    SEED_003_ALPHABETA,
    [
        (
            f"def {name}(alpha, beta):\n",
            f"def {name}(alpha, beta):\n"
            "    visited.append(''.join(c if c in 'XO' else '.' for row in current_state for c in row))\n",
        )
        for name in ("max_alpha_beta", "min_alpha_beta")
    ],
)
SEED_004 = "visited = []\n" + edited(LAB05_SOLUTION, [LAB05_RECORDS_VISITS])

# Each mistake as the edits a student makes to seed 003's text (old, new, how many times).
SEED_003_EDITS: dict[str, list[tuple[str, str]]] = {
    "no-pruning": [("if maxv >= beta:", "if False:"), ("if minv <= alpha:", "if False:")],
    "strict-cutoff": [("maxv >= beta", "maxv > beta"), ("minv <= alpha", "minv < alpha")],
    "strict-cutoff-max": [("maxv >= beta", "maxv > beta")],
    "strict-cutoff-min": [("minv <= alpha", "minv < alpha")],
    "min-tests-beta": [("if minv <= alpha:", "if minv <= beta:")],
    "max-tests-alpha": [("if maxv >= beta:", "if maxv >= alpha:")],
    "window-reset": [
        ("= min_alpha_beta(alpha, beta)", "= min_alpha_beta(-2, 2)"),
        ("= max_alpha_beta(alpha, beta)", "= max_alpha_beta(-2, 2)"),
    ],
    "alpha-not-passed": [
        ("= min_alpha_beta(alpha, beta)", "= min_alpha_beta(-2, beta)"),
        ("= max_alpha_beta(alpha, beta)", "= max_alpha_beta(-2, beta)"),
    ],
    "beta-not-passed": [
        ("= min_alpha_beta(alpha, beta)", "= min_alpha_beta(alpha, 2)"),
        ("= max_alpha_beta(alpha, beta)", "= max_alpha_beta(alpha, 2)"),
    ],
    "alpha-in-min": [
        ("if minv < beta:\n                    beta = minv", "if minv > alpha:\n                    alpha = minv")
    ],
    "beta-in-max": [
        ("if maxv > alpha:\n                    alpha = maxv", "if maxv < beta:\n                    beta = maxv")
    ],
    "reversed-order": [
        (
            "for i in range(0, 3):\n        for j in range(0, 3):",
            "for i in range(2, -1, -1):\n        for j in range(2, -1, -1):",
        )
    ],
    "column-major-order": [
        ("for i in range(0, 3):\n        for j in range(0, 3):", "for j in range(0, 3):\n        for i in range(0, 3):")
    ],
}
SEED_004_EDITS: dict[str, list[tuple[str, str]]] = {
    "alpha-in-min": [("beta = min(beta, eval)", "alpha = max(alpha, eval)")],
    "beta-in-max": [("alpha = max(alpha, eval)", "beta = min(beta, eval)")],
}


class Explore(Protocol):
    def __call__(self, board: Board, alpha: float = ..., beta: float = ...) -> list[str]: ...


def seed_003(edits: list[tuple[str, str]] = []) -> Explore:  # noqa: B006 - never mutated
    """Seed 003's search, edited; it explores from a board with the window given."""
    namespace: dict = {}
    exec(compile(edited(SEED_003, edits), "<seed 003>", "exec"), namespace)

    def explore(board: Board, alpha: float = -2, beta: float = 2) -> list[str]:
        namespace["current_state"] = [
            [c if c != "." else str(3 * r + k + 1) for k, c in enumerate(board.cells[3 * r : 3 * r + 3])]
            for r in range(3)
        ]
        namespace["visited"] = []
        search = namespace["max_alpha_beta"] if board.to_move() == O else namespace["min_alpha_beta"]
        search(alpha, beta)
        return namespace["visited"]

    return explore


def seed_004(edits: list[tuple[str, str]] = []) -> Explore:  # noqa: B006 - never mutated
    namespace: dict = {}
    exec(compile(edited(SEED_004, edits), "<seed 004>", "exec"), namespace)

    def explore(board: Board, alpha: float = -math.inf, beta: float = math.inf) -> list[str]:
        namespace["visited"] = []
        namespace["minimaxAB"]([" " if c == "." else c for c in board.cells], 0, board.to_move() == O, alpha, beta)
        return namespace["visited"]

    return explore


def _mistake(name: str) -> Mistake:
    return next(m for m in MISTAKES if m.name == name)


def _clause(name: str) -> str:
    """The words that name a mistake from an exploration (every mistake tested here has them)."""
    clause = _mistake(name).clause
    assert clause is not None, name
    return clause


# -- the correct search ----------------------------------------------------------------------


def test_empty_board_alphabeta_trace_is_seed_003s_18297_positions() -> None:
    trace = alphabeta_trace(Board.empty(), SEED003, alpha=-2, beta=2)
    assert trace.complete and len(trace.steps) == 18_297
    assert list(trace.steps) == seed_003()(Board.empty())
    assert list(trace.steps) == seed_004()(Board.empty())


def test_minimax_trace_from_the_empty_board_stops_at_the_cap() -> None:
    trace = minimax_trace(Board.empty(), SEED003)
    assert not trace.complete and len(trace.steps) == MAX_STEPS
    assert trace.steps[:3] == (".........", "X........", "XO.......")


@settings(max_examples=40, deadline=None, database=None)
@given(board=reachable_boards(max_empty=7))
def test_trace_lengths_are_the_node_counts(board: Board) -> None:
    assert len(minimax_trace(board, SEED003).steps) == minimax_nodes(board, SEED003)
    assert len(alphabeta_trace(board, SEED003).steps) == alphabeta(board, SEED003).nodes


@settings(max_examples=20, deadline=None, database=None)
@given(board=nonterminal_boards(min_empty=5, max_empty=7))
def test_a_capped_trace_is_the_beginning_of_the_whole_one(board: Board) -> None:
    whole = minimax_trace(board, SEED003)
    capped = minimax_trace(board, SEED003, cap=len(whole.steps) // 2)
    assert whole.complete and not capped.complete
    assert capped.steps == whole.steps[: len(whole.steps) // 2]


@settings(max_examples=60, deadline=None, database=None)
@given(board=reachable_boards(max_empty=8), window=windows())
def test_alphabeta_trace_is_what_a_student_alphabeta_enters(board: Board, window: tuple[float, float]) -> None:
    alpha, beta = window
    expected = alphabeta_trace(board, SEED003, alpha=alpha, beta=beta).steps
    assert list(expected) == seed_003()(board, alpha, beta)
    assert list(expected) == seed_004()(board, alpha, beta)


@pytest.mark.parametrize("fail", ["soft", "hard"])
def test_fail_hard_explores_as_fail_soft(fail: str) -> None:
    board = Board.from_string("X...O....")
    assert alphabeta_trace(board, SEED003, fail=fail).steps == alphabeta_trace(board, SEED003).steps  # type: ignore[arg-type]


# -- the mistakes ----------------------------------------------------------------------------

STUDENT_MISTAKES = [(name, "seed 003", seed_003(edits)) for name, edits in SEED_003_EDITS.items()] + [
    (name, "seed 004", seed_004(edits)) for name, edits in SEED_004_EDITS.items()
]


@pytest.mark.parametrize(
    ("name", "style", "explore"), STUDENT_MISTAKES, ids=[f"{n}-{s}" for n, s, _ in STUDENT_MISTAKES]
)
@settings(max_examples=15, deadline=None, database=None)
@given(board=nonterminal_boards(max_empty=7))
def test_each_mistake_explores_as_the_student_program_that_makes_it(
    name: str, style: str, explore: Explore, board: Board
) -> None:
    student = explore(board, -2, 2)
    traces = [_trace(board, rules) for rules in _mistake(name).rules]
    explored = [None if trace is None else list(trace.steps) for trace in traces]
    assert student in explored, f"{name} ({style}) on {board}: the student explores {student}, its rule sets {explored}"


def _trace(board: Board, rules: Rules) -> Trace | None:
    return rules_trace(board, SEED003, rules, alpha=-2, beta=2)


ONE_MARK = Board.from_string("X........")


@pytest.mark.parametrize(
    ("name", "style", "explore"), STUDENT_MISTAKES, ids=[f"{n}-{s}" for n, s, _ in STUDENT_MISTAKES]
)
def test_name_cause_names_the_mistake_that_explores_alike(name: str, style: str, explore: Explore) -> None:
    student = explore(ONE_MARK, -2, 2)
    sentence = name_cause(student, ONE_MARK, SEED003, alpha=-2, beta=2)
    assert sentence is not None and _clause(name) in sentence


def test_window_reset_and_no_pruning_explore_alike_and_both_are_named() -> None:
    sentence = name_cause(seed_003(SEED_003_EDITS["window-reset"])(ONE_MARK), ONE_MARK, SEED003, alpha=-2, beta=2)
    assert sentence is not None
    assert _clause("window-reset") in sentence and _clause("no-pruning") in sentence


def test_name_cause_says_nothing_for_a_correct_or_unexplained_exploration() -> None:
    correct = seed_003()(ONE_MARK)
    assert name_cause(correct, ONE_MARK, SEED003, alpha=-2, beta=2) is None
    assert name_cause(correct[:-1], ONE_MARK, SEED003, alpha=-2, beta=2) is None
    assert name_cause(correct[:1] + correct[2:], ONE_MARK, SEED003) is None


def test_name_cause_needs_the_whole_exploration() -> None:
    strict = seed_003(SEED_003_EDITS["strict-cutoff-max"])(ONE_MARK)
    assert name_cause(strict, ONE_MARK, SEED003, cap=len(strict)) is None


# -- divergence ------------------------------------------------------------------------------


def test_first_divergence_of_strict_cutoff_is_the_first_unpruned_position() -> None:
    board = Board.empty()
    student = seed_003(SEED_003_EDITS["strict-cutoff-max"])(board)
    reference = alphabeta_trace(board, SEED003, alpha=-2, beta=2).steps
    correct = seed_003()(board)
    step = next(i for i, (a, b) in enumerate(zip(student, correct)) if a != b)
    divergence = first_divergence(student, reference)
    assert divergence is not None
    assert divergence.as_dict() == {
        "position": ".........",
        "step": step,
        "student": student[step],
        "reference": correct[step],
    }


def test_first_divergence_when_one_search_ended() -> None:
    reference = ("X........", "XO.......")
    assert first_divergence(reference, reference) is None
    shorter = first_divergence(reference[:1], reference)
    assert shorter is not None and (shorter.step, shorter.student, shorter.reference) == (1, None, "XO.......")
    longer = first_divergence((*reference, "XOX......"), reference)
    assert longer is not None and (longer.step, longer.student, longer.reference) == (2, "XOX......", None)


def _explored(board: Board, rules: Rules) -> list[str]:
    trace = rules_trace(board, SEED003, rules)
    assert trace is not None
    return list(trace.steps)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(board=nonterminal_boards(max_empty=7))
def test_what_is_remembered_of_a_rule_set_answers_as_searching_again(board: Board) -> None:
    """Every mistake's exploration is remembered from one student's exploration; another
    student's is then judged from that memory, and the answer is the one a fresh search gives."""
    students = [_explored(board, m.rules[0]) for m in MISTAKES[:8]]
    for rules in [Rules(), *(r for m in MISTAKES for r in m.rules)]:
        for student in students:
            searched = rules_trace(board, SEED003, rules, expected=student) is not None
            assert reproduces(student, steps_digest(student), board, SEED003, rules) == searched, rules


def test_a_rule_set_known_to_fit_is_not_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board.from_string("X...O....")
    never_prunes = _explored(board, Rules(prune=False))
    digest = steps_digest(never_prunes)
    first = name_cause(never_prunes, board, SEED003)
    searched: list[Rules] = []
    run = trace_module._RuleSearch.run

    def counted(self: Any, recorder: Any) -> bool:
        searched.append(self.rules)
        return run(self, recorder)

    monkeypatch.setattr(trace_module._RuleSearch, "run", counted)
    assert name_cause(never_prunes, board, SEED003) == first
    assert reproduces(never_prunes, digest, board, SEED003, Rules(prune=False))
    assert searched == []


def test_the_memory_of_explorations_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace_module, "_KNOWN_LIMIT", 5)
    monkeypatch.setattr(trace_module, "_known", {})
    student = list(alphabeta_trace(Board.from_string("XO.......")).steps)
    for depth in range(10):
        reproduces(
            student, steps_digest(student), Board.from_string("XO......."), SearchSpec(start_depth=depth), Rules()
        )
    assert len(trace_module._known) == 5
