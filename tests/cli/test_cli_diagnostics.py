"""The library's diagnostics reach the terminal through `logging`, one plain line each, and
through ``tqdm.write`` so that a progress bar being drawn is not broken."""

from __future__ import annotations

import logging

import pytest
import tqdm

from grader.cli.diagnostics import GRADER_LOGGER, diagnostics_on_stderr


def test_a_command_shows_info_lines_and_quiet_only_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    log = logging.getLogger("grader.batch.plan")
    with diagnostics_on_stderr():
        log.info("lab05: 3 submission(s) found")
    with diagnostics_on_stderr(quiet=True):
        log.info("not shown")
        log.warning("alice: stopped: the batch was interrupted")
    assert capsys.readouterr().err == "lab05: 3 submission(s) found\nalice: stopped: the batch was interrupted\n"


def test_the_handler_is_taken_back_after_the_command() -> None:
    logger = logging.getLogger(GRADER_LOGGER)
    handlers, level = list(logger.handlers), logger.level
    with diagnostics_on_stderr():
        assert len(logger.handlers) == len(handlers) + 1
    assert logger.handlers == handlers and logger.level == level


def test_lines_go_through_tqdm_write_so_a_bar_is_redrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    monkeypatch.setattr(tqdm.tqdm, "write", classmethod(lambda cls, text, file=None, **_: written.append(text)))
    with diagnostics_on_stderr():
        logging.getLogger("grader.class_folder.outputs").warning("lab05: similar submissions not compared")
    assert written == ["lab05: similar submissions not compared"]
