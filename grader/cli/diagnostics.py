"""Where the library's diagnostics go when a command runs: stderr, one plain line each.

The library logs under ``grader.*`` and never writes to stderr itself. A command shows its
``INFO`` lines (what a batch found and how it grades it) and everything worse; ``--quiet``
keeps only warnings and errors. While a batch draws its progress bar on stderr, the lines go
through ``tqdm.write``, which clears the bar, writes the line and draws the bar again.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from tqdm.contrib.logging import logging_redirect_tqdm

GRADER_LOGGER = "grader"


@contextmanager
def diagnostics_on_stderr(*, quiet: bool = False) -> Iterator[None]:
    """For the duration of one command; the handler and level are taken back afterwards, so
    that a process that runs several commands (a test) does not pile handlers up."""
    logger = logging.getLogger(GRADER_LOGGER)
    handler = logging.StreamHandler(sys.stderr)  # the stderr of now: a test may have swapped it
    handler.setFormatter(logging.Formatter("%(message)s"))
    previous_level = logger.level
    logger.setLevel(logging.WARNING if quiet else logging.INFO)
    logger.addHandler(handler)
    try:
        with logging_redirect_tqdm(loggers=[logger]):
            yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous_level)
