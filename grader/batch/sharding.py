"""Split a class between the jobs of a job array (Slurm, Kubernetes Jobs, a CI matrix).

Shard ``K/N`` (K counted from 0) owns the students whose id hashes to K modulo N. The hash is
SHA-256 of the id, never Python's salted ``hash()``, so every job of the array agrees on the
split without talking to the others, and a student stays in the same shard when others
join or leave the class (splitting by position would move everyone after a newcomer).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from grader.class_folder.layout import ClassFolder
from grader.errors import UsageError
from grader.submission.inputs import SubmissionSet

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


class ShardError(UsageError, ValueError):
    """A shard that cannot be parsed or does not exist."""


@dataclass(frozen=True)
class Shard:
    index: int
    """K: which part, from 0 to count - 1."""
    count: int
    """N: how many parts the class is split into."""

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ShardError(f"{self}: the number of shards must be at least 1")
        if not 0 <= self.index < self.count:
            raise ShardError(
                f"{self}: the shard number must be between 0 and {self.count - 1} "
                "(with Slurm: --array=0-%d)" % (self.count - 1)
            )

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"K/N"``, e.g. ``"0/4"`` ... ``"3/4"``."""
        match = _SHARD.match(text)
        if not match:
            raise ShardError(f"{text!r}: expected K/N, e.g. 0/4 for the first of four shards")
        return cls(int(match[1]), int(match[2]))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def owns(self, student_id: str) -> bool:
        return shard_of(student_id, self.count) == self.index

    def select(self, found: SubmissionSet) -> SubmissionSet:
        """This shard's submissions (files left out of the input stay listed in every shard;
        a merge lists each once)."""
        return replace(found, submissions=tuple(s for s in found.submissions if self.owns(s.student_id)))


def shard_of(student_id: str, count: int) -> int:
    """The shard (0 .. count - 1) a student belongs to, the same on every machine."""
    digest = hashlib.sha256(student_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count


@dataclass(frozen=True)
class ShardManifest:
    """What a sharded run stores next to its outputs (``OUT/shard.json``), so that a merge can
    tell a complete class from one with a shard missing or interrupted."""

    shard: Shard
    assignment_id: str
    students: tuple[str, ...]
    """Every student id this shard was given, graded or not."""
    skipped: tuple[tuple[str, str], ...]
    """Files of the input left out (path, reason): the same in every shard."""
    complete: bool
    """False when the run was interrupted before every student was graded."""

    def to_json(self) -> str:
        return (
            json.dumps(
                {
                    "shard": str(self.shard),
                    "assignment": self.assignment_id,
                    "students": list(self.students),
                    "skipped": [list(s) for s in self.skipped],
                    "complete": self.complete,
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )

    @classmethod
    def read(cls, folder: Path) -> ShardManifest | None:
        """The manifest in ``folder``, or None when there is none or it cannot be read."""
        try:
            data = json.loads(ClassFolder(folder).manifest.read_text(encoding="utf-8"))
            return cls(
                Shard.parse(data["shard"]),
                str(data["assignment"]),
                tuple(map(str, data["students"])),
                tuple((str(p), str(r)) for p, r in data["skipped"]),
                bool(data["complete"]),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None
