"""Inference on solutions run in this process (the call channel's executor on a plain
namespace): the encoding, the conventions and the checks a solution's answers lead to."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from grader.authoring.aliases import aliases_for
from grader.authoring.create import InitFailed, _require_recognized, generous_limit
from grader.authoring.discovery import Discovered, discover
from grader.authoring.draft import Draft, DraftCheck, call
from grader.authoring.encodings import candidate_encodings, source_literals
from grader.authoring.handout import stub_source
from grader.authoring.inference import EncodingChoice, infer
from grader.authoring.probes import ProbeHang, Prober, predicate_positions, screening_positions
from grader.authoring.signatures import read_constructor, read_signature, read_signatures
from grader.authoring.toml_writer import render_toml
from grader.checks.kinds import predicates
from grader.execution.channel.calls import DefinedNames
from grader.spec.loader import assignment_from, load_assignment
from grader.submission.reader import notebook_from_script
from reference import Board
from reference.tictactoe import board_of
from tests.checks.in_process import InProcessRunner

DEPTH_LIMITS = Path(__file__).resolve().parents[2] / "assignments" / "depth-limits"

FLAT_UNDERSCORE = """
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

def check_win(board, player):
    return any(all(board[i] == player for i in line) for line in LINES)

def is_full(board):
    return "_" not in board

def minimax(board, depth, is_max):
    if check_win(board, "X"):
        return 10 - depth
    if check_win(board, "O"):
        return depth - 10
    if is_full(board):
        return 0
    best = -math.inf if is_max else math.inf
    for i in range(9):
        if board[i] == "_":
            board[i] = "X" if is_max else "O"
            value = minimax(board, depth + 1, not is_max)
            board[i] = "_"
            best = max(best, value) if is_max else min(best, value)
    return best

def best_move(board):
    moves = [i for i in range(9) if board[i] == "_"]
    def worth(i):
        board[i] = "X"
        value = minimax(board, 1, False)
        board[i] = "_"
        return value
    return max(moves, key=worth)
