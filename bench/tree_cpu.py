"""The CPU time a command spends, with every process under it: sandboxed kernels included.

    .venv/bin/python bench/tree_cpu.py -- .venv/bin/python -m pytest -q -p no:xdist tests/grading/test_x.py

``/usr/bin/time`` counts a command's own time and its reaped children's: a grading's kernel runs
under bubblewrap and is not reaped by pytest, so its time is missed (53 s of user time for a
module whose kernels spent minutes). This samples ``/proc`` instead, every ``--every`` seconds,
for the command and all its descendants, and adds up each process's last user + system time:
a process that ends between two samples loses at most that interval. Linux only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time

TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, int, int]]:
    """pid -> (parent pid, user + system ticks, start time) for every process readable now."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as stat:
                text = stat.read()
        except OSError:  # it ended, or is not ours to read
            continue
        fields = text[text.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
        found[int(name)] = (int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[19]))
    return found


def _descendants(root: int, processes: dict[int, tuple[int, int, int]]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=0.25, help="seconds between samples (default 0.25)")
    parser.add_argument("command", nargs="+", help="the command to run, after --")
    args = parser.parse_args(argv)
    started = time.monotonic()
    command = subprocess.Popen(args.command)
    last: dict[tuple[int, int], int] = {}  # (pid, start time): the process's ticks when last seen
    while True:
        processes = _processes()
        for pid in _descendants(command.pid, processes):
            if pid in processes:
                _, ticks, start = processes[pid]
                last[(pid, start)] = max(last.get((pid, start), 0), ticks)
        if command.poll() is not None:
            break
        time.sleep(args.every)
    wall = time.monotonic() - started
    print(f"tree_cpu: {sum(last.values()) / TICKS:.1f} s of CPU in {wall:.0f} s, {len(last)} processes")
    return command.returncode


if __name__ == "__main__":
    raise SystemExit(main())
