"""Releasing again: init's new assignment.toml with the author's hand edits applied, and each
edit that cannot be applied said."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

from grader.release.hand_edits import keep_hand_edits

BASE = """# Written by `grader init` from solution.ipynb.
[assignment]
id = "week5"
title = "Week 5"
maximizer = "O"  # minimax scores a position for O
# NOT DECIDED: uncomment one
# first_player = "O"
# first_player = "X"

[aliases]
check_win = ["checkWin"]

[[checks]]
id = "check-win"
kind = "predicate"
points = 10
boards = "unfinished"

[[checks]]
id = "minimax"
kind = "search-value"
points = 25

[[checks]]
id = "best-move"
kind = "search-value"
points = 15
"""


def _edited() -> str:
    """Points changed, an undecided field decided, a domain widened, a check deleted, one added."""
    text = BASE.replace('# first_player = "X"', 'first_player = "X"')
    text = text.replace('points = 10\nboards = "unfinished"', 'points = 30\nboards = "reachable"')
    text = text.replace('[[checks]]\nid = "best-move"\nkind = "search-value"\npoints = 15\n', "")
    return text + '\n[[checks]]\nid = "by-hand"\nkind = "runs-cleanly"\npoints = 2\n'


def test_every_value_edited_by_hand_is_applied_to_inits_new_file() -> None:
    fresh = BASE.replace('title = "Week 5"', 'title = "Week 5: minimax"').replace("points = 25", "points = 20")
    merged = keep_hand_edits(BASE, _edited(), fresh)
    spec = tomllib.loads(merged.text)
    assert spec["assignment"]["first_player"] == "X"
    assert spec["assignment"]["title"] == "Week 5: minimax"  # init's change where the author changed nothing
    checks = {c["id"]: c for c in spec["checks"]}
    assert list(checks) == ["check-win", "minimax", "by-hand"]
    assert (checks["check-win"]["points"], checks["check-win"]["boards"]) == (30, "reachable")
    assert checks["minimax"]["points"] == 20
    assert "# minimax scores a position for O" in merged.text  # init's comments stay
    assert merged.lost == ()
    assert "check check-win: points = 30: yours" in merged.kept
    assert "check best-move: left out, as you deleted it" in merged.kept
    assert "check by-hand: yours, as you added it" in merged.kept


def test_the_authors_value_wins_over_inits_new_one_and_the_report_says_both() -> None:
    edited = BASE.replace('maximizer = "O"', 'maximizer = "X"')
    fresh = BASE.replace('maximizer = "O"', 'maximizer = "to-move"')
    merged = keep_hand_edits(BASE, edited, fresh)
    assert tomllib.loads(merged.text)["assignment"]["maximizer"] == "X"
    assert merged.kept == ('assignment.maximizer = "X": yours (init now writes "to-move")',)


def test_an_edit_of_a_check_init_no_longer_writes_and_comments_written_by_hand_are_said_lost() -> None:
    edited = BASE.replace("points = 25", "points = 40  # worth more this year")
    fresh = BASE.replace('id = "minimax"', 'id = "minimax-value"')
    merged = keep_hand_edits(BASE, edited, fresh)
    assert [c["id"] for c in tomllib.loads(merged.text)["checks"]] == ["check-win", "minimax-value", "best-move"]
    assert merged.lost == ("check minimax: your edits (points) cannot be kept: init no longer writes this check",)
    unchanged = keep_hand_edits(BASE, BASE + "# a note to self\n", BASE)
    assert unchanged.text == BASE and unchanged.kept == ()
    assert unchanged.lost == ("1 comment line(s) written by hand are not kept (the values are): '# a note to self'",)