"""


def _infer(source: str) -> tuple[Draft, EncodingChoice | None]:
    draft, choice, _, _ = in_process_inference("import math\n" + source)
    return draft, choice


def in_process_inference(
    source: str, other_game: Callable[[], bool] = lambda: False
) -> tuple[Draft, EncodingChoice | None, Prober, Discovered]:
    """Init's inference on ``source`` run in this process, with the prober and what was discovered;
    ``other_game`` as `infer` takes it."""
    runner = InProcessRunner(source)
    names = runner.executor.defined_names(hidden=("__name__", "__builtins__"))
    defined = DefinedNames(
        tuple(names["functions"]), {k: tuple(v) for k, v in names["classes"].items()}, tuple(names["variables"])
    )
    notebook = notebook_from_script(source)
    discovered = discover(notebook, defined)
    prober = Prober(runner, frozenset(runner.defined_names()), 5.0)
    encodings = candidate_encodings(seen := source_literals(notebook))
    draft, choice = infer(prober, discovered, encodings, None, seen.boards, other_game)
    return draft, choice, prober, discovered


@pytest.fixture(scope="module")
def flat_underscore() -> tuple[Draft, EncodingChoice | None]:
    return _infer(FLAT_UNDERSCORE)


def test_the_encoding_is_the_one_every_function_answers_under(
    flat_underscore: tuple[Draft, EncodingChoice | None],
) -> None:
    draft, choice = flat_underscore
    assert choice is not None
    encoding = choice.conventions.encoding
    assert (encoding.layout, encoding.container, encoding.empty, encoding.x, encoding.o) == (
        "flat",
        "list",
        "_",
        "X",
        "O",
    )
    assert draft.board is not None and draft.board.fields["empty"] == "_"
    assert not choice.near_misses


def test_conventions_come_with_their_evidence(flat_underscore: tuple[Draft, EncodingChoice | None]) -> None:
    draft, _ = flat_underscore
    fields = {f.name: f for f in draft.fields}
    assert fields["maximizer"].value == "X"
    assert fields["scoring"].value == "depth-adjusted"
    assert all(f.evidence for f in draft.fields)
    # Both players could have begun: the answers do not say, so it is left to the author.
    assert "first_player" in {u.name for u in draft.undecided}


def test_each_function_gets_the_check_of_its_role(flat_underscore: tuple[Draft, EncodingChoice | None]) -> None:
    draft, _ = flat_underscore
    roles = {c.role: c for c in draft.checks}
    assert roles["win-test"].params == predicates.Params(call("check_win(board, player)"), "wins", "arbitrary")
    assert roles["draw-test"].params.expect == "full"
    assert roles["minimax"].params.call.text == "minimax(board, 0, is_max)"
    assert roles["best-move"].params.to_move == "X"
    assert roles["never-loses"].params.ai == "X"


def test_the_written_toml_loads_as_it_was_inferred(
    flat_underscore: tuple[Draft, EncodingChoice | None], tmp_path: Path
) -> None:
    draft, _ = flat_underscore
    text = render_toml(draft.spec("flat", "Flat", call_timeout=20.0), draft, source="flat.ipynb")
    (tmp_path / "assignment.toml").write_text(text, encoding="utf-8")
    assignment = load_assignment(tmp_path)
    assert assignment.scoring == "depth-adjusted" and assignment.maximizer == "X"
    assert assignment.encoding.empty == "_"
    assert [c.id for c in assignment.checks] == [c.id for c in draft.checks]
    assert "# first_player = " in text  # undecided: commented out, with the candidates
    assert 'maximizer = "X"  # ' in text


@pytest.mark.parametrize("solution", ["flat_underscore", "state_class"])
def test_the_written_toml_loads_back_to_the_assignment_init_grades(
    solution: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Init grades the drafted assignment in memory and writes it once: what it writes must
    be what it graded, every check's own parameters included."""
    draft, _ = request.getfixturevalue(solution)
    spec = draft.spec("drafted", "Drafted", cell_timeout=60.0, call_timeout=20.0)
    graded = assignment_from(spec, tmp_path / "assignment.toml")
    assert len(graded.checks) == len(draft.checks) >= 4
    (tmp_path / "assignment.toml").write_text(render_toml(spec, draft, source="s.ipynb"), encoding="utf-8")
    assert load_assignment(tmp_path) == graded


def test_a_win_test_that_misses_a_line_makes_the_solution_wrong() -> None:
    source = FLAT_UNDERSCORE.replace(", (2, 4, 6)]", "]")
    draft, choice = _infer(source)
    assert choice is not None
    (miss,) = choice.near_misses
    assert miss.function == "check_win" and miss.agreed < miss.asked
    assert "check_win" in miss.sentence()


def test_a_sorting_notebook_is_not_tic_tac_toe() -> None:
    draft, choice = _infer("def bubble(items):\n    return sorted(items)\n")
    assert choice is None and not draft.checks


@pytest.mark.parametrize(
    ("params", "slots"),
    [
        ("board, player", ("board", "player")),
        ("b, player, alpha, beta", ("board", "player", "alpha", "beta")),
        ("state, depth, maximizing_player", ("board", "depth", "is_max")),
        ("board, is_max, max_depth=3", ("board", "is_max", "depth_limit")),
        ("board, callback", None),
    ],
)
def test_parameters_are_read_by_their_names(params: str, slots: tuple[str, ...] | None) -> None:
    source = f"def f({params}):\n    return 0\n"
    names = DefinedNames(("f",), {}, ())
    (function,) = discover(notebook_from_script(source), names).functions
    signature = read_signature(function)
    assert (signature.slots if signature else None) == slots


def test_the_handout_keeps_signatures_and_docstrings() -> None:
    source = 'def f(board):\n    """Say who won."""\n    return 1\n\nclass G:\n    def m(self):\n        x = 1\n        return x\n'
    stubbed = stub_source(source)
    assert 'def f(board):\n    """Say who won."""\n    raise NotImplementedError' in stubbed
    assert "    def m(self):\n        raise NotImplementedError" in stubbed
    assert "return" not in stubbed
    assert math.isfinite(len(stubbed))


