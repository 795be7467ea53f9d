"""The spec's board: how the student's code holds it (`reference.codecs.BoardEncoding`) and
where it lives (:class:`BoardLocation`), read from and written to ``assignment.toml``.

    [assignment]
    encoding = "grid-space"     # a preset: numpy-012, grid-space, grid-digits, flat-space

    [board]                     # optional; its fields override the preset's (all five
    layout = "rows"             # are required when there is no preset)
    container = "list"
    empty = "-"
    x = "x"
    o = "o"
    location = "attribute"      # "argument" (default) | "attribute" | "global"
    factory = "Game()"          # attribute: how the object holding the board is made
    attribute = "board"         # attribute: the object's field the board is written to
    # global = "board"          # global: the notebook global the board is written to

Symbols are TOML strings or integers taken literally, except four words for an empty cell:
``"None"`` (Python's None), ``"digit"`` (the cell's own number as text, '1'..'9'),
``"number"`` (the same as an integer, 1..9) and ``"index"`` (the cell's index 0..8).

With ``location = "attribute"`` a call on ``game`` (``call = "game.minimax(0, is_max)"``)
makes a fresh object with ``factory``, writes the encoded board to its ``attribute`` and
calls the method on it; ``game`` as an argument (``call = "minimax(game, 0, is_max)"``)
passes such an object. With ``location = "global"`` every call writes the encoded board to
the global first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from grader.execution.channel.call_data import MadeObject
from grader.spec.call_template import CallTemplate, CallTemplateError, parse_call
from reference.codecs import CODECS, BoardEncoding, CellName, Symbol

__all__ = [
    "BOARD_FIELDS",
    "EMPTY_WORDS",
    "LOCATIONS",
    "OBJECT",
    "BoardLocation",
    "Location",
    "board_fields",
    "preset_name",
    "read_board",
    "toml_symbol",
]

Location = Literal["argument", "attribute", "global"]
LOCATIONS: tuple[Location, ...] = get_args(Location)

OBJECT = "game"
"""The name a call template gives the object holding the board: ``game.minimax(0, is_max)``."""

EMPTY_WORDS: dict[str, Symbol] = {"None": None, **{name.value: name for name in CellName}}
"""The strings an ``empty`` field does not take literally."""

_ENCODING_FIELDS = ("layout", "container", "empty", "x", "o")
BOARD_FIELDS = (*_ENCODING_FIELDS, "location", "factory", "attribute", "global")
"""Every field of the ``[board]`` table."""


@dataclass(frozen=True)
class BoardLocation:
    """Where the student's functions find the board."""

    where: Location = "argument"
    name: str = ""
    """The object's attribute (``"board"``, ``"cells"``) or the notebook global."""
    factory: CallTemplate | None = None
    """How the object holding the board is made (``Game()``), for ``where == "attribute"``."""

    def __post_init__(self) -> None:
        if self.where not in LOCATIONS:
            raise ValueError(f"location must be one of {', '.join(LOCATIONS)}, not {self.where!r}")
        if self.where == "argument" and (self.name or self.factory):
            raise ValueError("a board passed as an argument takes no factory, attribute or global")
        if self.where == "global" and (not self.name.isidentifier() or self.factory):
            raise ValueError('location = "global" needs global = "<the notebook global>" and no factory')
        if self.where == "attribute":
            if not self.name.isidentifier() or self.factory is None:
                raise ValueError(
                    'location = "attribute" needs factory = "<a call making the object>", such as "Game()", '
                    'and attribute = "<its field holding the board>"'
                )
            if self.factory.chain:
                raise ValueError(f"factory {self.factory.text!r} must be one call, such as Game()")

    @property
    def board_global(self) -> str | None:
        """The notebook global the board is written to, if it lives in one."""
        return self.name if self.where == "global" else None

    @property
    def board_attribute(self) -> str | None:
        """The attribute of an object the board is written to, if it lives in one."""
        return self.name if self.where == "attribute" else None

    def on_object(self, template: CallTemplate) -> CallTemplate:
        """``template`` with a call on ``game`` made on a fresh object from the factory:
        ``game.minimax(0, is_max)`` becomes ``Game().minimax(0, is_max)``; any other call
        is returned as it is."""
        root, _, method = template.function.partition(".")
        if root != OBJECT:
            return template
        if self.factory is None:
            raise CallTemplateError(f"{template.text!r} calls a method of {OBJECT!r}; the board is not in an object")
        if not method or "." in method:
            raise CallTemplateError(f"{template.text!r}: call one method of {OBJECT!r}, such as {OBJECT}.minimax(...)")
        step = dataclasses.replace(template.target, name=method)
        return dataclasses.replace(template, target=self.factory.target, chain=(step, *template.chain))

    def made_object(self, template: CallTemplate, values: Mapping[str, Any], *, factory: str) -> MadeObject:
        """The object a call passes as ``game`` (``minimax(game, 0, is_max)``): made with the
        factory (named ``factory`` in the notebook), the encoded board in its attribute."""
        assert self.factory is not None, "only a board that lives in an object makes one"
        made = self.factory.render(values, function=factory)
        return MadeObject(made.target, made.args, made.kwargs, {self.name: values["board"]}, template.slots_of(OBJECT))


