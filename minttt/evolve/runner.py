"""Run a recipe to the end: checkpoints, interruption, the evolved table and the summary.

>>> from minttt.evolve.situations import HochmuthConfig
>>> state = run(HochmuthConfig(population=20, generations=3, seed=0))
>>> summary(state)["generations"], summary(state)["perfect"]
(3, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import median
from types import ModuleType
from typing import Any

from minttt.errors import InputError
from minttt.evolve import raw_genome, situations
from minttt.evolve.checkpoint import checkpoint_store, load_checkpoint, save_checkpoint
from minttt.evolve.fitness import reached_moves
from minttt.evolve.raw_genome import CornellConfig
from minttt.evolve.situations import HochmuthConfig
from minttt.evolve.state import EvolutionState
from minttt.table.model import Table, table_from_moves

Config = HochmuthConfig | CornellConfig
RECIPES = ("hochmuth", "cornell")
#: 000's reported runs (population 500 and 1000, p_crossover 0.15).
SOURCE_000 = {
    "population_500": {"generation": 373, "seconds": 1688},
    "population_1000": {"generation": 457, "seconds": 65 * 60},
}


class Interrupted(Exception):
    """Ctrl-C stopped a run; ``state`` is the last complete generation (already checkpointed)."""

    def __init__(self, state: EvolutionState, checkpoint: Path | None) -> None:
        super().__init__(f"interrupted after generation {state.generation - 1}")
        self.state = state
        self.checkpoint = checkpoint


def _module(config: Config) -> ModuleType:
    return situations if isinstance(config, HochmuthConfig) else raw_genome


def make_config(recipe: str, **options: Any) -> Config:
    """A recipe's config from options (None means the recipe's default)."""
    given = {k: v for k, v in options.items() if v is not None}
    if recipe == "hochmuth":
        return HochmuthConfig(**given)
    if recipe == "cornell":
        for key in ("fitness", "genes", "p_replicate", "p_crossover"):
            if key in given:
                raise InputError(f"--{key.replace('_', '-')} is for the hochmuth recipe only")
        return CornellConfig(**given)
    raise InputError(f"unknown recipe {recipe!r}: expected one of {', '.join(RECIPES)}")


def start(config: Config, checkpoint: str | Path | None = None) -> EvolutionState:
    """The state to continue from: the checkpoint if it exists (checked), else generation 0."""
    if checkpoint is not None and Path(checkpoint).exists():
        state = load_checkpoint(checkpoint, config.recipe_key())
        if isinstance(config, CornellConfig):
            raw_genome.check_genomes(state.population)
        else:
            index = situations.tree_for(config.genes).index
            pop = state.population
            if pop.shape[1] != index.size or (pop < 0).any() or (pop >= index.n_legal).any():
                raise InputError(f"checkpoint {checkpoint}: genomes do not fit {index.size} genes")
        check_claims(config, state, f"checkpoint {checkpoint}")
        return state
    return _module(config).initial_state(config)


def check_claims(config: Config, state: EvolutionState, where: str) -> None:
    """Re-check what a saved state claims before anything is reported from it (InputError, one
    line, naming what is inconsistent): the generations it names lie in the past, its best
    individual has the fitness it records (recomputed: 000's recipe), and "perfect" only stands
    when that best loses no game (recomputed by the exhaustive match).
    """
    g = state.generation
    for name in ("best_generation", "perfect_generation"):
        value = getattr(state, name)
        if value is not None and not 0 <= value < g:
            raise InputError(f"{where}: {name} {value} is not a generation evaluated (0-{g - 1})")
    if state.best is None:
        if state.best_fitness is not None or state.perfect_generation is not None:
            raise InputError(f"{where}: records a best fitness or a perfect run but no best")
        return
    if isinstance(config, HochmuthConfig):
        tree = situations.tree_for(config.genes)
        fitness = float(tree.evaluate(state.best[None, :]).fitness(config.fitness)[0])
        if fitness != state.best_fitness:
            raise InputError(
                f"{where}: records best fitness {state.best_fitness}, its best scores {fitness}"
            )
    if state.perfect_generation is not None:
        lost = _best_lost(state)
        if lost != 0:
            raise InputError(
                f"{where}: claims a perfect strategy at generation {state.perfect_generation}, "
                f"but its best loses {lost} games"
            )


def is_finished(config: Config, state: EvolutionState) -> bool:
    """True once ``state`` ends the run of ``config`` (perfect, or out of generations)."""
    return _module(config).finished(config, state)


def run(
    config: Config,
    *,
    checkpoint: str | Path | None = None,
    every: int = 50,
    on_generation: Callable[[EvolutionState], None] | None = None,
    state: EvolutionState | None = None,
    max_seconds: float | None = None,
    locked: bool = False,
) -> EvolutionState:
    """Run ``config`` until a perfect individual or the generation limit (``locked``: the
    caller holds the checkpoint's lock).

    Resumes from ``checkpoint`` when the file exists, writes it every ``every`` generations, at
    the end, and on Ctrl-C (then raises :class:`Interrupted`); holds its lock meanwhile (a second
    run on it is refused). With ``max_seconds`` the run also stops once its ``seconds`` reach
    that budget (the state says how far it got).
    """
    with _holding(checkpoint, locked):
        return _run(config, checkpoint, every, on_generation, state, max_seconds)


@contextmanager
def _holding(checkpoint: str | Path | None, locked: bool) -> Iterator[None]:
    """The checkpoint's lock for the block (none without a checkpoint, or when the caller holds
    it already)."""
    if checkpoint is None or locked:
        yield
        return
    with checkpoint_store(checkpoint):
        yield


def _run(
    config: Config,
    checkpoint: str | Path | None,
    every: int,
    on_generation: Callable[[EvolutionState], None] | None,
    state: EvolutionState | None,
    max_seconds: float | None,
) -> EvolutionState:
    """:func:`run`, its lock held."""
    module = _module(config)
    state = start(config, checkpoint) if state is None else state
    path = None if checkpoint is None else Path(checkpoint)
    try:
        while not module.finished(config, state) and (
            max_seconds is None or state.seconds < max_seconds
        ):
            began = time.perf_counter()
            new = module.step(config, state)
            state = new.evolve(seconds=state.seconds + time.perf_counter() - began)
            if path is not None and every > 0 and state.generation % every == 0:
                save_checkpoint(state, path)
            if on_generation is not None:
                on_generation(state)
    except KeyboardInterrupt:
        if path is not None:
            save_checkpoint(state, path)
        raise Interrupted(state, path) from None
    if path is not None:
        save_checkpoint(state, path)
    return state


#: A restarted attempt k runs with seed ``seed + RESTART_SEED_STEP * k`` (as scripts/bench_evolve).
RESTART_SEED_STEP = 1000


def attempt_seed(seed: int, attempt: int) -> int:
    """The seed of attempt ``attempt`` (0 = the first run) of a campaign started with ``seed``."""
    return seed + RESTART_SEED_STEP * attempt


@dataclass(frozen=True)
class Campaign:
    """Runs restarted from fresh populations until one finds a perfect strategy.

    ``state`` is the last attempt's run; ``attempts`` summarises every attempt, the last one
    included (seed, generations evaluated, perfect, games lost by its best, seconds).
    """

    state: EvolutionState
    attempts: list[dict[str, Any]]

    @property
    def perfect(self) -> bool:
        """Whether the last attempt found a strategy that loses no game."""
        return self.state.done

    @property
    def seconds(self) -> float:
        """Seconds over every attempt."""
        return float(sum(a["seconds"] for a in self.attempts))


def _attempt_record(state: EvolutionState) -> dict[str, Any]:
    done = state.done
    return {
        "seed": int(state.config["seed"]),
        "generations": state.perfect_generation if done else state.generation - 1,
        "perfect": done,
        "best_lost": _best_lost(state),
        "seconds": round(state.seconds, 3),
    }


def evolve_until_perfect(
    config: Config,
    *,
    restarts: int = 20,
    max_seconds: float | None = 600.0,
    checkpoint: str | Path | None = None,
    every: int = 50,
    on_generation: Callable[[EvolutionState], None] | None = None,
    on_restart: Callable[[int, EvolutionState], None] | None = None,
) -> Campaign:
    """Run ``config``; while the run ends without a perfect strategy, restart it from a fresh
    random population (seed ``attempt_seed(seed, k)``), at most ``restarts`` times and within
    ``max_seconds`` in all (None: no time budget).

    000 ran "a series of additional runs" the same way. The checkpoint holds the current attempt
    and the summaries of the earlier ones, so an interrupted campaign resumes where it stopped
    (and a finished imperfect one goes on when given more restarts or time).

    >>> from minttt.evolve.situations import HochmuthConfig
    >>> c = evolve_until_perfect(HochmuthConfig(population=20, generations=2), restarts=1)
    >>> [a["seed"] for a in c.attempts], c.perfect
    ([0, 1000], False)
    """
    if restarts < 0:
        raise InputError(f"--restarts must be 0 or more, got {restarts}")
    if max_seconds is not None and not max_seconds > 0:
        raise InputError(f"--max-seconds must be above 0, got {max_seconds}")
    with _holding(checkpoint, False):
        return _campaign(
            config, restarts, max_seconds, checkpoint, every, on_generation, on_restart
        )


def _campaign(
    config: Config,
    restarts: int,
    max_seconds: float | None,
    checkpoint: str | Path | None,
    every: int,
    on_generation: Callable[[EvolutionState], None] | None,
    on_restart: Callable[[int, EvolutionState], None] | None,
) -> Campaign:
    """:func:`evolve_until_perfect`, the checkpoint's lock held."""
    earlier: list[dict[str, Any]] = []
    state: EvolutionState | None = None
    if checkpoint is not None and Path(checkpoint).exists():
        earlier = list(load_checkpoint(checkpoint).extra.get("attempts", []))
        state = start(_for_attempt(config, len(earlier)), checkpoint)
    while True:
        attempt = len(earlier)
        current = _for_attempt(config, attempt)
        if state is None:
            state = _module(current).initial_state(current).evolve(extra={"attempts": earlier})
            if on_restart is not None and attempt > 0:
                on_restart(attempt, state)
        spent = sum(a["seconds"] for a in earlier)
        budget = None if max_seconds is None else max(max_seconds - spent, 0.0)
        state = run(
            current,
            checkpoint=checkpoint,
            every=every,
            on_generation=on_generation,
            state=state,
            max_seconds=budget,
            locked=True,
        )
        records = [*earlier, _attempt_record(state)]
        out_of_time = budget is not None and state.seconds >= budget
        if state.done or attempt >= restarts or out_of_time:
            return Campaign(state, records)
        earlier = records
        state = None


def _for_attempt(config: Config, attempt: int) -> Config:
    return replace(config, seed=attempt_seed(config.seed, attempt))


def summary(state: EvolutionState) -> dict[str, Any]:
    """The ``--json`` answer: perfect, generations (evaluated after the first), seconds, fitness."""
    perfect = state.done
    generations = state.perfect_generation if perfect else state.generation - 1
    return {
        "perfect": perfect,
        "generations": generations,
        "seconds": round(state.seconds, 3),
        "fitness": state.best_fitness,
        "recipe": state.recipe,
        "best_generation": state.best_generation,
        "best_lost": _best_lost(state),
    }


def _best_lost(state: EvolutionState) -> int | None:
    if state.best is None:
        return None
    if state.recipe == "cornell":
        return raw_genome.not_lost_fraction(state.best)[2]
    tree = situations.tree_for(int(state.config["genes"]))
    return int(tree.evaluate(state.best[None, :]).lost.sum())


def evolved_table(state: EvolutionState) -> Table:
    """The best hochmuth strategy as a table: role both, criterion never-lose, one entry per
    position its own play reaches (as X and as O, against every opponent reply)."""

    if state.recipe != "hochmuth":
        raise InputError(
            "--out writes symmetric tables; cornell organisms are raw 3^9 genomes (use hochmuth)"
        )
    if state.best is None:
        raise InputError("no generation was evaluated, so there is no strategy to write")
    cfg = state.config
    index = situations.tree_for(int(cfg["genes"])).index
    moves = reached_moves(index, state.best)
    provenance = {
        "obtained": "genetic evolution (000, Hochmuth)",
        "recipe": "hochmuth",
        "seed": cfg["seed"],
        "population": cfg["population"],
        "genes": cfg["genes"],
        "fitness": cfg["fitness"],
        "p_replicate": cfg["p_replicate"],
        "p_mutate": cfg["p_mutate"],
        "p_crossover": cfg["p_crossover"],
        "generation": state.best_generation,
        "perfect": state.done,
        "lost_games": _best_lost(state),
        "size_counts": "lookups (positions where the strategy moves, as X and as O)",
    }
    return table_from_moves(
        index.graph,
        moves,
        role="both",
        opening=None,
        criterion="never-lose",
        provenance=provenance,
    )


def evolution_run(
    seed: int, population: int = 500, generations: int = 500
) -> tuple[dict[str, Any], EvolutionState]:
    """One Hochmuth run of :func:`evolution_summary`: its record and its final state."""
    state = run(HochmuthConfig(population=population, generations=generations, seed=seed))
    table = evolved_table(state) if state.done else None
    record = {
        "seed": seed,
        "perfect": state.done,
        "generations": state.perfect_generation if state.done else state.generation - 1,
        "best_lost": _best_lost(state),
        "table_size": None if table is None else table.size,
    }
    return record, state


def summarize_runs(
    runs: list[dict[str, Any]], population: int = 500, generations: int = 500
) -> dict[str, Any]:
    """:func:`evolution_summary` of the records of :func:`evolution_run`, in seed order."""
    wins = [r for r in runs if r["perfect"]]
    sizes = [r["table_size"] for r in wins]
    return {
        "recipe": "hochmuth",
        "population": population,
        "max_generations": generations,
        "runs": runs,
        "success_rate": len(wins) / len(runs) if runs else 0.0,
        "median_generations_to_success": median(r["generations"] for r in wins) if wins else None,
        "smallest_table": min(sizes) if sizes else None,
        "table_size_counts": "lookups (positions where the strategy moves, as X and as O)",
        "proven_minimum": None,
        "source_000": SOURCE_000,
    }


def evolution_summary(
    seeds: Iterable[int] = (0, 1, 2),
    population: int = 500,
    generations: int = 500,
    on_run: Callable[[int, EvolutionState], None] | None = None,
) -> dict[str, Any]:
    """Hochmuth runs over ``seeds``: generations to success, success rate, evolved table sizes.

    Deterministic (no timings). ``proven_minimum`` is left None for the caller to fill in.
    ``on_run(seed, state)`` is called after each run (to save its table or plot). The runs are
    independent: :func:`evolution_run` for each seed, then :func:`summarize_runs`, give the same.
    """
    runs: list[dict[str, Any]] = []
    for seed in seeds:
        record, state = evolution_run(seed, population, generations)
        if on_run is not None:
            on_run(seed, state)
        runs.append(record)
    return summarize_runs(runs, population, generations)


__all__ = [
    "Campaign",
    "Config",
    "Interrupted",
    "RECIPES",
    "RESTART_SEED_STEP",
    "SOURCE_000",
    "attempt_seed",
    "evolution_run",
    "evolution_summary",
    "check_claims",
    "evolve_until_perfect",
    "evolved_table",
    "is_finished",
    "make_config",
    "run",
    "start",
    "summarize_runs",
    "summary",
]
