"""The core's compact JSON of report rows is `json.dumps` text, byte for byte."""

from __future__ import annotations

import json
import random
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slopmark import _core

#: What a report row holds: strings (lone surrogates too: paths read with
#: ``surrogateescape``), ints of any size, floats of any kind, bools and None.
CELLS = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.none(),
)


def dumps(keys: list[str], columns: list[int], rows: list[tuple[object, ...]]) -> str:
    objects = [dict(zip(keys, (row[c] for c in columns), strict=True)) for row in rows]
    return json.dumps(objects, separators=(",", ":"))[1:-1]


@given(st.lists(st.lists(st.tuples(CELLS, CELLS, CELLS), max_size=4), max_size=4))
def test_rows_are_written_as_json_dumps_writes_them(lists: list[list[tuple[object, ...]]]) -> None:
    keys, columns = ["b", "é\n", "a"], [2, 0, 1]
    written = _core.json_objects(keys, columns, lists)
    assert written == [dumps(keys, columns, rows) for rows in lists]


def test_floats_are_written_as_repr_writes_them() -> None:
    """Random bit patterns (every exponent, subnormals) and the masses of a report."""
    rng = random.Random(16)
    values = [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(200_000)]
    values += [cc * sloc**0.5 for cc in range(1, 60) for sloc in range(3000)]
    values += [10.0**e for e in range(-330, 309)] + [1.5 * 10.0**e for e in range(-20, 20)]
    written = _core.json_objects(["m"], [0], [[(v,) for v in values]])[0]
    assert written == dumps(["m"], [0], [(v,) for v in values])


def test_named_tuples_and_lists_are_rows_and_other_values_are_refused() -> None:
    assert _core.json_objects(["x"], [1], [[[0, 1.5]], []]) == ['{"x":1.5}', ""]
    with pytest.raises(TypeError, match="a bytes is not a string"):
        _core.json_objects(["x"], [0], [[(b"x",)]])
    with pytest.raises(ValueError, match="one column per key"):
        _core.json_objects(["x", "y"], [0], [[(1,)]])
