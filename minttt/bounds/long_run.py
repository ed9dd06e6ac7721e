"""Resumable bounded solves: greedy table, RC2 lower bounds, a checkpoint, a bounds-over-time plot.

:func:`long_solve` runs one variant for at most ``time_limit`` seconds. Its checkpoint (JSON,
written atomically at every change) holds the proven lower bound, the best verified table (saved
next to it), the total seconds spent over all runs and the bounds over time. Run it again with the
same checkpoint and it picks up from there: the bounds only improve, the clock continues, the best
table is kept. The solver's internal state (RC2's cores) is not saved: a resumed run re-derives its
cores, usually faster than the first time, and reports a bound only when it beats the saved one.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from minttt.bounds.greedy import greedy_for, greedy_table, improve, tree_cost
from minttt.bounds.hinted import hinted_descent
from minttt.bounds.levels import LevelBound, level_bounds
from minttt.bounds.neighbourhood import HORIZONS
from minttt.errors import DefectError, InputError
from minttt.fileio import write_bytes_atomic, write_json_atomic
from minttt.formula.arrays import encode_arrays, table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.game.rules import X
from minttt.schema import first_problem
from minttt.solvers.arrays import array_table, moves_from_model, rc2_arrays
from minttt.table.model import Table, load_table, save_table
from minttt.table.verify import verify_table


def _fresh(variant: Variant) -> dict[str, Any]:
    return {
        "variant": variant.name,
        "lower": 0,
        "upper": None,
        "optimal": False,
        "table": None,
        "seconds": 0.0,
        "runs": 0,
        "history": [],
    }


#: the checkpoint's JSON Schema (package data)
SCHEMA = "scale-checkpoint.schema.json"  # in minttt/schemas/


def load_checkpoint(path: Path, variant: Variant) -> dict[str, Any]:
    """The saved state of ``variant`` (a fresh one if ``path`` does not exist).

    InputError, in one line naming the file, for a file that is not readable JSON, lacks a
    field, belongs to another variant or breaks ``minttt/schemas/scale-checkpoint.schema.json``.
    """
    if not path.exists():
        return _fresh(variant)
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise InputError(f"{path}: not a readable checkpoint ({exc})") from None
    if not isinstance(state, dict) or not set(_fresh(variant)) <= set(state):
        raise InputError(f"{path}: not a checkpoint of minttt scale (fields missing)")
    if state.get("variant") != variant.name:
        raise InputError(f"{path}: checkpoint of {state.get('variant')!r}, not {variant.name!r}")
    problem = _schema_problem(state)
    if problem is not None:
        raise InputError(f"{path}: not a valid checkpoint of minttt scale ({problem})")
    _check_bounds(path, state)
    return state


def _check_bounds(path: Path, state: dict[str, Any]) -> None:
    """The bounds of a checkpoint must be consistent before anything is claimed from them:
    lower <= upper, a table exactly when an upper bound, ``optimal`` only when they meet. (The
    table itself is verified when it is read: :func:`saved_table`.)"""
    lower, upper, optimal = state["lower"], state["upper"], state["optimal"]
    if (upper is None) != (state["table"] is None):
        raise InputError(f"{path}: an upper bound needs its table and a table its upper bound")
    if upper is not None and lower > upper:
        raise InputError(f"{path}: lower bound {lower} is above the upper bound {upper}")
    if optimal and (upper is None or lower < upper):
        raise InputError(f"{path}: claims optimal, but its bounds are {lower} .. {upper}")


def _schema_problem(state: dict[str, Any]) -> str | None:
    """The schema's first complaint (jsonschema's best match) in one line: field path, message."""
    problem = first_problem(SCHEMA, state)
    if problem is None:
        return None
    path, message = problem
    return f"{'.'.join(str(p) for p in path) or '(document)'}: {message}"


def saved_table(path: Path, variant: Variant, size: int | None = None) -> Table:
    """The best table saved beside a checkpoint, refused (InputError) unless it is ``variant``'s
    (game, role, criterion), has the ``size`` the checkpoint records and passes the exhaustive
    verifier: a foreign or imperfect table must never stand as an upper bound."""
    table = load_table(path)
    want = (variant.rules.name, variant.role, variant.criterion)
    if (table.rules.name, table.role, table.criterion) != want:
        raise InputError(
            f"{path}: a table of {table.rules.name} {table.role} ({table.criterion}), "
            f"not of {variant.name}"
        )
    if size is not None and table.size != size:
        raise InputError(f"{path}: {table.size} entries, the checkpoint's upper bound says {size}")
    report = verify_table(table)
    if not report.ok:
        reason = report.counterexample.reason if report.counterexample else "it does not verify"
        raise InputError(f"{path}: the saved table fails minttt verify ({reason})")
    return table


class _Run:
    """One resumable run on a checkpoint: its state, the clock across runs, and the one way a
    bound or a table gets in (a table only once it passed the exhaustive verifier)."""

    def __init__(self, variant: Variant, checkpoint: Path, say: Callable[[str], None]) -> None:
        self.variant, self.checkpoint, self.say = variant, checkpoint, say
        self.state = load_checkpoint(checkpoint, variant)
        self.state["runs"] += 1
        # what this run proves: "optimal" is claimed only from this, never from the file (an
        # earlier run's lower bound cannot be re-checked on load; it stays as history)
        self.proven = 0
        self.origin = time.perf_counter() - float(self.state["seconds"])
        self.table_path = checkpoint.with_name(checkpoint.stem + ".table.json")

    def record(self, event: str) -> None:
        """Append the bounds to the history, write the checkpoint, print the line."""
        st = self.state
        st["seconds"] = round(time.perf_counter() - self.origin, 2)
        st["history"].append([st["seconds"], st["lower"], st["upper"], event])
        write_json_atomic(self.checkpoint, st)
        self.say(f"  {st['seconds']:9.1f} s  {st['lower']} .. {st['upper']}  ({event})")

    def offer(self, table: Any, source: str) -> None:
        """Keep ``table`` as the upper bound if it is smaller and passes the verifier."""

        if self.state["upper"] is not None and table.size >= self.state["upper"]:
            return
        report = verify_table(table)
        if not report.ok:
            raise DefectError(f"{source} table failed verification: {report.counterexample}")
        save_table(table, self.table_path)
        self.state["upper"], self.state["table"] = table.size, self.table_path.name
        self.record(f"{source} table, verified")

    def raise_lower(self, lower: int, event: str | None = None) -> None:
        """A lower bound this run proved; recorded when ``event`` names it."""
        self.proven = max(self.proven, lower)
        if lower > self.state["lower"]:
            self.state["lower"] = lower
            if event is not None:
                self.record(event)

    def saved(self) -> Table | None:
        """The saved (verified) table of a resumed run, or None; a bound whose table is gone is
        dropped with it, and the run says so.

        The table is the file the checkpoint names, beside it (a checkpoint copied under another
        name keeps its table), else ``<checkpoint stem>.table.json``; either way it is checked
        again (:func:`saved_table`) before it stands as the upper bound. New tables are written to
        ``<checkpoint stem>.table.json``."""
        name = self.state["table"]
        if not name:
            self.state["upper"] = None
            return None
        for path in (self.checkpoint.with_name(Path(name).name), self.table_path):
            if path.is_file():
                table = saved_table(path, self.variant, self.state["upper"])
                self.state["table"] = path.name
                return table
        self.say(
            f"{self.checkpoint}: its table {Path(name).name} is not beside it; "
            f"the upper bound {self.state['upper']} is dropped"
        )
        self.state["upper"], self.state["table"] = None, None
        return None

    def finish(self, event: str, proven_event: str | None = None) -> dict[str, Any]:
        """Settle ``optimal``, record the last line (``proven_event`` when proven) and return
        the state."""
        st = self.state
        st["optimal"] = st["upper"] is not None and self.proven >= st["upper"]
        self.record(proven_event if st["optimal"] and proven_event else event)
        return st


def long_solve(
    variant: Variant,
    checkpoint: Path,
    *,
    time_limit: float,
    seed: int = 0,
    rounds: int = 40,
    say: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Improve the bounds of ``variant`` for ``time_limit`` seconds, resuming from ``checkpoint``.

    Every upper bound is a table that passed :func:`minttt.table.verify.verify_table` (saved as
    ``<checkpoint stem>.table.json``). Returns the checkpoint state.
    """
    run = _Run(variant, checkpoint, say)
    state = run.state
    saved = run.saved()  # checked (and refused, one line) before any work or progress line
    if state["optimal"]:  # an earlier run's claim: this run proves it again before saying so
        say(f"{variant.name}: proven by an earlier run at {state['upper']} entries; re-proving")
    start = time.perf_counter()
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    say(f"{variant.name}: graph and formula in {time.perf_counter() - start:.1f} s")
    if saved is not None:
        state["upper"] = saved.size
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    cost = tree_cost(graph, allowed, side)
    state["tree_dp"] = float(cost[0]) if side == X else None
    if state["upper"] is None:  # a resumed run keeps its table and goes straight to the solver
        first = greedy_table(graph, allowed, side, cost)
        state["greedy_entries"] = len(first)  # the plain greedy pass (not verified alone)
        best = improve(graph, allowed, side, cost, first, seed=seed, rounds=rounds)
        prov = {"variant": variant.name, "source": "greedy + local search", "seed": seed}
        run.offer(array_table(graph, formula, best, prov), "greedy + local search")
    remaining = time_limit - (time.perf_counter() - start)
    if remaining <= 0:
        return run.finish("time limit")
    outcome = rc2_arrays(
        formula, timeout=remaining, on_bound=lambda lower: run.raise_lower(lower, "rc2 lower bound")
    )
    run.raise_lower(outcome.lower)
    if outcome.model is not None:
        chosen = moves_from_model(graph, formula, outcome.model)
        prov = {"variant": variant.name, "source": "rc2", "seed": seed}
        run.offer(array_table(graph, formula, chosen, prov), "rc2")
    return run.finish("time limit", proven_event="proven")


