"""Read a submission file into a clean nbformat v4 notebook.

Two kinds of file are accepted:

``.ipynb``
    Read as JSON and upgraded to nbformat v4 with nbformat. Whatever the file's schema
    problems (missing fields, odd metadata, duplicate ids), the cells are rebuilt from their
    type and source, so a notebook nbformat can read at all is never rejected for its
    details. Outputs stored in the file are dropped: the grader executes the code itself.
    A syntax error inside a cell is just code; it is reported when the cell runs.
``.py``
    Split into cells at ``# %%`` markers when there are any (the "percent" format of
    VS Code, Spyder and jupytext). Otherwise each top-level statement is a cell, except
    that consecutive imports share one cell and consecutive function/class definitions
    share one: a game loop at module level then ends only its own cell, and the
    definitions after it still run. A file that does not parse as a whole is split the
    same way, best effort, at lines that start in column 0, so the broken part becomes one
    failing cell; it is rejected only when no part of it is Python at all.

Every unusable file raises :class:`SubmissionUnreadable` with the path and a sentence
saying what is wrong with it.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import logging
import re
import tokenize
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import nbformat
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_raw_cell
from traitlets.log import get_logger

from grader.errors import GraderError
from grader.submission.json_depth import JSONTooDeep, loads_with_depth_limit
from grader.submission.self_check_lines import without_self_check

DEFAULT_MAX_BYTES = 20 * 1024 * 1024

_PERCENT_MARKER = re.compile(r"^# ?%%(.*)$", re.MULTILINE)
# Lines in column 0 that continue the statement above rather than start a new one.
_CONTINUATION = re.compile(r"^(else\b|elif\b|except\b|finally\b|case\b|[)\]}])")


class SubmissionUnreadable(GraderError):
    """A submission file that cannot be turned into a notebook."""

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{self.path.name}: {reason}")


@dataclass(frozen=True)
class Submission:
    """A submission read from disk."""

    path: Path
    notebook: NotebookNode
    kind: Literal["notebook", "script"]
    notes: tuple[str, ...] = ()
    """What was done to make the file usable (upgraded, repaired), for the report."""


def read_submission(path: Path | str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Submission:
    """Read a ``.ipynb`` or ``.py`` submission; raises :class:`SubmissionUnreadable`."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".ipynb", ".py"):
        raise SubmissionUnreadable(path, f"unsupported file type {suffix or '(none)'!r}: expected .ipynb or .py")
    data = _read_bytes(path, max_bytes)
    if suffix == ".ipynb":
        notebook, notes = _notebook_from_json(path, data)
        return Submission(path, notebook, "notebook", notes + _set_aside_self_checks(notebook))
    script = notebook_from_script(_script_text(path, data), path=path)
    return Submission(path, script, "script", _set_aside_self_checks(script))


