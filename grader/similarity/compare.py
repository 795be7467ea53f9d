"""Similar submissions: which pairs of students handed in (nearly) the same code.

Each submission's code cells (or ``.py`` file, read as a notebook) are tokenized and
normalised: identifiers become ``V``, strings ``S``, comments and blank lines go; keywords,
builtins, numbers, operators and indentation stay. The tokens are cut into *units*, one per
top-level statement (a function, a loop, an assignment), and the k-grams of each unit are
fingerprinted by winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003). So renaming,
rewording comments or strings, reformatting and reordering functions or cells change
nothing. Every shared run of ``K + WINDOW - 1`` tokens is found; runs under ``K`` are not.

K-grams found in the handout or the bundled solution are boilerplate, removed before two
students are compared: code everyone was given (or the obvious way to write it, as the
solution shows) does not make students alike. Two students' similarity is the Dice
coefficient of what is left: twice the shared fingerprints over the sum of both counts, 0-1.
A submission is also compared with the handout, nothing removed: it is listed against
``handout`` when most of its code *is* the handout's (the untouched template handed in).

Fingerprints hash tuples of integers (a CRC-32 per normalised token), hashed alike by every
CPython process, unlike ``str``: the result depends only on the files, not on their order or
the process. The tokenizer is one regular expression: :mod:`tokenize` is several times slower
on Python 3.11 and gives up on broken code; this never fails and, on valid code, yields the
same tokens. copydetect 0.5.0 was not used: it hashes k-grams with the salted ``str`` hash,
so its scores change between processes; it imports matplotlib, wants directories of files,
and its last release dates from March 2024.
"""

from __future__ import annotations

import builtins
import functools
import keyword
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.submission.json_depth import loads_with_depth_limit
from grader.submission.reader import SubmissionUnreadable, read_submission

DEFAULT_THRESHOLD = 0.5
"""Pairs from here are listed: half of the two students' own code matches. Independently
written answers to lab05 score at most 0.17, a whole copy under new names 1.0, a copy with
half of the answers rewritten 0.45 to 0.6."""
HANDOUT_THRESHOLD = 0.8
"""Listed against the handout from here. A complete answer to lab05 scores about 0.4 against
its template, the template with only ``check_win`` filled in 0.78 to 0.88, with
``check_win`` and ``check_draw`` 0.72 to 0.86."""
HANDOUT = "handout"
K = 12
"""Tokens in a k-gram: a shared run shorter than this (about one line) is noise."""
WINDOW = 8
"""Winnowing window: every shared run of ``K + WINDOW - 1`` = 19 tokens is found."""
MIN_SHARED = 4
"""Fewest shared fingerprints that can make a pair (a few lines): less is too little evidence."""

Span = tuple[int, int]
"""``[start, end)`` character offsets in a code text."""

_TOKEN = re.compile(
    r"""[ \t\f]*(?:\\\r?\n[ \t\f]*)*  # spaces and line continuations before a token
    (?:(?P<comment>\#[^\r\n]*)
    |(?P<newline>\r?\n)
    |(?P<string>[rbuf]{0,2}(?:'''(?:[^\\]|\\.)*?'''|\"\"\"(?:[^\\]|\\.)*?\"\"\"|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))
    |(?P<number>0[xob][\da-f_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:e[+-]?\d[\d_]*)?j?)
    |(?P<name>[^\W\d]\w*)
    |(?P<op>\*\*=?|//=?|>>=?|<<=?|->|:=|\.\.\.|[-+*/%&|^@<>=!]=|[-+*/%&|^~<>()\[\]{},:;.=@])
    |(?P<other>.))""",
    re.VERBOSE | re.DOTALL | re.IGNORECASE,
)
_MAGIC_LINE = re.compile(r"^[ \t]*[%!].*$", re.MULTILINE)
_KEPT_NAMES = frozenset(keyword.kwlist) | frozenset(dir(builtins))
_CONTINUES = frozenset({"else", "elif", "except", "finally"})
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")
_PLAIN_READ_LIMIT = 5_000_000  # bytes: a larger notebook goes through read_submission and its size limit


@dataclass(frozen=True)
class SimilarPair:
    """Two students whose code is alike, or a student and the handout (``handout`` true)."""

    student_a: str
    student_b: str
    """Another student, or ``"handout"`` for a handout row."""
    similarity: float
    """Dice coefficient of the two sets of fingerprints, 0 to 1."""
    shared: int
    """Fingerprints the two have in common (boilerplate removed, except against the handout)."""
    handout: bool = False


@dataclass(frozen=True)
class _Code:
    text: str
    """The code cells, joined by a blank line."""
    kgrams: list[tuple[int, int, int]]
    """Every k-gram: its hash, and where it starts and ends in ``text``."""
    fingerprints: frozenset[int]
    """The winnowed k-gram hashes."""
    comments: tuple[Span, ...]
    """Where the comments are, sorted: never part of a match."""


