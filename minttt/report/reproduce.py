"""``minttt reproduce``: rebuild every result of the project, deterministically.

Each step writes files under ``out`` (default ``results/``) and returns the figures it found; the
figures go to ``summary.json`` and, beside the source documents' figures, to ``REPORT.md``. Nothing
written here holds a timestamp or a timing, so two runs give the same bytes (timings live in
``results/bench.json``, written by ``scripts/bench.py``).

>>> [name for name, _ in STEPS][:3]
['counts', 'tables', 'verification']
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from minttt.errors import DefectError, InputError
from minttt.evolve.plot import save_plot
from minttt.evolve.runner import evolution_summary, evolved_table
from minttt.evolve.situations import HochmuthConfig
from minttt.fileio import write_json_atomic, write_many_atomic, write_text_atomic
from minttt.formula.encode import encode
from minttt.formula.variants import Variant, standard_variants
from minttt.game.counts import count_all
from minttt.game.graph import Graph, build_graph
from minttt.interrupt import shielded, worker_init
from minttt.play.players import make_player
from minttt.play.search import plot_states_per_move
from minttt.play.tournament import playing_strength, strength_markdown
from minttt.proof.certify import certify_all, pending_files
from minttt.proof.index import SECOND_CHECK, attach_second_checks, second_checks
from minttt.render import graphviz_version, render_results
from minttt.report.catalogue import step_catalogue
from minttt.report.encodings import write_encodings
from minttt.report.minima import beyond_report_markdown, beyond_results
from minttt.report.raw_cross import RAW_CROSS_CHECK, raw_cross_check_markdown
from minttt.report.sections import (
    certificates_markdown,
    counts_markdown,
    evolution_markdown,
    raw_tables_markdown,
    report_head,
    tables_markdown,
    verification_markdown,
)
from minttt.report.sources import ROUND_ROBIN_003, SOURCE_003
from minttt.solvers.no_symmetry import solve_raw
from minttt.solvers.portfolio import cross_check, make_table, solve
from minttt.table.model import save_table
from minttt.table.odds import exact_odds
from minttt.table.verify import verify_table
from minttt.vocabulary import Criterion, Encoding, Objective, Role
from minttt.web import write_site


@dataclass
class Context:
    """What the steps share: output folders, the graph, and what earlier steps produced."""

    out: Path
    encodings: Path
    figures: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, Any] = field(default_factory=dict)  # variant name -> Table
    table_paths: dict[str, Path] = field(default_factory=dict)
    report: list[str] = field(default_factory=list)
    _graph: Graph | None = None

    @property
    def graph(self) -> Graph:
        """The 3x3 game graph, built on first use."""
        if self._graph is None:
            self._graph = build_graph()
        return self._graph

    def rel(self, path: Path) -> str:
        """``path`` relative to the results folder, as REPORT.md links it."""
        try:
            return str(path.relative_to(self.out))
        except ValueError:
            return str(path)


# ---------------------------------------------------------------------------------------- steps


def step_counts(ctx: Context) -> None:
    """003's, 001's and 000's counts of the game."""

    counts = count_all()
    write_json_atomic(ctx.out / "counts.json", counts)
    ctx.figures["counts"] = counts
    ctx.report += counts_markdown(counts)


def step_tables(ctx: Context) -> None:
    """Solve every standard variant, prove it with two solver families, save its table."""

    results = []
    for variant in standard_variants():
        formula = encode(ctx.graph, variant)
        solution = cross_check(formula, solve(formula))
        table = make_table(ctx.graph, solution)
        path = ctx.out / "tables" / f"{variant.name}.json"
        save_table(table, path)
        ctx.tables[variant.name] = table
        ctx.table_paths[variant.name] = path
        record = {
            "variant": variant.name,
            **_minimum_record(solution),
            "solver": solution.solver,
            "cross_check": {
                k: v for k, v in (solution.cross_check or {}).items() if k != "seconds"
            },
            "table": ctx.rel(path),
        }
        results.append(record)
    write_json_atomic(ctx.out / "tables.json", results)
    ctx.figures["tables"] = results
    ctx.report += tables_markdown(results, SOURCE_003)


