"""A call's captured output in the kernel: what the student's code prints while the grader calls
it, kept up to a cap.

Shipped into the kernel as source after the protocol (whose truncation notice it appends), like
the other kernel-side modules, so it uses only the standard library.
"""

from __future__ import annotations

import io

if __name__ != globals().get("KERNEL_NAMESPACE"):  # in the kernel, the sources sent before define these
    from grader.execution.channel.protocol import CALL_OUTPUT_TRUNCATED


class CappedText(io.TextIOBase):
    """A stdout replacement that keeps the first ``limit`` characters and drops the rest."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0
        self.truncated = False

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = self.limit - self.size
        if len(text) <= room:
            self.parts.append(text)
            self.size += len(text)
        elif not self.truncated:
            self.parts.append(text[:room])
            self.size = self.limit
            self.truncated = True
        return len(text)

    def writable(self) -> bool:
        return True

    def getvalue(self) -> str:
        text = "".join(self.parts)
        return text + CALL_OUTPUT_TRUNCATED if self.truncated else text
