"""What a sandboxed kernel's start costs, with this launcher against another one, side by side.

    .venv/bin/python bench/kernel_start_bench.py --other-launcher OLD.py [--starts 10] [--mode bwrap]

``OLD.py`` is another version of ``grader/execution/launcher.py`` (for example
``git show 0fd2b3c:grader/execution/launcher.py > /tmp/old_launcher.py``). The two launchers
take turns, one kernel start each, so that both see the same load. For each start: the wall
time from launch until the kernel answers, and the CPU time the kernel's process spent to get
there (read from ``/proc``: the grader runs as root, so the kernel has a uid of its own and
its pid is known). Medians are printed; the CPU figure is the one a loaded machine disturbs
least.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.execution import sandbox as sandbox_module  # noqa: E402
from grader.execution.isolation import SandboxMode  # noqa: E402
from grader.execution.sandbox import Limits, Sandbox  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        text = stat.read()
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def _one_start(sandbox: Sandbox) -> tuple[float, float | None]:
    started = time.perf_counter()
    kernel = await sandbox.start_kernel(startup_timeout=60)
    wall = time.perf_counter() - started
    try:
        cpu = _cpu_seconds(kernel.pid) if kernel.pid is not None else None
    finally:
        await sandbox.stop_kernel(kernel)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other-launcher", type=Path, required=True, help="the launcher to compare with")
    parser.add_argument("--starts", type=int, default=10, help="kernel starts per launcher (default 10)")
    parser.add_argument("--mode", default="bwrap", choices=("bwrap", "limits"), help="sandbox mode (default bwrap)")
    args = parser.parse_args(argv)
    launchers = {
        "this": sandbox_module._LAUNCHER,
        "other": args.other_launcher.read_text(encoding="utf-8"),
    }
    sandbox = Sandbox(SandboxMode(args.mode), Limits())
    figures: dict[str, list[tuple[float, float | None]]] = {name: [] for name in launchers}
    try:
        for index in range(args.starts * 2):
            name = ("this", "other")[(index + index // 2) % 2]  # this, other, other, this, ...
            sandbox_module._LAUNCHER = launchers[name]
            figures[name].append(asyncio.run(_one_start(sandbox)))
    finally:
        sandbox_module._LAUNCHER = launchers["this"]
        sandbox.close()
    for name, runs in figures.items():
        walls = [wall for wall, _ in runs]
        cpus = [cpu for _, cpu in runs if cpu is not None]
        cpu_text = f"{statistics.median(cpus):.3f} s" if cpus else "unknown (no uid of its own)"
        print(
            f"{name:5} launcher: {len(runs)} starts, wall until ready median {statistics.median(walls):.3f} s, "
            f"kernel CPU median {cpu_text}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
