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

from grader.execution.channel.kernel.board_reading import board_reader, pack_boards  # noqa: E402
from grader.execution.channel.kernel.exploration import ExplorationRecorder  # noqa: E402
from reference.search import SearchSpec  # noqa: E402
from reference.tictactoe import Board  # noqa: E402
from reference.trace import alphabeta_trace  # noqa: E402
from tests.seed_sources import LAB05_SOLUTION, SEED_003_ALPHABETA  # noqa: E402

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
        SEED_003_ALPHABETA,
        lambda ns: ns["min_alpha_beta"](-2, 2),
        _global_board,
        args.repeat,
    )
    bench(
        "seed 004 (board argument, minimaxAB)",
        LAB05_SOLUTION,
        lambda ns: ns["minimaxAB"]([" "] * 9, 0, False, -float("inf"), float("inf")),
        _board_argument,
        args.repeat,
    )


if __name__ == "__main__":
    main()
