"""Sessions opened by a test are closed after it, even when it fails."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from grader.execution.session import ExecutionOptions, NotebookSession
from tests.execution.support import fixture


@pytest.fixture
def open_session() -> Iterator[Callable[..., NotebookSession]]:
    sessions: list[NotebookSession] = []

    def opener(name: str, options: ExecutionOptions | None = None) -> NotebookSession:
        session = NotebookSession(fixture(name), options)
        sessions.append(session)
        return session.__enter__()

    yield opener
    for session in sessions:
        session.close()
