"""The tagged JSON format shared by the grader and the kernel shim (no kernel needed)."""

from __future__ import annotations

import collections
import json
import math

import numpy as np
import pytest

from grader.execution.channel.calls import RemoteObject, Unrepresented, decode_value
from grader.execution.channel.wire_format import Unserializable, decode, encode


def roundtrip(value):
    return decode_value(json.loads(json.dumps(encode(value), allow_nan=False)))


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        0,
        -(10**30),
        1.5,
        "X",
        "",
        [1, [2, [3]]],
        (1, (2, "O")),
        {"a": 1},
        {(0, 1): "X", 2: [None]},
        {1, 2},
        frozenset({"a"}),
        b"\x00\xff",
        complex(1, -2),
        [[" ", "X"], ["O", " "]],
    ],
    ids=repr,
)
def test_plain_values_survive_the_trip(value) -> None:
    decoded = roundtrip(value)
    assert decoded == value and type(decoded) is type(value)


@pytest.mark.parametrize("value", [math.inf, -math.inf])
def test_infinities(value: float) -> None:
    assert roundtrip(value) == value


def test_nan() -> None:
    assert math.isnan(roundtrip(math.nan))


@pytest.mark.parametrize(
    "array",
    [
        np.zeros((3, 3), dtype=int),
        np.array([[1, 2], [0, 1]], dtype=np.int8),
        np.array([0.5, np.inf, -np.inf]),
        np.array([True, False]),
        np.array([["X", " "], ["O", "X"]]),
        np.empty((0, 3)),
    ],
    ids=lambda a: f"{a.dtype}{a.shape}",
)
def test_arrays_keep_dtype_and_shape(array: np.ndarray) -> None:
    decoded = roundtrip(array)
    assert decoded.dtype == array.dtype and decoded.shape == array.shape
    assert np.array_equal(decoded, array)


def test_numpy_scalars_become_python_scalars() -> None:
    assert roundtrip(np.int64(3)) == 3 and type(roundtrip(np.int64(3))) is int
    assert roundtrip(np.bool_(True)) is True
    assert roundtrip(np.float64(0.25)) == 0.25


def test_subclasses_of_builtin_containers_travel_as_their_base_type() -> None:
    Point = collections.namedtuple("Point", "x y")
    point = Point(1, 2)
    assert roundtrip(point) == (1, 2)
    assert roundtrip(collections.defaultdict(list, {"a": [1]})) == {"a": [1]}


class Node:
    def __init__(self, board, children=()):
        self.board = board
        self.children = list(children)
        self.score = None


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self) -> None:
        self.x = 1
        self.y = np.int64(2)


def test_objects_come_back_with_plain_attributes_one_level_deep() -> None:
    tree = Node([["X"]], [Node([["O"]])])
    snapshot = roundtrip(tree)
    assert isinstance(snapshot, RemoteObject) and snapshot.type_name == "Node"
    assert snapshot.board == [["X"]] and snapshot.score is None
    children = snapshot.children
    assert isinstance(children, list)
    child = children[0]
    assert child.type_name == "Node" and child.attributes is None


def test_slots_and_unrepresentable_attributes() -> None:
    snapshot = roundtrip(Slotted())
    assert snapshot.attributes == {"x": 1, "y": 2}
    holder = Node(board=None)
    holder.callback = print  # type: ignore[attr-defined]  # set from outside the class, as notebooks do
    assert roundtrip(holder).callback == Unrepresented("opaque", "builtin_function_or_method")


def test_cycles_are_marked() -> None:
    loop: list = [1]
    loop.append(loop)
    assert roundtrip(loop) == [1, Unrepresented("cycle", "list")]


@pytest.mark.parametrize("value", [len, (x for x in range(0)), iter([]), json, Node], ids=lambda v: type(v).__name__)
def test_code_and_iterators_are_unserializable(value) -> None:
    with pytest.raises(Unserializable):
        encode(value)


def test_huge_values_are_refused() -> None:
    with pytest.raises(Unserializable, match="too large"):
        encode(list(range(100)), max_nodes=50)


def test_the_kernel_side_decoder_refuses_objects() -> None:
    with pytest.raises(ValueError):
        decode(encode(Node([])))


def test_rows_of_plain_items_count_their_strings_and_come_back_as_fresh_lists() -> None:
    """A flat row (strings, ints, None mixed) is counted against both limits; a decoded row is a new list."""
    row = ["XO", 1, None, "O", True]
    assert encode([row, row], max_chars=6, max_nodes=13) == [row, row]
    with pytest.raises(Unserializable, match="over 5 characters"):
        encode([row, row], max_chars=5)
    with pytest.raises(Unserializable, match="over 12 parts"):
        encode([row, row], max_nodes=12)
    data = [row, [0.5, "X"]]
    decoded = decode(data)
    assert decoded == data and decoded[0] is not row and decoded[1] is not data[1]
