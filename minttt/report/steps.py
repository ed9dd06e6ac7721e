"""The steps of ``minttt reproduce``, each split into parts that run side by side.

A step is a :class:`StepSpec`: its parts (listed before anything runs, each with an estimated
cost in seconds: the work queue, :mod:`minttt.report.queue`, starts the longest chains first), the
work of one part (in a worker process: it reads the :class:`Context`, may write files under the
staging folders, and returns what it found) and the step's finish (in the parent, with the parts'
results in their listed order: it writes the step's summary files and adds its figures and its
section of REPORT.md to the context). A part never changes the context, so the files and figures
are the same whatever the order the parts ran in and however many workers ran them.

>>> [name for name in SPECS][:3]
['counts', 'tables', 'verification']
>>> [p.arg for p in SPECS["evolution"].parts(Context(Path("r"), Path("e")))]
[0, 1, 2, 'minimum']
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from minttt.errors import DefectError
from minttt.evolve.plot import plot_bytes
from minttt.evolve.runner import evolution_run, evolved_table, summarize_runs
from minttt.evolve.situations import HochmuthConfig
from minttt.fileio import write_bytes_atomic, write_json_atomic, write_many_atomic
from minttt.formula.encode import encode
from minttt.formula.variants import Variant, certificate_variants, standard_variants
from minttt.game.counts import count_all
from minttt.game.graph import Graph, build_graph
from minttt.play.players import make_player
from minttt.play.search import plot_states_per_move
from minttt.play.tournament import playing_strength, strength_markdown
from minttt.proof.certify import certify_all, pending_files
from minttt.proof.index import SECOND_CHECK, attach_second_checks, second_checks
from minttt.render import graphviz_version
from minttt.render.files import render_one
from minttt.report.catalogue import QUICK_GAMES, catalogue_figures, catalogue_markdown, solve_again
from minttt.report.encodings import write_encodings
from minttt.report.minima import (
    REPRODUCE_CLASS_LIMIT,
    beyond_figures,
    beyond_groups,
    beyond_report_markdown,
    beyond_variants,
)
from minttt.report.other_games import games_figures
from minttt.report.queue import Part
from minttt.report.raw_cross import RAW_CROSS_CHECK, raw_cross_check_markdown
from minttt.report.sections import (
    certificates_markdown,
    counts_markdown,
    evolution_markdown,
    raw_tables_markdown,
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
    solutions: dict[str, Any] = field(default_factory=dict)  # variant name -> cross-checked
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

    def __getstate__(self) -> dict[str, Any]:
        """Sent to a worker without the graph (it builds its own in 20 ms)."""
        return {**self.__dict__, "_graph": None}


@dataclass(frozen=True)
class StepSpec:
    """One step: ``parts(ctx)`` (static: known before any step runs), ``work(ctx, arg)`` for one
    part, ``finish(ctx, results)``; ``needs``: the steps it reads (run first, and run too when
    only this step is asked for); ``after``: steps it reads only when they run too;
    ``long_runs``: it reads the long runs' results (:mod:`minttt.report.long_runs`)."""

    parts: Callable[[Context], list[Part]]
    work: Callable[[Context, Any], Any]
    finish: Callable[[Context, list[Any]], None]
    needs: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    long_runs: bool = False


def _one(cost: float) -> Callable[[Context], list[Part]]:
    """A step of one part."""
    return lambda _ctx: [Part(None, cost)]


# ----------------------------------------------------------------------------------- counts


def _counts_work(_ctx: Context, _arg: None) -> dict[str, Any]:
    """003's, 001's and 000's counts of the game."""
    return count_all()


def _counts_finish(ctx: Context, results: list[Any]) -> None:
    counts = results[0]
    write_json_atomic(ctx.out / "counts.json", counts)
    ctx.figures["counts"] = counts
    ctx.report += counts_markdown(counts)


# ----------------------------------------------------------------------------------- tables


def _tables_work(ctx: Context, variant: Variant) -> tuple[Any, Any, Path]:
    """Solve one standard variant, prove it with two solver families, save its table."""
    formula = encode(ctx.graph, variant)
    solution = cross_check(formula, solve(formula))
    table = make_table(ctx.graph, solution)
    path = ctx.out / "tables" / f"{variant.name}.json"
    save_table(table, path)
    return solution, table, path


def _tables_finish(ctx: Context, results: list[Any]) -> None:
    records = []
    for solution, table, path in results:
        name = solution.variant.name
        ctx.tables[name], ctx.table_paths[name], ctx.solutions[name] = table, path, solution
        records.append(
            {
                "variant": name,
                **_minimum_record(solution),
                "solver": solution.solver,
                "cross_check": {
                    k: v for k, v in (solution.cross_check or {}).items() if k != "seconds"
                },
                "table": ctx.rel(path),
            }
        )
    write_json_atomic(ctx.out / "tables.json", records)
    ctx.figures["tables"] = records
    ctx.report += tables_markdown(records, SOURCE_003)


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


