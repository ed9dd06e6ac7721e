"""Every minimal table of a variant: its minimum (proven in two families), how many tables reach
it, the best and worst exact odds among them, and the REPORT.md tables of those figures.

``both`` with the lookup encoding is the disjoint union of its X and O parts (different parities,
separate variables, objective the sum), so its counts are the products of the parts' and its
max-wins table joins theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from minttt.errors import DefectError
from minttt.formula.encode import Formula, encode
from minttt.formula.variants import Variant
from minttt.game.graph import Graph
from minttt.report.sources import SAMPLED_GAMES_003, SAMPLED_WIN_PERCENT_003, Z99_PERCENT
from minttt.solvers import solve
from minttt.solvers.enumeration import (
    EnumerationResult,
    count_minimal_tables,
    pick_max_wins,
    sides_of,
    win_draw_loss,
)
from minttt.solvers.two_families import prove_minimum
from minttt.vocabulary import Encoding, Objective, Role

__all__ = [
    "enumeration_markdown",
    "odds_record",
    "parts_of_both_lookup",
    "percent",
    "solve_and_enumerate",
    "source_tables_markdown",
]

#: The variants whose minimal tables 003 sampled against a random player, by the side they play.
SOURCE_TABLES = {"X": "first-center-lookup-entries", "O": "second-lookup-entries"}


# ------------------------------------------------------------------------------------ odds


def odds_record(graph: Graph, variant: Variant, moves: dict[int, int]) -> dict[str, Any]:
    """Exact odds against a random opponent for each side the table plays (fractions + percent)."""
    out: dict[str, Any] = {}
    for side in sides_of(variant):
        w, d, lo = win_draw_loss(graph, moves, side)
        out["X" if side == 1 else "O"] = _odds(w, d, lo)
    return out


def _odds(w: Fraction, d: Fraction, lo: Fraction) -> dict[str, Any]:
    rec: dict[str, Any] = {}
    for key, frac in (("win", w), ("draw", d), ("loss", lo)):
        rec[key] = f"{frac.numerator}/{frac.denominator}"
        rec[f"{key}_percent"] = round(100 * frac.numerator / frac.denominator, 4)
    return rec


def _wins(graph: Graph, variant: Variant, moves: dict[int, int]) -> Fraction:
    return sum((win_draw_loss(graph, moves, s)[0] for s in sides_of(variant)), Fraction(0))


# ----------------------------------------------------------------------------- enumeration


def solve_and_enumerate(
    graph: Graph,
    variant: Variant,
    *,
    class_limit: int,
    prove: bool = True,
    cache: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Minimum (proven in two families), every minimal table counted (classes up to
    ``class_limit``), the best and worst exact odds among them, and the max-wins table's moves
    (under ``_moves``)."""
    cache = {} if cache is None else cache
    if variant.name in cache:
        return cache[variant.name]
    formula = encode(graph, variant)
    record = _minimum(formula, prove)
    if variant.role is Role.BOTH and variant.encoding is Encoding.LOOKUP:
        record.update(_joined(graph, variant, record["size"], class_limit, prove, cache))
    else:
        record.update(_enumerated(graph, formula, record["size"], class_limit))
    record["lookups"] = len(record["_moves"])
    record["_moves"] = record.pop("_moves")  # keep the key order of the records
    cache[variant.name] = record
    return record


def _minimum(formula: Formula, prove: bool) -> dict[str, Any]:
    """The minimum of ``formula`` by the default driver, proven in two families if ``prove``."""

    variant = formula.variant
    solution = solve(formula)
    record: dict[str, Any] = {
        "variant": variant.name,
        "criterion": variant.criterion,
        "size": solution.size,
        "size_counts": "entries (lookups)"
        if variant.objective is Objective.ENTRIES
        else "positions (terminal included)",
        "lower_bound": solution.lower_bound,
        "variables": dict(solution.variables),
        "solver": solution.solver,
    }
    if prove:
        proof = prove_minimum(formula, solution)
        record["proof"] = proof.to_dict()
        record["optimal"] = bool(solution.optimal and proof.proven)
    else:
        record["optimal"] = bool(solution.optimal)
    return record


def parts_of_both_lookup(variant: Variant) -> tuple[Variant, Variant]:
    """The lookup ``both`` variant splits into X (with the opening) and O parts of equal kind."""
    kind = (variant.encoding, variant.objective, variant.criterion, variant.game)
    return Variant(Role.X, variant.opening, *kind), Variant(Role.O, None, *kind)


