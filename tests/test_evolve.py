"""Genome, exhaustive fitness and the two recipes' operators, against plain game walks."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from minttt.evolve import raw_genome, situations
from minttt.evolve.fitness import ExhaustiveTree, reached_moves
from minttt.evolve.genome import GeneIndex
from minttt.evolve.runner import evolved_table, run, summary
from minttt.evolve.state import EvolutionState
from minttt.game.rules import EMPTY, Board, O, X, unmap_cell
from minttt.table.verify import verify_player, verify_table


@cache
def index627() -> GeneIndex:
    return GeneIndex.build()


def perfect_genome(index: GeneIndex, pick: int = 0) -> np.ndarray:
    """A never-losing genome: at every decision position a never-lose move (the pick-th)."""
    graph = index.graph
    genome = np.zeros(index.size, dtype=np.int8)
    for g, h in enumerate(index.hashes):
        if not index.decision[g]:
            continue
        allowed = graph.allowed(int(h), "never-lose")
        move = allowed[pick % len(allowed)]
        genome[g] = list(index.legal[g]).index(move)
    return genome


def real_move(index: GeneIndex, genome: np.ndarray, board: Board) -> int:
    c = board.canonical()
    g = index.gene_of(c.hash)
    return unmap_cell(index.move(g, int(genome[g])), c.transform)


def plain_counts(index: GeneIndex, genome: np.ndarray, role: int) -> tuple[int, int, int]:
    """(games, lost, won) by walking real boards, one game line at a time (with a memo)."""
    memo: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def walk(board: Board) -> tuple[int, int, int]:
        if board.cells in memo:
            return memo[board.cells]
        if board.is_terminal:
            w = board.winner()
            result = (1, int(w == 3 - role), int(w == role))
        elif board.to_move == role:
            result = walk(board.play(real_move(index, genome, board)))
        else:
            parts = [walk(board.play(m)) for m in board.legal_moves()]
            result = tuple(sum(p[i] for p in parts) for i in range(3))
        memo[board.cells] = result
        return result

    return walk(Board.empty())


class GenomePlayer:
    """A genome as a Player for the verifier."""

    name = "genome"

    def __init__(self, index: GeneIndex, genome: np.ndarray) -> None:
        self.index, self.genome = index, genome

    def choices(self, board: Board) -> tuple[int, ...]:
        return (real_move(self.index, self.genome, board),)


def test_gene_counts_and_alleles() -> None:
    small, big = index627(), GeneIndex.build(genes=827)
    assert small.size == 627 and big.size == 827
    assert int(big.decision.sum()) == 627
    assert set(small.hashes.tolist()) == set(big.hashes[big.decision].tolist())
    assert list(small.hashes) == sorted(small.hashes)
    for g in range(small.size):
        board = Board(tuple(int(v) for v in small.boards[g]))
        assert board.hash == small.hashes[g]
        assert tuple(small.legal[g, : small.n_legal[g]]) == board.legal_moves()
    extra = big.hashes[~big.decision]
    assert len(extra) == 200
    assert all(
        Board(tuple(int(v) for v in big.boards[big.gene_of(int(h))])).is_terminal for h in extra
    )


def test_random_population_is_legal() -> None:
    index = index627()
    pop = index.random_population(np.random.default_rng(3), 50)
    assert pop.shape == (50, 627) and (pop >= 0).all() and (pop < index.n_legal).all()


@pytest.mark.parametrize("genes", [627, 827])
def test_fitness_matches_plain_walk(genes: int) -> None:
    index = GeneIndex.build(genes)
    tree = ExhaustiveTree(index)
    pop = index.random_population(np.random.default_rng(genes), 6)
    pop[0] = perfect_genome(index) if genes == 627 else pop[0]
    out = tree.evaluate(pop)
    for p in range(len(pop)):
        for r, role in enumerate((X, O)):
            games, lost, won = plain_counts(index, pop[p], role)
            assert (out.games[r, p], out.lost[r, p], out.won[r, p]) == (games, lost, won)


def test_perfect_genome_fitness_and_verifier_agree() -> None:
    index = index627()
    genome = perfect_genome(index, pick=1)
    out = ExhaustiveTree(index).evaluate(genome[None, :])
    assert out.lost.sum() == 0 and out.not_lost()[0] == 1.0 and bool(out.perfect()[0])
    report = verify_player(GenomePlayer(index, genome), "both", "never-lose")
    assert report.ok and report.games == int(out.games.sum())
    assert report.wins == int(out.won.sum())


def test_points_fitness_is_table_1() -> None:
    index = index627()
    pop = index.random_population(np.random.default_rng(5), 3)
    out = ExhaustiveTree(index).evaluate(pop)
    tied = out.games - out.lost - out.won
    expected = 10 * out.won[0] + 5 * tied[0] + 15 * out.won[1] + 10 * tied[1]
    assert (out.points() == expected).all()


def test_reached_moves_table_verifies() -> None:
    index = index627()
    genome = perfect_genome(index)
    state = EvolutionState(
        recipe="hochmuth",
        config=situations.HochmuthConfig(population=2, seed=0).recipe_key(),
        generation=1,
        population=np.stack([genome, genome]),
        rng_state={},
        history={},
        best=genome,
        best_fitness=1.0,
        best_generation=0,
        perfect_generation=0,
    )
    table = evolved_table(state)
    moves = reached_moves(index, genome)
    assert table.size == len(moves) and table.role == "both" and table.criterion == "never-lose"
    report = verify_table(table)
    assert report.ok and report.unreached == ()


def test_sus_is_proportional_and_breed_keeps_alleles_legal() -> None:
    rng = np.random.default_rng(0)
    picks = situations.sus(np.array([0.0, 1.0, 3.0]), 400, rng)
    assert (picks != 0).all() and abs((picks == 2).sum() - 300) <= 1
    index = index627()
    cfg = situations.HochmuthConfig(population=41, p_mutate=0.2)
    pop = index.random_population(rng, 41)
    kids = situations.breed(cfg, index, pop, np.ones(41), rng)
    assert kids.shape == pop.shape and (kids >= 0).all() and (kids < index.n_legal).all()


def test_crossover_only_mixes_parents() -> None:
    index = index627()
    cfg = situations.HochmuthConfig(population=2, p_mutate=0.0, p_replicate=0.0, p_crossover=0.5)
    a = np.zeros(index.size, dtype=np.int8)
    b = (index.n_legal - 1).astype(np.int8)
    kids = situations.breed(cfg, index, np.stack([a, b]), np.ones(2), np.random.default_rng(1))
    for kid in kids:
        assert ((kid == a) | (kid == b)).all()
    assert (kids[0] != kids[1]).any()


def test_hochmuth_run_is_deterministic_and_records_history() -> None:
    cfg = situations.HochmuthConfig(population=40, generations=6, seed=7)
    first, second = run(cfg), run(cfg)
    assert first.history == second.history and len(first.history["best"]) == 7
    assert np.array_equal(first.population, second.population)
    s = summary(first)
    assert s["generations"] == 6 and s["perfect"] is False
    assert 0.0 < s["fitness"] <= 1.0


def test_points_run() -> None:
    cfg = situations.HochmuthConfig(population=20, generations=2, seed=1, fitness="points")
    state = run(cfg)
    assert state.best_fitness is not None and state.best_fitness > 100


# ---------------------------------------------------------------- cornell
def plain_game(x: np.ndarray, o: np.ndarray) -> int:
    """0 if nobody lost, 1 if X lost, 2 if O lost (002's rules: invalid move loses)."""
    board = Board.empty()
    while not board.is_terminal:
        mover = board.to_move
        move = int((x if mover == X else o)[board.hash])
        if board.cells[move] != EMPTY:
            return mover
        board = board.play(move)
    w = board.winner()
    return 0 if w == 0 else 3 - w


@pytest.mark.slow
def test_round_robin_matches_plain_games() -> None:
    rng = np.random.default_rng(2)
    pop = raw_genome.random_genomes(rng, 5)
    # make some organisms play legally more often: copy a perfect strategy into one genome
    pop[0] = cornell_perfect()
    losses = np.zeros(5, dtype=int)
    for i in range(5):
        for j in range(5):
            if i != j:
                loser = plain_game(pop[i], pop[j])
                if loser == X:
                    losses[i] += 1
                elif loser == O:
                    losses[j] += 1
    assert (raw_genome.round_robin(pop) == losses).all()


@cache
def cornell_perfect() -> np.ndarray:
    """The perfect 627-gene strategy spread over every real board of the raw 3^9 genome."""
    index = index627()
    genome = perfect_genome(index)
    raw = np.zeros(3**9, dtype=np.int8)
    for h in range(3**9):
        cells = []
        v = h
        for _ in range(9):
            v, d = divmod(v, 3)
            cells.append(d)
        board = Board(tuple(cells))
        c = board.canonical()
        if not board.is_terminal and c.hash in set(index.hashes.tolist()):
            raw[h] = real_move(index, genome, board)
    return raw


def test_cornell_measure_matches_fitness_and_verifier() -> None:
    raw = cornell_perfect()
    fraction, lines, lost = raw_genome.not_lost_fraction(raw)
    out = ExhaustiveTree(index627()).evaluate(perfect_genome(index627())[None, :])
    assert fraction == 1.0 and lost == 0 and lines == int(out.games.sum())


def test_cornell_measure_counts_invalid_moves_as_losses() -> None:
    raw = np.zeros(3**9, dtype=np.int8)  # always cell 0: invalid as soon as it is taken
    lx, ox = raw_genome.exhaustive_lines(raw, X)
    lo, oo = raw_genome.exhaustive_lines(raw, O)
    assert lx == ox == 8  # X takes 0, each O reply, then X plays 0 again: invalid
    # as O: X opens on 0 (O's move 0 is invalid at once, 1 line) or elsewhere (O takes 0, then
    # O's next move 0 is invalid on each of X's 7 replies)
    assert oo == lo == 1 + 8 * 7


def test_cornell_run_and_single_parent() -> None:
    cfg = raw_genome.CornellConfig(population=6, generations=3, seed=4)
    state = run(cfg)
    assert len(state.history["best"]) == 4
    assert all(-10 <= b <= 0 for b in state.history["best"])
    # the next generation descends from one parent: most genes agree across organisms
    agree = (state.population == state.population[0]).mean()
    assert agree > 0.9
    assert 0.0 <= state.best_fitness <= 1.0
