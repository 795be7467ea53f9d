"""Hypothesis strategies for what students and LMS exports hand the grader at its input
boundary: notebooks damaged in every way a file can be, and zip exports with bad members.

A notebook file is drawn as a (name, bytes) pair: a notebook whose nbformat fields hold
wrong types, then written out whole, truncated, nested deep, padded with a huge string,
or in an odd encoding; or plain noise, or a script. A zip export is drawn as its members,
some named to escape the folder, linked, repeated, damaged or bombed, and the archive itself
may be cut short.
"""

from __future__ import annotations

import io
import json
import stat
import warnings
import zipfile
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

MEMBER_LIMIT = 20_000
"""The per-file limit the zip tests unpack with: a "bomb" member goes past it."""

_JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
"""Any JSON value: what a field of the wrong type holds."""

_SOURCES = st.one_of(
    st.text(max_size=60),
    st.lists(st.text(max_size=20), max_size=4),
    st.sampled_from(["def f(:\n", "x = 1\n", "while True:\n    pass\n", "import os\nos.getcwd()\n", "\x00\ud800"]),
)


@st.composite
def output_dicts(draw: st.DrawFn) -> Any:
    output: dict[str, Any] = {
        "output_type": draw(st.sampled_from(["stream", "execute_result", "display_data", "error", "hologram"])),
        "name": "stdout",
        "text": draw(_SOURCES),
        "data": {draw(st.sampled_from(["text/plain", "image/png", "application/x-odd"])): draw(_SOURCES)},
        "metadata": {},
    }
    return _with_wrong_fields(draw, output)


@st.composite
def cell_dicts(draw: st.DrawFn) -> Any:
    cell: dict[str, Any] = {
        "cell_type": draw(st.sampled_from(["code", "markdown", "raw", "heading", "widget", ""])),
        "metadata": draw(st.sampled_from([{}, {"tags": ["a", 1, None, ["nested"]]}, {"deletable": False}])),
        "source": draw(_SOURCES),
        "outputs": draw(st.lists(output_dicts(), max_size=2)),
        "execution_count": draw(st.none() | st.integers(0, 5)),
    }
    if draw(st.booleans()):
        cell["id"] = draw(st.sampled_from(["a", "a", "", "bad id with spaces", "x" * 80]))
    return _with_wrong_fields(draw, cell)