RAW_ENCODINGS = ("lookup",)  # the raw tree proofs take minutes (README: Tables without symmetry)


def _minimum_record(solution: Any) -> dict[str, Any]:
    """What ``tables.json`` and ``tables-raw.json`` say of one solution: size and its proof."""
    return {
        "size": solution.size,
        "size_counts": solution.variant.objective,
        "lower_bound": solution.lower_bound,
        "optimal": solution.optimal,
        "lookups": solution.lookups,
        "variables": dict(solution.variables),
    }


def step_raw(ctx: Context) -> None:
    """Raw tables (``--symmetry none``): solve, prove with RC2, verify, save.

    Z3's cross-check is not run here: on the largest raw formulas it takes minutes, and an answer
    cut off by a time limit would make this step's output depend on the machine's speed."""

    graph = build_graph(symmetric=False)
    symmetric = {r["variant"]: r for r in ctx.figures.get("tables", [])}
    results = []
    for variant in standard_variants():
        if variant.encoding not in RAW_ENCODINGS:
            continue
        solution = solve_raw(graph, variant)
        table = make_table(graph, solution)
        report = verify_table(table)
        if not report.ok or not solution.optimal:
            raise DefectError(f"raw table {variant.name}: not proven or fails verification")
        path = ctx.out / "tables" / f"{variant.name}-raw.json"
        save_table(table, path)
        results.append(
            {
                "variant": variant.name,
                "symmetry": "none",
                **_minimum_record(solution),
                "verified": report.ok,
                "symmetric_size": symmetric.get(variant.name, {}).get("size"),
                "table": ctx.rel(path),
            }
        )
    write_json_atomic(ctx.out / "tables-raw.json", results)
    ctx.figures["tables_raw"] = results
    ctx.report += raw_tables_markdown(results, len(graph))
    ctx.report += raw_cross_check_markdown(ctx.out / RAW_CROSS_CHECK)


def step_verification(ctx: Context) -> None:
    """Verify every table exhaustively (``verification.json``)."""
    records = {}
    for name, table in ctx.tables.items():
        report = verify_table(table)
        records[name] = _plain(report)
        if not report.ok:
            raise DefectError(f"table {name} fails verification: {report}")
    write_json_atomic(ctx.out / "verification.json", records)
    ctx.figures["verification"] = {n: r.get("ok") for n, r in records.items()}
    ctx.report += verification_markdown(ctx.figures["verification"])


def step_odds(ctx: Context) -> None:
    """Exact odds of every table against a random player (``odds.json``)."""
    records: dict[str, Any] = {}
    for name, table in ctx.tables.items():
        player = table.player()
        roles = ["X", "O"] if table.role == "both" else [table.role]
        records[name] = {role: _odds_dict(exact_odds(player, role)) for role in roles}

    for spec in ("hashed-tree", "symmetric-tree"):
        player = make_player(spec)
        records[spec] = {role: _odds_dict(exact_odds(player, role)) for role in ("X", "O")}
    write_json_atomic(ctx.out / "odds.json", records)
    ctx.figures["odds"] = records


def step_strength(ctx: Context) -> None:
    """003's round robin, 100,000 games a pairing (``strength.json``)."""
    tables = {
        "tiny table (first)": ctx.tables["first-center-lookup-entries"],
        "tiny table (second)": ctx.tables["second-lookup-entries"],
    }
    rows = playing_strength(tables, source=ROUND_ROBIN_003)
    write_json_atomic(ctx.out / "strength.json", _plain(rows))
    ctx.figures["strength"] = _plain(rows)
    ctx.report += ["## Playing strength (003)", "", strength_markdown(rows), ""]


def step_encodings(ctx: Context) -> None:
    """Write every standard formula as WCNF and SMT-LIB 2 (``encodings/``)."""
    paths = write_encodings(ctx.encodings)
    ctx.figures["encodings"] = sorted(p.name for p in paths)


