"""000's recipe (Hochmuth): evolve a never-losing strategy over symmetry-reduced situations.

Genome: one gene per canonical decision position (627, or 000's 827), allele = index of a legal
move (:mod:`minttt.evolve.genome`). Fitness: the fraction of games not lost over the exhaustive
match as X and as O (:mod:`minttt.evolve.fitness`), or 000's first point scale (``points``).

Selection as in GENESIS (000 ran a modified GENESIS): fitness-proportional, Baker's stochastic
universal sampling over the shuffled mating pool, fitness measured above the worst individual of
the last ``window`` generations (GENESIS's scaling window, 5). Offspring come in pairs: with
probability ``p_replicate`` a pair is copied unchanged; otherwise 000's switching crossover (at
each gene, with probability ``p_crossover``, the child switches to copying the other parent),
then mutation (each gene, with probability ``p_mutate``, takes a new random legal allele).
The run stops at the first generation holding an individual that loses no game.

>>> cfg = HochmuthConfig(population=50, generations=2, seed=1)
>>> state = initial_state(cfg)
>>> state = step(cfg, state)
>>> state.generation, len(state.history["best"])
(1, 1)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

import numpy as np

from minttt.errors import InputError
from minttt.evolve.fitness import FITNESS_NAMES, ExhaustiveTree
from minttt.evolve.genome import GENE_COUNTS, GeneIndex
from minttt.evolve.state import EvolutionState, new_rng, rng_from_state

RECIPE = "hochmuth"


@dataclass(frozen=True)
class HochmuthConfig:
    """000's parameters (population 500, at most 500 generations, 0.10 / 0.001 / 0.15)."""

    population: int = 500
    generations: int = 500
    seed: int = 0
    fitness: str = "not-lost"
    genes: int = 627
    p_replicate: float = 0.10
    p_mutate: float = 0.001
    p_crossover: float = 0.15
    window: int = 5

    def __post_init__(self) -> None:
        check_common(self.population, self.generations, self.seed)
        if self.fitness not in FITNESS_NAMES:
            raise InputError(
                f"unknown fitness {self.fitness!r}: expected one of {', '.join(FITNESS_NAMES)}"
            )
        if self.genes not in GENE_COUNTS:
            raise InputError(f"--genes must be 627 or 827, got {self.genes}")
        for name in ("p_replicate", "p_mutate", "p_crossover"):
            check_probability(name, getattr(self, name))
        if self.window < 1:
            raise InputError(f"scaling window must be at least 1, got {self.window}")

    def recipe_key(self) -> dict[str, Any]:
        """Everything a checkpoint must agree on to be resumed (not the generation limit)."""
        key = asdict(self)
        key.pop("generations")
        return {"recipe": RECIPE, **key}


#: stated ranges: a population is held in memory (individuals x genes bytes, several copies)
MAX_POPULATION = 100_000
MAX_GENERATIONS = 10_000_000
MAX_SEED = 2**63 - 1


def check_common(population: int, generations: int, seed: int) -> None:
    """InputError unless population, generations and seed are in their ranges."""
    if not 2 <= population <= MAX_POPULATION:
        raise InputError(f"population must be 2-{MAX_POPULATION:,}, got {population}")
    if not 0 <= generations <= MAX_GENERATIONS:
        raise InputError(f"generations must be 0-{MAX_GENERATIONS:,}, got {generations}")
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"seed must be 0-{MAX_SEED}, got {seed}")


def check_probability(name: str, value: float) -> None:
    """InputError unless ``value`` is a probability in [0, 1]."""
    if not 0.0 <= value <= 1.0 or value != value:
        raise InputError(f"{name.replace('_', '-')} must be a probability in [0, 1], got {value}")


@cache
def tree_for(genes: int) -> ExhaustiveTree:
    """The exhaustive game tree that evaluates genomes of ``genes`` genes (built once per call)."""
    return ExhaustiveTree(GeneIndex.build(genes))


def initial_state(config: HochmuthConfig) -> EvolutionState:
    """Generation 0: a random population (000: no seeding heuristics)."""
    rng = new_rng(config.seed)
    population = tree_for(config.genes).index.random_population(rng, config.population)
    return EvolutionState(
        recipe=RECIPE,
        config=config.recipe_key(),
        generation=0,
        population=population,
        rng_state=rng.bit_generator.state,
        history={k: [] for k in ("best", "mean", "worst", "best_lost", "best_games")},
    )


