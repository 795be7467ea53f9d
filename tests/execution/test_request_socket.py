"""The grader's end of the request socket: frames in, JSON out, and every way it ends."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from grader.execution.channel.protocol import FRAME_LENGTH_BYTES, FRAME_MAX_BYTES
from grader.execution.channel.request_socket import RequestListener, RequestSocket, SocketEnded
from grader.execution.runtime_dir import RuntimeDir


def _frame(payload: object) -> bytes:
    data = json.dumps(payload).encode()
    return len(data).to_bytes(FRAME_LENGTH_BYTES, "little") + data


@pytest.fixture
def pair():
    grader_end, shim_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    yield RequestSocket(grader_end), shim_end
    grader_end.close()
    shim_end.close()


def test_frames_come_whole_and_one_at_a_time(pair) -> None:
    requests, shim = pair
    first, second = _frame({"kind": "outcomes", "n": 1}), _frame({"kind": "done", "result": [1, "x"]})
    shim.sendall(first[:3])
    assert requests.next_payload(0.01) is None  # not even the length yet
    shim.sendall(first[3:10])
    assert requests.next_payload(0.01) is None  # half a frame
    shim.sendall(first[10:] + second)
    assert requests.next_payload(1.0) == {"kind": "outcomes", "n": 1}
    assert requests.next_payload(1.0) == {"kind": "done", "result": [1, "x"]}
    assert requests.next_payload(0.01) is None


def test_a_request_goes_out_as_one_frame(pair) -> None:
    requests, shim = pair
    requests.send({"id": "a1", "op": "calls", "calls": [{"name": "é"}]})
    data = shim.recv(1 << 16)
    length = int.from_bytes(data[:FRAME_LENGTH_BYTES], "little")
    assert length == len(data) - FRAME_LENGTH_BYTES
    assert json.loads(data[FRAME_LENGTH_BYTES:]) == {"id": "a1", "op": "calls", "calls": [{"name": "é"}]}


def test_the_shim_closing_its_end_ends_the_socket(pair) -> None:
    requests, shim = pair
    shim.sendall(_frame({"kind": "done"}))
    shim.close()
    assert requests.next_payload(1.0) == {"kind": "done"}  # what came before the end is kept
    with pytest.raises(SocketEnded) as ended:
        requests.next_payload(1.0)
    assert ended.value.closed
    with pytest.raises(SocketEnded):
        requests.send({"id": "a2", "op": "calls"})


@pytest.mark.parametrize(
    "written",
    [
        (5).to_bytes(FRAME_LENGTH_BYTES, "little") + b"{nope",
        (FRAME_MAX_BYTES + 1).to_bytes(FRAME_LENGTH_BYTES, "little"),
    ],
    ids=["not JSON", "longer than any reply"],
)
def test_what_is_not_a_frame_of_json_ends_the_socket(pair, written: bytes) -> None:
    requests, shim = pair
    shim.sendall(written)
    with pytest.raises(SocketEnded):
        requests.next_payload(1.0)


def test_the_listeners_path_is_gone_once_the_shim_is_accepted(tmp_path: Path) -> None:
    runtime = RuntimeDir(tmp_path / "runtime", kernel_gid=None)
    listener = RequestListener(runtime, "requests-test")
    assert listener.address == str(runtime.path / "requests-test")
    shim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    shim.connect(listener.address)
    requests = listener.accept(within=1.0)
    assert requests is not None
    assert not listener.path.exists()
    shim.sendall(_frame({"kind": "left", "session": 1}))
    assert requests.next_payload(1.0) == {"kind": "left", "session": 1}
    requests.close()
    shim.close()


def test_without_a_connection_the_listener_gives_none_and_cleans_up(tmp_path: Path) -> None:
    runtime = RuntimeDir(tmp_path / "runtime", kernel_gid=None)
    listener = RequestListener(runtime, "requests-test")
    assert listener.accept(within=0.01) is None
    assert not listener.path.exists()


def test_a_path_too_long_for_a_socket_leaves_the_comm_alone(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 120)
    deep.mkdir()
    runtime = RuntimeDir(deep / "runtime", kernel_gid=None)
    listener = RequestListener(runtime, "requests-test")
    assert listener.address is None
    assert listener.accept(within=0.01) is None
