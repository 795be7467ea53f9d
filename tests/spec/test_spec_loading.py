"""Assignment specs load, and every mistake names the file, the field and the problem."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
import tomlkit

from grader.checks.kinds.pruning import PruneParams, PruningParams
from grader.spec.call_template import CallTemplateError, Placeholder, parse_call
from grader.spec.loader import list_assignments, load_assignment
from grader.spec.model import Assignment, AssignmentError, Check
from grader.spec.tables import AssignmentTable, SpecFile, check_table, read_tables
from reference import Board

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
    with pytest.raises(AssignmentError) as raised:
        load_assignment("no-such-assignment")
    assert str(raised.value).startswith("no-such-assignment: no such assignment (built-in ids: ")
    assert "lab05" in str(raised.value)


def test_an_unknown_id_where_nothing_is_built_in_says_so(tmp_path: Path) -> None:
    with pytest.raises(AssignmentError) as raised:
        load_assignment("lab55", root=tmp_path)
    assert str(raised.value) == "lab55: no such assignment (none is built in or installed)"


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


def test_pruning_is_judged_only_with_a_prune_table(tmp_path: Path) -> None:
    """The fields that say how the cut-offs are recorded live in one optional table: without
    it nothing is recorded, and there is no field to set that would be silently ignored."""
    (plain,) = load_assignment(write_spec(tmp_path, PRUNING)).checks
    assert plain.params.prune is None
    (tmp_path / "on").mkdir()
    (check,) = load_assignment(
        write_spec(tmp_path / "on", PRUNING + "prune = { window = [-2, 0], ratio = 0.5 }\n")
    ).checks
    assert check.params.prune.window == (-2, 0) and check.params.prune.ratio == 0.5
    assert [str(b) for b in check.params.prune.positions] == ["X...O...X"]  # the default
    (tmp_path / "defaults").mkdir()
    (default,) = load_assignment(write_spec(tmp_path / "defaults", PRUNING + "prune = {}\n")).checks
    assert default.params.prune is not None and default.params.prune.ratio == 0.9


@pytest.mark.parametrize(
    "fields, field, words",
    [
        ("prune_window = [-2, 0]", "checks[0] (alphabeta).prune_window", "unknown field"),
        ("must_prune = true", "checks[0] (alphabeta).must_prune", "unknown field"),
        ("prune = { window = [-2] }", "checks[0] (alphabeta).prune.window", "must be a list of 2"),
        ('prune = { positions = ["X"] }', "checks[0] (alphabeta).prune.positions[0]", "bad board"),
        ("prune = { ratio = 0.5, colour = 1 }", "checks[0] (alphabeta).prune.colour", "unknown field"),
    ],
)
def test_pruning_mistakes_are_located(tmp_path: Path, fields: str, field: str, words: str) -> None:
    with pytest.raises(AssignmentError) as info:
        load_assignment(write_spec(tmp_path, PRUNING + fields + "\n"))
    assert info.value.field == field
    assert words in info.value.problem


def test_every_mistake_is_reported_at_once(tmp_path: Path) -> None:
    text = (
        MINIMAL.replace("points = 10", 'points = "ten"')
        .replace('expect = "wins"', 'expect = "victory"')
        .replace('encoding = "flat-space"', 'encoding = "flat-space"\ncall_timeout = true')
    )
    text += '\n[[checks]]\nid = "second"\nkind = "runs-cleanly"\npoints = 1\nallowed_errors = "none"\n'
    with pytest.raises(AssignmentError) as info:
        load_assignment(write_spec(tmp_path, text))
    found = dict(info.value.problems)
    assert found == {
        "assignment.call_timeout": "must be a number, not true",
        "checks[0] (win).points": "must be a number, not 'ten'",
        "checks[0] (win).expect": found["checks[0] (win).expect"],
        "checks[1] (second).allowed_errors": "must be an integer, not 'none'",
    }
    assert found["checks[0] (win).expect"].startswith("must be one of 'wins', ")
    assert all(f"{where}: {what}" in str(info.value) for where, what in info.value.problems)


@pytest.mark.parametrize("name", ["cell_timeout", "notebook_timeout", "call_timeout", "check_budget_seconds"])
@pytest.mark.parametrize("seconds", ["0", "-5", "-0.5"])
def test_a_time_limit_must_be_above_zero(tmp_path: Path, name: str, seconds: str) -> None:
    """0 seconds is no time at all, not "the default" nor "no limit": it is refused, as is a
    negative limit."""
    text = MINIMAL.replace('encoding = "flat-space"', f'encoding = "flat-space"\n{name} = {seconds}')
    with pytest.raises(AssignmentError) as info:
        load_assignment(write_spec(tmp_path, text))
    assert info.value.field == f"assignment.{name}"
    assert info.value.problem == f"must be more than 0, not {seconds}"


@pytest.mark.parametrize("line", ["examples = 0", "examples = -3"])
def test_a_check_count_must_be_above_zero(tmp_path: Path, line: str) -> None:
    with pytest.raises(AssignmentError) as info:
        load_assignment(write_spec(tmp_path, MINIMAL + line + "\n"))
    assert info.value.field == "checks[0] (win).examples" and "must be more than 0" in info.value.problem


def test_a_limit_that_is_given_is_kept_and_one_left_out_takes_the_default(tmp_path: Path) -> None:
    text = MINIMAL.replace('encoding = "flat-space"', 'encoding = "flat-space"\ncell_timeout = 0.5')
    assignment = load_assignment(write_spec(tmp_path, text))
    defaults = {f.name: f.default for f in dataclasses.fields(Assignment)}
    assert assignment.cell_timeout == 0.5
    assert assignment.call_timeout == defaults["call_timeout"]
    assert assignment.notebook_timeout == defaults["notebook_timeout"]
    assert assignment.hypothesis_examples == defaults["hypothesis_examples"]


def test_an_unknown_assignment_field_is_refused(tmp_path: Path) -> None:
    """A misspelt limit would otherwise be ignored, and the default used without a word."""
    text = MINIMAL.replace('encoding = "flat-space"', 'encoding = "flat-space"\ncell_timout = 60')
    with pytest.raises(AssignmentError) as info:
        load_assignment(write_spec(tmp_path, text))
    assert info.value.field == "assignment.cell_timout" and "unknown field" in info.value.problem


def test_the_spec_files_tables_are_given_by_name_and_read_by_name() -> None:
    """A new table added to `SpecFile` can never take another's place in a call by position; the
    converter still reads every table, the game's and the aliases' included."""
    with pytest.raises(TypeError):
        SpecFile(AssignmentTable(id="demo", title="Demo"), ())  # type: ignore[call-arg]
    raw = tomlkit.loads(MINIMAL + '\n[game]\nname = "tic-tac-toe"\n[aliases]\nwinner = ["check_win"]\n')
    spec = read_tables(raw)
    assert isinstance(spec, SpecFile)
    assert spec.assignment.id == raw["assignment"]["id"] and len(spec.checks) == len(raw["checks"])
    assert spec.game == {"name": "tic-tac-toe"} and spec.aliases == {"winner": ("check_win",)}


def test_a_check_written_by_the_converter_reads_back_equal(tmp_path: Path) -> None:
    """What `grader init` writes for a check is what the loader reads: ints in float fields,
    infinities, nested tables and boards included."""
    params = PruningParams(
        parse_call("alphabeta(board, alpha, beta, is_max)"),
        returns=("value", "value,move"),
        windows=((-math.inf, math.inf), (-1, 0)),
        prune=PruneParams(positions=(Board.from_string("X...O...."),), window=(-2, 0)),
    )
    check = Check("alphabeta", "pruning-equivalence", "Alpha-beta", 12.5, params, visibility="hidden")
    document = tomlkit.document()
    document.add("assignment", {"id": "demo", "title": "Demo", "encoding": "flat-space"})
    checks = tomlkit.aot()
    checks.append(check_table(check))
    document.add("checks", checks)
    text = tomlkit.dumps(document)
    assert "points = 12.5" in text and "windows = [[-inf, inf], [-1, 0]]" in text
    (loaded,) = load_assignment(write_spec(tmp_path, text)).checks
    assert loaded == check


@pytest.mark.parametrize(
    ("present", "solution", "template"),
    [
        ((), "solution.ipynb", "template.ipynb"),
        (("solution.py", "template.py"), "solution.py", "template.py"),
        (("solution.ipynb", "solution.py", "template.py"), "solution.ipynb", "template.py"),
    ],
)
def test_the_solution_and_the_handout_are_found_in_the_form_they_were_given(
    tmp_path: Path, present: tuple[str, ...], solution: str, template: str
) -> None:
    folder = write_spec(tmp_path, MINIMAL)
    for name in present:
        (folder / name).write_text("x = 1\n")
    assignment = load_assignment(folder)
    assert (assignment.solution_path, assignment.template_path) == (folder / solution, folder / template)
