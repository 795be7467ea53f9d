"""Refuse JSON nested deeper than a limit, measured without recursion, before it is parsed.

Python's ``json`` parser, ``copy.deepcopy``, nbformat's schema validation and ``json.dumps``
all recurse once per level of nesting. A notebook whose metadata holds 200,000 nested lists
makes the first of them raise ``RecursionError``; one a little shallower gets through the
parser and fails in the next. So the depth is measured on the text, with a loop, and a
document deeper than :data:`MAX_JSON_DEPTH` is refused before anything recurses on it.
A real notebook nests about ten levels (notebook, cells, cell, outputs, output, data, ...);
widget state in the metadata adds a few more.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from grader.errors import GraderError

MAX_JSON_DEPTH = 64

# A JSON string, escapes included ("unrolled loop": no backtracking on long strings).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class JSONTooDeep(GraderError, ValueError):
    """JSON nested deeper than the limit (a ``ValueError``, like any other JSON that will not parse)."""

    def __init__(self, depth: int, limit: int) -> None:
        self.depth = depth
        self.limit = limit
        super().__init__(f"its JSON is nested {depth:,} levels deep; the limit is {limit}")


def nesting_depth(text: str) -> int:
    """The deepest nesting of brackets and braces outside strings (an iterative count: any depth).

    On text that is not valid JSON (an unterminated string, say) it is an upper bound, which
    is enough: such text is refused either way.
    """
    skeleton = _NOT_BRACKET.sub("", _STRING.sub("", text))
    # Only brackets are left (ASCII): their bytes are the steps' keys, summed in C without a
    # Python-level step per bracket (a hostile file holds millions of them).
    return max(accumulate(map(_STEP.__getitem__, skeleton.encode("ascii"))), default=0)


def loads_with_depth_limit(text: str, limit: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads``, after refusing text nested deeper than ``limit`` with :class:`JSONTooDeep`."""
    depth = nesting_depth(text)
    if depth > limit:
        raise JSONTooDeep(depth, limit)
    return json.loads(text)
