"""Checkpoints: a run's whole state in one versioned JSON file, written atomically.

The file holds the recipe's parameters (checked on resume: another recipe, seed, population,
fitness, gene count or probability is refused), the generation, the numpy PCG64 state, the
population (zlib + base64), the history and the best individual. Resuming from it gives results
bit-identical to an uninterrupted run. ``seconds`` (wall time so far) is the only field that
depends on the machine. Loading validates it against
``minttt/schemas/evolve-checkpoint.schema.json``. A run holds the checkpoint's run store
(:func:`checkpoint_store`, :class:`minttt.store.RunStore`): a second run on the same file is
refused in one line.
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from minttt.errors import InputError
from minttt.evolve.state import EvolutionState
from minttt.fileio import write_text_atomic
from minttt.schema import first_problem, load_json, problem_text
from minttt.store import RunStore
from minttt.version import __version__

FORMAT = "minttt-evolve-checkpoint"
VERSION = 1
SCHEMA = "evolve-checkpoint.schema.json"  # in minttt/schemas/
ARRAYS = ("population", "best")  # fields holding an encoded array


#: the largest array a checkpoint may hold (bytes, decompressed) and the largest checkpoint file
MAX_ARRAY_BYTES = 1 << 27
MAX_CHECKPOINT_BYTES = 1 << 28


def _encode_array(array: np.ndarray | None) -> dict[str, Any] | None:
    if array is None:
        return None
    data = np.ascontiguousarray(array, dtype=np.int8)
    return {
        "dtype": "int8",
        "shape": list(data.shape),
        "zlib_base64": base64.b64encode(zlib.compress(data.tobytes(), 6)).decode("ascii"),
    }


def _decode_array(obj: dict[str, Any], where: str) -> np.ndarray:
    """The array of a schema-valid ``{"dtype", "shape", "zlib_base64"}``; InputError if its shape
    is not whole numbers or its data does not fill the shape exactly."""
    shape = tuple(obj["shape"])
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in shape):
        raise InputError(f"{where} is not a valid array (shape {list(shape)!r})")
    expected = math.prod(shape)
    if expected > MAX_ARRAY_BYTES:
        reason = f"shape {list(shape)} holds more than {MAX_ARRAY_BYTES:,} bytes"
        raise InputError(f"{where} is not a valid array ({reason})")
    # decompress at most what the shape holds: a small "zip bomb" cannot take the memory
    inflate = zlib.decompressobj()
    try:
        raw = inflate.decompress(base64.b64decode(obj["zlib_base64"], validate=True), expected)
    except (ValueError, zlib.error) as exc:  # binascii.Error is a ValueError
        raise InputError(f"{where} is not a valid array ({exc})") from None
    if len(raw) != expected or inflate.unconsumed_tail:
        raise InputError(f"{where} is not a valid array (data does not match shape {list(shape)})")
    return np.frombuffer(raw, dtype=np.int8).reshape(shape).copy()


def to_dict(state: EvolutionState) -> dict[str, Any]:
    """The checkpoint document (JSON-ready, deterministic key order)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "minttt": __version__,
        "recipe": state.recipe,
        "config": state.config,
        "generation": state.generation,
        "rng_state": state.rng_state,
        "population": _encode_array(state.population),
        "history": state.history,
        "best": _encode_array(state.best),
        "best_fitness": state.best_fitness,
        "best_generation": state.best_generation,
        "perfect_generation": state.perfect_generation,
        "seconds": state.seconds,
        "attempts": state.extra.get("attempts", []),
    }


def checkpoint_store(path: str | Path) -> RunStore:
    """The run store of an evolution checkpoint (its lock; the file is read by
    :func:`load_checkpoint`)."""
    return RunStore(path, SCHEMA, what="evolve checkpoint")


def save_checkpoint(state: EvolutionState, path: str | Path) -> Path:
    """Write ``state`` to ``path`` atomically (an interrupted write leaves the old file)."""
    return write_text_atomic(path, json.dumps(to_dict(state), separators=(",", ":")) + "\n")