def step_diagrams(ctx: Context) -> None:
    """Draw every table's sheet and strategy tree, and the 765 positions."""
    paths = render_results(ctx.table_paths, ctx.out / "diagrams")
    ctx.figures["diagrams"] = sorted(ctx.rel(p) for p in paths)
    ctx.figures["graphviz"] = graphviz_version()


def step_site(ctx: Context) -> None:
    """Write the browser page for the table that plays either side."""
    write_site(ctx.table_paths["both-center-lookup-entries"], ctx.out / "site")


def step_search(ctx: Context) -> None:
    """001's states per move, and its plot."""
    data = plot_states_per_move(ctx.out / "states_per_move.png")
    ctx.figures["search"] = _plain(data)


def step_evolution(ctx: Context) -> None:
    """000's recipe over three seeds; the first perfect strategy is saved, verified and plotted."""

    saved: dict[str, Any] = {}

    def keep_first_perfect(seed: int, state: Any) -> None:
        if state.done and not saved:
            table = evolved_table(state)
            report = verify_table(table)
            if not report.ok:
                raise DefectError(f"evolved table (seed {seed}) fails verification")
            path = ctx.out / "tables" / "evolved-hochmuth.json"
            save_table(table, path)
            save_plot(state, ctx.out / "evolution.png")
            saved.update(seed=seed, table=ctx.rel(path), size=table.size, verified=report.ok)

    summary = _plain(evolution_summary(on_run=keep_first_perfect))
    # The evolved strategy plays both sides and never loses: compare with that proven minimum.
    variant = Variant(Role.BOTH, "any", Encoding.LOOKUP, Objective.ENTRIES, Criterion.NEVER_LOSE)
    formula = encode(ctx.graph, variant)
    minimum = cross_check(formula, solve(formula))
    summary["proven_minimum"] = minimum.size if minimum.optimal else None
    summary["proven_minimum_variant"] = variant.name
    summary["saved"] = saved
    write_json_atomic(ctx.out / "evolution.json", summary)
    ctx.figures["evolution"] = summary
    ctx.report += evolution_markdown(summary, HochmuthConfig())


def step_beyond(ctx: Context) -> None:
    """The step beyond 003: max-wins tables, never-lose minima, the joint table."""
    figures = beyond_results(ctx.out)
    ctx.figures["beyond"] = _plain(figures)
    ctx.report += [beyond_report_markdown(figures), ""]


def step_certify(ctx: Context) -> None:
    """Certificates for every proven minimum: CNF at k-1, DRAT proof, table (results/proofs/).

    The proofs are not checked here (minutes in Python): each record names what checked its
    proof, the second check (drat-trim and minttt.lrat, ``proofs/second-check.json``) where it
    verified the same proof (SHA-256), else nothing (``checked_by`` null); the tests check every
    shipped proof."""

    folder = ctx.out / "proofs"
    done = certify_all(folder, check=False, graph_3x3=ctx.graph, write=False)
    records = [c.record for c in done]
    attach_second_checks(records, "proofs", second_checks(folder / SECOND_CHECK))
    write_many_atomic(pending_files(folder, done))
    ctx.figures["certificates"] = records
    ctx.report += certificates_markdown(records)


STEPS: list[tuple[str, Callable[[Context], None]]] = [
    ("counts", step_counts),
    ("tables", step_tables),
    ("verification", step_verification),
    ("odds", step_odds),
    ("strength", step_strength),
    ("encodings", step_encodings),
    ("diagrams", step_diagrams),
    ("site", step_site),
    ("search", step_search),
    ("raw", step_raw),
    ("evolution", step_evolution),
    ("beyond", step_beyond),
    ("certify", step_certify),
    ("catalogue", step_catalogue),
]


# --------------------------------------------------------------------------------------- driver


# Steps that need only what earlier steps made and write files of their own: they run side by
# side in worker processes, and their figures and report sections are merged in this order.
PARALLEL_STEPS = ("evolution", "beyond", "certify")


