"""Everything the command line prints reaches the terminal printable.

Student text gets onto the terminal in many ways: an exception's first line in `grader run`,
a counterexample's "actual" line in `grader grade`, a file name in a batch's progress lines,
a reason a file was left out. Any of it may hold escape sequences (retitle the window, clear
the screen, rewrite earlier lines), a bell, C1 controls or bidi overrides that reorder what
is shown. Rather than escape each of those places (and miss the next), `main` prints through
:class:`PrintableStream`, whose every write goes through :func:`printable`.
"""

from __future__ import annotations

import contextlib
import io
import sys
import unicodedata
from collections.abc import Iterator
from typing import TextIO

_LAYOUT = frozenset("\n\t")
"""Kept as they are: the command line's own lines and columns are made of them."""
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Controls (C0, DEL, C1), format characters (bidi overrides and isolates, zero-width
marks), lone surrogates (which cannot even be encoded) and the Unicode line separators."""


def printable(text: str) -> str:
    """``text`` with every control, format or separator character but newline and tab written
    as its Python escape (``\\x1b``, ``\\u202e``), so that it shows instead of acting."""
    if text.isprintable():  # the common case, in C: nothing to escape
        return text
    return "".join(_escaped(char) for char in text)


def _escaped(char: str) -> str:
    if char in _LAYOUT or unicodedata.category(char) not in _ESCAPED_CATEGORIES:
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class PrintableStream(io.TextIOBase):
    """A text stream that writes :func:`printable` text to ``raw``."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw
        """The stream itself, for what the grader draws on it with control characters of its
        own (the progress bar's carriage returns), never with student text."""

    def write(self, text: str) -> int:
        self.raw.write(printable(text))
        return len(text)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.raw.encoding


def unfiltered(stream: TextIO | PrintableStream) -> TextIO:
    """The stream under a :class:`PrintableStream`, or ``stream`` itself."""
    return stream.raw if isinstance(stream, PrintableStream) else stream


@contextlib.contextmanager
def printable_output() -> Iterator[None]:
    """While inside, ``sys.stdout`` and ``sys.stderr`` print only printable text."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = PrintableStream(sys.stdout), PrintableStream(sys.stderr)
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):  # a closed or broken pipe: nothing to save
            sys.stdout.flush()
            sys.stderr.flush()
        sys.stdout, sys.stderr = saved
