"""The state of a run between two generations: everything the next generation depends on.

A run is a sequence of pure steps ``state -> state``: each evaluates the current population,
records it, and breeds the next one with a numpy Generator rebuilt from ``rng_state``. A step
that is interrupted leaves the previous state untouched, so a checkpoint written after Ctrl-C
resumes to exactly the results of an uninterrupted run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

import numpy as np


def new_rng(seed: int) -> np.random.Generator:
    """The one random source of a run: PCG64 seeded with ``seed``."""
    return np.random.Generator(np.random.PCG64(seed))


def rng_from_state(state: Mapping[str, Any]) -> np.random.Generator:
    """The Generator whose PCG64 is in ``state`` (a ``bit_generator.state``)."""
    bit = np.random.PCG64()
    bit.state = cast(Any, state)  # numpy types the setter as its own TypedDict
    return np.random.Generator(bit)


@dataclass(frozen=True)
class EvolutionState:
    """A run after ``generation`` populations were evaluated; ``population`` is the next one.

    ``history`` holds one list per measure with one value per evaluated generation.
    ``best`` is the best individual seen so far (first one found on ties), ``done`` says the run
    stopped because it found a perfect individual (``perfect_generation``).
    """

    recipe: str
    config: dict[str, Any]
    generation: int
    population: np.ndarray
    rng_state: Mapping[str, Any]
    history: dict[str, list[float]]
    best: np.ndarray | None = None
    best_fitness: float | None = None
    best_generation: int | None = None
    perfect_generation: int | None = None
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        """The run stopped at a perfect individual."""
        return self.perfect_generation is not None

    def evolve(self, **changes: Any) -> EvolutionState:
        """A copy of this state with ``changes`` applied."""
        return replace(self, **changes)


__all__ = [
    "EvolutionState",
    "new_rng",
    "rng_from_state",
]