def test_each_plain_function_gets_the_other_names_of_its_job(
    flat_underscore: tuple[Draft, EncodingChoice | None], tmp_path: Path
) -> None:
    draft, _ = flat_underscore
    assert "check_winner" in draft.aliases["check_win"]
    # `is_full` is a full-board test: named like one, never like a draw test
    assert "is_board_full" in draft.aliases["is_full"] and "is_draw" not in draft.aliases["is_full"]
    assert "find_best_move" in draft.aliases["best_move"]
    text = render_toml(draft.spec("flat", "Flat"), draft, source="s")
    (tmp_path / "assignment.toml").write_text(text, encoding="utf-8")
    assert load_assignment(tmp_path).names_for("check_win")[:3] == ("check_win", "checkWin", "check_winner")


def test_an_alias_is_never_a_name_the_solution_defines_nor_given_twice() -> None:
    aliases = aliases_for([("check_win", "wins"), ("winner", "winner")], defined={"check_win", "winner", "is_winner"})
    assert "is_winner" not in aliases["check_win"] and "winner" not in aliases["check_win"]
    assert not set(aliases["check_win"]) & set(aliases["winner"])
    assert "check_winner" in aliases["check_win"]


GLOBAL_BOARD = """
board = ["_"] * 9

def winner():
    return check(board)

def check(cells):
    return cells[0] if cells[0] == cells[1] == cells[2] != "_" else None

def play_again():
    board = ["_"] * 9
    return board

def reset():
    global board
    board = ["_"] * 9
"""


def test_a_function_is_probed_on_a_global_board_only_when_its_code_may_read_it() -> None:
    names = DefinedNames(("winner", "check", "play_again", "reset"), {}, ("board",))
    discovered = discover(notebook_from_script(GLOBAL_BOARD), names)

    def reads(name: str) -> bool:
        function = discovered.function(name)
        assert function is not None
        return discovered.may_read(function, "board")

    assert reads("winner")  # through no call: it names the global itself
    assert reads("reset")  # declared global
    assert not reads("play_again")  # its own board, a local
    assert not reads("check")  # takes the board as an argument


def test_the_screening_boards_tell_every_board_test_apart() -> None:
    boards = [board_of(b) for b in screening_positions()]
    assert set(boards) <= set(predicate_positions())
    full = [b.is_full() for b in boards]
    drawn = [b.is_full() and not b.winners() for b in boards]
    over = [b.is_terminal() for b in boards]
    won_by = [frozenset(b.winners()) for b in boards]
    assert len({tuple(full), tuple(drawn), tuple(over)}) == 3  # full, draw, finished: three answers
    assert {frozenset({"X"}), frozenset({"O"}), frozenset()} <= set(won_by)
    assert len({len(b.empty_cells()) for b in boards if not b.is_terminal()}) > 1


@pytest.mark.parametrize(
    ("turn", "first"),
    [
        ('"X" if board.count("X") <= board.count("O") else "O"', "X"),
        ('"O" if board.count("O") <= board.count("X") else "X"', "O"),
    ],
)
def test_a_function_naming_the_side_to_move_decides_who_moves_first(turn: str, first: str) -> None:
    draft, choice = _infer(FLAT_UNDERSCORE + f"\ndef player(board):\n    return {turn}\n")
    assert choice is not None
    fields = {f.name: f for f in draft.fields}
    assert fields["first_player"].value == first
    assert "`player`" in fields["first_player"].evidence
    assert "first_player" not in {u.name for u in draft.undecided}
    (check,) = [c for c in draft.checks if c.id == "player"]
    assert check.params.expect == "to-move" and check.params.boards == "unfinished"


def test_who_moves_first_stays_open_when_the_turn_function_ignores_the_marks() -> None:
    draft, _ = _infer(FLAT_UNDERSCORE + '\ndef player(board):\n    return "X"\n')
    assert "first_player" in {u.name for u in draft.undecided}


def _state_class_source() -> str:
    """The depth-limits solution's imports and its State class: a board built into an object."""
    notebook = nbformat.read(DEPTH_LIMITS / "solution.ipynb", as_version=4)
    cells = [c.source for c in notebook.cells if c.cell_type == "code"]
    return "\n\n".join(c for c in cells if c.startswith(("import", "class State")))


