"""`minttt scale` checkpoints: the schema holds what runs write; a bad one is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from minttt.bounds import long_run
from minttt.cli import app
from minttt.errors import InputError
from minttt.formula.variants import Variant
from minttt.schema import load_schema

ROOT = Path(__file__).resolve().parent.parent
VARIANT = Variant("second", None, "lookup", "entries", game="mnk:3,4,3")


def schema() -> dict[str, Any]:
    return load_schema(long_run.SCHEMA)


def good() -> dict[str, Any]:
    return {
        "variant": VARIANT.name,
        "lower": 46,
        "upper": 46,
        "optimal": True,
        "table": "x.table.json",
        "seconds": 1.7,
        "runs": 1,
        "history": [
            [0.78, 0, 46, "greedy + local search table, verified"],
            [1.7, 46, 46, "proven"],
        ],
        "greedy_entries": 50,
    }


def test_schema_is_valid_and_holds_every_shipped_checkpoint() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    shipped = [
        p
        for p in (ROOT / "results" / "games").glob("*.json")
        if p.name != "bounds.json" and "history" in p.read_text()  # bounds.json: its own schema
    ]
    assert shipped
    for path in shipped:
        jsonschema.validate(json.loads(path.read_text()), schema())


def test_a_fresh_state_and_a_good_file_load(tmp_path: Path) -> None:
    assert long_run.load_checkpoint(tmp_path / "none.json", VARIANT)["runs"] == 0
    path = tmp_path / "c.json"
    path.write_text(json.dumps(good()))
    assert long_run.load_checkpoint(path, VARIANT) == good()


@pytest.mark.parametrize(
    "text, message",
    [
        (b"\xff\xfe not text", "not a readable checkpoint"),
        (b"[1, 2", "not a readable checkpoint"),
        (b"[1, 2]", r"not a checkpoint of minttt scale \(fields missing\)"),
        (json.dumps({**good(), "variant": "other"}).encode(), "checkpoint of 'other', not"),
        (json.dumps({**good(), "lower": "46"}).encode(), r"\(lower: '46' is not of type"),
        (json.dumps({**good(), "upper": -1}).encode(), r"\(upper: -1 is less than"),
        (json.dumps({**good(), "history": [[1.0, 2]]}).encode(), r"\(history\.0: \[1\.0, 2\]"),
        (json.dumps({**good(), "runs": None}).encode(), r"\(runs: None is not of type"),
        (json.dumps({**good(), "lower": 46.0}).encode(), r"\(lower: 46.0 is not of type 'integer'"),
        (json.dumps({**good(), "extra": 1}).encode(), r"\(\(document\): Additional properties"),
    ],
)
def test_bad_checkpoints_are_refused_in_one_line(tmp_path: Path, text: bytes, message: str) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(text)
    with pytest.raises(InputError, match=message) as err:
        long_run.load_checkpoint(path, VARIANT)
    assert "\n" not in str(err.value) and str(err.value).startswith(f"{path}: ")


def test_cli_refuses_a_schema_invalid_checkpoint_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({**good(), "seconds": "soon"}))
    result = CliRunner().invoke(
        app, ["scale", "mnk:3,4,3", "--role", "second", "--checkpoint", str(path)]
    )
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.stderr
    assert "seconds: 'soon' is not of type 'number'" in lines[0]
