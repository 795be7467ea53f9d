"""A student's stored record keeps its JSON form: written and read by the one converter, the
``batch`` table has the same keys and values a record written before it has."""

from __future__ import annotations

import json
from pathlib import Path

from grader.class_folder.records import GradingRecord
from grader.execution.result import ExecutionResult
from grader.results import SubmissionResult
from grader.submission.inputs import StudentSubmission

STUDENT = StudentSubmission("s17", Path("in/s17.ipynb"), "s17_late.ipynb", "Ada Lovelace", True, ("also: notes.txt",))

STORED_BATCH = {
    "fingerprint": "ab12",
    "student_id": "s17",
    "display_name": "Ada Lovelace",
    "original_name": "s17_late.ipynb",
    "late": True,
    "notes": ["also: notes.txt"],
    "failure": "the notebook did not run",
    "grader_fault": False,
    "seconds": 3.142,
}
"""The ``batch`` table as the hand-written writer stored it."""


def _record() -> GradingRecord:
    execution = ExecutionResult.from_dict({"cells": [], "sandbox_mode": "limits", "total_duration": 1.5})
    result = SubmissionResult("s17_late.ipynb", "lab05", (), execution, problems=("did not run",))
    return GradingRecord(STUDENT, result, "ab12", "the notebook did not run", seconds=3.14159)


def test_the_stored_batch_table_is_unchanged() -> None:
    stored = json.loads(_record().to_json())
    assert stored["batch"] == STORED_BATCH
    assert list(stored["batch"]) == list(STORED_BATCH)  # the same order, for diffs between runs


def test_a_stored_record_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "submission_result.json"
    path.write_text(_record().to_json(), encoding="utf-8")
    loaded = GradingRecord.load(path, STUDENT)
    assert loaded is not None and loaded.reused
    assert loaded.result == _record().result
    assert (loaded.fingerprint, loaded.failure, loaded.grader_fault, loaded.seconds) == (
        "ab12",
        "the notebook did not run",
        False,
        3.142,
    )
    path.write_text(_record().to_json().replace('"late": true', '"late": "yes"'), encoding="utf-8")
    assert GradingRecord.load(path, STUDENT) is None  # damaged: graded again, never half read


def test_an_execution_record_keeps_its_json_form() -> None:
    data = {
        "cells": [
            {
                "index": 2,
                "number": 1,
                "source": "print(1)",
                "status": "error",
                "error_name": "ValueError",
                "error_message": "bad",
                "output": "1\n",
                "output_truncated": False,
                "duration": 0.25,
                "traceback": "Traceback ...",
            }
        ],
        "stdin_transcript": [{"cell_index": 2, "prompt": "? ", "answer": None}],
        "sandbox_mode": "bwrap",
        "isolation_note": None,
        "kernel_restarts": 1,
        "total_duration": 2.0,
        "kernel_start_seconds": 0.5,
        "notebook_timed_out": False,
    }
    record = ExecutionResult.from_dict(data)
    assert record.to_dict() == data
    assert json.loads(record.to_json()) == data
    assert all(type(v) is str for v in (record.to_dict()["sandbox_mode"], record.to_dict()["cells"][0]["status"]))