@dataclass(frozen=True)
class SimilarityReport:
    pairs: tuple[SimilarPair, ...]
    """Ranked: most similar first, ties by student ids; handout rows among them."""
    threshold: float = DEFAULT_THRESHOLD
    handout_threshold: float = HANDOUT_THRESHOLD
    compared: int = 0
    """Students whose code could be read."""
    _codes: dict[str, _Code] = field(default_factory=dict, repr=False, compare=False)
    _handout: _Code | None = field(default=None, repr=False, compare=False)
    _boilerplate: frozenset[int] = field(default=frozenset(), repr=False, compare=False)

    def code_of(self, pair: SimilarPair) -> tuple[str, str]:
        """The code texts of the pair's two sides, which :meth:`matches` indexes."""
        return self._side(pair, 0).text, self._side(pair, 1).text

    def matches(self, pair: SimilarPair) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
        """The matched parts of each side's code text: sorted, disjoint, comments left out.

        Every shared k-gram counts here, not only the winnowed ones; for a pair of students
        the boilerplate is left out, as in the similarity.
        """
        a, b = self._side(pair, 0), self._side(pair, 1)
        common = {h for h, _, _ in a.kgrams} & {h for h, _, _ in b.kgrams}
        if not pair.handout:
            common -= self._boilerplate
        return _spans(a, common), _spans(b, common)

    def _side(self, pair: SimilarPair, side: int) -> _Code:
        if side == 1 and pair.handout:
            assert self._handout is not None
            return self._handout
        return self._codes[pair.student_b if side else pair.student_a]


def compare_submissions(
    submissions: Sequence[tuple[str, Path]],
    *,
    handout: Path | None,
    solution: Path | None,
    threshold: float = DEFAULT_THRESHOLD,
    handout_threshold: float = HANDOUT_THRESHOLD,
) -> SimilarityReport:
    """Compare every pair of students; ``submissions`` are (student id, file) pairs, in any order.

    A student with several files is compared on all of them together; unreadable files are
    skipped (they are reported elsewhere). Pairs from ``threshold`` up are listed, and every
    student whose similarity to the handout reaches ``handout_threshold``. Raises
    :class:`SubmissionUnreadable` only when the handout or the solution cannot be read.
    """
    paths: dict[str, set[Path]] = {}
    for student, path in submissions:
        paths.setdefault(student, set()).add(Path(path))
    codes = {student: code for student in sorted(paths) if (code := _read_code(sorted(paths[student]))) is not None}
    given = [_code_of(_code_cells(Path(path))) if path is not None else None for path in (handout, solution)]
    boilerplate = frozenset(h for code in given if code is not None for h, _, _ in code.kgrams)
    own = {student: code.fingerprints - boilerplate for student, code in codes.items()}
    pairs: list[SimilarPair] = []
    students = list(codes)
    for i, a in enumerate(students):
        for b in students[i + 1 :]:
            score, shared = _dice(own[a], own[b])
            if shared >= MIN_SHARED and score >= threshold:
                pairs.append(SimilarPair(a, b, score, shared))
    hand = given[0]
    if hand is not None:
        for student, code in codes.items():
            score, shared = _dice(code.fingerprints, hand.fingerprints)
            if shared >= MIN_SHARED and score >= handout_threshold:
                pairs.append(SimilarPair(student, HANDOUT, score, shared, handout=True))
    pairs.sort(key=lambda pair: (-pair.similarity, pair.student_a, pair.student_b, pair.handout))
    listed = {pair.student_a for pair in pairs} | {pair.student_b for pair in pairs if not pair.handout}
    kept = {student: codes[student] for student in sorted(listed)}
    return SimilarityReport(tuple(pairs), threshold, handout_threshold, len(codes), kept, hand, boilerplate)


def _dice(a: frozenset[int], b: frozenset[int]) -> tuple[float, int]:
    if not a or not b:
        return 0.0, 0
    shared = len(a & b)
    return round(2 * shared / (len(a) + len(b)), 6), shared


def _spans(code: _Code, hashes: set[int]) -> tuple[Span, ...]:
    """Where the k-grams in ``hashes`` are in ``code.text``, merged, without the comments."""
    merged: list[list[int]] = []
    for start, end in sorted((start, end) for h, start, end in code.kgrams if h in hashes):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    spans: list[Span] = []
    comments = iter(code.comments)  # a comment is wholly inside a merged span or outside it
    comment = next(comments, None)
    for start, end in merged:
        while comment is not None and comment[0] < end:
            if comment[0] >= start:
                spans.append((start, comment[0]))
                start = comment[1]
            comment = next(comments, None)
        spans.append((start, end))
    return tuple((start, end) for start, end in spans if start < end)


# -- reading, tokenizing, fingerprinting -------------------------------------------------------


def _read_code(paths: list[Path]) -> _Code | None:
    cells: list[str] = []
    for path in paths:
        try:
            cells.extend(_code_cells(path))
        except SubmissionUnreadable:
            continue
    return _code_of(cells) if cells else None


