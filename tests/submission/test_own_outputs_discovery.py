"""Finding submissions never reads a folder the grader wrote its outputs into (no kernel)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from grader.submission.inputs import InputError, InputLayout, collect_submissions
from grader.submission.own_outputs import OUTPUT_MARKER, is_output_folder, mark_output_folder
from tests.submission.test_submissions_input import NOTEBOOK, ids, write


def an_output_folder(folder: Path, students: list[str]) -> Path:
    """What a batch leaves: the marker, then per student a copy of the file and the report."""
    mark_output_folder(folder)
    for student in students:
        write(folder, f"{student}/submitted.ipynb")
        write(folder, f"{student}/report.html", "<html></html>")
    write(folder, "grades.csv", "student_id\n")
    return folder


def test_the_marker_marks_the_folder_once(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    assert not is_output_folder(folder)
    mark_output_folder(folder)
    first = (folder / OUTPUT_MARKER).stat().st_mtime_ns
    mark_output_folder(folder)
    assert is_output_folder(folder) and (folder / OUTPUT_MARKER).stat().st_mtime_ns == first


def test_an_output_folder_inside_the_input_is_left_out_and_named(tmp_path: Path) -> None:
    source = tmp_path / "submissions"
    write(source, "alice.ipynb")
    write(source, "bob.ipynb")
    an_output_folder(source / "graded", ["alice", "bob"])
    found = collect_submissions(source, "lab05", tmp_path / "scratch")
    assert ids(found) == ["alice", "bob"]
    assert all(s.path.parent == source for s in found.submissions)
    assert found.own_outputs == ("graded/",)
    assert found.skipped == ()  # not files left out: nothing of it is a student's


def test_two_output_folders_side_by_side_and_a_nested_one(tmp_path: Path) -> None:
    source = tmp_path / "submissions"
    write(source, "alice.ipynb")
    write(source, "carol/lab05.ipynb")  # a student's own folder stays a student
    an_output_folder(source / "graded", ["alice", "carol"])
    an_output_folder(source / "regraded", ["alice", "carol"])
    an_output_folder(source / "carol" / "old-run", ["carol"])
    found = collect_submissions(source, "lab05", tmp_path / "scratch")
    assert ids(found) == ["alice", "carol"]
    assert found.own_outputs == ("carol/old-run/", "graded/", "regraded/")
    assert found.submissions[1].path == source / "carol" / "lab05.ipynb"


def test_a_folder_is_recognised_by_the_marker_not_by_its_name(tmp_path: Path) -> None:
    source = tmp_path / "submissions"
    write(source, "graded/lab05.ipynb")  # a student whose id is "graded"
    write(source, "results/lab05.ipynb")
    an_output_folder(source / "graded-copy", ["graded"])
    found = collect_submissions(source, "lab05", tmp_path / "scratch")
    assert ids(found) == ["graded", "results"] and found.own_outputs == ("graded-copy/",)


def test_an_input_that_is_an_output_folder_is_refused(tmp_path: Path) -> None:
    out = an_output_folder(tmp_path / "graded", ["alice"])
    with pytest.raises(InputError, match=r"graded: is an output folder of this grader, not submissions"):
        collect_submissions(out, "lab05", tmp_path / "scratch")


def test_an_input_holding_only_output_folders_says_so(tmp_path: Path) -> None:
    source = tmp_path / "submissions"
    an_output_folder(source / "graded", ["alice"])
    with pytest.raises(InputError, match=r"no \.ipynb or \.py submissions found \(skipped graded/: an output folder"):
        collect_submissions(source, "lab05", tmp_path / "scratch")


def test_an_output_folder_inside_an_nbgrader_tree_is_left_out(tmp_path: Path) -> None:
    write(tmp_path, "course/submitted/alice/lab05/lab05.ipynb")
    an_output_folder(tmp_path / "course" / "submitted" / "graded", ["alice"])
    write(tmp_path, "course/submitted/graded/alice/lab05/lab05.ipynb")  # even shaped like a student
    found = collect_submissions(tmp_path / "course", "lab05", tmp_path / "scratch")
    assert found.layout == InputLayout.NBGRADER
    assert ids(found) == ["alice"] and found.own_outputs == ("submitted/graded/",) and found.skipped == ()


def zip_of(folder: Path, archive: Path, prefix: str = "") -> Path:
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, prefix + path.relative_to(folder).as_posix())
    return archive


def test_a_zip_export_holding_an_earlier_output_leaves_it_out(tmp_path: Path) -> None:
    export = tmp_path / "export"
    write(export, "doejane_12345_67890_lab05.ipynb")
    write(export, "roeric_23456_78901_lab05.ipynb")
    an_output_folder(export / "graded", ["12345", "23456"])
    found = collect_submissions(zip_of(export, tmp_path / "canvas.zip"), "lab05", tmp_path / "scratch")
    assert found.layout == InputLayout.CANVAS
    assert ids(found) == ["12345", "23456"] and found.own_outputs == ("graded/",)


def test_a_zip_of_an_output_folder_is_refused(tmp_path: Path) -> None:
    out = an_output_folder(tmp_path / "graded", ["alice", "bob"])
    archive = zip_of(out, tmp_path / "graded.zip")
    with pytest.raises(InputError, match=r"graded\.zip: holds an output folder of this grader"):
        collect_submissions(archive, "lab05", tmp_path / "scratch")


def test_a_marker_in_an_ignored_folder_of_a_zip_is_not_unpacked(tmp_path: Path) -> None:
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("alice.ipynb", NOTEBOOK)
        zf.writestr(f"__MACOSX/{OUTPUT_MARKER}", "")
        zf.writestr(f"../{OUTPUT_MARKER}", "")
    found = collect_submissions(archive, "lab05", tmp_path / "scratch")
    assert ids(found) == ["alice"] and found.own_outputs == ()
    assert not (tmp_path / OUTPUT_MARKER).exists()
    assert not (tmp_path / "scratch" / "unpacked" / "__MACOSX").exists()
