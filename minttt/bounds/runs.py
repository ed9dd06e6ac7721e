"""Resumable bounds runs (``minttt scale``): each improves one variant's bounds for a while and
keeps them in a checkpoint (:mod:`minttt.bounds.state`, on a :class:`minttt.store.RunStore`).

Run one again on the same checkpoint and it picks up from there: the bounds only improve, the
clock continues, the best table is kept. A second run on the same checkpoint at the same time is
refused in one line (the store's lock). The solver's internal state (RC2's cores) is not saved: a
resumed run re-derives its cores, usually faster than the first time, and reports a bound only
when it beats the saved one.

Time limits are honest: a run's clock starts once its checkpoint has been read and checked (a
saved table is verified again first), and everything after counts: the graph and formula, the
greedy table, each verification (in a process of its own, stopped when the time is up: a table
not verified in time is not kept), RC2's loading and search. A line is printed at least every
:data:`HEARTBEAT` seconds while the run works.

Five runs, one instance each (:func:`minttt.formula.instance.instance_for`):
:func:`long_solve` (greedy table, then RC2), :func:`level_lower` (per-level minima),
:func:`mip_lower` (HiGHS's branch and bound), :func:`hinted_upper` (a SAT descent from the table),
:func:`searched_upper` (a portfolio of searches on a Dask cluster).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from minttt.bounds.greedy import greedy_for, greedy_table, improve, tree_cost
from minttt.bounds.hinted import hinted_descent
from minttt.bounds.levels import LevelBound, level_bounds
from minttt.bounds.neighbourhood import HORIZONS
from minttt.bounds.state import (
    BoundsState,
    read_state,
    read_table,
    scale_store,
    table_name,
)
from minttt.errors import DefectError, InputError
from minttt.formula.arrays import ArrayFormula, table_edge_mask
from minttt.formula.instance import instance_for
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph
from minttt.game.rules import X
from minttt.interrupt import repeating
from minttt.solvers.arrays import array_table, moves_from_model, moves_from_table, rc2_arrays
from minttt.table.model import Table
from minttt.table.verify_timed import verify_within

Say = Callable[[str], None]
#: the longest silence of a working run (seconds)
HEARTBEAT = 5.0
#: seconds a phase runs before it is announced
QUIET = 0.5


@contextmanager
def heartbeat(say: Say, what: str) -> Iterator[None]:
    """Say ``what`` once the block has run :data:`QUIET` seconds, and again every
    :data:`HEARTBEAT` seconds until it ends (a long phase is never silent; a quick one, say a
    check that fails at once, adds no line before its one-line error)."""
    start = time.perf_counter()

    def beat(n: int) -> None:
        say(f"  {what} ..." if n == 0 else f"  {what} ... {time.perf_counter() - start:.0f} s")

    with repeating(QUIET, HEARTBEAT, beat, "minttt-heartbeat"):
        yield


class BoundsRun:
    """One resumable run on a checkpoint (a context manager holding the checkpoint's lock): its
    state, the clock across runs, the variant's instance (array form), and the one way a bound
    or a table gets in (a table only once it passed the exhaustive verifier)."""

    def __init__(
        self, variant: Variant, checkpoint: Path, say: Say, seconds: float | None = None
    ) -> None:
        self.variant, self.checkpoint, self.say = variant, checkpoint, say
        self.seconds = seconds  # this run's time (None: no limit), from the checked checkpoint
        self.deadline: float | None = None
        self.store = scale_store(checkpoint)
        self.state = BoundsState(variant.name)
        # what this run proves: "optimal" is claimed only from this, never from the file (an
        # earlier run's lower bound cannot be re-checked on load; it stays as history)
        self.proven = 0
        self.origin = time.perf_counter()
        self.saved: Table | None = None
        self._graph: ArrayGraph | None = None
        self._formula: ArrayFormula | None = None

    def __enter__(self) -> BoundsRun:
        self.store.acquire()
        try:
            self._resume()
        except BaseException:
            self.store.release()
            raise
        if self.seconds is not None:
            self.deadline = time.perf_counter() + self.seconds
        return self

    def left(self) -> float | None:
        """Seconds left of this run's time (``None``: no limit; never below 0)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def __exit__(self, *exc: object) -> None:
        self.store.release()

    def _resume(self) -> None:
        """Read the checkpoint (checked) and its table (checked again) before any work; a bound
        whose table is gone is dropped with it, and the run says so."""
        state = self.state = read_state(self.store, self.variant)
        state.runs += 1
        self.origin = time.perf_counter() - float(state.seconds)
        if state.table is None:
            return
        with heartbeat(self.say, f"{self.checkpoint}: checking its table {state.table}"):
            self.saved = read_table(self.store, state, self.variant)
        if self.saved is None:
            self.say(
                f"{self.checkpoint}: its table {Path(state.table).name} is not beside it; "
                f"the upper bound {state.upper} is dropped"
            )
            state.upper, state.table, state.table_sha256 = None, None, None

    @property
    def graph(self) -> ArrayGraph:
        """The variant's array graph (built on first use)."""
        self._instance()
        assert self._graph is not None
        return self._graph

    @property
    def formula(self) -> ArrayFormula:
        """The variant's array formula (built on first use)."""
        self._instance()
        assert self._formula is not None
        return self._formula

    def _instance(self) -> None:
        if self._formula is not None:
            return
        start = time.perf_counter()
        with heartbeat(self.say, f"{self.variant.name}: the game graph and the formula"):
            inst = instance_for(self.variant, arrays=True)
        assert isinstance(inst.graph, ArrayGraph) and isinstance(inst.formula, ArrayFormula)
        self._graph, self._formula = inst.graph, inst.formula
        self.say(f"{self.variant.name}: graph and formula in {time.perf_counter() - start:.1f} s")

    def record(self, event: str) -> None:
        """Append the bounds to the history, write the checkpoint, print the line."""
        st = self.state
        st.seconds = round(time.perf_counter() - self.origin, 2)
        st.history.append([st.seconds, st.lower, st.upper, event])
        self.store.save(st.to_dict())
        self.say(f"  {st.seconds:9.1f} s  {st.lower} .. {st.upper}  ({event})")

    def offer(
        self, chosen: dict[int, int], source: str, seed: int = 0, *, grace: bool = False
    ) -> None:
        """Keep the table ``chosen`` (``node -> edge``) as the upper bound if it is smaller and
        passes the verifier in the time left (``grace``: and a tenth of the run's time more, for
        the run's last table); DefectError if a table this run made fails it. A verified table
        below the checkpoint's lower bound proves that bound false: InputError naming it."""
        st = self.state
        if st.upper is not None and len(chosen) >= st.upper:
            return
        prov = {"variant": self.variant.name, "source": source, "seed": seed}
        table = array_table(self.graph, self.formula, chosen, prov)
        left = self.left()
        if left is not None and grace and self.seconds is not None:
            left += self.seconds / 10
        with heartbeat(self.say, f"verifying the {source} table ({table.size} entries)"):
            verdict = verify_within(table, left)
        if verdict is None:
            self.say(f"  the {source} table ({table.size} entries): not verified in time, not kept")
            return
        if not verdict[0]:
            raise DefectError(f"{source} table failed verification: {verdict[1]}")
        self.keep(table, source)

    def keep(self, table: Table, source: str) -> None:
        """Save ``table``, which this run verified, as the upper bound if it is smaller; a table
        below the checkpoint's lower bound proves that bound false: InputError naming it."""
        st = self.state
        if st.upper is not None and table.size >= st.upper:
            return
        if table.size < st.lower:
            raise InputError(
                f"{self.checkpoint}: its lower bound {st.lower} is false: a verified table has "
                f"{table.size} entries (the checkpoint is not to be trusted)"
            )
        name = table_name(self.checkpoint)
        st.table_sha256 = self.store.put(name, table.to_json().encode("utf-8"))
        st.upper, st.table = table.size, name
        self.record(f"{source} table, verified")

    def raise_lower(self, lower: int, method: str, event: str | None = None) -> None:
        """A lower bound this run proved by ``method``; recorded when ``event`` names it. It
        replaces the checkpoint's when higher, its proof named (``lower_by``) and the bound
        this run started from kept (``lower_from``: what the run gained)."""
        self.proven = max(self.proven, lower)
        st = self.state
        if lower > st.lower:
            by = f"{method}, run {st.runs}"
            if not (st.lower_by or "").endswith(f", run {st.runs}"):
                st.lower_from = st.lower  # this run's first raise
            st.lower, st.lower_by = lower, by
            if event is not None:
                self.record(event)

    def start_table(self) -> dict[int, int] | None:
        """The saved (verified) table as ``node -> edge``, or ``None``."""
        return None if self.saved is None else moves_from_table(self.graph, self.saved)

    def finish(self, event: str, proven_event: str | None = None) -> BoundsState:
        """Settle ``optimal`` (the bounds meet), record the last line (``proven_event`` when
        this run proved the minimum) and return the state."""
        st = self.state
        st.optimal = st.upper is not None and st.lower >= st.upper
        self.record(proven_event if self.proved() and proven_event else event)
        return st

    def proved(self) -> bool:
        """Whether this run proved the upper bound the minimum (not an earlier run)."""
        return self.state.upper is not None and self.proven >= self.state.upper


def long_solve(
    variant: Variant,
    checkpoint: Path,
    *,
    time_limit: float,
    seed: int = 0,
    rounds: int = 40,
    say: Say = print,
) -> BoundsState:
    """Improve the bounds of ``variant`` for ``time_limit`` seconds (everything after the
    checkpoint was read and checked: the graph and formula, the greedy table and its local
    search, verifications, RC2), resuming from ``checkpoint``: the greedy table with its local
    search (a quarter of the time; unless a table is saved), then RC2 for what is left. Every
    upper bound is a table that passed :func:`minttt.table.verify.verify_table` (saved as
    ``<checkpoint stem>.table.json``); the last one may take a tenth of ``time_limit`` more."""
    with BoundsRun(variant, checkpoint, say, seconds=time_limit) as run:
        state = run.state
        if state.optimal:  # an earlier run's claim: this run proves it again before saying so
            say(f"{variant.name}: proven by an earlier run at {state.upper} entries; re-proving")
        graph, formula = run.graph, run.formula
        side = variant.role.sides[0]
        allowed = table_edge_mask(graph, variant)
        cost = tree_cost(graph, allowed, side)
        state.tree_dp = float(cost[0]) if side == X else None
        if state.upper is None and run.left() != 0:  # a resumed run keeps its table
            first = greedy_table(graph, allowed, side, cost)
            state.greedy_entries = len(first)  # the plain greedy pass (not verified alone)
            share = (run.left() or 0.0) / 4
            best = improve(
                graph, allowed, side, cost, first, seed=seed, rounds=rounds, time_limit=share
            )
            run.offer(best, "greedy + local search", seed)
        if run.left() == 0:
            return run.finish("time limit")
        outcome = rc2_arrays(
            formula,
            timeout=run.left(),
            on_bound=lambda lower: run.raise_lower(lower, "rc2", "rc2 lower bound"),
        )
        run.raise_lower(outcome.lower, "rc2")
        if outcome.model is not None:
            run.offer(moves_from_model(graph, formula, outcome.model), "rc2", seed, grace=True)
        return run.finish("time limit", proven_event="proven")


def level_lower(
    variant: Variant, checkpoint: Path, *, seconds_per_level: float, say: Say = print
) -> BoundsState:
    """Lower bounds only, resuming ``checkpoint``: the sum of the per-level minima
    (:func:`minttt.bounds.levels.level_bounds`, RC2 for at most ``seconds_per_level`` on each
    level). It replaces the lower bound when higher; the levels are kept in the checkpoint."""
    with BoundsRun(variant, checkpoint, say) as run:
        graph, formula = run.graph, run.formula
        say(f"{variant.name}: per-level minima, {seconds_per_level:g} s per level at most")

        def done(level: LevelBound) -> None:
            word = "minimum" if level.optimal else "at least"
            say(f"  depth {level.depth}: {word} {level.lower} ({level.seconds:.1f} s)")

        result = level_bounds(graph, formula, seconds_per_level=seconds_per_level, on_level=done)
        run.state.levels = {
            "seconds_per_level": seconds_per_level,
            "lower": result.lower,
            "complete": result.complete,
            "levels": [asdict(level) for level in result.levels],
        }
        run.raise_lower(result.lower, "per-level minima", "per-level minima")
        return run.finish("per-level minima", proven_event="proven")


def certified_levels(
    variant: Variant,
    checkpoint: Path,
    *,
    certificates: Path,
    block: int = 1,
    seconds: float | None = None,
    cert_seconds: float | None = None,
    workers: int = 2,
    scheduler: str | None = None,
    drat_trim: Path | None = None,
    say: Say = print,
) -> BoundsState:
    """Lower bounds that ship a certificate, resuming ``checkpoint``: the table's levels in
    blocks of ``block`` consecutive levels (:func:`minttt.bounds.levels.blocks_of`), each
    block's minimum by RC2 (``seconds`` at most; ``None``: to its end) and its refutation one
    below by CaDiCaL (``cert_seconds`` at most), the blocks spread over a Dask cluster (they are
    independent). Each certificate is written into ``certificates`` (``lower-bounds.json``) as
    it arrives; the sum of the certified blocks replaces the lower bound when higher (method
    ``level certificates``), the blocks kept in the checkpoint (``levels``). A block whose
    minimum has a checked record in ``certificates`` already is kept, not worked again (a run
    resumes); a block bounded before is worked again (the index keeps the higher bound), and
    one that finds less keeps the bound certified before."""
    from minttt.bounds.levels import BlockBound, block_bound, blocks_of, table_depths
    from minttt.cluster import DaskCluster, fan_out, scatter
    from minttt.proof.lower import LOWER_INDEX, checked_lower, write_lower_records

    with BoundsRun(variant, checkpoint, say) as run:
        blocks = blocks_of(table_depths(run.graph, run.formula), block)
        say(f"{variant.name}: {len(blocks)} blocks of {block} level(s), certified")
        found: dict[int, BlockBound] = {}
        have = checked_lower(certificates / LOWER_INDEX, exact=True)
        for i, b in enumerate(blocks):  # a block's minimum certified before is kept (resumes)
            lower = have.get((variant.name, tuple(b)))
            if lower is not None:
                found[i] = BlockBound(b, lower, True, 0.0, lower, None, {})
                say(f"  depths {b}: minimum {lower}, certified before ({certificates})")
        checker = None if drat_trim is None else str(drat_trim)

        def settle() -> int:
            """The levels record from the blocks so far (each at least its bound certified
            before), kept in the checkpoint; the certified sum."""
            before = checked_lower(certificates / LOWER_INDEX)
            done = [
                replace(
                    b, certified=max(b.certified, before.get((variant.name, tuple(b.depths)), 0))
                )
                for b in (found[i] for i in sorted(found))
            ]
            certified = sum(b.certified for b in done)
            run.state.levels = {
                "seconds_per_level": seconds or 0.0,
                "lower": sum(b.lower for b in done),
                "complete": len(done) == len(blocks) and all(b.optimal for b in done),
                "levels": [
                    {
                        "depth": b.depths[0],
                        "lower": b.lower,
                        "optimal": b.optimal,
                        "seconds": b.seconds,
                    }
                    for b in done
                ],
                "block": block,
                "certified": certified,
                "blocks": [{"depths": b.depths, "lower": b.certified} for b in done if b.certified],
            }
            run.store.save(run.state.to_dict())
            return certified

        def arrived(index: int, result: BlockBound) -> None:
            found[index] = result
            word = "minimum" if result.optimal else "at least"
            sure = "certified" if result.certified else "not certified"
            say(f"  depths {result.depths}: {word} {result.lower}, {sure} ({result.seconds} s)")
            if result.certificate is not None:
                write_lower_records(certificates, [result.certificate], result.files)
            settle()  # a run stopped later keeps what arrived

        with DaskCluster(workers, scheduler) as client:
            graph = scatter(client, run.graph)  # sent to each worker once
            before = checked_lower(certificates / LOWER_INDEX)
            tasks = {
                i: (
                    variant.name,
                    b,
                    graph,
                    seconds,
                    cert_seconds,
                    checker,
                    before.get((variant.name, tuple(b)), 0),
                )
                for i, b in enumerate(blocks)
                if i not in found
            }
            fan_out(client, block_bound, tasks, arrived)
        certified = settle()
        run.raise_lower(certified, "level certificates", "level certificates")
        return run.finish("level certificates", proven_event="proven")


def cores_lower(
    variant: Variant,
    checkpoint: Path,
    *,
    certificates: Path,
    seconds: float | None = None,
    drat_trim: Path | None = None,
    relax: bool = False,
    exhaust: bool = False,
    fresh: bool = False,
    say: Say = print,
) -> BoundsState:
    """A certified lower bound by disjoint cores of the whole formula, resuming ``checkpoint``:
    CaDiCaL finds sets of table positions every table holds one of, pairwise disjoint, for
    ``seconds`` at most (:func:`minttt.proof.lower.build_cores_certificate`; a core may span
    levels, which per-level minima cannot use); their number is the bound, certified, checked
    and written into ``certificates`` (``lower-bounds.json``, one block of every table depth).
    With ``relax``, each core is relaxed by a totalizer rather than set aside
    (:func:`minttt.proof.lower.relaxed_cores`: RC2's bound, certified; ``exhaust``: with core
    exhaustion). A relaxed search goes on from the record ``certificates`` holds of the same
    variant and depths, if any and stopped at its time limit (its cores first, its proof first:
    :func:`minttt.proof.lower.carried_from`), unless ``fresh``; a record that ran to its end
    (``complete``) is gone on from the same way, never taken at its word: its cores taken again
    (each must be among the softs left), the search finds the formula satisfiable at once (its
    model a table of the bound) or goes on to the minimum, and the new proof, its lemmas first,
    is checked; a record of the minimum so checked again is kept as it was. It replaces the
    checkpoint's certified blocks and lower bound where higher."""
    from minttt.bounds.levels import table_depths
    from minttt.proof.certify import OutOfTime
    from minttt.proof.lower import (
        LOWER_INDEX,
        build_cores_certificate,
        load_lower,
        write_lower_records,
    )

    with BoundsRun(variant, checkpoint, say) as run:
        depths = [int(d) for d in table_depths(run.graph, run.formula)]
        what = "relaxed cores" if relax else "disjoint cores"
        say(f"{variant.name}: {what} over depths {depths}, {seconds or 'no limit'} s")
        prior = None
        index = Path(certificates) / LOWER_INDEX
        if relax and not fresh and index.is_file():
            key = (variant.name, tuple(depths))
            prior = next(
                (
                    r
                    for r in load_lower(index, only=key)
                    if r.get("method") == "relaxed cores" and r.get("checked_by")
                ),
                None,
            )
        if prior is not None and prior.get("complete"):  # checked as any record gone on from
            say(f"  {prior['lower']} relaxed cores ran to their end before: going on from them")
        if prior is not None and not prior.get("proof"):
            say(f"  the record of {prior['lower']} ships no proof to go on from: starting afresh")
            prior = None
        try:
            cert = build_cores_certificate(
                variant,
                certificates,
                depths=depths,
                graph=run.graph,
                formula=run.formula,
                seconds=seconds,
                drat_trim=drat_trim,
                relax=relax,
                exhaust=exhaust,
                going_on=prior,
                say=say,
            )
        except OutOfTime:
            say(f"  no core in {seconds} s: nothing certified")
            return run.finish("level certificates")
        lower, record = int(cert.record["lower"]), cert.record
        if _same_end(prior, record):
            say(f"  {lower} {what}, the minimum, as before: certified, {record['checked_by']}")
        else:
            write_lower_records(certificates, [record], {str(p): d for p, d in cert.files.items()})
            how = "all found" if record["complete"] else "stopped at the time limit"
            say(f"  {lower} {what} ({how}), certified: {record['checked_by']}")
        if cert.model is not None:  # run to its end: its last model is a table of the bound
            run.offer(moves_from_model(run.graph, run.formula, cert.model), "relaxed cores")
        _certified_blocks(run, depths, lower)
        return run.finish("level certificates", proven_event="proven")


def _same_end(prior: dict[str, Any] | None, record: dict[str, Any]) -> bool:
    """Whether ``record``, gone on from ``prior``, ends where ``prior`` did: the same minimum,
    both run to their end (the record kept is then ``prior``, checked again)."""
    return (
        prior is not None
        and bool(prior.get("complete"))
        and bool(record["complete"])
        and record["lower"] == prior["lower"]
    )


def _certified_blocks(run: BoundsRun, depths: list[int], lower: int) -> None:
    """A certified bound of ``lower`` over all ``depths`` (one block) into ``run``'s checkpoint
    where higher than its own, and its lower bound raised to it."""
    levels = run.state.levels
    if levels is None or lower > levels.get("certified", 0):
        base = levels or {"seconds_per_level": 0.0, "lower": 0, "complete": False, "levels": []}
        run.state.levels = base | {
            "block": len(depths),
            "certified": lower,
            "blocks": [{"depths": depths, "lower": lower}],
        }
        run.store.save(run.state.to_dict())
    run.raise_lower(lower, "level certificates", "level certificates")


def mip_lower(
    variant: Variant, checkpoint: Path, *, seconds: float, say: Say = print
) -> BoundsState:
    """Lower bounds from HiGHS's branch and bound on the 0/1 program of the formula
    (:func:`minttt.solvers.highs.mip_bound`, ``seconds`` at most), resuming ``checkpoint``: its
    dual bound replaces the lower bound when higher; its best integer point, read as a table, is
    offered as an upper bound (kept only once it passes the exhaustive verifier). Needs scipy
    (the ``lp`` extra): without it, a usage error."""
    from minttt.solvers.highs import mip_bound

    with BoundsRun(variant, checkpoint, say) as run:
        graph, formula = run.graph, run.formula
        say(f"{variant.name}: HiGHS branch and bound, {seconds:g} s at most")
        result = mip_bound(formula, seconds)
        if result is None:
            raise InputError('--mip needs scipy: pip install "minttt[lp]"')
        run.state.mip = result.record()
        say(f"  dual bound {result.dual_bound:.2f}, best point {result.upper} ({result.status})")
        if result.point is not None:
            run.offer(moves_from_model(graph, formula, result.point), "mip")
        run.raise_lower(result.lower, "mip dual bound", "mip dual bound")
        return run.finish("mip", proven_event="proven")


def hinted_upper(
    variant: Variant,
    checkpoint: Path,
    *,
    hint_seconds: float,
    seed: int = 0,
    say: Say = print,
) -> BoundsState:
    """Upper bounds only, resuming ``checkpoint``, in ``hint_seconds`` (everything after the
    checkpoint was checked): the greedy table with its local search
    (:func:`minttt.bounds.greedy.greedy_for`; unless a table is saved), then
    :func:`minttt.bounds.hinted.hinted_descent` from it for the time left. A verified table
    smaller than the saved one replaces it; the lower bound is untouched unless the descent
    proves its table optimal (UNSAT one entry below)."""
    with BoundsRun(variant, checkpoint, say, seconds=hint_seconds or None) as run:
        graph, formula = run.graph, run.formula
        best = run.start_table()
        if best is not None:  # resume from the saved (verified) table
            say(f"{variant.name}: saved table, {len(best)} entries")
        else:
            best, info = greedy_for(graph, variant, seed=seed)
            say(f"{variant.name}: greedy {info['greedy']}, local search {info['improved']}")
            run.offer(best, "greedy + local search", seed)
        if hint_seconds > 0:
            out = hinted_descent(graph, formula, best, run.left() or 0.0, say=say)
            if out.best is not None:  # verified by the descent, in this run
                run.keep(out.best, "hinted descent")
            if out.proven and run.state.upper is not None:
                run.raise_lower(out.best.size if out.best is not None else len(best), "hinted")
            run.state.hinted = {
                "seconds": hint_seconds,
                "start": out.start_size,
                "found": [s for _, s in out.sizes],
                "proven": out.proven,
                "load_seconds": round(out.load_seconds, 1),
            }
        return run.finish("hinted descent" if hint_seconds > 0 else "greedy")


def searched_upper(
    variant: Variant,
    checkpoint: Path,
    *,
    seconds: float,
    seeds: int = 2,
    first_seed: int = 0,
    rounds: int = 4,
    workers: int = 2,
    scheduler: str | None = None,
    slack: int = 0,
    method: str = "lns",
    say: Say = print,
) -> BoundsState:
    """Upper bounds only, resuming ``checkpoint``: a portfolio of ``seeds`` searches (``method``
    ``"lns"`` or ``"forced"``; seeds ``first_seed`` on, another basin for each: a run that
    found nothing may try others) on a Dask cluster (:func:`minttt.bounds.search.search_portfolio`),
    ``rounds`` rounds in ``seconds`` (everything after the checkpoint was checked: the graph,
    the cluster, the searches, the verifications), each round from the best table so far (the
    saved one first). A table smaller than the saved one is kept only once it passes the
    exhaustive verifier, as its task arrives: a run interrupted in its third round keeps what
    the first two found. All the cluster's workers lost: one line naming the checkpoint."""
    from minttt.bounds.search import LABELS, FoundTable, search_portfolio
    from minttt.cluster import ClusterLost

    with BoundsRun(variant, checkpoint, say, seconds=seconds) as run:
        start = run.start_table()
        label = LABELS.get(method, method)
        say(f"{variant.name}: {label} from {len(start) if start else 'the greedy'} entries")
        t0 = time.perf_counter()

        def arrived(result: FoundTable) -> None:
            say(
                f"  round {result.round} seed {result.seed}: {len(result.table)} entries "
                f"({time.perf_counter() - t0:.0f} s)"
            )
            run.offer(result.table, label, result.seed, grace=True)

        try:
            results = search_portfolio(
                variant,
                start,
                graph=run.graph,
                seconds=run.left() or 0.0,
                seeds=range(first_seed, first_seed + seeds),
                rounds=rounds,
                workers=workers,
                scheduler=scheduler,
                slack=slack,
                method=method,
                on_result=arrived,
            )
        except ClusterLost as exc:
            raise ClusterLost(
                f"{exc}; what was found is in {checkpoint}: run again to go on"
            ) from None
        run.state.search = {
            "seconds": seconds,
            "seeds": seeds,
            "first_seed": first_seed,
            "rounds": rounds,
            "slack": slack,
            "method": method,
            **({"horizons": list(HORIZONS)} if method == "lns" else {}),
            "workers": workers if scheduler is None else None,
            "start": len(start) if start else None,
            "found": [r.record() for r in results],
        }
        return run.finish(label)


__all__ = [
    "BoundsRun",
    "certified_levels",
    "cores_lower",
    "hinted_upper",
    "level_lower",
    "long_solve",
    "mip_lower",
    "searched_upper",
]
