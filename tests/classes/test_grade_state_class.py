"""The state-objects class graded end to end by the grader under the course's hand-written assignment, on a
representative few hand-ins in one batch (the whole class is `grade_state_class.py`'s to run): a correct one,
own mistakes in a board function, a search and alpha-beta, searches wrong only through the hand-in's own
board functions (the state the lab makes carries them) or through another search, and one that does not
import.

- the correct hand-in scores full marks;
- every own defect of a function the assignment checks loses a check of that function;
- no check of a correct function loses points, nor one of a function wrong only through another (a mistake
  costs once): another board function, or another search it calls;
- the hand-in that does not import is not at full marks.
"""

from __future__ import annotations

import pytest

from grader.spec.loader import load_assignment
from tests.classes.grade_state_class import HAND_WRITTEN, ClassGrading, compare, grade_class, judged_function
from tests.classes.state_oracle import FUNCTIONS

SUBSET = ["ada", "bruno", "gil", "hiro", "quinn", "yara", "zeno"]


def test_each_check_is_set_against_the_function_its_call_judges() -> None:
    """A search's check also hands the search the student's heuristic; it judges the search."""
    by_check = {check.id: judged_function(check) for check in load_assignment(HAND_WRITTEN).checks}
    assert by_check["minimax"] == "minimax_search"
    assert by_check["alphabeta-trees"] == "minimax_search_alphabeta"
    assert by_check["runs-cleanly"] is None
    assert by_check["progressive-deepening"] == "progressive_deepening"
    assert set(by_check.values()) - {None} == set(FUNCTIONS)


def test_a_verdict_beside_the_failed_checks() -> None:
    by_check = {"a": "endgame_score_connectfour", "b": "minimax_search", "c": "heuristic_connectfour", "r": None}
    verdict = {
        "imports": True,
        "defective": {"endgame_score_connectfour": "x", "minimax_search": "y", "dfs_maximizing": "z"},
        "through": {"minimax_search": ["endgame_score_connectfour"]},
    }
    graded = compare("h", 80, 120, ["a", "b", "c", "r"], verdict, by_check)
    assert graded.own == ["dfs_maximizing", "endgame_score_connectfour"]
    assert graded.missed == ["dfs_maximizing (no check of it): z"]
    assert graded.charged_twice == ["minimax_search: b"]
    assert graded.correct_failed == ["heuristic_connectfour: c"]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> ClassGrading:
    outcome = grade_class(HAND_WRITTEN, tmp_path_factory.mktemp("state-class"), SUBSET)
    print(outcome.figures())
    return outcome


@pytest.mark.kernel
@pytest.mark.slow
def test_the_correct_handin_scores_full_marks(graded: ClassGrading) -> None:
    assert [(g.name, g.score) for g in graded.correct] == [("ada", graded.correct[0].max_score)]


@pytest.mark.kernel
@pytest.mark.slow
def test_every_own_defect_of_a_checked_function_loses_a_check_of_it(graded: ClassGrading) -> None:
    assert graded.own_defects >= 4
    assert [m for g in graded.graded for m in g.missed] == []


@pytest.mark.kernel
@pytest.mark.slow
def test_no_correct_function_is_failed(graded: ClassGrading) -> None:
    assert [c for g in graded.graded for c in g.correct_failed] == []


def _charged_twice(graded: ClassGrading, name: str) -> list[str]:
    (handin,) = [g for g in graded.graded if g.name == name]
    assert handin.through, f"{name} has functions wrong only through another"
    return handin.charged_twice


@pytest.mark.kernel
@pytest.mark.slow
@pytest.mark.parametrize("name", ["yara", "zeno"])
def test_a_wrong_game_over_test_or_endgame_score_is_charged_once(graded: ClassGrading, name: str) -> None:
    """The searches' state carries the hand-in's own board functions; they are graded again with the
    reference's in their place."""
    assert _charged_twice(graded, name) == []


@pytest.mark.kernel
@pytest.mark.slow
def test_a_wrong_order_of_the_next_boards_is_charged_once(graded: ClassGrading) -> None:
    """The searches that met hiro's reversed next boards are graded again with the reference's, made as the
    course's board objects, and say so (not that their tie rule is wrong)."""
    assert _charged_twice(graded, "hiro") == []
    (hiro,) = [g for g in graded.graded if g.name == "hiro"]
    searches = ["alphabeta", "dfs-maximizing", "minimax", "minimax-endgame", "progressive-deepening"]
    assert sorted(hiro.regraded) == searches
    assert set(hiro.regraded.values()) == {("next_boards_connectfour",)}


@pytest.mark.kernel
@pytest.mark.slow
def test_a_search_right_but_calling_a_wrong_search_is_charged_once(graded: ClassGrading) -> None:
    """bruno's minimax_endgame_search calls his wrong minimax_search: it is graded again with the reference's
    search in its place, and says so; quinn's deepening, with the reference's alpha-beta in place of his."""
    assert _charged_twice(graded, "bruno") == []
    assert _charged_twice(graded, "quinn") == []
    (bruno,) = [g for g in graded.graded if g.name == "bruno"]
    assert bruno.regraded == {"minimax-endgame": ("minimax_search",)}


@pytest.mark.kernel
@pytest.mark.slow
def test_the_handin_that_does_not_import_is_not_at_full_marks(graded: ClassGrading) -> None:
    assert [(g.name, g.score < g.max_score) for g in graded.not_importing] == [("gil", True)]