def _joined(
    graph: Graph,
    variant: Variant,
    size: int,
    class_limit: int,
    prove: bool,
    cache: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """The figures of a ``both`` lookup variant from its X and O parts'."""
    xv, ov = parts_of_both_lookup(variant)
    xr = solve_and_enumerate(graph, xv, class_limit=class_limit, prove=prove, cache=cache)
    orr = solve_and_enumerate(graph, ov, class_limit=class_limit, prove=prove, cache=cache)
    if xr["size"] + orr["size"] != size:
        raise DefectError(f"{variant.name}: the parts do not add up")
    x_enum, o_enum = xr["enumeration"], orr["enumeration"]
    enum = {
        "count": x_enum["count"] * o_enum["count"],
        "count_up_to_symmetry": x_enum["count_up_to_symmetry"] * o_enum["count_up_to_symmetry"],
        "truncated": x_enum["truncated"] or o_enum["truncated"],
        "how": f"product of {xv.name} and {ov.name} (disjoint parts)",
    }
    return {
        "enumeration": enum,
        "best_odds": {**xr["best_odds"], **orr["best_odds"]},
        "worst_odds": {**xr["worst_odds"], **orr["worst_odds"]},
        "_moves": {**xr["_moves"], **orr["_moves"]},
    }


def _enumerated(graph: Graph, formula: Formula, size: int, class_limit: int) -> dict[str, Any]:
    """Count the minimal tables by SAT enumeration; the best (max-wins) and the worst one's odds."""
    variant = formula.variant
    result = count_minimal_tables(graph, variant, formula, size, class_limit=class_limit)
    tables = result.representatives
    best = tables[pick_max_wins(graph, variant, tables)]
    worst = min(range(len(tables)), key=lambda i: (_wins(graph, variant, tables[i]), i))
    return {
        "enumeration": _enum_record(result),
        "best_odds": odds_record(graph, variant, best),
        "worst_odds": odds_record(graph, variant, tables[worst]),
        "_moves": best,
    }


def _enum_record(result: EnumerationResult) -> dict[str, Any]:
    return {
        "count": result.count,
        "count_up_to_symmetry": result.count_up_to_symmetry,
        "truncated": result.truncated,
        "class_limit": result.limit,
        "how": "SAT enumeration with blocking clauses over the table's decisions",
    }


# -------------------------------------------------------------------------------- markdown


def percent(odds: Mapping[str, Any], side: str, key: str = "win") -> str:
    """``odds[side]``'s rate as ``12.34%`` ('' when the table does not play ``side``)."""
    rec = odds.get(side)
    return "" if rec is None else f"{rec[f'{key}_percent']:.2f}%"


def _count(e: Mapping[str, Any]) -> str:
    plus = "+" if e["truncated"] else ""
    return f"{e['count']:,}{plus} / {e['count_up_to_symmetry']:,}{plus}"


def enumeration_markdown(records: list[dict[str, Any]]) -> list[str]:
    """The ``Every minimal table`` part: counts and the best and worst win odds per variant."""
    lines = [
        "### Every minimal table",
        "",
        "Counted by SAT enumeration with blocking clauses over the table's decisions (tables / "
        "classes where moves that a symmetry of the position maps onto each other are one choice; "
        "`+` = the enumeration stopped at its class limit, a lower bound). Win odds of the best "
        "and the worst minimal table; `reproduce` ships the best one (`*-maxwins.json`), each "
        "verified.",
        "",
        "| variant | size | tables / up to symmetry | win X best / worst | win O best / worst | "
        "verified |",
        "| --- | ---: | ---: | ---: | ---: | :---: |",
    ]
    for rec in records:
        b, w = rec["best_odds"], rec["worst_odds"]
        xs = f"{percent(b, 'X')} / {percent(w, 'X')}" if "X" in b else ""
        os_ = f"{percent(b, 'O')} / {percent(w, 'O')}" if "O" in b else ""
        v = "✓" if rec["verified"]["ok"] and rec["optimal"] else "✗"
        lines.append(
            f"| {rec['variant']} | {rec['size']} | {_count(rec['enumeration'])} | {xs} | {os_} | "
            f"{v} |"
        )
    return lines


def source_tables_markdown(optimal: list[dict[str, Any]]) -> list[str]:
    """Where 003's sampled rates for its tiny tables fall among all minimal tables."""
    by = {r["variant"]: r for r in optimal}
    if any(name not in by for name in SOURCE_TABLES.values()):
        return []
    ranges, halves = {}, {}
    for side, name in SOURCE_TABLES.items():
        rec, src = by[name], SAMPLED_WIN_PERCENT_003[side]
        ranges[side] = (
            rec["worst_odds"][side]["win_percent"],
            rec["best_odds"][side]["win_percent"],
            rec["lookups"],
        )
        halves[side] = Z99_PERCENT * (src / 100 * (1 - src / 100) / SAMPLED_GAMES_003) ** 0.5
    inside = all(
        lo - halves[s] <= SAMPLED_WIN_PERCENT_003[s] <= hi + halves[s]
        for s, (lo, hi, _) in ranges.items()
    )
    verdict = (
        "003's figures lie inside both ranges, within sampling error"
        if inside
        else "003's figures fall outside these ranges"
    )
    (x_lo, x_hi, x_n), (o_lo, o_hi, o_n) = ranges["X"], ranges["O"]
    x_src, o_src = SAMPLED_WIN_PERCENT_003["X"], SAMPLED_WIN_PERCENT_003["O"]
    return [
        "### 003's tiny tables among all minimal tables",
        "",
        f"003's tables won {x_src}% as X and {o_src}% as O against a random player "
        f"({SAMPLED_GAMES_003:,} games each; 99% half-widths {halves['X']:.2f} and "
        f"{halves['O']:.2f} points). Every minimal X table ({x_n} lookups) wins between "
        f"{x_lo:.2f}% and {x_hi:.2f}%, every minimal O table ({o_n} lookups) between "
        f"{o_lo:.2f}% and {o_hi:.2f}%: {verdict}. Minimality does not fix "
        "which optimal move an entry stores; the `*-maxwins.json` tables take the most winning "
        "one.",
    ]