#: Results of long runs that ``reproduce`` reads but never recomputes: ``scripts/study_games.py``
#: (other games), ``scripts/scale_games.py`` (4x4 bounds) and ``scripts/raw_cross_check.py``
#: (the raw minima confirmed by Z3 and DRAT). They stay where they are.
# what the long runs wrote and reproduce reads (checked on load, never recomputed); a name ending
# in "/" is a folder, carried whole (games/: bounds.json and the tables it names)
LONG_RUN_INPUTS = (
    "games_study.json",
    "games/",
    RAW_CROSS_CHECK,
    f"proofs/{SECOND_CHECK}",
    "catalogue/",  # minttt catalogue's run: reproduce checks it and solves its quick games again
)


def reproduce(
    out: Path = Path("results"),
    encodings: Path = Path("encodings"),
    *,
    steps: list[str] | None = None,
    on_step: Callable[[str, int, int], None] | None = None,
    workers: int | None = None,
) -> dict[str, Any]:
    """Run the steps (all by default) and write ``summary.json`` and ``REPORT.md`` into ``out``.

    The steps in :data:`PARALLEL_STEPS` run in ``workers`` processes (default: one per CPU, at
    most two); the files written are the same bytes either way. Every file is first written to
    a staging folder beside ``out`` (and ``encodings``) and moved into place only when all steps
    finished, so an interrupted or failed run changes nothing.
    """

    staged: list[tuple[Path, Path]] = []
    try:
        staged = _stage(Path(out), Path(encodings))
        carry_long_runs(Path(out), staged[0][0])
        ctx = Context(staged[0][0], staged[1][0])
        _run_steps(ctx, steps, on_step, workers)
        write_json_atomic(ctx.out / "summary.json", ctx.figures)
        write_text_atomic(ctx.out / "REPORT.md", _report(ctx))
        _commit(staged)
    except OSError as exc:
        raise InputError(f"{exc.filename or out}: cannot write ({exc.strerror or exc})") from None
    finally:
        for tmp, _ in staged:
            shutil.rmtree(tmp, ignore_errors=True)
    return ctx.figures


def _stage(*finals: Path) -> list[tuple[Path, Path]]:
    """A staging folder beside each final folder: (staging, final) pairs."""

    staged: list[tuple[Path, Path]] = []
    try:
        for final in finals:
            final.parent.mkdir(parents=True, exist_ok=True)
            tmp = tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".staging", dir=final.parent)
            staged.append((Path(tmp), final))
    except OSError:
        for folder, _ in staged:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return staged


def carry_long_runs(source: Path, target: Path) -> None:
    """Copy the long runs' results (:data:`LONG_RUN_INPUTS`) from ``source`` into ``target``: the
    report reads them, never recomputes them."""
    for name in LONG_RUN_INPUTS:
        src = source / name
        if name.endswith("/") and src.is_dir():
            shutil.copytree(src, target / name, dirs_exist_ok=True)
        elif src.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target / name)


def _commit(staged: list[tuple[Path, Path]]) -> None:
    """Move every staged file into its final folder, shielded from Ctrl-C (all or none)."""

    with shielded(final=True):
        for tmp, final in staged:
            for path in sorted(tmp.rglob("*")):
                if path.is_file():
                    target = final / path.relative_to(tmp)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(path, target)


def _run_steps(
    ctx: Context,
    steps: list[str] | None,
    on_step: Callable[[str, int, int], None] | None,
    workers: int | None,
) -> None:
    chosen = [(n, f) for n, f in STEPS if steps is None or n in steps or n in _needed(steps)]
    serial = [(n, f) for n, f in chosen if n not in PARALLEL_STEPS]
    parallel = [(n, f) for n, f in chosen if n in PARALLEL_STEPS]
    for i, (name, func) in enumerate(serial):
        if on_step:
            on_step(name, i, len(chosen))
        func(ctx)
    if parallel:
        if on_step:
            on_step(" + ".join(n for n, _ in parallel), len(serial), len(chosen))
        for figures, report in _run_parallel(ctx, [n for n, _ in parallel], workers):
            ctx.figures.update(figures)
            ctx.report += report