def chosen_from_table(graph: Any, table: Any) -> dict[int, int]:
    """``node -> edge`` of a saved table over ``graph`` (entries matched by hash and move)."""
    index = {int(h): i for i, h in enumerate(graph.hash.tolist())}
    chosen = {}
    for entry in table.entries:
        node = index[int(entry.hash)]
        lo, hi = int(graph.ptr[node]), int(graph.ptr[node + 1])
        hits = [e for e in range(lo, hi) if int(graph.move[e]) == int(entry.move)]
        if not hits:
            raise InputError(f"table move {entry.move} is not a move of position {entry.hash}")
        chosen[node] = hits[0]
    return chosen


def level_lower(
    variant: Variant,
    checkpoint: Path,
    *,
    seconds_per_level: float,
    say: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Lower bounds only, resuming ``checkpoint``: the sum of the per-level minima
    (:func:`minttt.bounds.levels.level_bounds`, RC2 for at most ``seconds_per_level`` on each
    level). It replaces the lower bound when higher; the levels are kept in the checkpoint."""
    run = _Run(variant, checkpoint, say)
    state = run.state
    run.saved()  # checked before any work
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    say(f"{variant.name}: per-level minima, {seconds_per_level:g} s per level at most")

    def done(level: LevelBound) -> None:
        word = "minimum" if level.optimal else "at least"
        say(f"  depth {level.depth}: {word} {level.lower} ({level.seconds:.1f} s)")

    result = level_bounds(graph, formula, seconds_per_level=seconds_per_level, on_level=done)
    state["levels"] = {
        "seconds_per_level": seconds_per_level,
        "lower": result.lower,
        "complete": result.complete,
        "levels": [asdict(level) for level in result.levels],
    }
    run.raise_lower(result.lower, "per-level minima")
    return run.finish("per-level minima", proven_event="proven")


def mip_lower(
    variant: Variant,
    checkpoint: Path,
    *,
    seconds: float,
    say: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Lower bounds from HiGHS's branch and bound on the 0/1 program of the formula
    (:func:`minttt.bounds.lp.mip_bound`, ``seconds`` at most), resuming ``checkpoint``: its dual
    bound replaces the lower bound when higher; its best integer point, read as a table, is
    offered as an upper bound (kept only once it passes the exhaustive verifier). Needs scipy (the
    ``lp`` extra): without it, a usage error."""
    from minttt.bounds.lp import mip_bound

    run = _Run(variant, checkpoint, say)
    state = run.state
    run.saved()  # checked before any work
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    say(f"{variant.name}: HiGHS branch and bound, {seconds:g} s at most")
    result = mip_bound(formula, seconds)
    if result is None:
        raise InputError('--mip needs scipy: pip install "minttt[lp]"')
    point = result.pop("point")
    state["mip"] = result
    dual, point_size = result["dual_bound"], result["upper"]
    say(f"  dual bound {dual:.2f}, best point {point_size} ({result['status']})")
    if point is not None:
        chosen = moves_from_model(graph, formula, point)
        prov = {"variant": variant.name, "source": "mip", "seed": 0}
        run.offer(array_table(graph, formula, chosen, prov), "mip")
    run.raise_lower(result["lower"], "mip dual bound")
    return run.finish("mip", proven_event="proven")


def hinted_upper(
    variant: Variant,
    checkpoint: Path,
    *,
    hint_seconds: float,
    seed: int = 0,
    say: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Upper bounds only, resuming ``checkpoint``: the greedy table with its local search
    (:func:`minttt.bounds.greedy.greedy_for`), then :func:`minttt.bounds.hinted.hinted_descent` from
    it for ``hint_seconds``. A verified table smaller than the saved one replaces it; the lower
    bound is untouched unless the descent proves its table optimal (UNSAT one entry below)."""
    run = _Run(variant, checkpoint, say)
    state = run.state
    saved = run.saved()  # checked before any work
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    if saved is not None:  # resume from the saved (verified) table
        best = chosen_from_table(graph, saved)
        state["upper"] = len(best)
        say(f"{variant.name}: saved table, {len(best)} entries")
    else:
        best, info = greedy_for(graph, variant, seed=seed)
        say(f"{variant.name}: greedy {info['greedy']}, local search {info['improved']}")
        prov = {"variant": variant.name, "source": "greedy + local search", "seed": seed}
        run.offer(array_table(graph, formula, best, prov), "greedy + local search")
    if hint_seconds > 0:
        out = hinted_descent(graph, formula, best, hint_seconds, say=say)
        if out.best is not None:
            run.offer(out.best, "hinted descent")
        if out.proven and state["upper"] is not None:
            run.raise_lower(out.best.size if out.best is not None else len(best))
        state["hinted"] = {
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
    rounds: int = 4,
    workers: int = 2,
    scheduler: str | None = None,
    slack: int = 0,
    method: str = "lns",
    say: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Upper bounds only, resuming ``checkpoint``: a portfolio of ``seeds`` searches (``method``
    ``"lns"`` or ``"forced"``) on a Dask cluster
    (:func:`minttt.bounds.portfolio.search_portfolio`), ``rounds`` rounds in ``seconds``, each
    round from the best table so far (the saved one first). A table smaller than the saved one is
    kept only once it passes the exhaustive verifier, as its task arrives: a run interrupted in
    its third round keeps what the first two found."""
    from minttt.bounds.portfolio import search_portfolio  # Dask: the cluster extra

    run = _Run(variant, checkpoint, say)
    state = run.state
    saved = run.saved()  # checked before any work
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    start = chosen_from_table(graph, saved) if saved is not None else None
    label = {"lns": "large-neighbourhood search", "forced": "forced search"}.get(method, method)
    say(f"{variant.name}: {label} from {len(start) if start else 'the greedy'} entries")
    t0 = time.perf_counter()

    def arrived(result: Any) -> None:
        say(
            f"  round {result.round} seed {result.seed}: {len(result.table)} entries "
            f"({time.perf_counter() - t0:.0f} s)"
        )
        if state["upper"] is not None and len(result.table) >= state["upper"]:
            return
        prov = {"variant": variant.name, "source": label, "seed": result.seed}
        run.offer(array_table(graph, formula, result.table, prov), label)

    results = search_portfolio(
        variant,
        start,
        seconds=seconds,
        seeds=range(seeds),
        rounds=rounds,
        workers=workers,
        scheduler=scheduler,
        slack=slack,
        method=method,
        on_result=arrived,
    )
    state["search"] = {
        "seconds": seconds,
        "seeds": seeds,
        "rounds": rounds,
        "slack": slack,
        "method": method,
        **({"horizons": list(HORIZONS)} if method == "lns" else {}),
        "workers": workers if scheduler is None else None,
        "start": len(start) if start else None,
        "found": [
            {
                "round": r.round,
                "seed": r.seed,
                "entries": len(r.table),
                "history": r.history,
                **({"counts": r.counts} if r.counts else {}),
            }
            for r in results
        ],
    }
    return run.finish(label)


def bounds_plot(states: dict[str, dict[str, Any]], path: Path) -> None:
    """Lower and upper bounds over (cumulative) seconds, one colour per variant; log y."""

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    for i, (name, st) in enumerate(sorted(states.items())):
        hist = st["history"]
        if not hist:
            continue
        colour = f"C{i % 10}"
        ts = [h[0] for h in hist]
        ax.step(ts, [max(h[1], 1) for h in hist], where="post", color=colour, label=f"{name} lower")
        ups = [(h[0], h[2]) for h in hist if h[2] is not None]
        if ups:
            ax.step(*zip(*ups, strict=True), where="post", color=colour, ls="--", label="upper")
    ax.set_yscale("log")
    ax.set_xlabel("seconds (all runs)")
    ax.set_ylabel("entries")
    ax.set_title("bounds over time: lower = RC2 cores, upper = verified tables")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    write_bytes_atomic(path, buf.getvalue())


def opening_bounds(
    variant: Variant, time_limit: float, say: Callable[[str], None] = print
) -> dict[str, Any]:
    """Decomposition by opening (first player): the table for ``any`` opening is the best of the
    tables for each canonical opening, so min over openings of their proven lower bounds is a lower
    bound. Each opening gets ``time_limit / openings`` seconds of RC2."""
    graph = build_array_graph(variant.rules)
    allowed = table_edge_mask(graph, variant)
    lo, hi = int(graph.ptr[0]), int(graph.ptr[1])
    cells = sorted({int(graph.move[e]) for e in range(lo, hi) if allowed[e]})
    seen_children: set[int] = set()
    openings = []
    for e in range(lo, hi):
        c = int(graph.child[e])
        if allowed[e] and c not in seen_children:
            seen_children.add(c)
            openings.append(int(graph.move[e]))
    per = time_limit / max(1, len(openings))
    out: dict[str, Any] = {"variant": variant.name, "allowed_openings": cells, "openings": {}}
    for cell in openings:
        v = Variant(
            "first", str(cell), "lookup", variant.objective, variant.criterion, variant.game
        )
        f = encode_arrays(graph, v)
        o = rc2_arrays(f, timeout=per)
        out["openings"][str(cell)] = {"lower": o.lower, "proven": not o.timed_out}
        say(f"  opening {cell}: lower {o.lower}{'' if o.timed_out else ' (optimum)'}")
    out["lower"] = min(r["lower"] for r in out["openings"].values())
    out["seconds_each"] = round(per, 1)
    return out


__all__ = [
    "bounds_plot",
    "hinted_upper",
    "load_checkpoint",
    "long_solve",
    "opening_bounds",
    "searched_upper",
]