def _set_aside_self_checks(notebook: NotebookNode) -> tuple[str, ...]:
    """Set the in-notebook check's lines aside (`grader.submission.self_check_lines`); a note
    names the cells (numbered as Jupyter numbers them run top to bottom)."""
    numbers = []
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code" and cell.source.strip()]
    for number, cell in enumerate(code_cells, start=1):
        kept = without_self_check(cell.source)
        if kept != cell.source:
            cell.source = kept
            numbers.append(str(number))
    if not numbers:
        return ()
    which = f"cell {numbers[0]}" if len(numbers) == 1 else f"cells {', '.join(numbers)}"
    return (f"the in-notebook check ({which}) is not run when graded",)


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise SubmissionUnreadable(path, "is a directory, not a file")
        if size > max_bytes:
            raise SubmissionUnreadable(
                path, f"the file is too large ({size / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.1f} MB)"
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise SubmissionUnreadable(path, "the file does not exist") from None
    except OSError as error:
        raise SubmissionUnreadable(path, f"the file cannot be read ({error.strerror or error})") from None
    if not data.strip():
        raise SubmissionUnreadable(path, "the file is empty")
    return data


# --- notebooks ---------------------------------------------------------------------------


def _notebook_from_json(path: Path, data: bytes) -> tuple[NotebookNode, tuple[str, ...]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SubmissionUnreadable(path, "not a notebook: the file is not UTF-8 text (is it binary?)") from None
    try:
        raw = loads_with_depth_limit(text)
    except JSONTooDeep as error:
        raise SubmissionUnreadable(path, f"not a usable notebook: {error}") from None
    except json.JSONDecodeError as error:
        raise SubmissionUnreadable(
            path, f"not a notebook: the file is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    if not isinstance(raw, dict) or not ("cells" in raw or "worksheets" in raw):
        found = "an object without 'cells'" if isinstance(raw, dict) else f"a JSON {type(raw).__name__}"
        raise SubmissionUnreadable(path, f"JSON but not a Jupyter notebook: found {found}")
    notes: list[str] = []
    version = raw.get("nbformat", 4)
    try:
        with _nbformat_quiet():
            upgraded = nbformat.convert(nbformat.from_dict(raw), 4)
        if version != 4:
            notes.append(f"upgraded from nbformat {version} to 4")
        cells = upgraded.get("cells")
    except Exception:  # nbformat's upgrade code trusts the input; any failure means damage
        cells = _cells_from_any_version(raw)
        notes.append("the notebook could not be upgraded by nbformat; its cells were recovered directly")
    if not isinstance(cells, list):
        raise SubmissionUnreadable(path, "JSON but not a Jupyter notebook: 'cells' is not a list")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. missing cell ids: rebuilt cells get new ones
            nbformat.validate(nbformat.from_dict(raw))
    except Exception:  # jsonschema errors, or worse: either way the cells are rebuilt below
        if version == 4:
            notes.append("the notebook did not match the nbformat schema; cells were rebuilt from their source")
    rebuilt = [cell for cell in (_clean_cell(cell) for cell in cells) if cell is not None]
    if len(rebuilt) < len(cells):
        notes.append(f"{len(cells) - len(rebuilt)} damaged cell(s) were dropped")
    return new_notebook(cells=rebuilt), tuple(notes)


@contextlib.contextmanager
def _nbformat_quiet() -> Iterator[None]:
    """nbformat logs what it finds wrong while upgrading, quoting the notebook: on a batch's
    terminal that is student text, and the report says what was done anyway."""
    found = get_logger()
    logger = found.logger if isinstance(found, logging.LoggerAdapter) else found
    disabled, logger.disabled = logger.disabled, True
    try:
        yield
    finally:
        logger.disabled = disabled


def _cells_from_any_version(raw: dict[str, Any]) -> Any:
    if "cells" in raw:
        return raw["cells"]
    worksheets = raw.get("worksheets")
    if isinstance(worksheets, list):
        return [cell for sheet in worksheets if isinstance(sheet, dict) for cell in sheet.get("cells", [])]
    return None


def _clean_cell(cell: Any) -> NotebookNode | None:
    if not isinstance(cell, dict):
        return None
    source = cell.get("source", cell.get("input", ""))
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        source = "".join(source)
    if not isinstance(source, str):
        return None
    kind = cell.get("cell_type")
    metadata = cell.get("metadata")
    tags = metadata.get("tags") if isinstance(metadata, dict) else None
    # Only string tags are kept: whatever else the metadata holds never reaches the kernel.
    extra = {"metadata": {"tags": [t for t in tags if isinstance(t, str)]}} if isinstance(tags, list) else {}
    if kind == "code":
        return new_code_cell(source, **extra)
    if kind in ("markdown", "heading"):
        return new_markdown_cell(source, **extra)
    return new_raw_cell(source, **extra)


# --- scripts -----------------------------------------------------------------------------


def _script_text(path: Path, data: bytes) -> str:
    if b"\x00" in data:
        raise SubmissionUnreadable(path, "not Python source: the file is binary")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        raise SubmissionUnreadable(path, "not Python source: the file is not text in a known encoding") from None


def notebook_from_script(source: str, *, path: Path | str = "<script>") -> NotebookNode:
    """Split Python source into notebook cells (see the module docstring for the rules)."""
    if _PERCENT_MARKER.search(source):
        cells = list(_split_at_markers(source))
    else:
        chunks = _split_statements(source)
        if chunks is None:
            chunks = _split_best_effort(source)
            if not any(_parses(chunk) for chunk in chunks):
                raise SubmissionUnreadable(path, f"not Python source: {_first_syntax_error(source)}")
        cells = [new_code_cell(chunk) for chunk in chunks]
    if not any(cell.cell_type == "code" and cell.source.strip() for cell in cells):
        raise SubmissionUnreadable(path, "the file contains no code, only comments or text")
    return new_notebook(cells=cells)


def _split_at_markers(source: str) -> Iterator[NotebookNode]:
    pieces = _PERCENT_MARKER.split(source)
    # split() alternates text and marker titles: [before, title1, body1, title2, body2, ...]
    if pieces[0].strip():
        yield new_code_cell(pieces[0].strip("\n"))
    for title, body in zip(pieces[1::2], pieces[2::2]):
        body = body.strip("\n")
        if "[markdown]" in title:
            yield new_markdown_cell("\n".join(re.sub(r"^# ?", "", line) for line in body.splitlines()))
        elif body.strip():
            yield new_code_cell(body)


def _statement_kind(node: ast.stmt) -> str:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return "import"
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return "definition"
    return "other"


def _split_statements(source: str) -> list[str] | None:
    """Cells of a file that parses; None when it does not."""
    tree = _parse(source)
    if tree is None:
        return None
    lines = source.splitlines(keepends=True)
    groups: list[tuple[str, int, int]] = []  # kind, first line, last line (1-based)
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        last = node.end_lineno or node.lineno
        kind = _statement_kind(node)
        if groups and (first <= groups[-1][2] or (kind != "other" and kind == groups[-1][0])):
            groups[-1] = (groups[-1][0], groups[-1][1], max(last, groups[-1][2]))
        else:
            groups.append((kind, first, last))
    chunks = []
    for position, (_, _first, last) in enumerate(groups):
        # Comments and blank lines above a statement belong to it; the file's tail to the last.
        start = groups[position - 1][2] + 1 if position else 1
        end = len(lines) if position == len(groups) - 1 else last
        chunks.append("".join(lines[start - 1 : end]).strip("\n"))
    return [chunk for chunk in chunks if chunk.strip()]


def _split_best_effort(source: str) -> list[str]:
    """Cells of a file that does not parse (see the module docstring)."""
    return _regroup(_merge_until_parseable(_column_zero_chunks(source)))


def _column_zero_chunks(source: str) -> list[str]:
    """Lines grouped so that each group starts at a column-0 line that can begin a statement."""
    chunks: list[list[str]] = [[]]
    previous = ""
    for line in source.splitlines(keepends=True):
        begins = (
            line[:1].strip()
            and not line.startswith("#")
            and not _CONTINUATION.match(line)
            and not previous.endswith(("\\", ",", "(", "[", "{", ":"))
            and not previous.startswith("@")
        )
        if begins and chunks[-1]:
            chunks.append([])
        chunks[-1].append(line)
        if line.strip():
            previous = line.rstrip()
    return ["".join(chunk) for chunk in chunks]


def _merge_until_parseable(chunks: list[str], reach: int = 5) -> list[str]:
    """Join a chunk that does not parse with up to ``reach`` following ones, when that parses.

    Undoes splits inside a statement, e.g. at a closing bracket's line in column 0.
    """
    merged = []
    index = 0
    while index < len(chunks):
        widths = range(1, min(reach + 1, len(chunks) - index) + 1)
        width = next((w for w in widths if _parses("".join(chunks[index : index + w]))), 1)
        merged.append("".join(chunks[index : index + width]).strip("\n"))
        index += width
    return merged


def _regroup(chunks: list[str]) -> list[str]:
    """Join neighbouring parseable chunks that are all imports or all definitions."""
    grouped: list[tuple[str | None, str]] = []
    for chunk in chunks:
        kind = _chunk_kind(chunk)
        if grouped and kind in ("import", "definition") and grouped[-1][0] == kind:
            grouped[-1] = (kind, grouped[-1][1] + "\n\n" + chunk)
        else:
            grouped.append((kind, chunk))
    return [chunk for _, chunk in grouped if chunk.strip()]


def _chunk_kind(chunk: str) -> str | None:
    tree = _parse(chunk)
    if tree is None:
        return None
    kinds = {_statement_kind(node) for node in tree.body}
    return kinds.pop() if len(kinds) == 1 else None


def _parses(text: str) -> bool:
    if not text.strip() or all(line.lstrip().startswith("#") or not line.strip() for line in text.splitlines()):
        return False
    return _parse(text) is not None


# Not only syntax errors: CPython's parser raises RecursionError or MemoryError on deeply
# nested expressions (``a.a.a...``, ``- - - 1``), and neither may escape the reader.
_UNPARSEABLE = (SyntaxError, ValueError, RecursionError, MemoryError)


def _parse(source: str) -> ast.Module | None:
    """The syntax tree of ``source``, or None when it does not parse, for whatever reason."""
    try:
        return ast.parse(source)
    except _UNPARSEABLE:
        return None


def _first_syntax_error(source: str) -> str:
    try:
        ast.parse(source)
    except SyntaxError as error:
        return f"no part of it is valid Python (line {error.lineno}: {error.msg})"
    except ValueError as error:
        return f"no part of it is valid Python ({error})"
    except (RecursionError, MemoryError):
        return "no part of it is valid Python (it is nested too deeply to be read)"
    return "no part of it is valid Python"


# --- replay support ----------------------------------------------------------------------


def definition_statements(source: str) -> str:
    """The imports, function/class definitions and call-free assignments of a cell.

    Used to replay a cell that timed out or killed the kernel: its definitions come back
    without re-running the loop or call that caused the trouble. Empty when the cell does
    not parse.
    """
    tree = _parse(source)
    if tree is None:
        return ""
    lines = source.splitlines(keepends=True)
    kept = []
    for node in tree.body:
        keep = _statement_kind(node) != "other" or _is_plain_assignment(node)
        if keep:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            kept.append("".join(lines[first - 1 : node.end_lineno]))
    return "".join(kept)


def _is_plain_assignment(node: ast.stmt) -> bool:
    """``name = value`` where computing the value calls nothing (so it cannot loop or crash).

    Assignments to attributes or items are left out: ``builtins.max = ...`` is a side effect,
    not a definition.
    """
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets, value = [node.target], node.value
    else:
        return False
    calls = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)
    return all(_names_only(t) for t in targets) and not any(isinstance(n, calls) for n in ast.walk(value))


def _names_only(target: ast.expr) -> bool:
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_names_only(element) for element in target.elts)
    return isinstance(target, ast.Name)