def load_checkpoint(path: str | Path, expected: dict[str, Any] | None = None) -> EvolutionState:
    """Read a checkpoint; with ``expected`` (a config's ``recipe_key()``) refuse any mismatch.

    Every problem is an :class:`InputError` with one line naming the file and the field. The
    checks run in this order: readable JSON, format and version, the config (and ``expected``),
    the schema, then what the schema cannot say.
    """
    name = str(path)
    doc = _read(path, name)
    _check_format(doc, name)
    _check_config(doc, name, expected)
    _check_schema(doc, name)
    return _state(doc, name)


def _read(path: str | Path, name: str) -> Any:
    """The JSON document in ``path`` (at most MAX_CHECKPOINT_BYTES; the schema is checked after
    the format and config, whose messages say more)."""
    return load_json(name, None, what="evolve checkpoint", max_bytes=MAX_CHECKPOINT_BYTES)


def _check_format(doc: Any, name: str) -> None:
    """A checkpoint of this format and version."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InputError(f"checkpoint {name} is not a {FORMAT} file")
    if doc.get("version") != VERSION:
        raise InputError(
            f"checkpoint {name} has version {doc.get('version')!r}; "
            f"this minttt reads version {VERSION}"
        )


def _check_config(doc: dict[str, Any], name: str, expected: dict[str, Any] | None) -> None:
    """A config of the file's recipe; with ``expected``, exactly that recipe and parameters."""
    config = doc.get("config")
    if not isinstance(config, dict) or config.get("recipe") != doc.get("recipe"):
        raise InputError(f"checkpoint {name} has no valid config")
    if expected is None:
        return
    if config.get("recipe") != expected["recipe"]:
        raise InputError(
            f"checkpoint {name} was written by recipe {config.get('recipe')!r}, "
            f"not {expected['recipe']!r}"
        )
    for key in expected:
        if config.get(key) != expected[key]:
            raise InputError(
                f"checkpoint {name} was written with {key.replace('_', '-')}="
                f"{config.get(key)!r}, not {expected[key]!r}"
            )
    if set(config) != set(expected):
        raise InputError(f"checkpoint {name} has unknown config fields")


def _check_schema(doc: dict[str, Any], name: str) -> None:
    """The document against the schema; the first error (jsonschema's best match) in one line."""
    problem = first_problem(SCHEMA, doc)
    if problem is None:
        return
    path, message = problem
    if path and path[0] in ARRAYS:
        raise InputError(f"checkpoint {name} {path[0]} is not a valid array ({message})")
    raise InputError(f"checkpoint {name} has a missing or bad field: {problem_text(problem)}")


def _state(doc: dict[str, Any], name: str) -> EvolutionState:
    """The state of a schema-valid document; InputError where the parts disagree."""
    config = doc["config"]
    generation = int(doc["generation"])
    history = {str(k): [float(x) for x in v] for k, v in doc["history"].items()}
    population = _decode_array(doc["population"], f"checkpoint {name} population")
    best = None if doc["best"] is None else _decode_array(doc["best"], f"checkpoint {name} best")
    if any(len(v) != generation for v in history.values()):
        raise InputError(f"checkpoint {name}: history does not match generation {generation}")
    if population.ndim != 2 or population.shape[0] != config["population"]:
        raise InputError(f"checkpoint {name}: population shape {population.shape} does not match")
    return EvolutionState(
        recipe=str(doc["recipe"]),
        config=config,
        generation=generation,
        population=population,
        rng_state=doc["rng_state"],
        history=history,
        best=best,
        best_fitness=_optional(float, doc["best_fitness"]),
        best_generation=_optional(int, doc["best_generation"]),
        perfect_generation=_optional(int, doc["perfect_generation"]),
        seconds=float(doc["seconds"]),
        extra={"attempts": [dict(a) for a in doc.get("attempts", [])]},
    )


def _optional(kind: type, value: Any) -> Any:
    """``None`` as it is, anything else converted to ``kind``."""
    return None if value is None else kind(value)


__all__ = [
    "ARRAYS",
    "FORMAT",
    "MAX_ARRAY_BYTES",
    "MAX_CHECKPOINT_BYTES",
    "SCHEMA",
    "VERSION",
    "checkpoint_store",
    "load_checkpoint",
    "save_checkpoint",
    "to_dict",
]