def _code_cells(path: Path) -> list[str]:
    """The code cells that are not blank, as :func:`read_submission` reads them.

    A plain nbformat 4 notebook is read straight from its JSON: the same cells, without the
    schema validation that makes up most of ``read_submission``'s time. Anything else (a
    script, an old or damaged notebook) goes through ``read_submission``.
    """
    sources = _plain_notebook_sources(path) if path.suffix.lower() == ".ipynb" else None
    if sources is None:
        sources = [cell.source for cell in read_submission(path).notebook.cells if cell.cell_type == "code"]
    return [source for source in sources if source.strip()]


def _plain_notebook_sources(path: Path) -> list[str] | None:
    try:
        if path.stat().st_size > _PLAIN_READ_LIMIT:
            return None
        raw = loads_with_depth_limit(path.read_bytes().decode("utf-8-sig"))
    except (OSError, ValueError):  # JSONTooDeep included: read_submission then says why
        return None
    if not isinstance(raw, dict) or raw.get("nbformat") != 4 or not isinstance(raw.get("cells"), list):
        return None
    sources = []
    for cell in raw["cells"]:
        source = cell.get("source", "") if isinstance(cell, dict) and cell.get("cell_type") == "code" else None
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if isinstance(source, str):
            sources.append(source)
    return sources


def _code_of(cells: list[str]) -> _Code:
    kgrams: list[tuple[int, int, int]] = []
    fingerprints: set[int] = set()
    comments: list[Span] = []
    offset = 0
    for source in cells:
        for ids, starts, ends in _units(source, offset, comments):
            hashes = [hash(tuple(ids[i : i + K])) for i in range(len(ids) - K + 1)]
            kgrams.extend(zip(hashes, starts, ends[K - 1 :]))
            fingerprints.update(_winnow(hashes))
        offset += len(source) + 2
    return _Code("\n\n".join(cells), kgrams, frozenset(fingerprints), tuple(comments))


@functools.lru_cache(maxsize=8192)
def _token_id(token: str) -> int:
    return zlib.crc32(token.encode("utf-8", "surrogatepass"))


_NEWLINE, _INDENT, _DEDENT = _token_id("<newline>"), _token_id("<indent>"), _token_id("<dedent>")


def _winnow(hashes: list[int]) -> set[int]:
    """Robust winnowing: the minimum of every window of ``WINDOW`` hashes (rightmost on ties)."""
    if len(hashes) <= WINDOW:
        return {min(hashes)} if hashes else set()
    chosen: set[int] = set()
    low = -1
    for end in range(WINDOW - 1, len(hashes)):
        start = end - WINDOW + 1
        if low < start:
            window = hashes[start : end + 1]
            low = end - window[::-1].index(min(window))
        elif hashes[end] <= hashes[low]:
            low = end
        chosen.add(hashes[low])
    return chosen


def _units(source: str, offset: int, comments: list[Span]) -> Iterator[tuple[list[int], list[int], list[int]]]:
    """The normalised tokens of a cell, one unit per top-level statement: (ids, starts, ends).

    Offsets are characters in the code text, where the cell starts at ``offset``; the
    comments' spans are added to ``comments``. IPython magic and shell lines are skipped.
    """
    source = _MAGIC_LINE.sub(lambda match: " " * len(match.group()), source)
    ids: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    decorating = False  # the unit so far is decorators: the function or class comes next
    indents = [0]
    depth = 0  # open brackets
    line_start = True  # at the start of a logical line
    line_begin = 0  # where the current physical line begins
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup or "other"
        text = match.group(kind)
        end = match.end()
        start = end - len(text)
        if kind == "comment":
            comments.append((offset + start, offset + end))
            continue
        if kind == "newline":
            if depth == 0 and not line_start:
                ids.append(_NEWLINE)
                starts.append(offset + start)
                ends.append(offset + end)
                line_start = True
            line_begin = end
            continue
        if kind == "other" and not text.strip():
            continue
        if line_start:
            line_start = False
            column = len(source[line_begin:start].expandtabs(8))
            if column > indents[-1]:
                indents.append(column)
                ids.append(_INDENT)
                starts.append(offset + line_begin)
                ends.append(offset + start)
            while column < indents[-1]:
                indents.pop()
                ids.append(_DEDENT)
                starts.append(offset + start)
                ends.append(offset + start)
            if len(indents) == 1 and ids and not decorating and text not in _CONTINUES:
                yield ids, starts, ends
                ids, starts, ends = [], [], []
            if len(indents) == 1:
                decorating = text == "@" or (decorating and text not in ("def", "class", "async"))
        if kind == "name":
            text = text if text in _KEPT_NAMES else "V"
        elif kind == "string":
            text = "S"
        elif text in _OPENING:
            depth += 1
        elif text in _CLOSING:
            depth = max(0, depth - 1)
        ids.append(_token_id(text))
        starts.append(offset + start)
        ends.append(offset + end)
    closing = ([] if line_start else [_NEWLINE]) + [_DEDENT] * (len(indents) - 1)
    ids.extend(closing)
    starts.extend([offset + len(source)] * len(closing))
    ends.extend([offset + len(source)] * len(closing))
    if ids:
        yield ids, starts, ends
