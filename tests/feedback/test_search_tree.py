"""The search-tree excerpt in the student report: inline SVG, no scripts, never for a hidden
check; and the divergence written under ``figures`` and read back typed."""

from __future__ import annotations

import dataclasses
import json

from grader.check_details import NodeCountRow, NodeCounts, SearchTreeExcerpt, TreeNode
from grader.feedback.html import render_student_report
from grader.feedback.search_tree import search_tree_views, view
from grader.results import CheckResult, CheckStatus, SubmissionResult
from reference.trace import Divergence

EXCERPT = SearchTreeExcerpt(
    path=(
        TreeNode("X........", -2, 2),
        TreeNode("XOXOXO...", -2, 2),
        TreeNode("XOXOXO.X.", -2, -1, -1),
    ),
    elided=3,
    explored=("XOXOXOOX.",),
    student="XOXOXO.XO",
    reference=None,
    reference_cut_off=True,
)
DIVERGENCE = Divergence("X........", 10, "XOXOXO.XO", "XOXOXO..X")
ROW = NodeCountRow("X........", 59_705, 59_705, "max()", None, 15_993, 2_338, "max_alpha_beta(-2, 2)")


def _check(visibility: str = "public") -> CheckResult:
    return CheckResult(
        check_id="node-reduction",
        kind="node-counts",
        title="alpha-beta visits fewer nodes than minimax",
        status=CheckStatus.PARTIAL,
        score=5,
        max_score=10,
        headline="Alpha-beta prunes, but does not explore what the reference explores.",
        visibility=visibility,  # type: ignore[arg-type]
        detail=NodeCounts((ROW,), DIVERGENCE, EXCERPT),
    )


def _report(check: CheckResult) -> str:
    return render_student_report(SubmissionResult("s.ipynb", "alphabeta-challenges", (check,), None))


def test_the_divergence_is_written_under_figures_and_read_back_typed() -> None:
    data = json.loads(json.dumps(_check().to_dict()))
    assert data["figures"]["divergence"] == {
        "position": "X........",
        "step": 10,
        "student": "XOXOXO.XO",
        "reference": "XOXOXO..X",
    }
    assert CheckResult.from_dict(data) == _check()


def test_the_excerpt_draws_the_path_the_cut_off_node_and_the_students_extra_child() -> None:
    tree = view(EXCERPT, 10)
    kinds = [board.kind for board in tree.boards]
    assert kinds == ["path", "path", "path", "explored", "student"]
    cut = tree.boards[2]
    assert cut.label == "α = -2, β = -1" and "cuts off here: value -1 ≥ β" in cut.note
    assert "3 more moves" in tree.boards[0].label
    assert "you explored XOXOXO.XO" in tree.summary


def test_the_report_shows_the_tree_as_inline_svg_without_scripts() -> None:
    html = _report(_check())
    assert "Where your search parts from the reference" in html
    assert 'class="chart search-tree"' in html and "<script" not in html
    assert "the reference cuts off here: value -1 ≥ β" in html


def test_a_hidden_checks_tree_is_never_shown_to_the_student() -> None:
    hidden = _check("hidden")
    assert search_tree_views([hidden], student_facing=True) == {}
    assert "search-tree" not in _report(hidden)
    assert search_tree_views([hidden], student_facing=False).keys() == {"node-reduction"}


def test_a_check_without_a_divergence_has_no_tree() -> None:
    plain = dataclasses.replace(_check(), detail=NodeCounts((ROW,)), status=CheckStatus.PASSED)
    assert "search-tree" not in _report(plain)
