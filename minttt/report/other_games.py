"""Other games through the same pipeline: misère tic-tac-toe and m,n,k boards up to 4x4.

:func:`study_game` runs one game through values, encodings, solvers (with a time limit; bounds are
reported when a solve does not finish) and the exhaustive verifier; :func:`growth_plot` draws how
positions, formula size and solve time grow with the game. ``reproduce`` never reruns the study:
:func:`games_figures` reads the committed ``games_study.json`` (and the array pipeline's bounds)
and :func:`games_markdown` writes their part of REPORT.md.

>>> study_variants("3x3")[0].name
'first-any-tree-positions'
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from minttt.errors import InputError
from minttt.fileio import write_bytes_atomic
from minttt.formula.encode import encode
from minttt.formula.variants import Variant, study_variants
from minttt.game.graph import RECURSION_CELLS, graph_for
from minttt.game.rules import Rules
from minttt.report.bounds import load_bounds, scale_markdown
from minttt.schema import load_json
from minttt.solvers import cross_check, solve
from minttt.solvers.portfolio import make_table
from minttt.table.verify import verify_table
from minttt.vocabulary import Objective

VERIFY_MAX_LOOKUPS = 5000  # the exhaustive walk of a larger (time-limited) table takes too long
STUDY_FILE = "games_study.json"  # written by scripts/study_games.py
PLOT_FILE = "growth.png"
BOUNDS_FILE = "games/bounds.json"  # written by scripts/scale_games.py (the long 4x4 runs)
BOUNDS_PLOT = "games/bounds.png"


def study_game(
    game: str,
    *,
    timeout: float = 60.0,
    check_timeout: float | None = None,
    variants: Sequence[Variant] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """One game through the pipeline: graph, values, each variant encoded, solved under
    ``timeout`` (bounds when it does not finish), cross-checked by the other solver family, and
    its table verified. Timings are wall seconds on this machine."""

    say = progress or (lambda _msg: None)
    rules = Rules.from_name(game)
    start = time.perf_counter()
    graph = graph_for(rules)
    build_seconds = time.perf_counter() - start
    value = graph.value(graph.root)
    record: dict[str, Any] = {
        "game": rules.name,
        "rows": rules.rows,
        "cols": rules.cols,
        "k": rules.k,
        "misere": rules.misere,
        "symmetries": len(rules.symmetries),
        "positions": len(graph),
        "examined": graph.examined,
        "value": value,
        "builder": "build_graph" if rules.cells <= RECURSION_CELLS else "build_array_graph",
        "build_seconds": round(build_seconds, 3),
        "variants": [],
    }
    say(f"{rules.name}: {len(graph):,} positions, value {value:+d}")
    for variant in variants or study_variants(rules.name):
        t0 = time.perf_counter()
        formula = encode(graph, variant)
        enc_s = time.perf_counter() - t0
        solution = solve(formula, timeout=timeout)
        row: dict[str, Any] = {
            "variant": variant.name,
            "size_counts": "entries (lookups)"
            if variant.objective is Objective.ENTRIES
            else "positions (terminal included)",
            "variables": formula.counts(),
            "num_vars": formula.num_vars,
            "clauses": len(formula.clauses),
            "encode_seconds": round(enc_s, 3),
            "solver": solution.solver,
            "size": solution.size,
            "lower_bound": solution.lower_bound,
            "optimal": solution.optimal,
            "solve_seconds": round(solution.seconds, 3),
            "timed_out": solution.timed_out,
            "timeout": timeout,
            "lookups": solution.lookups,
        }
        if solution.optimal:
            checked = cross_check(formula, solution, timeout=check_timeout or timeout)
            cc = dict(checked.cross_check or {})
            row["cross_check"] = cc
            row["optimal"] = checked.optimal
        if solution.lookups <= VERIFY_MAX_LOOKUPS:
            rep = verify_table(make_table(graph, solution))  # table files hold m,n,k games
            row["verified"] = {
                "ok": rep.ok,
                "games": rep.games,
                "wins": rep.wins,
                "draws": rep.draws,
                "losses": rep.losses,
            }
        else:
            row["verified"] = {"ok": None, "skipped": f"over {VERIFY_MAX_LOOKUPS} lookups"}
        record["variants"].append(row)
        say(
            f"  {variant.name}: size {solution.size} (lower {solution.lower_bound}), "
            f"{'proven' if row['optimal'] else 'bounds only'}, verified {row['verified']['ok']}"
        )
    return record


def growth_plot(study: dict[str, Any], path: Any) -> None:
    """PNG of positions, formula size and solve time per game (log scale); deterministic bytes
    for the same ``study`` (no timestamp or software version in the file)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = sorted(study["games"], key=lambda g: g["positions"])
    names = [g["game"] for g in games]
    xs = list(range(len(games)))
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), dpi=100)
    axes[0].plot(xs, [g["positions"] for g in games], "o-", label="canonical positions")
    axes[0].plot(xs, [g["examined"] for g in games], "s--", label="recursion calls")
    axes[0].set_title("game graph")
    for role, marker in (("first", "o"), ("second", "s")):
        for enc, style in (("tree-positions", "-"), ("lookup-entries", "--")):
            rows = [_row(g, role, enc) for g in games]
            axes[1].plot(
                xs,
                [r["num_vars"] if r else float("nan") for r in rows],
                marker + style,
                label=f"{role} {enc}: variables",
            )
            axes[2].plot(
                xs,
                [r["solve_seconds"] if r else float("nan") for r in rows],
                marker + style,
                label=f"{role} {enc}",
            )
            for x, r in zip(xs, rows, strict=True):
                if r and r["lower_bound"] < r["size"]:  # the solve stopped at its limit
                    axes[2].annotate("limit", (x, r["solve_seconds"]), fontsize=7)
    axes[1].set_title("formula size (variables)")
    axes[2].set_title("solve seconds (RC2; 'limit' = bounds only)")
    for ax in axes:
        ax.set_yscale("log")
        ax.set_xticks(xs)
        ax.set_xticklabels(names, rotation=20, fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    write_bytes_atomic(path, buf.getvalue())


def _row(game: dict[str, Any], role: str, enc: str) -> dict[str, Any] | None:
    rows: list[dict[str, Any]] = game["variants"]
    for r in rows:
        if r["variant"].startswith(role + "-") and f"-{enc}" in r["variant"]:
            return r
    return None


def _mark(ok: bool | None) -> str:
    return "skipped (too large)" if ok is None else "✓" if ok else "✗"


def _study_row(g: dict[str, Any], r: dict[str, Any]) -> str:
    """One variant of one game: its size (or bounds) and how far it is proven."""
    one_family = not r["optimal"] and r["lower_bound"] == r["size"]
    proven_size = r["optimal"] or one_family
    size = str(r["size"]) if proven_size else f"{r['lower_bound']}..{r['size']}"
    cc = r.get("cross_check") or {}
    if r["optimal"]:
        proven = "✓ (" + cc.get("solver", "") + ")"
    elif one_family:
        proven = f"{r['solver']} only ({cc.get('solver', 'Z3')} unfinished)"
    else:
        proven = "bounds"
    return (
        f"| {g['game']} | {g['symmetries']} | {g['positions']:,} | {g['value']:+d} | "
        f"{r['variant'].split('@')[0]} | {r['num_vars']:,} | {r['clauses']:,} | {size} | "
        f"{proven} | {r['solve_seconds']} | {_mark(r['verified']['ok'])} |"
    )


def study_markdown(study: dict[str, Any], plot: str | None = None) -> list[str]:
    """The other-games part of the report (timings come from the committed study file)."""
    lines = [
        "### Other games through the same pipeline",
        "",
        f"From `games_study.json` (a long run, not part of `reproduce`; solve limit "
        f"{study.get('timeout', '?')} s per variant, wall seconds on the machine that ran it). "
        "Value: +1 X wins, 0 draw, -1 O wins. Size: positions (terminal included) for `tree` and "
        "`lookup-positions`, lookups for `lookup-entries`; `lo..hi` = bounds when the solve did "
        "not finish; `rc2 only` = proven by PySAT (a table of that size, UNSAT below) but the Z3 "
        "cross-check did not finish in the limit. The first player may open anywhere; in a lost "
        "game every move is `optimal`.",
        "",
        "| game | symmetries | positions | value | variant | variables | clauses | size | "
        "proven | solve s | verified |",
        "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | :---: | ---: | :---: |",
    ]
    lines += [_study_row(g, r) for g in study["games"] for r in g["variants"]]
    for g in study["games"]:
        if g.get("note"):
            lines += ["", f"{g['game']}: {g['note']}"]
    if plot:
        lines += ["", f"![growth]({plot})"]
    return lines


def check_study(path: Path) -> dict[str, Any]:
    """The committed study, re-checked before the report quotes it (InputError, one line): the
    position counts of the boards up to 12 cells recounted, and per variant ``lower <= size``,
    ``optimal`` only when they meet and when the other solver family agreed."""
    study = load_json(path, None, what="study")
    try:
        games = study["games"]
    except (KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a readable study ({exc})") from None
    for game in games:
        rules = Rules.from_name(game["game"])
        if rules.cells <= RECURSION_CELLS and len(graph_for(rules)) != game["positions"]:
            raise InputError(f"{path}: {game['game']} has not {game['positions']} positions")
        for v in game["variants"]:
            size, lower = v.get("size"), v.get("lower_bound")
            where = f"{path}: {game['game']} {v.get('variant')}"
            if size is not None and lower is not None and lower > size:
                raise InputError(f"{where}: lower bound {lower} above the size {size}")
            agreed = (v.get("cross_check") or {}).get("agree", False)
            if v.get("optimal") and (lower != size or not agreed):
                raise InputError(f"{where}: optimal, but not proven by both families")
    return dict(study)


def games_figures(out_dir: Path) -> dict[str, Any]:
    """The committed other-games study and bounds under ``out_dir``; draws the growth plot."""
    path = out_dir / STUDY_FILE
    if not path.exists():
        return {"available": False, "file": STUDY_FILE}
    study = check_study(path)
    growth_plot(study, out_dir / PLOT_FILE)
    scale = out_dir / BOUNDS_FILE
    bounds = load_bounds(scale) if scale.exists() else None  # checked before it is reported
    return {
        "available": True,
        "file": STUDY_FILE,
        "plot": PLOT_FILE,
        "study": study,
        "scale": bounds,
    }


def games_markdown(games: dict[str, Any]) -> list[str]:
    """The other games' part of REPORT.md (what :func:`games_figures` read)."""
    if not games.get("available"):
        return [
            "### Other games",
            "",
            f"`{games['file']}` (a long run's result, not part of `reproduce`) is missing.",
        ]
    lines = study_markdown(games["study"], plot=games["plot"])
    if games.get("scale"):
        lines += ["", *scale_markdown(games["scale"], plot=BOUNDS_PLOT)]
    return lines


__all__ = [
    "check_study",
    "games_figures",
    "games_markdown",
    "growth_plot",
    "study_game",
    "study_markdown",
]
