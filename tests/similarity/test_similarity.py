"""Similar submissions: copies are found, independent work is not, and the result is stable."""

from __future__ import annotations

import builtins
import csv
import io
import json
import keyword
import os
import random
import re
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import nbformat
import pytest

from grader.feedback.html import environment
from grader.similarity.compare import (
    DEFAULT_THRESHOLD,
    HANDOUT,
    SimilarityReport,
    _code_cells,
    _token_id,
    _units,
    compare_submissions,
)
from grader.similarity.view import Segment, side_view, similar_pairs_view, similarity_csv
from grader.submission.reader import SubmissionUnreadable, read_submission
from tests.notebook_scripts import script_of
from tests.similarity.lab05_class import (
    ALL_ANY,
    COMMENTS,
    COPY_RENAMES,
    FIXTURES,
    INDEPENDENT,
    LOOPS,
    MAX_MIN_VALUE,
    NEGAMAX,
    REPO,
    SOLUTION,
    TEMPLATE,
    WRONG,
    disguise,
    filled_template,
    notebook_code,
    write_class,
    write_notebook,
)


@pytest.fixture(scope="module")
def lab05_class(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    """The class `write_class` writes and five fixture submissions (the solution with one
    mistake each: alike, but only in code that the solution gives away)."""
    folder = write_class(tmp_path_factory.mktemp("lab05-class"))
    submissions = [(path.stem, path) for path in sorted(folder.iterdir())]
    submissions.extend((name, FIXTURES / f"{name}.ipynb") for name in WRONG)
    return submissions


def compare(submissions: list[tuple[str, Path]], **options: float) -> SimilarityReport:
    return compare_submissions(submissions, handout=TEMPLATE, solution=SOLUTION, **options)


def listed(report: SimilarityReport) -> list[tuple[str, str]]:
    return [(pair.student_a, pair.student_b) for pair in report.pairs]


def test_the_disguised_copy_ranks_first(lab05_class: list[tuple[str, Path]]) -> None:
    copy = disguise(notebook_code(filled_template(ALL_ANY)), COPY_RENAMES)
    assert "empty_cells" not in copy and "free_squares" in copy  # the copy really is disguised
    assert copy.index("def check_draw") < copy.index("def check_win")  # moved
    assert any(f"# {comment}" in copy for comment in COMMENTS) and "# Function to check for a draw" not in copy
    report = compare(lab05_class)
    top = next(pair for pair in report.pairs if not pair.handout)
    assert (top.student_a, top.student_b) == ("bogdan", "erik")
    assert top.similarity >= 0.9
    assert report.pairs[0] == top  # level with the template against the handout (1.0): ties go by id
    assert report.compared == len(lab05_class)


def test_a_partial_copy_is_listed_below_the_whole_one(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    """Olga copies bogdan's answers but writes her own alpha-beta (alice's style)."""
    answers = {**ALL_ANY, "minimaxAB": LOOPS["minimaxAB"]}
    olga = tmp_path / "olga.py"
    olga.write_text(disguise(notebook_code(filled_template(answers)), {"board": "b", "i": "j"}, seed=1))
    report = compare([*lab05_class, ("olga", olga)])
    similar = {(pair.student_a, pair.student_b): pair.similarity for pair in report.pairs if not pair.handout}
    assert set(similar) == {("bogdan", "erik"), ("bogdan", "olga"), ("erik", "olga")}
    assert DEFAULT_THRESHOLD < similar["bogdan", "olga"] < similar["bogdan", "erik"]


def test_independent_answers_stay_below_the_threshold(lab05_class: list[tuple[str, Path]]) -> None:
    report = compare(lab05_class)
    assert listed(report) == [("bogdan", "erik"), ("gina", HANDOUT)]
    everything = compare(lab05_class, threshold=0.0)
    independent = [p for p in everything.pairs if not p.handout and {p.student_a, p.student_b} <= set(INDEPENDENT)]
    assert independent, "independent answers share some idioms: the measure must see them"
    assert max(p.similarity for p in independent) < 0.3 < DEFAULT_THRESHOLD


def test_code_the_solution_gives_away_does_not_make_students_alike(lab05_class: list[tuple[str, Path]]) -> None:
    fixtures = [(name, path) for name, path in lab05_class if name in WRONG]
    assert not compare(fixtures, threshold=0.0).pairs
    without_solution = compare_submissions(fixtures, handout=TEMPLATE, solution=None)
    assert len(without_solution.pairs) == len(WRONG) * (len(WRONG) - 1) // 2


def test_the_untouched_template_is_listed_against_the_handout(lab05_class: list[tuple[str, Path]]) -> None:
    report = compare(lab05_class)
    rows = [pair for pair in report.pairs if pair.handout]
    assert [(pair.student_a, pair.student_b, pair.similarity) for pair in rows] == [("gina", HANDOUT, 1.0)]
    assert report.code_of(rows[0])[1] == notebook_code(nbformat.read(TEMPLATE, as_version=4))
    assert not compare(lab05_class, handout_threshold=1.01).pairs[1:]  # only the copy is left
    assert not compare_submissions(lab05_class, handout=None, solution=SOLUTION).pairs[1:]


def test_byte_identical_files_are_fully_alike(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    chen = dict(lab05_class)["chen"]
    frank = tmp_path / "frank.ipynb"
    frank.write_bytes(chen.read_bytes())
    report = compare([*lab05_class, ("frank", frank)])
    (pair,) = [p for p in report.pairs if "frank" in (p.student_a, p.student_b)]
    assert (pair.student_a, pair.student_b, pair.similarity) == ("chen", "frank", 1.0)
    assert report.pairs.index(pair) < 3  # with the disguised copy and the template, all at 1.0
    text_a, text_b = report.code_of(pair)
    assert text_a == text_b
    assert report.matches(pair)[0] == report.matches(pair)[1]


def test_the_result_does_not_depend_on_the_order_of_the_submissions(lab05_class: list[tuple[str, Path]]) -> None:
    expected = similarity_csv(compare(lab05_class, threshold=0.0))
    for seed in range(3):
        shuffled = list(lab05_class)
        random.Random(seed).shuffle(shuffled)
        assert similarity_csv(compare(shuffled, threshold=0.0)) == expected


def test_the_result_does_not_depend_on_the_process(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    """String hashes differ between processes (PYTHONHASHSEED): fingerprints must not."""
    listing = tmp_path / "class.json"
    listing.write_text(json.dumps([[name, str(path)] for name, path in lab05_class]))
    script = (
        "import json, sys; from pathlib import Path; from grader.similarity.compare import compare_submissions;"
        "from grader.similarity.view import similarity_csv;"
        f"subs = [(n, Path(p)) for n, p in json.loads(Path({str(listing)!r}).read_text())];"
        f"print(similarity_csv(compare_submissions(subs, handout=Path({str(TEMPLATE)!r}),"
        f" solution=Path({str(SOLUTION)!r}), threshold=0.0)), end='')"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert outputs == {similarity_csv(compare(lab05_class, threshold=0.0))}


def test_unreadable_files_are_skipped(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    (tmp_path / "truncated.ipynb").write_text('{"cells": [{"cell_type": "code", "source": "x = 1', encoding="utf-8")
    (tmp_path / "empty.py").write_text("", encoding="utf-8")
    (tmp_path / "binary.py").write_bytes(b"\x00\x01\x02 not python")
    (tmp_path / "essay.txt").write_text("I did my best", encoding="utf-8")
    deep = "[" * 200_000 + "]" * 200_000  # past the recursion limit of json, deepcopy and validation
    (tmp_path / "deep.ipynb").write_text(f'{{"cells": [], "metadata": {{"x": {deep}}}}}', encoding="utf-8")
    broken = [
        ("gil", tmp_path / "deep.ipynb"),
        ("hugo", tmp_path / "truncated.ipynb"),
        ("ines", tmp_path / "empty.py"),
        ("jon", tmp_path / "binary.py"),
        ("kai", tmp_path / "essay.txt"),
        ("lea", tmp_path / "missing.ipynb"),
        ("erik", tmp_path / "binary.py"),
    ]  # erik's readable .py still counts
    report = compare([*lab05_class, *broken])
    assert report.compared == len(lab05_class)
    assert listed(report) == listed(compare(lab05_class))


def test_a_student_with_several_files_is_compared_on_all_of_them(tmp_path: Path) -> None:
    whole = filled_template(NEGAMAX)
    first, second = nbformat.read(TEMPLATE, as_version=4), nbformat.read(TEMPLATE, as_version=4)
    half = len(whole.cells) // 2
    first.cells, second.cells = whole.cells[:half], whole.cells[half:]
    submissions = [
        ("chen", write_notebook(tmp_path / "chen.ipynb", whole)),
        ("max", write_notebook(tmp_path / "max-part1.ipynb", first)),
        ("max", write_notebook(tmp_path / "max-part2.ipynb", second)),
    ]
    report = compare(submissions)
    assert [(p.student_a, p.student_b, p.similarity) for p in report.pairs] == [("chen", "max", 1.0)]


def test_broken_code_and_notebook_magics_are_compared_too(tmp_path: Path) -> None:
    answers = dict(MAX_MIN_VALUE)
    answers["check_win"] = "%matplotlib inline\n!pip install numpy\n" + textwrap.dedent(answers["check_win"])
    answers["random_game"] = 'print("unclosed\n  x = (1,\n' + textwrap.dedent(answers["random_game"])
    broken = write_notebook(tmp_path / "broken.ipynb", filled_template(answers))
    clean = write_notebook(tmp_path / "dana.ipynb", filled_template(MAX_MIN_VALUE))
    report = compare([("dana", clean), ("nora", broken)])
    assert listed(report) == [("dana", "nora")]
    assert report.pairs[0].similarity > 0.8


# -- outputs -----------------------------------------------------------------------------------


def test_csv_is_ranked_with_a_header_and_neutralised_cells(lab05_class: list[tuple[str, Path]], tmp_path: Path) -> None:
    bogdan = dict(lab05_class)["bogdan"]
    formula = tmp_path / "formula.ipynb"
    formula.write_bytes(bogdan.read_bytes())
    report = compare([*lab05_class, ("=HYPERLINK(1)", formula)], threshold=0.0)
    rows = list(csv.reader(io.StringIO(similarity_csv(report))))
    assert rows[0] == ["student_a", "student_b", "similarity"]
    values = [float(row[2]) for row in rows[1:]]
    assert values == sorted(values, reverse=True) and all(0 <= value <= 1 for value in values)
    assert len(rows) == len(report.pairs) + 1
    assert ["'=HYPERLINK(1)", "bogdan", "1.000"] in rows
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)
    assert ["gina", HANDOUT, "1.000"] in rows


def test_empty_class_gives_just_the_header() -> None:
    report = compare_submissions([], handout=None, solution=None)
    assert similarity_csv(report) == "student_a,student_b,similarity\n"


def render(report: SimilarityReport) -> str:
    """The section as the class index renders it: through the reports' own environment."""
    template = environment().from_string(
        '{% from "_similarity.html.j2" import similar_submissions %}{{ similar_submissions(view) }}'
    )
    return template.render(view=similar_pairs_view(report))


def test_the_section_shows_the_pairs_side_by_side_and_escapes_student_code(tmp_path: Path) -> None:
    answers = dict(LOOPS)
    answers["random_game"] = (
        textwrap.dedent(answers["random_game"]) + 'print("<script>alert(1)</script>")  # </pre> & more\n'
    )
    original = write_notebook(tmp_path / "alice.ipynb", filled_template(answers))
    copy = tmp_path / "copy.py"
    copy.write_text(disguise(notebook_code(filled_template(answers)), {"pos": "p", "scores": "s"}), encoding="utf-8")
    template = write_notebook(tmp_path / "template.ipynb", nbformat.read(TEMPLATE, as_version=4))
    report = compare([("alice", original), ("<b>bob</b>", copy), ("gina", template)])
    assert listed(report) == [("<b>bob</b>", "alice"), ("gina", HANDOUT)]
    html = render(report)
    assert "Similar submissions" in html and "not that anyone copied" in html
    assert "<mark>" in html and html.count('<details class="similar"') == 2
    assert "<script" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>bob</b>" not in html and "&lt;b&gt;bob&lt;/b&gt;" in html
    assert "&lt;/pre&gt; &amp; more" in html
    assert 'href="#similar-1"' in html and 'id="similar-1"' in html
    marked = re.findall(r"<mark>(.*?)</mark>", html, re.DOTALL)
    assert any("def check_win" in text for text in marked)
    assert any("raise NotImplementedError" in text for text in marked)  # the template's stubs, against the handout
    assert not any("TO DO" in text for text in marked)  # comments are never part of a match


def test_the_section_says_so_when_nothing_is_similar() -> None:
    html = render(compare([("alice", TEMPLATE)], handout_threshold=1.01))
    assert "No pair of submissions reaches 50%" in html and "<table" not in html


def test_side_view_marks_matches_and_folds_long_unmatched_stretches() -> None:
    text = "\n".join(f"line {n}" for n in range(1, 21))
    start = text.index("line 10")
    side = side_view("x", text, ((start, start + len("line 10")),), context=2)
    numbers = [line.number for line in side.lines]
    assert numbers == [0, 8, 9, 10, 11, 12, 0]
    assert [line.folded for line in side.lines if not line.number] == [7, 8]
    assert side.lines[3].segments == (Segment("line 10", True),)
    assert (side.matched_lines, side.total_lines) == (1, 20)
    indented = side_view("x", "    x = 1", ((0, 9),))
    assert indented.lines[0].segments == (Segment("    ", False), Segment("x = 1", True))


def readable_cells(path: Path) -> list[nbformat.NotebookNode]:
    try:
        return list(read_submission(path).notebook.cells)
    except SubmissionUnreadable:  # the truncated uploads
        return []


def test_the_tokenizer_agrees_with_the_tokenize_module_on_every_bundled_notebook() -> None:
    kept = set(keyword.kwlist) | set(dir(builtins))
    structure = {tokenize.NEWLINE: "<newline>", tokenize.INDENT: "<indent>", tokenize.DEDENT: "<dedent>"}
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}

    def reference(source: str) -> list[int]:
        tokens = tokenize.generate_tokens(io.StringIO(source).readline)
        texts = [
            (t.string if t.string in kept else "V")
            if t.type == tokenize.NAME
            else "S"
            if t.type == tokenize.STRING
            else structure.get(t.type, t.string)
            for t in tokens
            if t.type not in skipped
        ]
        return [_token_id(text) for text in texts]

    notebooks = sorted(REPO.glob("examples/*/*.ipynb")) + sorted(REPO.glob("tests/submissions/*/*.ipynb"))
    checked = 0
    for path in notebooks + sorted(REPO.glob("assignments/*/*.ipynb")):
        for cell in readable_cells(path):
            if cell.cell_type == "code" and not re.search(r"^\s*[%!]", cell.source, re.MULTILINE):
                ours = [token for ids, _, _ in _units(cell.source, 0, []) for token in ids]
                assert ours == reference(cell.source), (path, cell.source[:80])
                checked += 1
    assert checked > 500


def test_notebooks_are_read_as_read_submission_reads_them(tmp_path: Path) -> None:
    old = tmp_path / "v3.ipynb"  # nbformat 3 goes through read_submission
    old.write_text(
        nbformat.writes(
            nbformat.v3.new_notebook(
                worksheets=[nbformat.v3.new_worksheet(cells=[nbformat.v3.new_code_cell(input="x = 1")])]
            ),
            version=3,
        )
    )
    paths = sorted(REPO.glob("examples/*/*.ipynb")) + sorted(REPO.glob("tests/submissions/*/*.ipynb")) + [old]
    for path in paths:
        expected = [cell.source for cell in readable_cells(path) if cell.cell_type == "code" and cell.source.strip()]
        try:
            assert _code_cells(path) == expected, path
        except SubmissionUnreadable:
            assert not expected


def test_a_handout_and_a_solution_given_as_scripts_set_the_same_code_aside(
    lab05_class: list[tuple[str, Path]], tmp_path: Path
) -> None:
    scripts = {}
    for name, notebook in (("template", TEMPLATE), ("solution", SOLUTION)):
        scripts[name] = tmp_path / f"{name}.py"
        scripts[name].write_text(script_of(nbformat.read(notebook, as_version=4)), encoding="utf-8")
    as_scripts = compare_submissions(lab05_class, handout=scripts["template"], solution=scripts["solution"])
    assert listed(as_scripts) == listed(compare(lab05_class))
    assert [p.similarity for p in as_scripts.pairs] == [p.similarity for p in compare(lab05_class).pairs]
