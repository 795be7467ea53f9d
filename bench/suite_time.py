"""Where the test suite's time goes: per module and per test, from a JUnit XML report.

Run the suite as `make test` does, with a report::

    .venv/bin/python -m pytest -n auto --dist loadscope --no-loadscope-reorder -q --junitxml=/tmp/suite.xml
    .venv/bin/python bench/suite_time.py /tmp/suite.xml --wall 1541

The figures: the tests' summed time, how busy the workers were over the wall time given
(``--wall``, the seconds pytest printed, and ``--workers``), the modules by their summed time
(a module runs whole on one worker under ``--dist loadscope``, so the longest is the least the
suite can take), and the longest tests. A test's time is its setup, call and teardown, so a
module-scoped fixture counts in the first test that uses it.
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path


def _module(classname: str) -> str:
    """``tests.grading.test_x`` (and ``tests.grading.test_x.TestClass``) -> the module's path."""
    parts = classname.split(".")
    for end in range(len(parts), 0, -1):
        if parts[end - 1].startswith("test_"):
            return "/".join(parts[:end]) + ".py"
    return "/".join(parts) + ".py"


def read_times(report: Path) -> list[tuple[str, str, float]]:
    """(module, test name, seconds) for every test case in the report."""
    return [
        (_module(case.get("classname", "")), case.get("name", ""), float(case.get("time", 0.0)))
        for case in ET.parse(report).iter("testcase")
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="the JUnit XML report pytest wrote (--junitxml)")
    parser.add_argument("--wall", type=float, help="the run's wall time in seconds, as pytest printed it")
    parser.add_argument("--workers", type=int, default=2, help="how many workers ran the tests (default 2)")
    parser.add_argument("--top", type=int, default=15, help="how many modules and tests to list (default 15)")
    args = parser.parse_args(argv)
    times = read_times(args.report)
    total = sum(seconds for _, _, seconds in times)
    print(f"{len(times)} tests, {total:.0f} s summed")
    if args.wall:
        print(f"workers busy {total / (args.wall * args.workers):.0%} of {args.workers} x {args.wall:.0f} s")
    by_module: dict[str, list[float]] = defaultdict(list)
    for module, _, seconds in times:
        by_module[module].append(seconds)
    print(f"\nmodules by summed time (top {args.top}): seconds, tests, share")
    for module, seconds in sorted(by_module.items(), key=lambda item: -sum(item[1]))[: args.top]:
        print(f"{sum(seconds):8.1f} {len(seconds):5d} {sum(seconds) / total:6.1%}  {module}")
    print(f"\nlongest tests (top {args.top}): seconds")
    for module, name, seconds in sorted(times, key=lambda item: -item[2])[: args.top]:
        print(f"{seconds:8.1f}  {module}::{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
