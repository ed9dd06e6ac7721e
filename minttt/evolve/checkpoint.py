"""Checkpoints: a run's whole state in one versioned JSON file, written atomically.

The file holds the recipe's parameters (checked on resume: another recipe, seed, population,
fitness, gene count or probability is refused), the generation, the numpy PCG64 state, the
population (zlib + base64), the history and the best individual. Resuming from it gives results
bit-identical to an uninterrupted run. ``seconds`` (wall time so far) is the only field that
depends on the machine.
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from minttt import __version__
from minttt.errors import InputError
from minttt.evolve.state import EvolutionState
from minttt.fileio import write_text_atomic

FORMAT = "minttt-evolve-checkpoint"
VERSION = 1
ATTEMPT_FIELDS = {"seed", "generations", "perfect", "best_lost", "seconds"}


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


def _decode_array(obj: Any, where: str) -> np.ndarray:
    try:
        if obj["dtype"] != "int8":
            raise ValueError(f"dtype {obj['dtype']!r}")
        shape = tuple(obj["shape"])
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in shape):
            raise ValueError(f"shape {list(shape)!r}")
        expected = math.prod(shape)
        if expected > MAX_ARRAY_BYTES:
            raise ValueError(f"shape {list(shape)} holds more than {MAX_ARRAY_BYTES:,} bytes")
        # decompress at most what the shape holds: a small "zip bomb" cannot take the memory
        inflate = zlib.decompressobj()
        raw = inflate.decompress(base64.b64decode(obj["zlib_base64"], validate=True), expected)
        if len(raw) != expected or inflate.unconsumed_tail:
            raise ValueError(f"data does not match shape {list(shape)}")
        return np.frombuffer(raw, dtype=np.int8).reshape(shape).copy()
    except (KeyError, TypeError, ValueError, zlib.error) as exc:
        raise InputError(f"{where} is not a valid array ({exc})") from None


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


def save_checkpoint(state: EvolutionState, path: str | Path) -> Path:
    """Write ``state`` to ``path`` atomically (an interrupted write leaves the old file)."""
    return write_text_atomic(path, json.dumps(to_dict(state), separators=(",", ":")) + "\n")


def load_checkpoint(path: str | Path, expected: dict[str, Any] | None = None) -> EvolutionState:
    """Read a checkpoint; with ``expected`` (a config's ``recipe_key()``) refuse any mismatch.

    Every problem is an :class:`InputError` with one line naming the file and the field.
    """
    name = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CHECKPOINT_BYTES + 1)
        if len(data) > MAX_CHECKPOINT_BYTES:
            raise InputError(f"checkpoint {name} is larger than {MAX_CHECKPOINT_BYTES:,} bytes")
        doc = json.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        raise InputError(f"checkpoint {name} is not readable: {reason}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InputError(f"checkpoint {name} is not a {FORMAT} file")
    if doc.get("version") != VERSION:
        raise InputError(
            f"checkpoint {name} has version {doc.get('version')!r}; "
            f"this minttt reads version {VERSION}"
        )
    config = doc.get("config")
    if not isinstance(config, dict) or config.get("recipe") != doc.get("recipe"):
        raise InputError(f"checkpoint {name} has no valid config")
    if expected is not None:
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
    try:
        generation = int(doc["generation"])
        history = {str(k): [float(x) for x in v] for k, v in doc["history"].items()}
        rng_state = doc["rng_state"]
        if not isinstance(rng_state, dict) or rng_state.get("bit_generator") != "PCG64":
            raise ValueError("rng_state")
        population = _decode_array(doc["population"], f"checkpoint {name} population")
        best = (
            None if doc["best"] is None else _decode_array(doc["best"], f"checkpoint {name} best")
        )
        best_fitness = None if doc["best_fitness"] is None else float(doc["best_fitness"])
        best_generation = None if doc["best_generation"] is None else int(doc["best_generation"])
        perfect = None if doc["perfect_generation"] is None else int(doc["perfect_generation"])
        seconds = float(doc["seconds"])
        attempts = _attempts(doc.get("attempts", []))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"checkpoint {name} has a missing or bad field: {exc}") from None
    if generation < 0 or any(len(v) != generation for v in history.values()):
        raise InputError(f"checkpoint {name}: history does not match generation {generation}")
    if population.ndim != 2 or population.shape[0] != config.get("population"):
        raise InputError(f"checkpoint {name}: population shape {population.shape} does not match")
    return EvolutionState(
        recipe=str(doc["recipe"]),
        config=config,
        generation=generation,
        population=population,
        rng_state=rng_state,
        history=history,
        best=best,
        best_fitness=best_fitness,
        best_generation=best_generation,
        perfect_generation=perfect,
        seconds=seconds,
        extra={"attempts": attempts},
    )


def _attempts(value: Any) -> list[dict[str, Any]]:
    """The summaries of a campaign's earlier attempts (see ``runner.evolve_until_perfect``)."""
    if not isinstance(value, list):
        raise ValueError("attempts")
    out = []
    for item in value:
        if not isinstance(item, dict) or set(item) != ATTEMPT_FIELDS:
            raise ValueError("attempts")
        out.append(dict(item))
    return out
