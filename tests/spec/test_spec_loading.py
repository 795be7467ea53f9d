"""Assignment specs load, and every mistake names the file, the field and the problem."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from grader.spec.call_template import CallTemplateError, Placeholder, parse_call
from grader.spec.loader import list_assignments, load_assignment
from grader.spec.model import AssignmentError

MINIMAL = """
[assignment]
id = "demo"
title = "Demo"
encoding = "flat-space"

[[checks]]
id = "win"
kind = "predicate"
points = 10
call = "check_win(board, player)"
expect = "wins"
"""


def write_spec(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "assignment.toml").write_text(text)
    return folder


@pytest.mark.parametrize("assignment_id", list_assignments())
def test_builtin_assignments_load(assignment_id: str) -> None:
    assignment = load_assignment(assignment_id)
    assert assignment.id == assignment_id
    assert assignment.max_score > 0
    assert len({c.id for c in assignment.checks}) == len(assignment.checks)


def test_minimal_spec_loads(tmp_path: Path) -> None:
    assignment = load_assignment(write_spec(tmp_path, MINIMAL))
    (check,) = assignment.checks
    assert check.params.call.function == "check_win"
    assert assignment.maximizer == "O" and assignment.first_player == "X"
    assert assignment.reference_helpers  # a mistake costs once unless the spec says otherwise
    off = MINIMAL.replace('encoding = "flat-space"', 'encoding = "flat-space"\nreference_helpers = false')
    (tmp_path / "off").mkdir()
    assert not load_assignment(write_spec(tmp_path / "off", off)).reference_helpers


@pytest.mark.parametrize(
    "change, field, words",
    [
        (('encoding = "flat-space"', 'encoding = "hexagonal"'), "assignment.encoding", "unknown encoding"),
        (('kind = "predicate"', 'kind = "telepathy"'), ".kind", "unknown kind"),
        (('expect = "wins"', 'expect = "wins"\ncolour = "red"'), ".colour", "unknown field"),
        (('call = "check_win(board, player)"', 'call = "check_win(board, playr)"'), ".call", "unknown placeholder"),
        (('call = "check_win(board, player)"', 'call = "check_win(board"'), ".call", "not a Python call"),
        (("points = 10", 'points = "ten"'), ".points", "must be"),
        (
            ('encoding = "flat-space"', 'encoding = "flat-space"\nreference_helpers = "no"'),
            ".reference_helpers",
            "must be",
        ),
        (('expect = "wins"', 'expect = "victory"'), ".expect", "must be one of"),
        (('id = "win"\n', ""), "checks[0].id", "is required"),
    ],
)
def test_mistakes_are_located(tmp_path: Path, change: tuple[str, str], field: str, words: str) -> None:
    text = MINIMAL.replace(*change)
    assert text != MINIMAL
    with pytest.raises(AssignmentError) as info:
        load_assignment(write_spec(tmp_path, text))
    error = info.value
    assert error.path.endswith("assignment.toml")
    assert field in error.field
    assert words in error.problem


def test_bad_board_in_positions_is_reported(tmp_path: Path) -> None:
    text = (
        MINIMAL
        + """
[[checks]]
id = "nodes"
kind = "node-counts"
points = 5
minimax_call = "minimax(board, 0, is_max)"
alphabeta_call = "ab(board, 0, is_max, -inf, inf)"
positions = ["XXXXXXXXXQ"]
"""
    )
    with pytest.raises(AssignmentError) as info:
        load_assignment(write_spec(tmp_path, text))
    assert "positions" in info.value.field and "bad board" in info.value.problem


def test_not_toml(tmp_path: Path) -> None:
    with pytest.raises(AssignmentError, match="not valid TOML"):
        load_assignment(write_spec(tmp_path, "[assignment\nid="))


def test_unknown_assignment_lists_known_ones() -> None:
    with pytest.raises(AssignmentError, match="lab05"):
        load_assignment("no-such-assignment")


def test_call_syntax() -> None:
    template = parse_call("State(board, to_move, max_depth=depth_limit).minmax('max')")
    assert template.function == "State"
    assert template.target.args == (Placeholder("board"), Placeholder("to_move"))
    assert template.chain[0].name == "minmax" and template.chain[0].args == ("max",)
    call = template.render({"board": [[0] * 3] * 3, "to_move": 1, "depth_limit": 2})
    assert call.target == "State" and call.kwargs == {"max_depth": 2}
    assert call.then == (("minmax", ("max",), {}),)
    ab = parse_call("minimaxAB(board, 0, is_max, -inf, inf)")
    assert ab.target.args[3:] == (-math.inf, math.inf)
    assert parse_call("Game.solve(board)").function == "Game.solve"


@pytest.mark.parametrize("text", ["1 + 2", "f(x for x in y)", "f(board, **opts)", "f(-board)", "lambda: 0"])
def test_call_syntax_rejects(text: str) -> None:
    with pytest.raises(CallTemplateError):
        parse_call(text)


PRUNING = """
[assignment]
id = "demo"
title = "Demo"
encoding = "flat-space"

[[checks]]
id = "alphabeta"
kind = "pruning-equivalence"
points = 10
call = "alphabeta(board, alpha, beta, is_max)"
"""


@pytest.mark.parametrize(
    "fields, refused",
    [
        ("must_prune = true\nprune_window = [-2, 0]\nprune_ratio = 0.5", []),
        ("prune_window = [-2, 0]", ["prune_window"]),
        ('prune_positions = ["X...O...."]\nprune_ratio = 0.5', ["prune_positions", "prune_ratio"]),
    ],
)
def test_pruning_fields_need_must_prune(tmp_path: Path, fields: str, refused: list[str]) -> None:
    """Without must_prune nothing is recorded: the fields that say how are refused, not ignored."""
    text = PRUNING + fields + "\n"
    if not refused:
        (check,) = load_assignment(write_spec(tmp_path, text)).checks
        assert check.params.must_prune and check.params.prune_window == (-2, 0) and check.params.prune_ratio == 0.5
        return
    with pytest.raises(AssignmentError) as info:
        load_assignment(write_spec(tmp_path, text))
    assert info.value.field.startswith("checks[0] (alphabeta)")
    assert f"{', '.join(refused)} only apply with must_prune = true" in info.value.problem