def _run_parallel(
    ctx: Context, names: list[str], workers: int | None
) -> list[tuple[dict[str, Any], list[str]]]:
    """Run ``names`` in batches of ``workers`` processes (in this one when 1); results in order."""

    count = workers if workers is not None else min(len(names), os.cpu_count() or 1)
    if count <= 1:
        return [_run_isolated((n, ctx)) for n in names]
    results = []
    for i in range(0, len(names), count):
        results += _run_in_processes(names[i : i + count], ctx)
    return results


def _run_in_processes(names: list[str], ctx: Context) -> list[tuple[dict[str, Any], list[str]]]:
    """Run each step in its own process; on any exit (Ctrl-C included) none is left running.

    (Not a multiprocessing.Pool: its ``terminate`` can wait for a busy worker to finish.)
    """

    mp = multiprocessing.get_context()
    running = []
    try:
        for name in names:
            receive, send = mp.Pipe(duplex=False)
            process = mp.Process(target=_worker, args=(name, ctx, send), daemon=True)
            process.start()
            send.close()
            running.append((process, receive))
        results = []
        for process, receive in running:
            # poll, not a bare recv: a signal delivered to another thread (rich's refresh thread)
            # would not wake a blocked read, and the handler runs only between bytecodes
            while not receive.poll(0.2):
                pass
            try:
                ok, value = receive.recv()
            except EOFError:
                raise RuntimeError(f"a reproduce worker died (exit {process.exitcode})") from None
            if not ok:
                raise value
            results.append(value)
        return results
    finally:
        for process, receive in running:
            if process.is_alive():
                process.terminate()
            process.join()
            receive.close()


def _worker(name: str, ctx: Context, send: Any) -> None:
    """A worker process: the parent alone answers signals; it terminates the workers."""

    worker_init()
    try:
        send.send((True, _run_isolated((name, ctx))))
    except Exception as exc:  # the parent raises it
        send.send((False, exc))
    finally:
        send.close()


def _run_isolated(job: tuple[str, Context]) -> tuple[dict[str, Any], list[str]]:
    """Run one step on a copy of the context; return only what it added."""
    name, ctx = job
    before_figures, before_report = set(ctx.figures), len(ctx.report)
    dict(STEPS)[name](ctx)
    added = {k: v for k, v in ctx.figures.items() if k not in before_figures}
    return added, ctx.report[before_report:]


def _needed(steps: list[str]) -> set[str]:
    """Steps that others depend on: everything after ``tables`` needs the tables."""
    independent = ("counts", "encodings", "certify", "catalogue")
    return {"tables"} if any(s not in independent for s in steps) else set()


def _report(ctx: Context) -> str:
    return "\n".join(report_head() + ctx.report).rstrip() + "\n"


def _odds_dict(odds: Any) -> dict[str, Any]:
    out = {}
    for key in ("win", "draw", "loss"):
        frac = getattr(odds, key)
        out[key] = f"{frac.numerator}/{frac.denominator}"
        out[f"{key}_percent"] = round(100 * frac.numerator / frac.denominator, 4)
    return out


def _plain(obj: Any) -> Any:
    """A JSON-ready copy of dataclasses, fractions, paths and tuples."""

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        if hasattr(obj, "to_dict"):
            return _plain(obj.to_dict())
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, float):
        return round(obj, 6)
    return json.loads(json.dumps(obj, default=str))


__all__ = [
    "Context",
    "LONG_RUN_INPUTS",
    "carry_long_runs",
    "PARALLEL_STEPS",
    "RAW_ENCODINGS",
    "STEPS",
    "reproduce",
    "step_beyond",
    "step_certify",
    "step_counts",
    "step_diagrams",
    "step_encodings",
    "step_evolution",
    "step_odds",
    "step_raw",
    "step_search",
    "step_site",
    "step_strength",
    "step_tables",
    "step_verification",
]
