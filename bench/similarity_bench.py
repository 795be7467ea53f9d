"""What the similarity check costs a class: compare_submissions on N generated submissions.

    .venv/bin/python bench/similarity_bench.py [--count 200] [--runs 3] [--seed 0]

The class is built from every bundled notebook (``examples/*/`` and ``tests/submissions/*/``,
five assignments, the broken uploads included): each student takes one of them, renames a
random share of its identifiers, shuffles its definition cells and, one time in five, hands
it in as a ``.py`` file. So there are true copies in the class (the same base disguised)
next to unrelated code. lab05's template and solution are the boilerplate. Reading the
files is part of the time, as it is after a batch; for scale, the time read_submission takes
on every file is printed too (the check reads plain notebooks' JSON itself).

Goal: at most a few seconds (3 s) for 200 submissions on a 2-core machine. Exits 1 when missed.
"""

from __future__ import annotations

import argparse
import io
import json
import keyword
import random
import statistics
import sys
import tempfile
import time
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.similarity.compare import compare_submissions  # noqa: E402
from grader.submission.reader import SubmissionUnreadable, read_submission  # noqa: E402

GOAL_SECONDS = 3.0
NAMES = ["tmp", "val", "res", "grid", "cells", "pos", "score", "best", "cur", "nxt", "aux", "flag", "acc", "item"]


def base_notebooks() -> list[Path]:
    folders = sorted((REPO / "examples").glob("*/")) + sorted((REPO / "tests" / "submissions").glob("*/"))
    return [path for folder in folders for path in sorted(folder.glob("*.ipynb"))]


def renamed(source: str, renames: dict[str, str]) -> str:
    """``source`` with the identifiers in ``renames`` replaced (strings and comments untouched)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return source
    lines = source.splitlines(keepends=True)
    for token in reversed(tokens):
        if token.type == tokenize.NAME and token.string in renames and token.start[0] == token.end[0]:
            row, start = token.start
            line = lines[row - 1]
            lines[row - 1] = line[:start] + renames[token.string] + line[token.end[1] :]
    return "".join(lines)


def identifiers(source: str) -> set[str]:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return set()
    return {t.string for t in tokens if t.type == tokenize.NAME and not keyword.iskeyword(t.string)}


def disguised(base: Path, rng: random.Random, folder: Path, student: str) -> Path:
    """A student's copy of ``base``: some identifiers renamed, definition cells shuffled."""
    try:
        notebook = read_submission(base).notebook
    except SubmissionUnreadable:  # a broken upload stays broken: the check must skip it
        target = folder / f"{student}.ipynb"
        target.write_bytes(base.read_bytes())
        return target
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    names = sorted(set().union(*(identifiers(cell.source) for cell in code)))
    chosen = rng.sample(names, k=len(names) // 3)
    renames = {name: f"{rng.choice(NAMES)}_{n}" for n, name in enumerate(chosen)}
    for cell in code:
        cell.source = renamed(cell.source, renames)
    definitions = [
        index
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and cell.source.lstrip().startswith("def ")
    ]
    moved = [notebook.cells[index] for index in definitions]
    rng.shuffle(moved)
    for index, cell in zip(definitions, moved):
        notebook.cells[index] = cell
    if rng.random() < 0.2:
        target = folder / f"{student}.py"
        target.write_text("\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code") + "\n")
    else:
        target = folder / f"{student}.ipynb"
        target.write_text(json.dumps(notebook), encoding="utf-8")
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bases = base_notebooks()
    lab05 = REPO / "assignments" / "lab05"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        submissions = [
            (f"student{n:03d}", disguised(bases[n % len(bases)], rng, folder, f"student{n:03d}"))
            for n in range(args.count)
        ]
        size = sum(path.stat().st_size for _, path in submissions)
        walls, cpus = [], []
        for _ in range(args.runs):
            wall, cpu = time.perf_counter(), time.process_time()
            report = compare_submissions(
                submissions, handout=lab05 / "template.ipynb", solution=lab05 / "solution.ipynb"
            )
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        reading = time.perf_counter()
        for _, path in submissions:
            try:
                read_submission(path)
            except SubmissionUnreadable:
                pass
        reading = time.perf_counter() - reading
    median = statistics.median(walls)
    handout_rows = sum(pair.handout for pair in report.pairs)
    print(f"{args.count} submissions ({size / 1e6:.1f} MB, {len(bases)} distinct bases), {report.compared} readable")
    print(f"pairs listed: {len(report.pairs) - handout_rows}, handout rows: {handout_rows}")
    print(f"compare_submissions: median {median:.2f} s wall, {statistics.median(cpus):.2f} s CPU, of {args.runs} runs")
    print(
        f"  runs: {', '.join(f'{t:.2f}' for t in walls)} s; read_submission on every file, for scale: {reading:.2f} s"
    )
    print(f"goal: at most {GOAL_SECONDS:.0f} s: {'met' if median <= GOAL_SECONDS else 'MISSED'}")
    return 0 if median <= GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
