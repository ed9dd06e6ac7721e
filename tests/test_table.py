"""The minttt-table/1 file: round trips, lookup, the raw-hash array, and every bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.game.graph import build_graph
from minttt.game.rules import Board
from minttt.table.model import (
    FORMAT,
    Table,
    first_move_table,
    load_table,
    merge_tables,
    save_table,
    table_from_json,
    table_from_moves,
)

GRAPH = build_graph()
FULL = build_graph(symmetric=False)
TX = first_move_table(GRAPH, "X", opening=4)
TO = first_move_table(GRAPH, "O")
TB = merge_tables(TX, TO)


def test_round_trip_and_deterministic_bytes(tmp_path):
    for table in (TX, TO, TB):
        path = tmp_path / "t.json"
        save_table(table, path)
        first = path.read_bytes()
        again = load_table(path)
        assert again == table
        assert again.provenance == table.provenance
        save_table(again, path)
        assert path.read_bytes() == first
        data = json.loads(first)
        assert data["format"] == FORMAT and data["size"] == table.size == len(data["entries"])


def test_entries_sorted_by_depth_then_hash():
    keys = [(sum(c != "." for c in e.board), e.hash) for e in TB.entries]
    assert keys == sorted(keys)


def test_move_maps_back_through_the_inverse_symmetry():
    # every real board the table answers: the real move is legal and lands on the canonical
    # answer's position (same canonical child as playing the entry's move on the canonical board)
    answered = 0
    for cells in FULL.boards.values():
        board = Board(cells)
        entry = TB.entry(board)
        if entry is None or board.is_terminal:
            continue
        answered += 1
        real = TB.move(board)
        canon_board = Board.parse(entry.board)
        assert board.play(real).canonical().hash == canon_board.play(entry.move).canonical().hash
    assert answered > TB.size  # symmetric images answered too


def test_move_array_agrees_with_lookup_everywhere():
    arr = TB.move_array
    assert arr.shape == (3**9,)
    for h, cells in FULL.boards.items():
        board = Board(cells)
        try:
            expected = TB.move(board)
        except KeyError:
            expected = -1
        assert arr[h] == expected


def test_opening_without_root_entry_and_missing_entry():
    assert TX.entry(Board.empty()) is None
    assert TX.move(Board.empty()) == 4
    assert TX.player().choices(Board.empty()) == (4,)
    with pytest.raises(KeyError):
        TX.move(Board.parse("x........"))  # X never opens in the corner: no entry
    assert TX.player().choices(Board.parse("x...o....")) == ()


def test_table_from_moves_checks_moves():
    with pytest.raises(InputError, match="move"):
        table_from_moves(GRAPH, {0: 9}, role="X", opening=None, criterion="optimal")
    with pytest.raises(InputError, match="to move"):
        table_from_moves(GRAPH, {0: 4}, role="O", opening=None, criterion="optimal")


def test_merge_needs_both_sides():
    with pytest.raises(InputError):
        merge_tables(TO, TX)


# ------------------------------------------------------------------ bad input
def _doc(**changes):
    d = TX.to_dict()
    d.update(changes)
    return d


def _entry_doc(i, **changes):
    d = TX.to_dict()
    d["entries"][i] = {**d["entries"][i], **changes}
    return d


CASES = [
    ("not json", "malformed JSON"),
    (json.dumps([1, 2]), "(document)"),
    (json.dumps(_doc(format="minttt-table/2")), "format: unknown version"),
    (json.dumps(_doc(format="other")), "format"),
    (json.dumps(_doc(role="Z")), "role"),
    (json.dumps(_doc(opening=9)), "opening"),
    (json.dumps(_doc(opening="centre")), "opening"),
    (json.dumps(_doc(criterion="best")), "criterion"),
    (json.dumps(_doc(size=3)), "size"),
    (json.dumps(_doc(game="4x4")), "game"),
    (json.dumps({k: v for k, v in _doc().items() if k != "entries"}), "entries"),
    (json.dumps(_entry_doc(0, move=9)), "entries[0].move"),
    (json.dumps(_entry_doc(0, move=-1)), "entries[0].move"),
    (json.dumps(_entry_doc(0, board="x" * 9)), "entries[0].board"),
    (json.dumps(_entry_doc(0, hash=99999)), "entries[0].hash"),
    (json.dumps(_entry_doc(0, value=2)), "entries[0].value"),
    (json.dumps(_entry_doc(0, extra=1)), "entries[0]"),
]


@pytest.mark.parametrize(("text", "field"), CASES)
def test_bad_documents_name_the_field(text, field):
    with pytest.raises(InputError) as err:
        table_from_json(text, source="t.json")
    message = str(err.value)
    assert "\n" not in message and message.startswith("t.json: ")
    assert field in message


def test_semantic_errors():
    e0 = TX.entries[0]
    board = Board.parse(e0.board)
    # a hash that is not canonical: the same position under another symmetry
    other = next(board.transform(t) for t in range(8) if board.transform(t).hash != e0.hash)
    bad_hash = _entry_doc(0, hash=other.hash, board=str(other))
    with pytest.raises(InputError, match=r"entries\[0\]\.hash: .* not canonical"):
        Table.from_dict(bad_hash)
    # board not matching its hash: a canonical board of the same side to move
    e1 = TX.entries[1]
    with pytest.raises(InputError, match=r"entries\[0\]\.board: .* does not match hash"):
        Table.from_dict(_entry_doc(0, board=e1.board))
    occupied = next(i for i, c in enumerate(e0.board) if c != ".")
    with pytest.raises(InputError, match=r"entries\[0\]\.move: cell .* occupied"):
        Table.from_dict(_entry_doc(0, move=occupied))
    dup = TX.to_dict()
    dup["entries"].append(dict(dup["entries"][0]))
    dup["size"] += 1
    with pytest.raises(InputError, match="duplicate"):
        Table.from_dict(dup)
    with pytest.raises(InputError, match="opening"):
        Table.from_dict({**TO.to_dict(), "opening": 4})
    with pytest.raises(InputError, match="to move"):
        Table.from_dict({**TO.to_dict(), "role": "X"})


def test_load_table_file_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_table(tmp_path / "missing.json")
    with pytest.raises(InputError, match="directory"):
        load_table(tmp_path)
    raw = tmp_path / "bin.json"
    raw.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match="UTF-8"):
        load_table(raw)


def _valid_text() -> str:
    return TX.to_json()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_fuzz_any_text_never_tracebacks(text):
    try:
        table_from_json(text)
    except InputError as exc:
        assert "\n" not in str(exc)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 30000) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["format", "game", "role", "opening", "criterion", "hash", "size", "entries"]),
    JSONISH,
    st.integers(0, 45),
    st.sampled_from(["hash", "board", "move", "value", None]),
)
def test_fuzz_mutated_documents_never_traceback(key, value, index, entry_key):
    doc = json.loads(_valid_text())
    if entry_key is None:
        doc[key] = value
    else:
        doc["entries"][index][entry_key] = value
    try:
        table = Table.from_dict(doc)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert table.size == len(table.entries)


def test_cli_exit_2_on_bad_file(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_entry_doc(3, move=42)))
    result = runner.invoke(app, ["verify", str(bad)])
    assert result.exit_code == 2
    assert "entries[3].move" in result.output
    assert "Traceback" not in result.output


_JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", ".........", "x..o.....", "xo.\n", "XO.", "x o", "ab"]),
)
_ENTRY_FIELDS = st.sampled_from(["hash", "board", "move", "value", "extra"])


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_ENTRY_FIELDS, _JSON_SCALARS, max_size=5))
def test_an_entry_left_out_of_the_schema_is_one_the_schema_accepts(raw: dict) -> None:
    """The table loader leaves entries its own check calls plain out of the schema's
    validation (speed): that check must be stricter than the schema's ``entries.items``."""
    import jsonschema

    from minttt.schema import load_schema
    from minttt.table.model import _plain_entry

    items = load_schema("table.schema.json")["properties"]["entries"]["items"]
    if _plain_entry(raw):
        jsonschema.Draft202012Validator(items).validate(raw)


def test_a_bad_entry_among_plain_ones_is_named_by_the_schema() -> None:
    doc = json.loads(TO.to_json())
    doc["entries"][5]["extra"] = 1
    with pytest.raises(InputError, match=r"entries\[5\]: Additional properties are not allowed"):
        table_from_json(json.dumps(doc))
