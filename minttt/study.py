"""Other games through the same pipeline: misère tic-tac-toe and m,n,k boards up to 4x4.

:func:`build_graph_fast` builds the same :class:`~minttt.graph.Graph` as
:func:`minttt.graph.build_graph` (same canonical hashes, boards, children in move order, values and
``examined`` count) level by level with numpy, which takes seconds instead of minutes on 4x4 boards.
:func:`study_game` runs one game through values, encodings, solvers (with a time limit; bounds are
reported when a solve does not finish) and the exhaustive verifier; :func:`growth_plot` draws how
positions, formula size and solve time grow with the game.

>>> from minttt.game import Rules
>>> g = build_graph_fast(Rules.from_name("3x3"))
>>> len(g), g.examined, g.value(g.root)
(765, 2271, 0)
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from minttt.encode import Variant, encode
from minttt.game import Rules
from minttt.graph import Graph, graph_for
from minttt.scale.graph import line_makers

STUDY_GAMES: tuple[str, ...] = ("3x3", "3x3-misere", "mnk:3,4,3", "mnk:4,4,3", "mnk:4,4,4")
# the games reproduce runs itself (seconds); the 4x4 boards come from results/games_study.json
QUICK_GAMES: tuple[str, ...] = ("3x3", "3x3-misere", "mnk:3,4,3")
VERIFY_MAX_LOOKUPS = 5000  # the exhaustive walk of a larger (time-limited) table takes too long


def _line_made(digits: np.ndarray, rules: Rules) -> np.ndarray:
    """Boolean per row of ``digits``: some line of ``k`` is complete (either colour)."""
    made = np.zeros(len(digits), dtype=bool)
    for line in rules.lines:
        first = digits[:, line[0]]
        same = first != 0
        for i in line[1:]:
            same &= digits[:, i] == first
        made |= same
    return made


def _decode(hashes: np.ndarray, n: int) -> np.ndarray:
    powers = 3 ** np.arange(n, dtype=np.int64)
    return ((hashes[:, None] // powers[None, :]) % 3).astype(np.int8)


def build_graph_fast(rules: Rules) -> Graph:
    """The symmetric game graph of ``rules``, built breadth-first with numpy.

    Equal to ``build_graph(rules)`` (tested on 3x3, misère and 3x4): canonical hash = minimum over
    the board's symmetries; ``children[h]`` lists ``(move on h's canonical board, canonical child)``
    for every empty cell in increasing order; ``examined`` = 1 + number of edges, which is what the
    recursion of :func:`build_graph` counts. Values are filled in by backward induction.
    """
    n = rules.cells
    powers = 3 ** np.arange(n, dtype=np.int64)
    perm_pows = np.stack([powers[list(p)] for p in rules.symmetries])  # (T, n)
    level = np.zeros(1, dtype=np.int64)
    digits = np.zeros((1, n), dtype=np.int8)
    levels: list[np.ndarray] = []
    level_digits: list[np.ndarray] = []
    terminal: list[np.ndarray] = []
    edges: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # parent index, move, child index
    for depth in range(n + 1):
        levels.append(level)
        level_digits.append(digits)
        term = _line_made(digits, rules) | (depth == n)
        terminal.append(term)
        if depth == n or not (~term).any():
            edges.append((np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)))
            break
        mover = 1 if depth % 2 == 0 else 2
        live = np.flatnonzero(~term)
        parent_idx, moves, child_hash = [], [], []
        d_live = digits[live]
        for cell in range(n):
            sel = np.flatnonzero(d_live[:, cell] == 0)
            if not len(sel):
                continue
            kids = d_live[sel].astype(np.int64)
            kids[:, cell] = mover
            canon = (kids @ perm_pows.T).min(axis=1)
            parent_idx.append(live[sel])
            moves.append(np.full(len(sel), cell, dtype=np.int64))
            child_hash.append(canon)
        pi = np.concatenate(parent_idx)
        mv = np.concatenate(moves)
        ch = np.concatenate(child_hash)
        nxt, child_idx = np.unique(ch, return_inverse=True)
        order = np.lexsort((mv, pi))
        edges.append((pi[order], mv[order], child_idx[order]))
        level = nxt
        digits = _decode(nxt, n)
    # values by backward induction
    values: list[np.ndarray] = [np.zeros(0, np.int8)] * len(levels)
    for depth in range(len(levels) - 1, -1, -1):
        dg = level_digits[depth]
        vals = np.zeros(len(levels[depth]), dtype=np.int8)
        term = terminal[depth]
        if term.any():
            maker = line_makers(dg[term], rules)
            win = np.where(maker == 1, 1, np.where(maker == 2, -1, 0)).astype(np.int8)
            vals[term] = -win if rules.misere else win
        pi, _, ci = edges[depth]
        if len(pi):
            child_vals = values[depth + 1][ci]
            starts = np.flatnonzero(np.r_[True, pi[1:] != pi[:-1]])
            parents = pi[starts]
            if depth % 2 == 0:
                vals[parents] = np.maximum.reduceat(child_vals, starts)
            else:
                vals[parents] = np.minimum.reduceat(child_vals, starts)
        values[depth] = vals
    boards: dict[int, tuple[int, ...]] = {}
    children: dict[int, tuple[tuple[int, int], ...]] = {}
    value_map: dict[int, int] = {}
    n_edges = 0
    for depth, hashes in enumerate(levels):
        hl = hashes.tolist()
        for h, cells, v in zip(
            hl, level_digits[depth].tolist(), values[depth].tolist(), strict=True
        ):
            boards[h] = tuple(cells)
            children[h] = ()
            value_map[h] = v
        pi, mv, ci = edges[depth]
        if not len(pi):
            continue
        n_edges += len(pi)
        nxt = levels[depth + 1]
        child_h = nxt[ci].tolist()
        split = np.flatnonzero(np.r_[True, pi[1:] != pi[:-1], True])
        pl, ml = pi.tolist(), mv.tolist()
        for a, b in zip(split[:-1].tolist(), split[1:].tolist(), strict=True):
            children[hl[pl[a]]] = tuple(zip(ml[a:b], child_h[a:b], strict=True))
    graph = Graph(rules, True, 0, boards, children, 1 + n_edges)
    graph.__dict__["values"] = value_map  # the cached_property, filled by backward induction
    return graph


def study_variants(game: str) -> list[Variant]:
    """First player (any opening) and second player, tree and lookup (positions and entries)."""
    out = []
    for role, opening in (("first", "any"), ("second", None)):
        for encoding, objective in (
            ("tree", "positions"),
            ("lookup", "positions"),
            ("lookup", "entries"),
        ):
            out.append(Variant(role, opening, encoding, objective, "optimal", game))
    return out


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
    from minttt.solve import cross_check, solve
    from minttt.solve.api import make_table
    from minttt.verify import verify_table

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
        "builder": "build_graph" if rules.cells <= 12 else "build_graph_fast",
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
            if variant.objective == "entries"
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

    from minttt.fileio import write_bytes_atomic

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
    for r in game["variants"]:
        if r["variant"].startswith(role + "-") and f"-{enc}" in r["variant"]:
            return r
    return None


def _mark(ok: bool | None) -> str:
    return "skipped (too large)" if ok is None else "✓" if ok else "✗"


def study_markdown(study: dict[str, Any], plot: str | None = None) -> list[str]:
    """The other-games part of the report (timings come from the committed study file)."""
    lines = [
        "### Other games through the same pipeline",
        "",
        f"From `games_study.json` (written by `scripts/study_games.py`; solve limit "
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
    for g in study["games"]:
        for r in g["variants"]:
            one_family = not r["optimal"] and r["lower_bound"] == r["size"]
            if r["optimal"] or one_family:
                size = str(r["size"])
            else:
                size = f"{r['lower_bound']}..{r['size']}"
            cc = r.get("cross_check") or {}
            if r["optimal"]:
                proven = "✓ (" + cc.get("solver", "") + ")"
            elif one_family:
                proven = f"{r['solver']} only ({cc.get('solver', 'Z3')} unfinished)"
            else:
                proven = "bounds"
            lines.append(
                f"| {g['game']} | {g['symmetries']} | {g['positions']:,} | {g['value']:+d} | "
                f"{r['variant'].split('@')[0]} | {r['num_vars']:,} | {r['clauses']:,} | {size} | "
                f"{proven} | {r['solve_seconds']} | {_mark(r['verified']['ok'])} |"
            )
    for g in study["games"]:
        if g.get("note"):
            lines += ["", f"{g['game']}: {g['note']}"]
    if plot:
        lines += ["", f"![growth]({plot})"]
    return lines


__all__ = [
    "QUICK_GAMES",
    "STUDY_GAMES",
    "build_graph_fast",
    "graph_for",
    "growth_plot",
    "study_game",
    "study_markdown",
    "study_variants",
]