def _with_wrong_fields(draw: st.DrawFn, node: dict[str, Any]) -> Any:
    """``node`` with up to two fields replaced by any JSON value or removed; or not a dict at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)
    for key in draw(st.sets(st.sampled_from(sorted(node)), max_size=2)):
        if draw(st.booleans()):
            node[key] = draw(json_values)
        else:
            del node[key]
    return node


@st.composite
def notebook_dicts(draw: st.DrawFn) -> Any:
    """A notebook whose every nbformat field may hold the wrong type (``cells`` an object,
    ``source`` a number, an unknown output type), old (v3 worksheets) or new."""
    cells = draw(st.lists(cell_dicts(), max_size=4))
    if draw(st.integers(0, 5)) == 0:  # nbformat 3
        notebook: dict[str, Any] = {
            "worksheets": [{"cells": cells}],
            "metadata": {},
            "nbformat": 3,
            "nbformat_minor": 0,
        }
    else:
        notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": draw(st.integers(0, 6))}
    return _with_wrong_fields(draw, notebook)


_ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252")


@st.composite
def notebook_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """A file name and the bytes of a damaged notebook (or script, or noise)."""
    shape = draw(
        st.sampled_from(["whole", "truncated", "deep", "huge", "encoded", "invalid-utf8", "noise", "script", "empty"])
    )
    notebook = draw(notebook_dicts())
    text = json.dumps(notebook, ensure_ascii=draw(st.booleans()))
    # A lone surrogate in a string becomes the bytes a careless encoder writes for it.
    raw = text.encode("utf-8", "surrogatepass")
    if shape == "truncated":
        return "truncated.ipynb", raw[: draw(st.integers(0, max(0, len(raw) - 1)))]
    if shape == "deep":
        depth = draw(st.sampled_from([60, 61, 64, 65, 100, 999, 5_000, 200_000]))
        nested = draw(st.sampled_from(["[", '{"a":'])) * depth
        closing = "]" * depth if nested.startswith("[") else "}" * depth
        inner = nested + "1" + closing if nested.startswith("{") else nested + closing
        deep = json.dumps({"cells": [], "metadata": {"deep": 0}, "nbformat": 4, "nbformat_minor": 5})
        return "deep.ipynb", deep.replace('"deep": 0', f'"deep": {inner}').encode()
    if shape == "huge":
        size = draw(st.sampled_from([100_000, 1_000_000, 4_000_000]))
        cell = {"cell_type": "code", "metadata": {}, "source": "x = '" + "a" * size + "'", "outputs": []}
        big = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        return "huge.ipynb", json.dumps(big).encode()
    if shape == "encoded":
        odd = text.replace('"metadata": {}', '"metadata": {"author": "Zoë Ñúñez – Ω"}', 1)
        return "encoded.ipynb", odd.encode(draw(st.sampled_from(_ENCODINGS)), errors="replace")
    if shape == "invalid-utf8":
        data = bytearray(raw)
        at = draw(st.integers(0, len(data)))
        return "invalid.ipynb", bytes(
            data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + data[at:]
        )
    if shape == "noise":
        return draw(st.sampled_from(["noise.ipynb", "noise.py"])), draw(st.binary(max_size=200))
    if shape == "script":
        source = draw(st.text(max_size=200) | st.sampled_from(["x = " + "(" * 300 + ")" * 300, "x = " + "-" * 50_000]))
        return "script.py", source.encode(draw(st.sampled_from(_ENCODINGS)), errors="replace")
    if shape == "empty":
        return "empty.ipynb", draw(st.sampled_from([b"", b"   \n", b"\xef\xbb\xbf"]))
    return "whole.ipynb", raw


@dataclass(frozen=True)
class Member:
    name: str
    content: bytes
    kind: str = "file"
    """file, link or dir."""
    compressed: bool = True


@dataclass(frozen=True)
class Export:
    members: tuple[Member, ...]
    damage: str = "none"
    """none, a flipped byte in the first member's data, or the archive cut short."""

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as zf, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile warns of the duplicate names it is asked for
            for member in self.members:
                info = zipfile.ZipInfo(member.name)
                info.compress_type = zipfile.ZIP_DEFLATED if member.compressed else zipfile.ZIP_STORED
                if member.kind == "link":
                    info.external_attr = (stat.S_IFLNK | 0o777) << 16
                elif member.kind == "dir":
                    info.external_attr = (stat.S_IFDIR | 0o755) << 16 | 0x10
                zf.writestr(info, member.content)
        data = bytearray(buffer.getvalue())
        if self.damage == "flipped" and self.members:
            with zipfile.ZipFile(io.BytesIO(bytes(data))) as zf:
                first = zf.infolist()[0]
            start = first.header_offset + 30 + len(first.filename.encode()) + len(first.extra)
            if first.compress_size:
                data[start + first.compress_size // 2] ^= 0x5A
        elif self.damage == "cut":
            data = data[: len(data) * 2 // 3]
        return bytes(data)


_STUDENT_NAMES = st.sampled_from(
    [
        "doejane_12345_67890_lab05.ipynb",
        "doejane_LATE_12345_67891_lab05.py",
        "roeric_23456_78901_lab05.ipynb",
        "Jane Doe_34567_assignsubmission_file_/lab05.ipynb",
        "alice.ipynb",
        "bob/lab05.ipynb",
    ]
)
_ODD_NAMES = st.sampled_from(
    [
        "../escape.ipynb",
        "a/../../escape.ipynb",
        "/abs/escape.ipynb",
        "C:/windows.ipynb",
        "..\\back.ipynb",
        "alice.ipynb/inside.ipynb",
        "\x1b]0;PWNED\x07.ipynb",
        "\u202eblyp.ipynb",
        "x" * 300 + ".ipynb",
        "__MACOSX/._alice.ipynb",
        ".ipynb_checkpoints/alice-checkpoint.ipynb",
        "notes.txt",
        "dir/",
    ]
)


@st.composite
def exports(draw: st.DrawFn) -> Export:
    """An LMS export with good hand-ins and bad members: links, escaping and absolute paths,
    duplicate names, a bomb past `MEMBER_LIMIT`, damaged data."""
    members: list[Member] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["file", "file", "file", "link", "dir", "bomb", "duplicate"]))
        if kind == "duplicate" and members:
            members.append(Member(draw(st.sampled_from([m.name for m in members])), draw(st.binary(max_size=50))))
            continue
        name = draw(_STUDENT_NAMES | _ODD_NAMES)
        if kind == "bomb":
            members.append(Member(name, b"0" * (MEMBER_LIMIT + draw(st.integers(1, 50_000)))))
        elif kind == "link":
            members.append(Member(name, b"/etc/passwd", "link"))
        elif kind == "dir":
            members.append(Member(name.rstrip("/") + "/", b"", "dir"))
        else:
            _, content = draw(notebook_files())
            members.append(Member(name, content[:5_000], compressed=draw(st.booleans())))
    return Export(tuple(members), draw(st.sampled_from(["none", "none", "none", "flipped", "cut"])))