# -------------------------------------------------------------- verification, odds, strength


def _verification_work(ctx: Context, _arg: None) -> dict[str, Any]:
    """Verify every table exhaustively."""
    records = {}
    for name, table in ctx.tables.items():
        report = verify_table(table)
        records[name] = plain(report)
        if not report.ok:
            raise DefectError(f"table {name} fails verification: {report}")
    return records


def _verification_finish(ctx: Context, results: list[Any]) -> None:
    records = results[0]
    write_json_atomic(ctx.out / "verification.json", records)
    ctx.figures["verification"] = {n: r.get("ok") for n, r in records.items()}
    ctx.report += verification_markdown(ctx.figures["verification"])


def _odds_work(ctx: Context, _arg: None) -> dict[str, Any]:
    """Exact odds of every table (and two search players) against a random player."""
    records: dict[str, Any] = {}
    for name, table in ctx.tables.items():
        player = table.player()
        roles = ["X", "O"] if table.role == "both" else [table.role]
        records[name] = {role: odds_dict(exact_odds(player, role)) for role in roles}
    for spec in ("hashed-tree", "symmetric-tree"):
        player = make_player(spec)
        records[spec] = {role: odds_dict(exact_odds(player, role)) for role in ("X", "O")}
    return records


def _odds_finish(ctx: Context, results: list[Any]) -> None:
    write_json_atomic(ctx.out / "odds.json", results[0])
    ctx.figures["odds"] = results[0]


def _strength_work(ctx: Context, _arg: None) -> tuple[Any, str]:
    """003's round robin, 100,000 games a pairing."""
    tables = {
        "tiny table (first)": ctx.tables["first-center-lookup-entries"],
        "tiny table (second)": ctx.tables["second-lookup-entries"],
    }
    rows = playing_strength(tables, source=ROUND_ROBIN_003)
    return plain(rows), strength_markdown(rows)


def _strength_finish(ctx: Context, results: list[Any]) -> None:
    rows, markdown = results[0]
    write_json_atomic(ctx.out / "strength.json", rows)
    ctx.figures["strength"] = rows
    ctx.report += ["## Playing strength (003)", "", markdown, ""]


# ------------------------------------------------------------------- encodings, pictures, page


def _encodings_work(ctx: Context, _arg: None) -> list[str]:
    """Every standard formula as WCNF and SMT-LIB 2, with the tables step's optima when it ran."""
    paths = write_encodings(ctx.encodings, solutions=ctx.solutions)
    return sorted(p.name for p in paths)


def _encodings_finish(ctx: Context, results: list[Any]) -> None:
    ctx.figures["encodings"] = results[0]


def _diagram_parts(_ctx: Context) -> list[Part]:
    names = sorted(v.name for v in standard_variants())
    cost = {"both": 1.5, "second": 1.0}  # the larger tables' pictures take longer
    return [Part(n, cost.get(n.split("-")[0], 0.6)) for n in names] + [Part("", 1.5)]  # "": 765


def _diagrams_work(ctx: Context, name: str) -> list[Path]:
    """One table's sheet and strategy tree (or, for "", the 765 positions)."""
    table_path = ctx.table_paths[name] if name else None
    return render_one(name, table_path, ctx.out / "diagrams")


def _diagrams_finish(ctx: Context, results: list[Any]) -> None:
    ctx.figures["diagrams"] = sorted(ctx.rel(p) for paths in results for p in paths)
    ctx.figures["graphviz"] = graphviz_version()


def _site_work(ctx: Context, _arg: None) -> None:
    """The browser page for the table that plays either side."""
    write_site(ctx.table_paths["both-center-lookup-entries"], ctx.out / "site")


def _search_work(ctx: Context, _arg: None) -> Any:
    """001's states per move, and its plot."""
    return plain(plot_states_per_move(ctx.out / "states_per_move.png"))


def _search_finish(ctx: Context, results: list[Any]) -> None:
    ctx.figures["search"] = results[0]


# -------------------------------------------------------------------------------------- raw

RAW_ENCODINGS = ("lookup",)  # the raw tree proofs take minutes (README: Tables without symmetry)


def _raw_parts(_ctx: Context) -> list[Part]:
    return [Part(v, 1.5) for v in standard_variants() if v.encoding in RAW_ENCODINGS]


