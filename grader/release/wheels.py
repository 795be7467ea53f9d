"""Writing a pure-Python wheel from files in memory, with no build tool: a zip archive laid out
as the wheel format (PEP 427) asks, its ``.dist-info`` holding the metadata, entry points and a
RECORD of every file's hash. Every entry has the same fixed date, so the same files make the
same wheel byte for byte."""

from __future__ import annotations

import base64
import hashlib
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

_FIXED_DATE = (1980, 1, 1, 0, 0, 0)
_WHEEL = "Wheel-Version: 1.0\nGenerator: gamesearch-grader\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


@dataclass(frozen=True)
class WheelSpec:
    """What a wheel is: its name, version and files, and what its metadata says."""

    name: str
    version: str
    summary: str
    files: Mapping[str, bytes]
    """Path inside the wheel (``package/module.py``) to content."""
    requires: Sequence[str] = ()
    """``Requires-Dist`` lines: ``gamesearch-grader==0.1.0``."""
    entry_points: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Group to name to object reference: ``{"console_scripts": {"grader": "grader.cli:main"}}``."""
    requires_python: str | None = None

    @property
    def file_name(self) -> str:
        return f"{distribution_name(self.name)}-{self.version}-py3-none-any.whl"


def distribution_name(name: str) -> str:
    """A project's name as a wheel's file name and its ``.dist-info`` spell it."""
    return re.sub(r"[-_.]+", "_", name).lower()


def write_wheel(spec: WheelSpec, folder: Path) -> Path:
    """Write ``spec`` into ``folder``; the wheel's path."""
    info = f"{distribution_name(spec.name)}-{spec.version}.dist-info"
    contents = dict(spec.files)
    contents[f"{info}/METADATA"] = _metadata(spec).encode()
    contents[f"{info}/WHEEL"] = _WHEEL.encode()
    if spec.entry_points:
        contents[f"{info}/entry_points.txt"] = _entry_points(spec.entry_points).encode()
    record = "".join(f"{path},{_digest(data)},{len(data)}\n" for path, data in sorted(contents.items()))
    contents[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / spec.file_name
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(contents.items()):
            entry = zipfile.ZipInfo(name, date_time=_FIXED_DATE)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return path


def _metadata(spec: WheelSpec) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {spec.name}", f"Version: {spec.version}", f"Summary: {spec.summary}"]
    if spec.requires_python:
        lines.append(f"Requires-Python: {spec.requires_python}")
    lines += [f"Requires-Dist: {requirement}" for requirement in spec.requires]
    return "\n".join(lines) + "\n"


def _entry_points(groups: Mapping[str, Mapping[str, str]]) -> str:
    return "".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in entries.items()) + "\n"
        for group, entries in groups.items()
    )


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
