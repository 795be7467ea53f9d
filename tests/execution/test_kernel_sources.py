"""What is sent into the student's kernel: every module of ``channel/kernel/``, after the
shared ones, and nothing else; the namespace's name is spelled once."""

from __future__ import annotations

from pathlib import Path

from grader import errors
from grader.execution.channel import link, protocol, wire_format
from grader.execution.channel.protocol import KERNEL_NAMESPACE

KERNEL_DIR = Path(link.__file__).parent / "kernel"


def test_the_kernel_folder_holds_exactly_what_is_sent_after_the_shared_modules() -> None:
    shared = [Path(m.__file__ or "").read_text(encoding="utf-8") for m in (errors, protocol, wire_format)]
    assert list(link.KERNEL_SOURCES[: len(shared)]) == shared
    sent = set(link.KERNEL_SOURCES[len(shared) :])
    kernel_side = {p.read_text(encoding="utf-8") for p in KERNEL_DIR.glob("*.py") if p.name != "__init__.py"}
    # Each module once (a module sent twice would run twice), and none left behind.
    assert sent == kernel_side and len(link.KERNEL_SOURCES) == len(shared) + len(kernel_side)
    assert {p.stem for p in KERNEL_DIR.glob("*.py")} - {"__init__"} == {
        "board_reading",
        "built_values",
        "builtins_guard",
        "call_clock",
        "called_searches",
        "captured_output",
        "executor",
        "exploration",
        "held_moves",
        "names",
        "next_boards",
        "node_cap",
        "predicate_truths",
        "references",
        "shim",
        "stand_ins",
    }


def test_the_namespace_is_named_in_protocol_alone() -> None:
    channel = Path(link.__file__).parent
    spelled = [p.name for p in sorted(channel.rglob("*.py")) if repr(KERNEL_NAMESPACE) in p.read_text()]
    spelled += [p.name for p in sorted(channel.rglob("*.py")) if f'"{KERNEL_NAMESPACE}"' in p.read_text()]
    assert sorted(set(spelled)) == ["protocol.py"]
