"""Finding submissions and student ids in folders, nbgrader trees and LMS zip exports."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest

from grader.submission.inputs import (
    InputError,
    InputLayout,
    ZipLimits,
    choose_submission_file,
    collect_submissions,
    extract_zip,
    safe_folder_name,
)

NOTEBOOK = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


def write(root: Path, relative: str, text: str = NOTEBOOK) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def make_zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    return path


def ids(found) -> list[str]:
    return [s.student_id for s in found.submissions]


def test_flat_folder_ids_are_file_names(tmp_path: Path) -> None:
    write(tmp_path, "in/alice.ipynb")
    write(tmp_path, "in/bob.py", "print(1)")
    write(tmp_path, "in/notes.txt", "not a submission")
    write(tmp_path, "in/.ipynb_checkpoints/alice-checkpoint.ipynb")
    found = collect_submissions(tmp_path / "in", "lab05", tmp_path / "scratch")
    assert found.layout == InputLayout.FLAT
    assert ids(found) == ["alice", "bob"]
    assert found.submissions[0].original_name == "alice.ipynb"


def test_a_notebook_wins_over_a_script_of_the_same_student(tmp_path: Path) -> None:
    write(tmp_path, "in/alice.ipynb")
    write(tmp_path, "in/alice.py", "print(1)")
    found = collect_submissions(tmp_path / "in", "lab05", tmp_path / "scratch")
    assert ids(found) == ["alice"] and found.submissions[0].path.suffix == ".ipynb"
    assert "alice.py" in found.submissions[0].notes[0]
    assert len(found.skipped) == 1


def test_nbgrader_tree(tmp_path: Path) -> None:
    write(tmp_path, "course/submitted/alice/lab05/lab05.ipynb")
    write(tmp_path, "course/submitted/bob/lab05/lab05.ipynb")
    write(tmp_path, "course/submitted/bob/lab04/old.ipynb")
    write(tmp_path, "course/submitted/carol/lab04/old.ipynb")
    write(tmp_path, "course/submitted/carol/lab03/older.ipynb")
    found = collect_submissions(tmp_path / "course", "lab05", tmp_path / "scratch")
    assert found.layout == InputLayout.NBGRADER
    assert ids(found) == ["alice", "bob"]
    assert found.submissions[1].path.parent.name == "lab05"
    assert [s.reason for s in found.skipped if "carol" in s.path][0].startswith("no assignment folder named 'lab05'")


def test_nbgrader_tree_given_as_its_submitted_folder(tmp_path: Path) -> None:
    write(tmp_path, "submitted/alice/any-name/work.ipynb")
    found = collect_submissions(tmp_path / "submitted", "lab05", tmp_path / "scratch")
    assert ids(found) == ["alice"]


def test_canvas_zip_with_late_submissions(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "submissions.zip",
        {
            "doejane_12345_67890_lab05.ipynb": NOTEBOOK,
            "smithjohn_LATE_23456_78901_Lab 5 final.ipynb": NOTEBOOK,
            "smithjohn_LATE_23456_78902_helpers.py": "x = 1",
            "__MACOSX/._doejane_12345_67890_lab05.ipynb": "junk",
        },
    )
    found = collect_submissions(archive, "lab05", tmp_path / "scratch")
    assert found.layout == InputLayout.CANVAS
    assert ids(found) == ["12345", "23456"]
    jane, john = found.submissions
    assert (jane.display_name, jane.original_name, jane.late) == ("doejane", "lab05.ipynb", False)
    assert (john.display_name, john.original_name, john.late) == ("smithjohn", "Lab 5 final.ipynb", True)
    assert john.path.is_file() and john.path.is_relative_to(tmp_path / "scratch")
    assert [s.path for s in found.skipped] == ["submissions.zip/smithjohn_LATE_23456_78902_helpers.py"]


def test_moodle_zip_with_and_without_folders(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "moodle.zip",
        {
            "Jane Doe_12345_assignsubmission_file_/lab05.ipynb": NOTEBOOK,
            "John Smith_23456_assignsubmission_file_my work.ipynb": NOTEBOOK,
            "Jane Doe_12345_assignsubmission_onlinetext_/onlinetext.html": "<p>hi</p>",
        },
    )
    found = collect_submissions(archive, "lab05", tmp_path / "scratch")
    assert found.layout == InputLayout.MOODLE
    assert [(s.student_id, s.display_name, s.original_name) for s in found.submissions] == [
        ("12345", "Jane Doe", "lab05.ipynb"),
        ("23456", "John Smith", "my work.ipynb"),
    ]


@pytest.mark.parametrize(
    "evil", ["../escape.ipynb", "/abs/escape.ipynb", "a/../../escape.ipynb", "C:/win.ipynb", "..\\x.ipynb"]
)
def test_zip_entries_that_leave_the_folder_are_skipped_and_listed(tmp_path: Path, evil: str) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("fine.ipynb", NOTEBOOK)
        zf.writestr(zipfile.ZipInfo(evil), NOTEBOOK)
    unpacked = extract_zip(archive, tmp_path / "out")
    assert not (tmp_path / "escape.ipynb").exists()
    assert [p.name for p in unpacked.written] == ["fine.ipynb"]
    assert [p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.ipynb")] == ["fine.ipynb"]
    assert [(s.path, s.reason) for s in unpacked.skipped] == [
        (evil, "not unpacked: its path would leave the folder it is unpacked into")
    ]


def test_zip_symlinks_are_skipped_and_listed(tmp_path: Path) -> None:
    archive = tmp_path / "link.zip"
    info = zipfile.ZipInfo("alice.ipynb")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(info, "/etc/passwd")
        zf.writestr("bob.ipynb", NOTEBOOK)
    unpacked = extract_zip(archive, tmp_path / "out")
    assert [p.name for p in unpacked.written] == ["bob.ipynb"]
    assert not (tmp_path / "out" / "alice.ipynb").exists()
    assert [(s.path, s.reason) for s in unpacked.skipped] == [("alice.ipynb", "not unpacked: a symbolic link")]


def test_a_class_zip_with_one_unsafe_entry_is_graded_without_it(tmp_path: Path) -> None:
    archive = tmp_path / "canvas.zip"
    link = zipfile.ZipInfo("roeric_23456_78901_lab05.ipynb")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("doejane_12345_67890_lab05.ipynb", NOTEBOOK)
        zf.writestr(link, "/etc/passwd")
        zf.writestr(zipfile.ZipInfo("../smith_34567_89012_lab05.ipynb"), NOTEBOOK)
    found = collect_submissions(archive, "lab05", tmp_path / "scratch")
    assert ids(found) == ["12345"]
    assert [(s.path, s.reason) for s in found.skipped] == [
        ("canvas.zip/roeric_23456_78901_lab05.ipynb", "not unpacked: a symbolic link"),
        (
            "canvas.zip/../smith_34567_89012_lab05.ipynb",
            "not unpacked: its path would leave the folder it is unpacked into",
        ),
    ]


def test_a_zip_bomb_member_is_left_out_alone(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "bomb.zip", {"a.ipynb": "0" * 200_000, "b.ipynb": NOTEBOOK})
    assert archive.stat().st_size < 5_000
    unpacked = extract_zip(archive, tmp_path / "out", ZipLimits(max_member_bytes=100_000))
    assert [p.name for p in unpacked.written] == ["b.ipynb"]
    assert not (tmp_path / "out" / "a.ipynb").exists()  # the part unpacked before the limit is gone
    assert [(s.path, s.reason) for s in unpacked.skipped] == [
        ("a.ipynb", "not unpacked: it unpacks to more than 100,000 bytes, the limit for one file")
    ]


def test_a_class_zip_with_a_bomb_grades_the_others(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "canvas.zip",
        {"doejane_12345_67890_lab05.ipynb": NOTEBOOK, "roeric_23456_78901_lab05.ipynb": "0" * 200_000},
    )
    found = collect_submissions(archive, "lab05", tmp_path / "scratch", ZipLimits(max_member_bytes=100_000))
    assert ids(found) == ["12345", "23456"]  # the bomb's student keeps a row, not graded
    assert [s.refused is not None for s in found.submissions] == [False, True]
    assert [(s.path, s.reason) for s in found.skipped] == [
        (
            "canvas.zip/roeric_23456_78901_lab05.ipynb",
            "not unpacked: it unpacks to more than 100,000 bytes, the limit for one file",
        )
    ]


def test_whole_zip_limits_still_refuse_the_archive(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "bomb.zip", {"a.ipynb": "0" * 200_000, "b.ipynb": "0" * 200_000})
    with pytest.raises(InputError, match="unpacks to more than 300,000 bytes"):
        extract_zip(archive, tmp_path / "out2", ZipLimits(max_total_bytes=300_000))
    with pytest.raises(InputError, match="entries"):
        extract_zip(archive, tmp_path / "out3", ZipLimits(max_members=1))


def test_duplicate_damaged_and_clashing_entries_are_left_out_alone(tmp_path: Path) -> None:
    archive = tmp_path / "odd.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("alice.ipynb", NOTEBOOK)
        with pytest.warns(UserWarning, match="Duplicate name"):  # zipfile warns; an odd LMS export would not
            zf.writestr("alice.ipynb", "second")
        zf.writestr("bob.ipynb/inner.ipynb", NOTEBOOK)
        zf.writestr("bob.ipynb", NOTEBOOK)  # a file where a folder was unpacked
        zf.writestr("cleo.ipynb", NOTEBOOK * 20)
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zf:
        cleo = zf.getinfo("cleo.ipynb")
    body = cleo.header_offset + 30 + len(cleo.filename.encode())
    data[body + 5] ^= 0xFF  # corrupt cleo's compressed stream, not the directory
    archive.write_bytes(bytes(data))
    unpacked = extract_zip(archive, tmp_path / "out")
    assert [p.relative_to(tmp_path / "out").as_posix() for p in unpacked.written] == [
        "alice.ipynb",
        "bob.ipynb/inner.ipynb",
    ]
    assert (tmp_path / "out" / "alice.ipynb").read_text() == NOTEBOOK  # the first entry of a name wins
    reasons = {s.path: s.reason for s in unpacked.skipped}
    assert reasons["alice.ipynb"].startswith("not unpacked: the archive holds another entry of the same name")
    assert reasons["bob.ipynb"].startswith("not unpacked: it cannot be written")
    assert reasons["cleo.ipynb"].startswith("not unpacked: the entry is damaged")
    assert not (tmp_path / "out" / "cleo.ipynb").exists()


def test_unusable_inputs(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        collect_submissions(tmp_path / "missing", "lab05", tmp_path)
    (tmp_path / "plain.txt").write_text("hello")
    with pytest.raises(InputError, match="not a folder or a zip"):
        collect_submissions(tmp_path / "plain.txt", "lab05", tmp_path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no .ipynb or .py"):
        collect_submissions(tmp_path / "empty", "lab05", tmp_path)
    (tmp_path / "broken.zip").write_bytes(b"PK\x03\x04" + b"\0" * 100)
    with pytest.raises(InputError):
        collect_submissions(tmp_path / "broken.zip", "lab05", tmp_path / "s")


def test_choosing_among_several_files(tmp_path: Path) -> None:
    helper = write(tmp_path, "helper.py", "x = 1")
    scratch = write(tmp_path, "scratch.ipynb", NOTEBOOK)
    lab = write(tmp_path, "Lab_05.ipynb", NOTEBOOK)
    assert choose_submission_file([helper, scratch, lab], "lab05") == lab
    assert choose_submission_file([helper, scratch], "lab05") == scratch


@pytest.mark.parametrize(
    "student_id, folder",
    [
        ("alice", "alice"),
        ("../../etc", "etc"),
        (".hidden", "hidden"),
        ("a/b\\c", "a_b_c"),
        ("", "student"),
        ("Jane Doe", "Jane_Doe"),
        ("José", "José"),
    ],
)
def test_safe_folder_names(student_id: str, folder: str) -> None:
    assert safe_folder_name(student_id) == folder


def test_a_student_whose_only_file_was_left_out_of_the_zip_still_has_a_submission(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "canvas.zip",
        {"doejane_12345_67890_lab05.ipynb": NOTEBOOK, "roeric_LATE_23456_78901_lab05.ipynb": "0" * 200_000},
    )
    found = collect_submissions(archive, "lab05", tmp_path / "scratch", ZipLimits(max_member_bytes=100_000))
    assert found.layout is InputLayout.CANVAS
    assert ids(found) == ["12345", "23456"]
    graded, refused = found.submissions
    assert graded.refused is None
    assert refused.refused is not None
    assert (refused.original_name, refused.display_name, refused.late) == ("lab05.ipynb", "roeric", True)
    assert refused.refused.reason == "not unpacked: it unpacks to more than 100,000 bytes, the limit for one file"
    assert (refused.refused.name, refused.refused.size) == ("roeric_LATE_23456_78901_lab05.ipynb", 200_000)
    assert not refused.path.exists()  # nothing stands in for it on disk
    assert [s.path for s in found.skipped] == ["canvas.zip/roeric_LATE_23456_78901_lab05.ipynb"]  # still listed


def test_a_zip_whose_only_file_was_left_out_is_a_class_of_one_not_graded(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "moodle.zip", {"Ann Lee_555_assignsubmission_file_/lab05.ipynb": "0" * 200_000})
    found = collect_submissions(archive, "lab05", tmp_path / "scratch", ZipLimits(max_member_bytes=100_000))
    assert found.layout is InputLayout.MOODLE
    [only] = found.submissions
    assert (only.student_id, only.display_name, only.original_name) == ("555", "Ann Lee", "lab05.ipynb")
    assert only.refused is not None


def test_a_file_left_out_beside_an_unpacked_one_is_named_in_the_notes(tmp_path: Path) -> None:
    archive = make_zip(
        tmp_path / "class.zip",
        {"alice/lab05.ipynb": NOTEBOOK, "alice/big.ipynb": "0" * 200_000, "bob/big.py": "0" * 200_000},
    )
    found = collect_submissions(archive, "lab05", tmp_path / "scratch", ZipLimits(max_member_bytes=100_000))
    alice, bob = found.submissions
    assert (alice.student_id, alice.original_name, alice.refused) == ("alice", "lab05.ipynb", None)
    assert alice.notes == (
        "Also handed in big.ipynb, which was not unpacked: it unpacks to more than 100,000 bytes, "
        "the limit for one file; graded lab05.ipynb.",
    )
    assert (bob.student_id, bob.original_name) == ("bob", "big.py")
    assert bob.refused is not None
    # each file is listed once, with why it was left out (not also as "several files")
    assert sorted(s.path for s in found.skipped) == ["class.zip/alice/big.ipynb", "class.zip/bob/big.py"]


def test_duplicate_and_damaged_entries_are_hand_ins_but_unsafe_ones_and_other_files_are_not(tmp_path: Path) -> None:
    archive = tmp_path / "odd.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("alice.ipynb", NOTEBOOK)
        with pytest.warns(UserWarning, match="Duplicate name"):
            zf.writestr("alice.ipynb", "second")
        zf.writestr("notes.txt", "0" * 200_000)  # not a submission: never looked at
        zf.writestr("__MACOSX/._dan.ipynb", "0" * 200_000)  # an ignored path
        zf.writestr("../eve.ipynb", NOTEBOOK)  # its path cannot be trusted to name a student
        link = zipfile.ZipInfo("fay.ipynb")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    unpacked = extract_zip(archive, tmp_path / "out", ZipLimits(max_member_bytes=100_000))
    assert [m.name for m in unpacked.refused] == ["alice.ipynb"]
    assert sorted(s.path for s in unpacked.skipped) == ["../eve.ipynb", "alice.ipynb", "fay.ipynb"]
    found = collect_submissions(archive, "lab05", tmp_path / "scratch")
    [alice] = found.submissions
    assert alice.refused is None  # graded on the first entry; the second is in the notes
    assert alice.notes[0].startswith("Also handed in alice.ipynb, which was not unpacked: the archive holds another")
