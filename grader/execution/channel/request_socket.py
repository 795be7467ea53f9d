"""The grader's end of the shim's request socket: frames of JSON over a Unix socket.

The socket lets a run of requests skip the kernel's message loop (see
:mod:`grader.execution.channel.protocol`). The grader listens on a path in the session's
runtime directory, the shim connects while it is installed, before any student code runs,
and the path is removed once the connection is accepted: nothing started later can
connect. Frames are waited for as the comm's messages are (:mod:`~grader.execution.channel.readiness`).
"""

from __future__ import annotations

import json
import select
import socket
from typing import Any

from grader.errors import GraderError
from grader.execution.channel.protocol import FRAME_LENGTH_BYTES, FRAME_MAX_BYTES
from grader.execution.channel.readiness import Readiness
from grader.execution.runtime_dir import RuntimeDir

_READ_BYTES = 1 << 20
_SEND_PATIENCE_SECONDS = 30.0
"""How long a request may wait to be written: the shim reads each request whole before it
answers, so only a kernel that stopped reading makes a write wait at all."""


class SocketEnded(GraderError, RuntimeError):
    """The request socket is of no more use: the shim's end closed (it broke, or the kernel
    died), or the shim stopped serving it (``closed`` False)."""

    def __init__(self, message: str, *, closed: bool = True) -> None:
        super().__init__(message)
        self.closed = closed


class RequestSocket:
    """The accepted connection to one kernel's shim."""

    def __init__(self, connection: socket.socket) -> None:
        self._connection = connection
        connection.settimeout(_SEND_PATIENCE_SECONDS)
        self._poll = select.poll()
        self._poll.register(connection.fileno(), select.POLLIN)
        self._buffer = bytearray()

    def send(self, payload: dict[str, Any]) -> None:
        """Write one request; :class:`SocketEnded` if the shim's end is gone or stopped reading."""
        data = json.dumps(payload, allow_nan=False, separators=(",", ":")).encode()
        try:
            self._connection.sendall(len(data).to_bytes(FRAME_LENGTH_BYTES, "little") + data)
        except OSError as error:  # a broken pipe, a reset or the write's time-out
            raise SocketEnded(f"the request socket could not be written: {error}") from None

    def next_payload(self, within: float) -> Any:
        """The next frame's JSON, or None when none came ``within`` seconds.

        :class:`SocketEnded` when the shim's end closed, or sent something that is not a frame
        of JSON (only a notebook writing into the shim's socket does that).
        """
        readiness = Readiness(within)
        while (frame := self._take_frame()) is None:
            if not readiness.wait(self._poll.poll):
                return None
            try:
                data = self._connection.recv(_READ_BYTES)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError as error:
                raise SocketEnded(f"the request socket broke: {error}") from None
            if not data:
                raise SocketEnded("the shim closed the request socket")
            self._buffer += data
        try:
            return json.loads(frame)
        except ValueError:
            raise SocketEnded("the request socket carried something that is not JSON") from None

    def _take_frame(self) -> bytes | None:
        if len(self._buffer) < FRAME_LENGTH_BYTES:
            return None
        length = int.from_bytes(self._buffer[:FRAME_LENGTH_BYTES], "little")
        if length > FRAME_MAX_BYTES:
            raise SocketEnded(f"the request socket carried a frame of {length} bytes")
        end = FRAME_LENGTH_BYTES + length
        if len(self._buffer) < end:
            return None
        frame = bytes(self._buffer[FRAME_LENGTH_BYTES:end])
        del self._buffer[:end]
        return frame

    def close(self) -> None:
        self._connection.close()


class RequestListener:
    """Where the shim connects while it is installed; see :meth:`RuntimeDir.listen`."""

    def __init__(self, runtime: RuntimeDir, name: str) -> None:
        self.path = runtime.path / name
        self._listener = runtime.listen(name)

    @property
    def address(self) -> str | None:
        """What the shim connects to; None when no socket could be made (then requests
        all travel on the comm)."""
        return None if self._listener is None else str(self.path)

    def accept(self, within: float) -> RequestSocket | None:
        """The shim's connection (it connected during the install, so it is waiting), or
        None; the path is removed either way."""
        if self._listener is None:
            return None
        try:
            self._listener.settimeout(within)
            connection, _ = self._listener.accept()
        except OSError:
            return None
        finally:
            self.close()
        return RequestSocket(connection)

    def close(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None
            self.path.unlink(missing_ok=True)