@pytest.fixture(scope="module")
def state_class() -> tuple[Draft, EncodingChoice | None]:
    return _infer(_state_class_source())


def test_a_class_made_from_the_board_is_called_through_its_constructor(
    state_class: tuple[Draft, EncodingChoice | None],
) -> None:
    draft, choice = state_class
    assert choice is not None and choice.conventions.location.where == "argument"
    calls = {
        c.kind + ":" + getattr(c.params, "expect", ""): c.params.call.text
        for c in draft.checks
        if hasattr(c.params, "call")
    }
    assert calls["predicate:outcome"] == "State(board, to_move).terminal_test()"
    assert calls["predicate:legal-moves"] == "State(board, to_move).possible_actions()"
    assert calls["search-value:"] == "State(board, to_move, max_depth=9).minmax('max')"
    assert calls["depth-limited:"] == "State(board, to_move, max_depth=depth_limit).minmax('max')"
    outcome = next(c for c in draft.checks if getattr(c.params, "expect", None) == "outcome")
    assert outcome.params.codes == {"X": 1, "O": 2, "tie": -1, "ongoing": 0}
    assert {f.name: f.value for f in draft.fields}["maximizer"] == "to-move"
    assert "State" not in draft.aliases  # a class is not a plain function with a job


def test_the_depth_limit_is_raised_to_a_full_game_with_its_evidence(
    state_class: tuple[Draft, EncodingChoice | None],
) -> None:
    draft, _ = state_class
    search = next(c for c in draft.checks if c.kind == "search-value")
    assert "max_depth (default 3)" in search.evidence and "given 9" in search.evidence
    assert "strategy = 'max'" in search.evidence
    limited = next(c for c in draft.checks if c.kind == "depth-limited")
    assert "(max_depth)" in limited.evidence
    # The turn each object is told cannot say who began the game.
    assert not any("who moves first" in n for n in draft.notes)


def test_a_string_argument_is_the_candidate_that_reproduces_the_reference() -> None:
    # No default, and the code names both strategies: only "max" makes the side to move maximize.
    source = _state_class_source().replace(
        'def minmax(self, strategy="max"):', 'def minmax(self, strategy):\n        assert strategy in ("min", "max")'
    )
    draft, choice = _infer(source)
    assert choice is not None
    search = next(c for c in draft.checks if c.kind == "search-value")
    assert search.params.call.text == "State(board, to_move, max_depth=9).minmax('max')"


def test_a_constructor_is_read_as_a_maker_of_boards() -> None:
    source = (
        "class S:\n"
        "    def __init__(self, gameplan, player, current_player=None, depth=0, max_depth=3):\n"
        "        self.gameplan = gameplan\n"
        "    def search(self, mode, alpha, beta):\n"
        "        return 0 if mode == 'max' or mode != 'min' else 1\n"
        "class T:\n"
        "    def __init__(self, callback, board):\n"
        "        pass\n"
    )
    found = discover(notebook_from_script(source), DefinedNames((), {"S": ("search",), "T": ()}, ()))
    constructor = read_constructor("S", found.classes["S"])
    assert constructor is not None
    assert constructor.slots == ("board", "to_move")
    assert constructor.keywords == (("max_depth", "depth_limit"),) and constructor.defaults == ("3",)
    assert read_constructor("T", found.classes["T"]) is None  # a first argument that is no board
    (method,) = found.functions
    texts = [s.call_text(depth_limit=False) for s in read_signatures(method, constructor)]
    assert texts == [
        "S(board, to_move, max_depth=9).search('max', alpha, beta)",
        "S(board, to_move, max_depth=9).search('min', alpha, beta)",
    ]


@pytest.mark.parametrize(
    "seconds, least, limit",
    [(0.4, 30.0, 30.0), (30.0, 30.0, 30.0), (30.5, 30.0, 60.0), (62.5, 30.0, 120.0), (3500.0, 300.0, 4800.0)],
)
def test_a_time_limit_covers_what_the_solution_took(seconds: float, least: float, limit: float) -> None:
    assert generous_limit(seconds, least) == limit