def _raw_work(ctx: Context, variant: Variant) -> tuple[dict[str, Any], int]:
    """One raw table (``--symmetry none``): solved, proven with RC2, verified, saved.

    Z3's cross-check is not run here: on the largest raw formulas it takes minutes, and an answer
    cut off by a time limit would make this step's output depend on the machine's speed."""
    graph = _raw_graph()
    solution = solve_raw(graph, variant)
    table = make_table(graph, solution)
    report = verify_table(table)
    if not report.ok or not solution.optimal:
        raise DefectError(f"raw table {variant.name}: not proven or fails verification")
    path = ctx.out / "tables" / f"{variant.name}-raw.json"
    save_table(table, path)
    record = {
        "variant": variant.name,
        "symmetry": "none",
        **_minimum_record(solution),
        "verified": report.ok,
        "symmetric_size": None,
        "table": ctx.rel(path),
    }
    return record, len(graph)


@cache  # one per worker process: every raw part plays on the same 5,478 positions
def _raw_graph() -> Graph:
    return build_graph(symmetric=False)


def _raw_finish(ctx: Context, results: list[Any]) -> None:
    symmetric = {r["variant"]: r for r in ctx.figures.get("tables", [])}
    records = []
    for record, _ in results:
        record["symmetric_size"] = symmetric.get(record["variant"], {}).get("size")
        records.append(record)
    write_json_atomic(ctx.out / "tables-raw.json", records)
    ctx.figures["tables_raw"] = records
    positions = results[0][1] if results else len(build_graph(symmetric=False))
    ctx.report += raw_tables_markdown(records, positions)
    ctx.report += raw_cross_check_markdown(ctx.out / RAW_CROSS_CHECK)


# -------------------------------------------------------------------------------- evolution

EVOLUTION_SEEDS = (0, 1, 2)
#: the evolved strategy plays both sides and never loses: it is compared with this minimum
EVOLVED_VARIANT = Variant(
    Role.BOTH, "any", Encoding.LOOKUP, Objective.ENTRIES, Criterion.NEVER_LOSE
)


def _evolution_parts(_ctx: Context) -> list[Part]:
    return [Part(seed, 4.5) for seed in EVOLUTION_SEEDS] + [Part("minimum", 0.5)]


def _evolution_work(ctx: Context, arg: int | str) -> Any:
    """000's recipe with one seed (its table and plot when it is perfect), or the minimum."""
    if arg == "minimum":
        formula = encode(ctx.graph, EVOLVED_VARIANT)
        minimum = cross_check(formula, solve(formula))
        return minimum.size if minimum.optimal else None
    record, state = evolution_run(int(arg))
    if not state.done:
        return record, None
    table = evolved_table(state)
    report = verify_table(table)
    if not report.ok:
        raise DefectError(f"evolved table (seed {arg}) fails verification")
    return record, (table, plot_bytes(state))


def _evolution_finish(ctx: Context, results: list[Any]) -> None:
    *runs, minimum = results
    summary = plain(summarize_runs([record for record, _ in runs]))
    saved: dict[str, Any] = {}
    for record, perfect in runs:  # the first perfect strategy, by seed, is saved and plotted
        if perfect is not None and not saved:
            table, png = perfect
            path = ctx.out / "tables" / "evolved-hochmuth.json"
            save_table(table, path)
            write_bytes_atomic(ctx.out / "evolution.png", png)
            saved.update(seed=record["seed"], table=ctx.rel(path), size=table.size, verified=True)
    summary["proven_minimum"] = minimum
    summary["proven_minimum_variant"] = EVOLVED_VARIANT.name
    summary["saved"] = saved
    write_json_atomic(ctx.out / "evolution.json", summary)
    ctx.figures["evolution"] = summary
    ctx.report += evolution_markdown(summary, HochmuthConfig())


# ----------------------------------------------------------------------------------- beyond


def _beyond_parts(_ctx: Context) -> list[Part]:
    # the other games: the study checked, its plot drawn, the 4x4 bounds and their tables checked
    return [Part(("variants", g), 0.4 * len(g) + 0.3) for g in beyond_groups()] + [
        Part(("games", None), 6.0)
    ]


def _beyond_work(ctx: Context, arg: tuple[str, Any]) -> Any:
    """Some variants' minima and minimal tables, or the other games' figures."""
    kind, variants = arg
    if kind == "games":
        return games_figures(ctx.out)
    return beyond_variants(ctx.graph, variants, ctx.out, REPRODUCE_CLASS_LIMIT)


def _beyond_finish(ctx: Context, results: list[Any]) -> None:
    *groups, games = results
    figures = beyond_figures([r for records in groups for r in records], games)
    ctx.figures["beyond"] = plain(figures)
    ctx.report += [beyond_report_markdown(figures), ""]


# ---------------------------------------------------------------------------------- certify


