"""002's recipe (Cornell): raw 3^9 genomes, round-robin fitness, a single best parent.

Each of 100 organisms holds a move (0-8) for every one of the 3^9 raw board hashes (no symmetry,
no pruning). Every organism plays every other once as X and once as O (198 games each); a move onto
a taken cell ends the game as a loss for the mover; a loss scores -1, a win or draw 0. The best
organism (the first on ties) is the single parent of the whole next generation, each gene mutated
with probability 2.5% to a random cell 0-8.

002 never reached a perfect player, so every generation we also measure how far the best organism
is from one: the fraction of all opponent lines (every opponent reply on the real board, as X and
as O, the verifier's game walk) it does not lose, vectorised over a frontier of boards.

>>> cfg = CornellConfig(population=4, generations=1, seed=0)
>>> s = step(cfg, initial_state(cfg))
>>> len(s.history["best"]), s.history["best"][0] <= 0
(1, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from minttt.errors import InputError
from minttt.evolve.situations import check_common, check_probability
from minttt.evolve.state import EvolutionState, new_rng, rng_from_state
from minttt.game.rules import TIC_TAC_TOE, O, X

RECIPE = "cornell"
CELLS = 9
GENOME = 3**CELLS
POWERS = np.array([3**i for i in range(CELLS)], dtype=np.int64)
LINES = np.array(TIC_TAC_TOE.lines, dtype=np.int64)


@dataclass(frozen=True)
class CornellConfig:
    """002's parameters: 100 organisms, 2.5% mutation per gene."""

    population: int = 100
    generations: int = 200
    seed: int = 0
    p_mutate: float = 0.025

    def __post_init__(self) -> None:

        check_common(self.population, self.generations, self.seed)
        check_probability("p_mutate", self.p_mutate)

    def recipe_key(self) -> dict[str, Any]:
        """The fields a checkpoint must match to resume this recipe."""
        key = asdict(self)
        key.pop("generations")
        return {"recipe": RECIPE, **key}


