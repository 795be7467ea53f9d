"""What counting and tracing a search cost: one student alpha-beta from the empty board.

    .venv/bin/python bench/trace_bench.py [--repeat 5]

Side by side, median of ``--repeat`` runs: the student's call alone; the same call with
the exploration recorder counting nodes; with it also recording each node's position
(``board_reader``, the snapshot the kernel uses: the 9 cells of the board argument or of
seed 003's global ``current_state``) and packing the positions for the channel; and the
reference producing the same exploration. Two student styles:
seed 003 (``min_alpha_beta(-2, 2)``, global board, mutual recursion, 18,297 nodes) and
seed 004 (``minimaxAB(board, 0, False, -inf, inf)``, board argument). The recorder has
already seen the code once (as in a kernel after the first counted call); the first run's
extra cost (snapshots of helpers not yet known) is printed apart.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.execution.channel.exploration import ExplorationRecorder, board_reader, pack_boards  # noqa: E402
from reference.search import SearchSpec  # noqa: E402
from reference.tictactoe import Board  # noqa: E402
from reference.trace import alphabeta_trace  # noqa: E402

SEED_003 = """
def is_end():
    for i in range(0, 3):
        if (current_state[0][i] in ['X', 'O'] and current_state[0][i] == current_state[1][i]
                and current_state[1][i] == current_state[2][i]):
            return current_state[0][i]
    for i in range(0, 3):
        if current_state[i] == ['X', 'X', 'X']:
            return 'X'
        elif current_state[i] == ['O', 'O', 'O']:
            return 'O'
    if (current_state[0][0] in ['X', 'O'] and current_state[0][0] == current_state[1][1]
            and current_state[0][0] == current_state[2][2]):
        return current_state[0][0]
    if (current_state[0][2] in ['X', 'O'] and current_state[0][2] == current_state[1][1]
            and current_state[0][2] == current_state[2][0]):
        return current_state[0][2]
    for i in range(0, 3):
        for j in range(0, 3):
            if current_state[i][j] not in ['X', 'O']:
                return None
    return 'tie'

def max_alpha_beta(alpha, beta):
    maxv, px, py = -2, None, None
    result = is_end()
    if result == 'X':
        return (-1, 0, 0)
    elif result == 'O':
        return (1, 0, 0)
    elif result == 'tie':
        return (0, 0, 0)
    for i in range(0, 3):
        for j in range(0, 3):
            if current_state[i][j] not in ['X', 'O']:
                temp = current_state[i][j]
                current_state[i][j] = 'O'
                (m, min_i, min_j) = min_alpha_beta(alpha, beta)
                if m > maxv:
                    maxv, px, py = m, i, j
                current_state[i][j] = temp
                if maxv >= beta:
                    return (maxv, px, py)
                if maxv > alpha:
                    alpha = maxv
    return (maxv, px, py)

def min_alpha_beta(alpha, beta):
    minv, qx, qy = 2, None, None
    result = is_end()
    if result == 'X':
        return (-1, 0, 0)
    elif result == 'O':
        return (1, 0, 0)
    elif result == 'tie':
        return (0, 0, 0)
    for i in range(0, 3):
        for j in range(0, 3):
            if current_state[i][j] not in ['X', 'O']:
                temp = current_state[i][j]
                current_state[i][j] = 'X'
                (m, max_i, max_j) = max_alpha_beta(alpha, beta)
                if m < minv:
                    minv, qx, qy = m, i, j
                current_state[i][j] = temp
                if minv <= alpha:
                    return (minv, qx, qy)
                if minv < beta:
                    beta = minv
    return (minv, qx, qy)

current_state = [['1', '2', '3'], ['4', '5', '6'], ['7', '8', '9']]
"""

SEED_004 = """
def check_win(board, player):
    for combo in [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]:
        if board[combo[0]] == board[combo[1]] == board[combo[2]] == player:
            return True
    return False

def check_draw(board):
    return " " not in board and not check_win(board, "X") and not check_win(board, "O")

def minimaxAB(board, depth, maximizing_player, alpha, beta):
    if check_win(board, "O"):
        return 1
    if check_win(board, "X"):
        return -1
    if check_draw(board):
        return 0
    if maximizing_player:
        max_eval = -float("inf")
        for i in range(9):
            if board[i] == " ":
                board[i] = "O"
                eval = minimaxAB(board, depth + 1, False, alpha, beta)
                board[i] = " "
                max_eval = max(max_eval, eval)
                alpha = max(alpha, eval)
                if beta <= alpha:
                    break
        return max_eval
    else:
        min_eval = float("inf")
        for i in range(9):
            if board[i] == " ":
                board[i] = "X"
                eval = minimaxAB(board, depth + 1, True, alpha, beta)
                board[i] = " "
                min_eval = min(min_eval, eval)
                beta = min(beta, eval)
                if beta <= alpha:
                    break
        return min_eval
"""


_global_board = board_reader("current_state", ["X", "O", [str(n) for n in range(1, 10)]])
_board_argument = board_reader(None, ["X", "O", [" "]])


def _median(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench(name: str, source: str, call: Callable[[dict[str, Any]], object], snapshot: Callable, repeat: int) -> None:
    namespace: dict[str, Any] = {}
    exec(compile(source, "/tmp/ipykernel_1/bench.py", "exec"), namespace)
    recorder = ExplorationRecorder()

    def recorded(snap: Callable | None) -> Callable[[], object]:
        def run() -> object:
            recorder.start(snapshot=snap)
            try:
                call(namespace)
            finally:
                exploration = recorder.stop()
            if exploration.steps is not None:
                pack_boards(exploration.steps)  # what crosses the channel
            return exploration

        return run

    first = time.perf_counter()
    exploration = recorded(snapshot)()
    first = time.perf_counter() - first
    assert exploration.complete, exploration  # type: ignore[attr-defined]
    plain = _median(repeat, lambda: call(namespace))
    counted = _median(repeat, recorded(None))
    traced = _median(repeat, recorded(snapshot))
    reference = _median(repeat, lambda: alphabeta_trace(Board.empty(), SearchSpec(), alpha=-2, beta=2))
    nodes = exploration.nodes  # type: ignore[attr-defined]
    print(f"{name}: {nodes:,} nodes, median of {repeat}")
    print(f"  {'student call':<28}{plain * 1000:8.1f} ms   1.00x")
    for label, seconds in (("counted", counted), ("counted + traced", traced), ("traced, first run", first)):
        print(f"  {label:<28}{seconds * 1000:8.1f} ms  {seconds / plain:5.2f}x")
    print(f"  {'reference trace':<28}{reference * 1000:8.1f} ms  ({reference / plain:4.2f}x the student call)")
    print(
        f"  {'per node: counting':<28}{(counted - plain) / nodes * 1e6:8.2f} us, tracing {(traced - plain) / nodes * 1e6:.2f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    bench(
        "seed 003 (global board, max/min pair)",
        SEED_003,
        lambda ns: ns["min_alpha_beta"](-2, 2),
        _global_board,
        args.repeat,
    )
    bench(
        "seed 004 (board argument, minimaxAB)",
        SEED_004,
        lambda ns: ns["minimaxAB"]([" "] * 9, 0, False, -float("inf"), float("inf")),
        _board_argument,
        args.repeat,
    )


if __name__ == "__main__":
    main()