def test_a_time_limit_stays_put_when_the_machine_is_busier() -> None:
    # The same solution timed on a quiet and on a loaded machine: 7.1 s and 8.3 s for its slowest cell.
    assert generous_limit(5 * 7.1, 30.0) == generous_limit(5 * 8.3, 30.0) == 60.0


def test_a_solution_init_cannot_read_names_what_ran_out_of_time_not_what_crashed() -> None:
    board = Board.from_string("X........")
    hangs = [ProbeHang("minimax", board, True, 2.0), ProbeHang("evaluate", board, False, 2.0)]
    with pytest.raises(InitFailed) as raised:
        _require_recognized(Discovered((), {}, ()), Draft(), None, hangs)
    assert "(`minimax` did not return within 2 s on X........; not checked)" in str(raised.value)
    assert "evaluate" not in str(raised.value)


def _search_check(draft: Draft, function: str) -> DraftCheck:
    return next(c for c in draft.checks if c.kind == "search-value" and c.call and c.call.function == function)


def test_what_the_search_answers_on_a_finished_game_is_asked_of_the_students() -> None:
    """`best_move` above searches a won board like any other; a version that returns None there
    writes `finished = "none"`, and a minimax that scores a finished board writes "value"."""
    guarded = FLAT_UNDERSCORE.replace(
        "def best_move(board):\n",
        "def best_move(board):\n    if check_win(board, 'X') or check_win(board, 'O') or is_full(board):\n        return None\n",
    )
    draft, _ = _infer(guarded)
    best = _search_check(draft, "best_move")
    assert best.params.finished == "none"
    assert "best_move returns None on all" in best.evidence
    assert _search_check(draft, "minimax").params.finished == "value"
    unguarded, _ = _infer(FLAT_UNDERSCORE)
    assert _search_check(unguarded, "best_move").params.finished == "not-asked"


SET_BY_A_METHOD = """
class Match:
    def __init__(self):
        self.start()

    def start(self):
        self.turn = 'X'
        self.scores = {'X': 0, 'O': 0}
        self.pos = [' '] * 9

    def won(self, mark):
        lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
        return any(self.pos[a] == self.pos[b] == self.pos[c] == mark for a, b, c in lines)

    def value(self, maximizing):
        if self.won('O'):
            return 1
        if self.won('X'):
            return -1
        free = [i for i in range(9) if self.pos[i] == ' ']
        if not free:
            return 0
        scores = []
        for i in free:
            self.pos[i] = "O" if maximizing else "X"
            scores.append(self.value(not maximizing))
            self.pos[i] = ' '
        return max(scores) if maximizing else min(scores)

    def computer_plays(self):
        best, cell = -2, None
        for i in range(9):
            if self.pos[i] == ' ':
                self.pos[i] = 'O'
                v = self.value(False)
                self.pos[i] = ' '
                if v > best:
                    best, cell = v, i
        self.pos[cell] = 'O'

    def game(self):
        while not self.won('X'):
            self.pos[int(input('cell: '))] = 'X'
            self.computer_plays()
"""


def test_a_board_attribute_set_outside_the_constructor_is_found_by_what_it_holds() -> None:
    draft, choice = _infer(SET_BY_A_METHOD)
    assert choice is not None
    location = choice.conventions.location
    assert (location.where, location.name) == ("attribute", "pos")  # not a board's name: read from its value
    checks = {c.id: c for c in draft.checks}
    value = checks["match-value"]
    assert value.kind == "search-value" and value.params.call.text == "game.value(is_max)"
    played = checks["match-computer-plays"].params
    assert played.in_place and played.returns == ("move",) and played.to_move == "O"
    assert checks["match-computer-plays-never-loses"].params.in_place
    assert "`Match.game` reads input(): a game loop, not probed." in draft.notes


def test_the_attributes_a_constructor_sets_include_those_of_the_methods_it_calls() -> None:
    names = DefinedNames((), {"Match": ("start", "won", "value", "computer_plays", "game")}, ())
    found = discover(notebook_from_script(SET_BY_A_METHOD), names)
    assert found.attributes == {"Match": ("turn", "scores", "pos")}