def _certify_parts(_ctx: Context) -> list[Part]:
    # the second player's misère proofs are the long ones (2-4 s, the others 0.1-1 s)
    return [
        Part(v, 3.0 if v.role is Role.O and v.game == "3x3-misere" else 0.4)
        for v in certificate_variants()
    ]


def _certify_work(ctx: Context, variant: Variant) -> Any:
    """One certificate (CNF at k-1, DRAT proof, table), not yet written.

    The proofs are not checked here (minutes in Python): each record names what checked its
    proof, the second check (drat-trim and minttt.lrat, ``proofs/second-check.json``) where it
    verified the same proof (SHA-256), else nothing (``checked_by`` null); the tests check every
    shipped proof."""
    return certify_all(
        ctx.out / "proofs", [variant], check=False, graph_3x3=ctx.graph, write=False
    )[0]


def _certify_finish(ctx: Context, results: list[Any]) -> None:
    records = [c.record for c in results]
    attach_second_checks(records, "proofs", second_checks(ctx.out / "proofs" / SECOND_CHECK))
    write_many_atomic(pending_files(ctx.out / "proofs", results))
    ctx.figures["certificates"] = records
    ctx.report += certificates_markdown(records)


# -------------------------------------------------------------------------------- catalogue


def _catalogue_parts(_ctx: Context) -> list[Part]:
    # each quick game solved again by RC2 (3x3 the longest, about a second)
    return [Part(game, 1.0 if game.startswith("3x3") else 0.3) for game in QUICK_GAMES]


def _catalogue_work(_ctx: Context, game: str) -> dict[str, int | str]:
    """One quick game of the catalogue solved again (every table verified)."""
    return solve_again(game)


def _catalogue_finish(ctx: Context, results: list[Any]) -> None:
    figures = catalogue_figures(ctx.out, dict(zip(QUICK_GAMES, results, strict=True)))
    ctx.figures["catalogue"] = {k: v for k, v in figures.items() if k != "document"}
    ctx.report += catalogue_markdown(figures)


# ------------------------------------------------------------------------------------ steps

#: Every step, in the order of ``summary.json`` and REPORT.md.
SPECS: dict[str, StepSpec] = {
    "counts": StepSpec(_one(0.2), _counts_work, _counts_finish),
    "tables": StepSpec(
        lambda _ctx: [Part(v, 0.25) for v in standard_variants()], _tables_work, _tables_finish
    ),
    "verification": StepSpec(
        _one(0.1), _verification_work, _verification_finish, needs=("tables",)
    ),
    "odds": StepSpec(_one(0.3), _odds_work, _odds_finish, needs=("tables",)),
    "strength": StepSpec(_one(0.4), _strength_work, _strength_finish, needs=("tables",)),
    "encodings": StepSpec(_one(0.5), _encodings_work, _encodings_finish, after=("tables",)),
    "diagrams": StepSpec(_diagram_parts, _diagrams_work, _diagrams_finish, needs=("tables",)),
    "site": StepSpec(_one(0.1), _site_work, lambda _ctx, _r: None, needs=("tables",)),
    "search": StepSpec(_one(1.3), _search_work, _search_finish),
    "raw": StepSpec(_raw_parts, _raw_work, _raw_finish, needs=("tables",), long_runs=True),
    "evolution": StepSpec(_evolution_parts, _evolution_work, _evolution_finish),
    "beyond": StepSpec(_beyond_parts, _beyond_work, _beyond_finish, long_runs=True),
    "certify": StepSpec(_certify_parts, _certify_work, _certify_finish, long_runs=True),
    "catalogue": StepSpec(_catalogue_parts, _catalogue_work, _catalogue_finish, long_runs=True),
}


def work(name: str, arg: Any, ctx: Context) -> Any:
    """One part of step ``name`` (what the queue's workers run)."""
    return SPECS[name].work(ctx, arg)


# ---------------------------------------------------------------------------------- helpers


def odds_dict(odds: Any) -> dict[str, Any]:
    """Exact odds as JSON: each of win, draw and loss as a fraction and a percentage."""
    out = {}
    for key in ("win", "draw", "loss"):
        frac = getattr(odds, key)
        out[key] = f"{frac.numerator}/{frac.denominator}"
        out[f"{key}_percent"] = round(100 * frac.numerator / frac.denominator, 4)
    return out


def plain(obj: Any) -> Any:
    """A JSON-ready copy of dataclasses, fractions, paths and tuples."""

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        if hasattr(obj, "to_dict"):
            return plain(obj.to_dict())
        return {f.name: plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, float):
        return round(obj, 6)
    return json.loads(json.dumps(obj, default=str))


__all__ = [
    "Context",
    "EVOLUTION_SEEDS",
    "EVOLVED_VARIANT",
    "RAW_ENCODINGS",
    "SPECS",
    "StepSpec",
    "odds_dict",
    "plain",
    "work",
]