def read_board(
    preset: str | None, table: Mapping[str, Any], *, placeholders: frozenset[str]
) -> tuple[BoardEncoding, BoardLocation]:
    """The encoding and location an assignment describes: the preset named ``preset`` with
    ``table``'s fields (the ``[board]`` table) over it. Raises ValueError with the field's name
    first (``"empty: ..."``)."""
    unknown = sorted(set(table) - set(BOARD_FIELDS))
    if unknown:
        raise ValueError(f"{unknown[0]}: unknown field; [board] accepts: {', '.join(BOARD_FIELDS)}")
    if preset is not None and preset not in CODECS:
        raise ValueError(f"encoding: unknown encoding {preset!r}; known: {', '.join(sorted(CODECS))}")
    base = CODECS[preset] if preset is not None else None
    values: dict[str, Any] = {}
    for name in _ENCODING_FIELDS:
        if name in table:
            values[name] = _symbol(name, table[name]) if name in ("empty", "x", "o") else table[name]
        elif base is None:
            raise ValueError(f"{name}: is required without a preset encoding (or give assignment.encoding)")
    try:
        if base is None:
            encoding = BoardEncoding(**values)
        else:
            encoding = dataclasses.replace(base, **values, name="") if values else base
    except ValueError as problem:
        raise ValueError(f"board: {problem}") from None
    return encoding, _location(table, placeholders)


def _symbol(name: str, raw: Any) -> Symbol:
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        raise ValueError(f"{name}: must be a string or an integer, not {raw!r}")
    if name == "empty" and isinstance(raw, str) and raw in EMPTY_WORDS:
        return EMPTY_WORDS[raw]
    return raw


def _location(table: Mapping[str, Any], placeholders: frozenset[str]) -> BoardLocation:
    for name in ("location", "factory", "attribute", "global"):
        if name in table and not isinstance(table[name], str):
            raise ValueError(f"{name}: must be a string, not {table[name]!r}")
    factory = None
    if "factory" in table:
        try:
            factory = parse_call(table["factory"], allowed_placeholders=placeholders)
        except CallTemplateError as problem:
            raise ValueError(f"factory: {problem}") from None
    where = table.get("location", "argument")
    names = {"attribute": table.get("attribute", ""), "global": table.get("global", "")}
    if where in names and names["global" if where == "attribute" else "attribute"]:
        other = "global" if where == "attribute" else "attribute"
        raise ValueError(f'{other}: does not go with location = "{where}"')
    try:
        return BoardLocation(where, names.get(where, names["attribute"] or names["global"]), factory)
    except ValueError as problem:
        raise ValueError(f"location: {problem}") from None


# -- writing a [board] table -------------------------------------------------------------------


def preset_name(encoding: BoardEncoding) -> str | None:
    """The preset ``encoding`` is, if it is one (whatever its name says)."""
    return next((name for name, preset in CODECS.items() if preset == encoding), None)


def toml_symbol(symbol: Symbol) -> str | int:
    """A symbol as a value of the ``[board]`` table: ``"_"``, ``0``, ``"None"``, ``"digit"``."""
    if symbol is None:
        return "None"
    if isinstance(symbol, CellName):
        return symbol.value
    return symbol


def board_fields(encoding: BoardEncoding, location: BoardLocation = BoardLocation()) -> dict[str, str | int]:
    """The ``[board]`` table, in the documented order: the whole description (no preset
    needed), then where the board lives unless it is an argument. ``read_board(None, <this>)``
    gives back ``encoding`` and ``location``."""
    fields: dict[str, str | int] = {
        "layout": encoding.layout,
        "container": encoding.container,
        "empty": toml_symbol(encoding.empty),
        "x": toml_symbol(encoding.x),
        "o": toml_symbol(encoding.o),
    }
    if location.where == "attribute":
        assert location.factory is not None
        fields.update(location="attribute", factory=location.factory.text, attribute=location.name)
    elif location.where == "global":
        fields.update({"location": "global", "global": location.name})
    return fields
