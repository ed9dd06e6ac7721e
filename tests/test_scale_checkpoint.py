"""`minttt scale` checkpoints: the schema holds what runs write; a bad one is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from minttt.bounds.state import SCALE_SCHEMA, BoundsState, read_state, scale_store
from minttt.cli import app
from minttt.errors import InputError
from minttt.formula.variants import Variant
from minttt.schema import load_schema

ROOT = Path(__file__).resolve().parent.parent
VARIANT = Variant("second", None, "lookup", "entries", game="mnk:3,4,3")


def schema() -> dict[str, Any]:
    return load_schema(SCALE_SCHEMA)


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
    validator = jsonschema.Draft202012Validator(schema())  # the schema checked once, above
    for path in shipped:
        validator.validate(json.loads(path.read_text()))


def load(path: Path) -> BoundsState:
    return read_state(scale_store(path), VARIANT)


def test_a_fresh_state_and_a_good_file_load(tmp_path: Path) -> None:
    assert load(tmp_path / "none.json").runs == 0
    path = tmp_path / "c.json"
    path.write_text(json.dumps(good()))
    assert load(path).to_dict() == good()


@pytest.mark.parametrize(
    "text, message",
    [
        (b"\xff\xfe not text", "not a readable scale checkpoint"),
        (b"[1, 2", "not a readable scale checkpoint"),
        (b"[1, 2]", r"not a valid scale checkpoint \(\(document\): \[1, 2\] is not of type"),
        (b"[" * 100_000, "not a readable scale checkpoint \\(nested too deeply\\)"),
        (
            json.dumps({**good(), "lower": 47}).encode(),
            "lower bound 47 is above the upper bound 46",
        ),
        (
            json.dumps({**good(), "lower": 40}).encode(),
            "claims optimal, but its bounds are 40 .. 46",
        ),
        (json.dumps({**good(), "table": None}).encode(), "an upper bound needs its table"),
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
        load(path)
    assert "\n" not in str(err.value) and str(err.value).startswith(f"{path}: ")


def test_cli_refuses_a_schema_invalid_checkpoint_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({**good(), "seconds": "soon"}))
    result = CliRunner().invoke(
        app, ["scale", "--game", "mnk:3,4,3", "--role", "second", "--checkpoint", str(path)]
    )
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.stderr
    assert "seconds: 'soon' is not of type 'number'" in lines[0]


def test_a_checkpoint_that_is_a_symlink_or_a_device_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text(json.dumps(good()))
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    for name, message in (("link.json", "is a symlink"), ("zero.json", "is a symlink")):
        with pytest.raises(InputError, match=message):
            load(tmp_path / name)


def _run(tmp_path: Path, *args: str):
    return CliRunner().invoke(
        app,
        ["scale", "--game", "3x4", "--checkpoint", str(tmp_path / "c.json"), *args],
    )


def test_a_second_run_on_a_held_checkpoint_is_refused_in_one_line(tmp_path: Path) -> None:
    with scale_store(tmp_path / "c.json"):  # another run holds it
        result = _run(tmp_path, "--time-limit", "5")
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "in use by another run" in lines[0]
    assert not (tmp_path / "c.json").exists()
    assert _run(tmp_path, "--time-limit", "5").exit_code == 0  # released: the run goes on


def test_a_table_that_is_not_the_one_recorded_is_refused(tmp_path: Path) -> None:
    assert _run(tmp_path, "--time-limit", "30").exit_code == 0
    state = json.loads((tmp_path / "c.json").read_text())
    table = tmp_path / state["table"]
    assert len(state["table_sha256"]) == 64
    table.write_text(table.read_text().replace('"seed": 0', '"seed": 1'))  # still a good table
    result = _run(tmp_path, "--time-limit", "1")
    assert result.exit_code == 2 and "not the file the scale checkpoint recorded" in result.stderr


def test_a_verified_table_below_the_stored_lower_bound_names_the_false_bound(
    tmp_path: Path,
) -> None:
    """A tampered lower bound (above what a verified table has) is never written back as true."""
    assert _run(tmp_path, "--time-limit", "30").exit_code == 0
    path = tmp_path / "c.json"
    state = json.loads(path.read_text())
    state["upper"] = state["table"] = None  # as if the table were lost
    del state["table_sha256"]
    state["lower"], state["optimal"] = 1000, False
    path.write_text(json.dumps(state))
    result = _run(tmp_path, "--time-limit", "30")
    assert result.exit_code == 2
    assert "its lower bound 1000 is false: a verified table has" in result.stderr
    assert json.loads(path.read_text())["lower"] == 1000  # nothing claimed from it was written


def test_a_run_keeps_the_bound_it_started_from_and_stalls_on_a_small_gain(tmp_path: Path) -> None:
    """``lower_from`` is the bound the raising run started from, however often it raised it;
    a later run that gains under 1% of the bound has stalled, and the record says so on load."""
    from minttt.bounds.runs import BoundsRun

    path = tmp_path / "c.json"
    with BoundsRun(VARIANT, path, lambda _line: None) as run:
        run.raise_lower(30, "rc2", "rc2 lower bound")
        run.raise_lower(40, "per-level minima", "per-level minima")
        run.finish("rc2")
    with scale_store(path) as store:
        first = read_state(store, VARIANT)
    assert (first.lower, first.lower_from, first.lower_by) == (40, 0, "per-level minima, run 1")
    assert not first.stalled()
    with BoundsRun(VARIANT, path, lambda _line: None) as run:
        run.raise_lower(40, "rc2")  # not higher: nothing changes
        run.finish("rc2")
    with scale_store(path) as store:
        assert read_state(store, VARIANT).stalled()  # its last run raised nothing
    with BoundsRun(VARIANT, path, lambda _line: None) as run:
        run.raise_lower(41, "rc2", "rc2 lower bound")  # 1 of 41: 2.4%, not under 1%
        run.finish("rc2")
    with scale_store(path) as store:
        third = read_state(store, VARIANT)
    assert (third.lower, third.lower_from, third.runs) == (41, 40, 3) and not third.stalled()
    assert third.stalled(least_gain=0.05)  # 1 of 41 is under 5%
    jsonschema.validate(json.loads(path.read_text()), schema())
