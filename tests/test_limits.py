"""Size limits before expensive work, and integer fields."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest

from minttt.errors import InputError
from minttt.evolve.checkpoint import MAX_ARRAY_BYTES, _decode_array
from minttt.table.model import MAX_TABLE_CHARS, load_table, table_from_json
from minttt.web.sample import sample_table


def test_a_huge_table_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(" " * (MAX_TABLE_CHARS + 1), "utf-8")
    with pytest.raises(InputError, match="larger than"):
        load_table(path)


def test_a_compressed_array_is_inflated_only_up_to_its_shape() -> None:
    bomb = base64.b64encode(zlib.compress(bytes(50_000_000), 9)).decode("ascii")  # ~50 kB
    with pytest.raises(InputError, match="does not match shape"):
        _decode_array({"dtype": "int8", "shape": [10, 10], "zlib_base64": bomb}, "population")
    with pytest.raises(InputError, match="more than"):
        _decode_array({"dtype": "int8", "shape": [MAX_ARRAY_BYTES, 2], "zlib_base64": bomb}, "p")
    with pytest.raises(InputError, match="shape"):
        _decode_array({"dtype": "int8", "shape": [2.0, 5], "zlib_base64": bomb}, "population")


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("size", 22.0, "size: 22.0 is not an integer"),
        ("size", True, "integer"),
        ("value", 0.0, "value: 0.0 is not -1, 0 or 1"),
        ("move", 1.0, "move: 1.0 is not an integer"),
        ("hash", 1.0, "hash: 1.0 is not an integer"),
        ("name", "\ud800", "lone surrogate"),
    ],
)
def test_integer_fields_and_valid_unicode(where: str, value: object, message: str) -> None:
    doc = sample_table().to_dict()
    if where == "size":
        doc["size"] = value
    elif where == "name":
        doc["provenance"]["name"] = value
    else:
        doc["entries"][1][where] = value
    with pytest.raises(InputError, match=message):
        table_from_json(json.dumps(doc))