def sus(weights: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """Baker's stochastic universal sampling: ``count`` indices, one random offset."""
    total = float(weights.sum())
    if total <= 0:
        weights, total = np.ones_like(weights), float(len(weights))
    edges = np.cumsum(weights) / total
    pointers = (rng.random() + np.arange(count)) / count
    return np.minimum(np.searchsorted(edges, pointers, side="right"), len(weights) - 1)


def breed(
    config: HochmuthConfig,
    index: GeneIndex,
    population: np.ndarray,
    weights: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """The next population from ``population`` with selection weights ``weights``."""
    size, genes = population.shape
    pool = sus(weights, size, rng)
    pool = pool[rng.permutation(size)]
    pairs = (size + 1) // 2
    a = population[pool[0::2][:pairs]]
    b = population[np.resize(pool[1::2], pairs)] if size > 1 else a
    replicate = rng.random(pairs) < config.p_replicate
    switch = rng.random((pairs, genes), dtype=np.float32) < config.p_crossover
    # a child copies the other parent after an odd number of switches: where it does, the genes
    # that differ are flipped (x ^ (a ^ b) swaps a and b); a replicated pair flips none
    from_b = np.logical_xor.accumulate(switch, axis=1)
    from_b[replicate] = False
    differ = (a ^ b) & np.negative(from_b.view(np.int8)).astype(a.dtype, copy=False)
    children = np.empty((pairs, 2, genes), dtype=population.dtype)
    np.bitwise_xor(a, differ, out=children[:, 0])
    np.bitwise_xor(b, differ, out=children[:, 1])
    children = children.reshape(2 * pairs, genes)
    keep = np.repeat(replicate, 2)
    mutate = (rng.random((2 * pairs, genes), dtype=np.float32) < config.p_mutate) & ~keep[:, None]
    rows, cols = np.nonzero(mutate)
    n = index.n_legal[cols]
    shift = 1 + np.floor(rng.random(len(rows)) * np.maximum(n - 1, 1)).astype(np.int64)
    new = (children[rows, cols].astype(np.int64) + np.where(n > 1, shift, 0)) % n
    children[rows, cols] = new.astype(children.dtype)
    return children[:size]


def step(config: HochmuthConfig, state: EvolutionState) -> EvolutionState:
    """Evaluate the current population, record it, stop if perfect, else breed the next one."""
    tree = tree_for(config.genes)
    out = tree.evaluate(state.population)
    fit = out.fitness(config.fitness).astype(np.float64)
    lost = out.lost.sum(axis=0)
    games = out.games.sum(axis=0)
    top = int(np.argmax(fit))
    history = {k: list(v) for k, v in state.history.items()}
    history["best"].append(float(fit[top]))
    history["mean"].append(float(fit.mean()))
    history["worst"].append(float(fit.min()))
    history["best_lost"].append(float(lost[top]))
    history["best_games"].append(float(games[top]))
    changes: dict[str, Any] = {"history": history, "generation": state.generation + 1}
    perfect = np.flatnonzero(lost == 0)
    if len(perfect):
        pick = int(perfect[np.argmax(fit[perfect])])
        changes.update(
            best=state.population[pick].copy(),
            best_fitness=float(fit[pick]),
            best_generation=state.generation,
            perfect_generation=state.generation,
        )
        return state.evolve(**changes)
    if state.best_fitness is None or fit[top] > state.best_fitness:
        changes.update(
            best=state.population[top].copy(),
            best_fitness=float(fit[top]),
            best_generation=state.generation,
        )
    floor = min(history["worst"][-config.window :])
    rng = rng_from_state(state.rng_state)
    children = breed(config, tree.index, state.population, fit - floor, rng)
    return state.evolve(population=children, rng_state=rng.bit_generator.state, **changes)


def finished(config: HochmuthConfig, state: EvolutionState) -> bool:
    """True once the run found a perfect strategy or evaluated generation ``generations``."""
    return state.done or state.generation > config.generations


__all__ = [
    "HochmuthConfig",
    "MAX_GENERATIONS",
    "MAX_POPULATION",
    "MAX_SEED",
    "RECIPE",
    "breed",
    "check_common",
    "check_probability",
    "finished",
    "initial_state",
    "step",
    "sus",
    "tree_for",
]
