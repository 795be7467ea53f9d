"""Does a spec written by `grader init` grade like the hand-written one? A table per built-in
assignment: for every fixture submission (tests/submissions/<id>/) and every check the two
specs share, the status under each; disagreements are marked.

    .venv/bin/python bench/init_agreement.py [--only ID ...] [--sandbox auto]

Two checks are shared when they are of the same kind and call the same student function
(a predicate on `check_win`, a search value of `minimax`, ...). Exit status 0 when every
shared check agrees.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader.authoring.create import InitRequest, create_assignment  # noqa: E402
from grader.cli.options import SANDBOX_CHOICES  # noqa: E402
from grader.execution.sandbox import SandboxChoice  # noqa: E402
from grader.grading import GradingOptions, grade_submission  # noqa: E402
from grader.spec.loader import list_assignments, load_assignment  # noqa: E402
from grader.spec.model import Assignment, Check  # noqa: E402


def check_key(check: Check[Any]) -> tuple[str, str] | None:
    """(kind, the function it calls): how the two specs' checks are matched."""
    for field in ("call", "minimax_call"):
        template = getattr(check.params, field, None)
        if template is not None:
            function = template.chain[-1].name if template.chain else template.function
            return check.kind, function.rsplit(".", 1)[-1]
    return (check.kind, "") if check.kind == "runs-cleanly" else None


def shared_checks(hand: Assignment, written: Assignment) -> list[tuple[str, str]]:
    """(hand-written id, init's id) for the checks both specs have."""
    mine = {check_key(c): c.id for c in written.checks if check_key(c) is not None}
    return [(c.id, mine[key]) for c in hand.checks if (key := check_key(c)) is not None and key in mine]


def compare(assignment_id: str, scratch: Path, sandbox: SandboxChoice) -> int:
    hand = load_assignment(assignment_id)
    out = scratch / assignment_id
    report = create_assignment(InitRequest(hand.solution_path, out, sandbox=sandbox))
    if report.return_code != 0:
        print(f"## {assignment_id}: init wrote nothing: {report.failure}\n")
        return 1
    written = load_assignment(out)
    pairs = shared_checks(hand, written)
    hand_only = sorted({c.id for c in hand.checks} - {h for h, _ in pairs})
    print(f"## {assignment_id}: {len(pairs)} shared checks; only hand-written: {', '.join(hand_only) or 'none'}")
    print(f"{'submission':34} {'hand-written check':24} {'init check':24} {'hand':8} {'init':8}")
    disagreements = 0
    options = GradingOptions(sandbox=sandbox)
    submissions = sorted((REPO / "tests" / "submissions" / assignment_id).glob("*.ipynb"))
    for submission in [hand.solution_path, *submissions]:
        by_hand = {c.check_id: c.status.value for c in grade_submission(submission, hand, options).checks}
        by_init = {c.check_id: c.status.value for c in grade_submission(submission, written, options).checks}
        for hand_id, init_id in pairs:
            agree = by_hand[hand_id] == by_init[init_id]
            disagreements += not agree
            mark = "" if agree else "  <-- differs"
            name = submission.stem if submission != hand.solution_path else "(solution)"
            print(f"{name:34} {hand_id:24} {init_id:24} {by_hand[hand_id]:8} {by_init[init_id]:8}{mark}", flush=True)
    print(f"{disagreements} disagreement(s)\n")
    return disagreements


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--sandbox", choices=SANDBOX_CHOICES, default="auto")
    args = parser.parse_args()
    total = 0
    with tempfile.TemporaryDirectory() as scratch:
        for assignment_id in args.only or list_assignments():
            total += compare(assignment_id, Path(scratch), args.sandbox)
    return 0 if total == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
