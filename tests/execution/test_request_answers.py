"""Picking the messages that answer one request out of the kernel's raw iopub frames."""

from __future__ import annotations

from jupyter_client.session import Session

from grader.execution.channel.link import RequestAnswers


def _frames(session: Session, msg_type: str, content: dict, parent: dict) -> list[bytes]:
    message = session.msg(msg_type, content, parent=parent)
    return session.serialize(message)


def test_a_message_of_the_request_is_read_signed_and_parsed() -> None:
    session = Session(key=b"connection key")
    request = session.msg("comm_msg", {"data": {}})
    answers = RequestAnswers(request["header"]["msg_id"], session)
    frames = _frames(session, "comm_msg", {"comm_id": "c", "data": {"kind": "done"}}, request["header"])
    assert answers.read(frames) == {"msg_type": "comm_msg", "content": {"comm_id": "c", "data": {"kind": "done"}}}


def test_messages_of_other_requests_are_skipped_without_being_parsed() -> None:
    session = Session(key=b"connection key")
    request, earlier = session.msg("comm_msg", {}), session.msg("comm_msg", {})
    answers = RequestAnswers(request["header"]["msg_id"], session)
    frames = _frames(session, "status", {"execution_state": "idle"}, earlier["header"])
    frames[-1] = b"{not json"  # never parsed: its parent is another request
    assert answers.read(frames) is None


def test_an_id_that_only_starts_with_the_request_id_is_another_request() -> None:
    session = Session(key=b"connection key")
    request = session.msg("comm_msg", {})
    msg_id = request["header"]["msg_id"]
    answers = RequestAnswers(msg_id, session)
    longer = dict(request["header"], msg_id=msg_id + "0")
    assert answers.read(_frames(session, "status", {"execution_state": "busy"}, longer)) is None


def test_a_message_not_signed_with_the_connection_key_is_dropped() -> None:
    session, forger = Session(key=b"connection key"), Session(key=b"another key")
    request = session.msg("comm_msg", {})
    answers = RequestAnswers(request["header"]["msg_id"], session)
    forged = _frames(forger, "comm_msg", {"comm_id": "c", "data": {"kind": "done"}}, request["header"])
    assert answers.read(forged) is None
    assert answers.read([b"no delimiter", b"at all"]) is None