def random_genomes(rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` genomes of 3^9 random cells 0-8 (002's ``randomize``)."""
    return np.floor(rng.random((count, GENOME)) * CELLS).astype(np.int8)


def initial_state(config: CornellConfig) -> EvolutionState:
    """Generation 0: a random population from the config's seed."""
    rng = new_rng(config.seed)
    return EvolutionState(
        recipe=RECIPE,
        config=config.recipe_key(),
        generation=0,
        population=random_genomes(rng, config.population),
        rng_state=rng.bit_generator.state,
        history={
            k: [] for k in ("best", "mean", "worst", "best_not_lost", "best_lines", "best_lost")
        },
    )


def _has_line(boards: np.ndarray, player: np.ndarray | int) -> np.ndarray:
    """Rows of ``boards`` where ``player`` (per row, or one value) holds a full line."""
    mine = boards == (player[:, None] if isinstance(player, np.ndarray) else player)
    return mine[:, LINES].all(axis=2).any(axis=1)


def round_robin(population: np.ndarray) -> np.ndarray:
    """Losses of every organism when each plays every other once as X and once as O."""
    size = population.shape[0]
    xs, os = np.nonzero(~np.eye(size, dtype=bool))
    games = len(xs)
    boards = np.zeros((games, CELLS), dtype=np.int8)
    hashes = np.zeros(games, dtype=np.int64)
    active = np.ones(games, dtype=bool)
    losses = np.zeros(size, dtype=np.int64)
    rows = np.arange(games)
    for ply in range(CELLS):
        live = rows[active]
        if not len(live):
            break
        mark = X if ply % 2 == 0 else O
        mover = xs[live] if mark == X else os[live]
        other = os[live] if mark == X else xs[live]
        move = population[mover, hashes[live]].astype(np.int64)
        invalid = boards[live, move] != 0
        np.add.at(losses, mover[invalid], 1)
        active[live[invalid]] = False
        ok = live[~invalid]
        boards[ok, move[~invalid]] = mark
        hashes[ok] += mark * POWERS[move[~invalid]]
        won = _has_line(boards[ok], mark)
        np.add.at(losses, other[~invalid][won], 1)
        active[ok[won]] = False
    return losses


def exhaustive_lines(genome: np.ndarray, role: int) -> tuple[int, int]:
    """(lines, lost): every game of ``genome`` playing ``role`` against every opponent reply,
    counted on real boards with multiplicity; an invalid move of the organism loses the line."""
    boards = np.zeros((1, CELLS), dtype=np.int8)
    counts = np.ones(1, dtype=np.int64)
    lines = lost = 0
    turn = X
    while len(counts):
        hashes = boards.astype(np.int64) @ POWERS
        if turn == role:
            move = genome[hashes].astype(np.int64)
            rows = np.arange(len(counts))
            invalid = boards[rows, move] != 0
            lines += int(counts[invalid].sum())
            lost += int(counts[invalid].sum())
            boards, counts, move = boards[~invalid], counts[~invalid], move[~invalid]
            boards[np.arange(len(counts)), move] = turn
        else:
            empty_r, empty_c = np.nonzero(boards == 0)
            boards = boards[empty_r]
            boards[np.arange(len(empty_r)), empty_c] = turn
            counts = counts[empty_r]
        won = _has_line(boards, turn)
        full = (boards != 0).all(axis=1)
        ended = won | full
        lines += int(counts[ended].sum())
        if turn != role:
            lost += int(counts[won].sum())
        boards, counts = boards[~ended], counts[~ended]
        if len(counts):
            keys = boards.astype(np.int64) @ POWERS
            uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            counts = np.bincount(inverse.ravel(), weights=counts, minlength=len(uniq)).astype(
                np.int64
            )
            boards = boards[first]
        turn = O if turn == X else X
    return lines, lost


def not_lost_fraction(genome: np.ndarray) -> tuple[float, int, int]:
    """(fraction of lines not lost, lines, lost) over both roles."""
    lx, ox = exhaustive_lines(genome, X)
    lo, oo = exhaustive_lines(genome, O)
    lines, lost = lx + lo, ox + oo
    return (lines - lost) / lines, lines, lost


def step(config: CornellConfig, state: EvolutionState) -> EvolutionState:
    """Play the round robin, record it, keep the best as the single parent, mutate its copies."""
    scores = 0.0 - round_robin(state.population).astype(np.float64)
    top = int(np.argmax(scores))
    parent = state.population[top]
    fraction, lines, lost = not_lost_fraction(parent)
    history = {k: list(v) for k, v in state.history.items()}
    for key, value in (
        ("best", scores[top]),
        ("mean", scores.mean()),
        ("worst", scores.min()),
        ("best_not_lost", fraction),
        ("best_lines", lines),
        ("best_lost", lost),
    ):
        history[key].append(float(value))
    changes: dict[str, Any] = {"history": history, "generation": state.generation + 1}
    if state.best_fitness is None or fraction > state.best_fitness:
        changes.update(best=parent.copy(), best_fitness=fraction, best_generation=state.generation)
    if lost == 0:
        changes["perfect_generation"] = state.generation
        return state.evolve(**changes)
    rng = rng_from_state(state.rng_state)
    size = config.population
    children = np.repeat(parent[None, :], size, axis=0)
    mutate = rng.random((size, GENOME)) < config.p_mutate
    children[mutate] = np.floor(rng.random(int(mutate.sum())) * CELLS).astype(np.int8)
    return state.evolve(population=children, rng_state=rng.bit_generator.state, **changes)


def finished(config: CornellConfig, state: EvolutionState) -> bool:
    """True once the run evaluated generation ``generations``."""
    return state.done or state.generation > config.generations


def check_genomes(population: np.ndarray) -> None:
    """Raise InputError unless every gene is a cell 0-8."""
    if population.ndim != 2 or population.shape[1] != GENOME:
        raise InputError(f"cornell genomes must have {GENOME} genes")
    if population.size and (population.min() < 0 or population.max() >= CELLS):
        raise InputError("cornell genes must be cells 0-8")


__all__ = [
    "CELLS",
    "CornellConfig",
    "GENOME",
    "LINES",
    "POWERS",
    "RECIPE",
    "check_genomes",
    "exhaustive_lines",
    "finished",
    "initial_state",
    "not_lost_fraction",
    "random_genomes",
    "round_robin",
    "step",
]
