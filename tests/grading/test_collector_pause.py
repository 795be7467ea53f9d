"""A grading keeps the collector off the objects alive before it, and gives them back after."""

from __future__ import annotations

import gc

import pytest

from grader.collector_pause import older_objects_left_out_of_collections


def test_older_objects_are_frozen_while_any_grading_runs_and_given_back_after_the_last() -> None:
    gc.unfreeze()
    older = [object() for _ in range(10)]
    with older_objects_left_out_of_collections():
        assert gc.get_freeze_count() >= len(older)
        with older_objects_left_out_of_collections():  # a second grading at the same time
            pass
        assert gc.get_freeze_count() >= len(older)  # the first is still running
    assert gc.get_freeze_count() == 0


def test_a_grading_that_raises_gives_the_objects_back() -> None:
    with pytest.raises(RuntimeError), older_objects_left_out_of_collections():
        raise RuntimeError("a grading's own error")
    assert gc.get_freeze_count() == 0
