"""How far is what `grader release` writes for a built-in, from its marked answer key alone, from
the built-in's own assignment.toml? Per built-in: the assignment's fields that differ, then each
check: equal, differing (the fields and both values), or written by one side only.

    .venv/bin/python bench/release_init_gap.py [--only ID ...] [--sandbox auto]

The master is the built-in's solution with the handout's functions between nbgrader's markers
(`tests.release.marking`), released into an empty folder, so that init writes the assignment
(the built-in's scripted input given as ``--stdin``). Checks are matched as
`bench/init_agreement.py` matches them: same kind, same student function. Points are not
compared (init writes its defaults), nor are titles and ids.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.init_agreement import check_key  # noqa: E402
from grader.cli.options import SANDBOX_CHOICES  # noqa: E402
from grader.release.release import ReleaseRequest, release_assignment  # noqa: E402
from grader.spec.loader import BUILTIN_ASSIGNMENTS, list_assignments, load_assignment  # noqa: E402
from grader.spec.model import Assignment, Check  # noqa: E402
from tests.release.marking import write_master  # noqa: E402

FIELDS = ("encoding", "board", "maximizer", "first_player", "scoring", "move_format")


def _plain(value: Any) -> Any:
    """A call template as its text; anything else as it is."""
    return getattr(value, "text", value)


def _differences(built_in: Check[Any], written: Check[Any]) -> list[str]:
    ours, theirs = dataclasses.asdict(built_in.params), dataclasses.asdict(written.params)
    return [
        f"{name}: {_plain(getattr(built_in.params, name))!r} -> {_plain(getattr(written.params, name))!r}"
        for name in ours
        if ours[name] != theirs.get(name)
    ]


def _keyed(assignment: Assignment) -> dict[Any, Check[Any]]:
    return {check_key(c) or ("", c.id): c for c in assignment.checks}


def gap(assignment_id: str, scratch: Path, sandbox: Any) -> int:
    """Print the gap; the number of checks that are not equal."""
    folder = BUILTIN_ASSIGNMENTS / assignment_id
    master = scratch / f"{assignment_id}-master.ipynb"
    write_master(str(folder / "solution.ipynb"), str(folder / "template.ipynb"), str(master))
    stdin = folder / "STDIN.txt"
    out = scratch / "out"
    report = release_assignment(ReleaseRequest(master, out, stdin=stdin if stdin.is_file() else None, sandbox=sandbox))
    if report.failure is not None:
        print(f"## {assignment_id}: {report.failure}\n")
        return 1
    built_in, written = load_assignment(folder), load_assignment(out / assignment_id)
    print(f"## {assignment_id}: built-in {len(built_in.checks)} checks, release {len(written.checks)}")
    for name in FIELDS:
        if getattr(built_in, name) != getattr(written, name):
            print(f"  field {name}: {getattr(built_in, name)!r} -> {getattr(written, name)!r}")
    ours, theirs = _keyed(built_in), _keyed(written)
    unequal = 0
    for key, check in ours.items():
        if key not in theirs:
            print(f"  only built-in  {check.id} ({check.kind})")
            unequal += 1
            continue
        differences = _differences(check, theirs[key])
        unequal += bool(differences)
        print(f"  {'differs' if differences else 'equal':14} {check.id}: {'; '.join(differences)}".rstrip(": "))
    for key, check in theirs.items():
        if key not in ours:
            print(f"  only release   {check.id} ({check.kind})")
            unequal += 1
    if report.validation is not None and report.validation.template is not None:
        template = report.validation.template
        print(f"  the release's handout scores {template.score:g} / {template.max_score:g} under its checks")
    print()
    return unequal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--sandbox", choices=SANDBOX_CHOICES, default="auto")
    args = parser.parse_args()
    for assignment_id in args.only or list_assignments():
        with tempfile.TemporaryDirectory() as scratch:
            gap(assignment_id, Path(scratch), args.sandbox)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
