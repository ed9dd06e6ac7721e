"""Checkpoints: resume is bit-identical, bad or mismatched files are refused in one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from minttt.errors import InputError
from minttt.evolve import checkpoint as ck
from minttt.evolve.raw_genome import CornellConfig
from minttt.evolve.runner import Interrupted, evolve_until_perfect, run
from minttt.evolve.situations import HochmuthConfig
from minttt.schema import load_schema


def comparable(path: Path) -> dict:
    doc = json.loads(path.read_text())
    doc.pop("seconds")
    return doc


def interrupt_at(generation: int):
    def hook(state) -> None:
        if state.generation == generation:
            raise KeyboardInterrupt

    return hook


@pytest.mark.parametrize(
    "config",
    [
        HochmuthConfig(population=30, generations=12, seed=3),
        HochmuthConfig(population=12, generations=8, seed=1, genes=827, fitness="points"),
        CornellConfig(population=5, generations=5, seed=2),
    ],
)
def test_resume_after_ctrl_c_is_bit_identical(tmp_path: Path, config) -> None:
    whole, parts = tmp_path / "whole.json", tmp_path / "parts.json"
    done = run(config, checkpoint=whole, every=4)
    with pytest.raises(Interrupted) as stop:
        run(config, checkpoint=parts, every=100, on_generation=interrupt_at(5))
    assert stop.value.state.generation == 5 and parts.exists()
    assert ck.load_checkpoint(parts).generation == 5
    resumed = run(config, checkpoint=parts, every=100)
    assert comparable(whole) == comparable(parts)
    assert resumed.history == done.history
    assert resumed.best is not None and done.best is not None
    assert np.array_equal(resumed.best, done.best)


def test_extending_the_generation_limit_matches_a_longer_run(tmp_path: Path) -> None:
    short, long = tmp_path / "short.json", tmp_path / "long.json"
    run(HochmuthConfig(population=20, generations=4, seed=9), checkpoint=short)
    run(HochmuthConfig(population=20, generations=9, seed=9), checkpoint=short)
    run(HochmuthConfig(population=20, generations=9, seed=9), checkpoint=long)
    assert comparable(short) == comparable(long)


def test_interrupted_write_keeps_the_old_checkpoint(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "run.json"
    cfg = HochmuthConfig(population=10, generations=2, seed=0)
    state = run(cfg, checkpoint=path)
    before = path.read_bytes()

    def boom(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(KeyboardInterrupt):
        ck.save_checkpoint(state.evolve(generation=99), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]


def write(tmp_path: Path, doc) -> Path:
    path = tmp_path / "ck.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return path


def good_doc(tmp_path: Path) -> dict:
    path = tmp_path / "good.json"
    run(HochmuthConfig(population=6, generations=1, seed=0), checkpoint=path)
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: "not json {", "not a readable evolve checkpoint"),
        (lambda d: {**d, "format": "other"}, "is not a minttt-evolve-checkpoint"),
        (lambda d: {**d, "version": 2}, "version 2"),
        (lambda d: {**d, "recipe": "cornell"}, "no valid config"),
        (lambda d: {**d, "config": {**d["config"], "seed": 5}}, "seed=5"),
        (lambda d: {**d, "config": {**d["config"], "p_mutate": 0.5}}, "p-mutate=0.5"),
        (lambda d: {**d, "generation": 7}, "history does not match"),
        (
            lambda d: {
                **d,
                "population": {"dtype": "int8", "shape": [6, 627], "zlib_base64": "!!"},
            },
            "not a valid array",
        ),
        (lambda d: {k: v for k, v in d.items() if k != "rng_state"}, "missing or bad field"),
        # what the schema adds: each field's type and shape, named by its path
        (lambda d: {**d, "rng_state": {**d["rng_state"], "state": "x"}}, "rng_state.state: 'x'"),
        (lambda d: {**d, "generation": "3"}, "generation: '3' is not of type 'integer'"),
        (lambda d: {**d, "seconds": -1}, "seconds: -1 is less than the minimum of 0"),
        (lambda d: {**d, "best_fitness": "0.5"}, "best_fitness: '0.5' is not of type"),
        (lambda d: {**d, "history": {**d["history"], "best": ["a"]}}, r"history\.best\.0: 'a'"),
        (lambda d: {**d, "attempts": [1]}, r"attempts\.0: 1 is not of type 'object'"),
        (lambda d: {**d, "extra": 1}, r"\(document\): Additional properties"),
        (
            lambda d: {**d, "population": {**d["population"], "dtype": "int16"}},
            r"population is not a valid array \('int8' was expected\)",
        ),
        (lambda d: {**d, "best": "x"}, "best is not a valid array"),
        (lambda d: {**d, "generation": 1.0}, "generation: 1.0 is not of type 'integer'"),
        # the recipe names its history's measures (a missing one crashed the resumed run)
        (
            lambda d: {**d, "history": {k: v for k, v in d["history"].items() if k != "worst"}},
            "history: 'worst' is a required property",
        ),
        (lambda d: {**d, "history": {**d["history"], "x": [0.0]}}, "history: 'x' is not one of"),
        (
            lambda d: {**d, "population": {**d["population"], "shape": [6.0, 627]}},
            r"population is not a valid array \(6.0 is not of type 'integer'\)",
        ),
        (
            lambda d: {**d, "population": {**d["population"], "shape": [5, 627]}},
            "population is not a valid array \\(data does not match shape",
        ),
    ],
)
def test_bad_checkpoints_are_refused(tmp_path: Path, mutate, message: str) -> None:
    doc = good_doc(tmp_path)
    path = write(tmp_path, mutate(doc))
    with pytest.raises(InputError, match=message) as err:
        run(HochmuthConfig(population=6, generations=2, seed=0), checkpoint=path)
    assert "\n" not in str(err.value)
    assert str(err.value).count(str(path)) == 1


def test_schema_is_valid_and_holds_what_both_recipes_write(tmp_path: Path) -> None:
    import jsonschema

    schema = load_schema(ck.SCHEMA)
    jsonschema.Draft202012Validator.check_schema(schema)
    hochmuth = HochmuthConfig(population=4, generations=1)
    run(hochmuth, checkpoint=tmp_path / "h.json", every=1)
    run(CornellConfig(population=3, generations=1), checkpoint=tmp_path / "c.json", every=1)
    evolve_until_perfect(hochmuth, restarts=1, checkpoint=tmp_path / "campaign.json")
    assert json.loads((tmp_path / "campaign.json").read_text())["attempts"]
    for path in tmp_path.iterdir():
        jsonschema.validate(json.loads(path.read_text()), schema)


def test_other_recipe_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    run(CornellConfig(population=3, generations=0, seed=0), checkpoint=path)
    with pytest.raises(InputError, match="recipe 'cornell', not 'hochmuth'"):
        run(HochmuthConfig(population=3, generations=1), checkpoint=path)


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        ck.load_checkpoint(tmp_path / "nope.json")
