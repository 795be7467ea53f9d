"""The mark this grader leaves in every output folder it writes (``grader batch --out``,
``grader merge OUT``), so that a folder of its own outputs is never read as submissions.

A class's output folder may well sit inside the class's input folder (``--out
submissions/graded``); it holds a copy of every graded file, which a later run must not take
for a student's hand-in. The folder is recognised by the marker file at its root, never by
its name: an instructor may call it anything, and a student may be called ``graded``.
"""

from __future__ import annotations

from pathlib import Path

from grader.atomic_write import write_atomic

OUTPUT_MARKER = ".gamesearch-grader-output"
"""The marker's file name; hidden, and never a submission (not ``.ipynb`` nor ``.py``)."""

OWN_OUTPUT_REASON = "an output folder of this grader"

_MARKER_TEXT = (
    "This folder holds the outputs of gamesearch-grader (grader batch / grader merge).\n"
    "grader batch never reads it, or anything under it, as a student's submission.\n"
)


def mark_output_folder(folder: Path) -> None:
    """Create ``folder`` when missing and mark it as this grader's output (before anything
    else is written into it, so that a folder holding outputs always carries the mark)."""
    folder.mkdir(parents=True, exist_ok=True)
    marker = folder / OUTPUT_MARKER
    if not marker.is_file():
        write_atomic(marker, _MARKER_TEXT)


def is_output_folder(folder: Path) -> bool:
    """Whether ``folder`` is the root of an output folder this grader wrote."""
    return (folder / OUTPUT_MARKER).is_file()
