"""The REPORT.md sections of the ``reproduce`` steps, written from the figures each step computed.

Every number in the prose comes from the step's figures (what ``summary.json`` holds) or, where it
is a figure the source documents state, from :mod:`minttt.report.sources`; a claim ("every
minimum is proven", "all tables pass") is made only when the figures bear it out.

>>> head = report_head()[0]
>>> head.startswith("# minttt")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from minttt.report.sources import COUNT_ROWS, GAMES_000, SITUATIONS_000

if TYPE_CHECKING:
    from minttt.evolve.situations import HochmuthConfig

__all__ = [
    "certificates_markdown",
    "counts_markdown",
    "evolution_markdown",
    "mark",
    "raw_tables_markdown",
    "report_head",
    "tables_markdown",
    "verification_markdown",
]


def mark(ok: bool) -> str:
    """✓ for a reproduced or proven figure, ✗ otherwise."""
    return "✓" if ok else "✗"


def report_head() -> list[str]:
    """The title and the legend of REPORT.md."""
    return [
        "# minttt: every figure of the source documents beside minttt's",
        "",
        "Written by `minttt reproduce`; every figure here is recomputed on each run and a test "
        "fails "
        "when this file no longer matches the code. ✓ = reproduced; ✗ = differs, with the reason. "
        "Timings are not here: they vary from run to run.",
        "",
    ]


# ------------------------------------------------------------------------------------- counts


def counts_markdown(counts: Mapping[str, Any]) -> list[str]:
    """The counting section: 003's, 001's and 000's counts beside ours, and what 827 counts."""
    lines = [
        "## Counting the game (003, 001, 000)",
        "",
        "| source | figure | source says | minttt | |",
        "| --- | --- | ---: | ---: | --- |",
    ]
    for source, what, said, (section, key) in COUNT_ROWS:
        ours = counts[section][key]
        lines.append(f"| {source} | {what} | {said:,} | {ours:,} | {mark(said == ours)} |")
    return lines + [
        "",
        *_symmetry_paragraph(counts),
        "",
        _situations_paragraph(counts),
        "",
        _frontier_paragraph(counts),
        "",
    ]


def _symmetry_paragraph(counts: Mapping[str, Any]) -> list[str]:
    terminal, decision = counts["terminal_classes"], counts["decision_positions"]
    return [
        "Nodes per depth of the full tree: "
        + ", ".join(f"{n:,}" for n in counts["full_tree"]["by_depth"])
        + ".",
        "Up to symmetry: "
        f"{sum(terminal.values())} terminal positions "
        f"({terminal['x_wins']} X wins, {terminal['o_wins']} O "
        f"wins, {terminal['draws']} draws); "
        f"{sum(decision.values())} decision positions "
        f"({decision['x_to_move']} with X to move, "
        f"{decision['o_to_move']} with O to move); "
        f"{counts['games_up_to_symmetry']:,} games when symmetric moves at a position count once, "
        f"{counts['sequence_orbits']:,} orbits of whole move sequences.",
    ]


def _situations_paragraph(counts: Mapping[str, Any]) -> str:
    s = counts["situations_827"]
    games = (
        counts["full_tree"]["leaves"],
        counts["games_up_to_symmetry"],
        counts["sequence_orbits"],
    )
    verdict = (
        f"000's figure of {GAMES_000:,} games is not reproduced by any convention we tried "
        f"({games[0]:,} games; {games[1]:,} or {games[2]:,} up to symmetry)."
        if GAMES_000 not in games
        else f"000's figure of {GAMES_000:,} games is reproduced."
    )
    count = f"{SITUATIONS_000} situations" + ("" if s["reproduced"] else f" (ours: {s['value']})")
    return (
        f"**000's {count}** are the boards up to symmetry, out of all 3^9, with plausible "
        "counts (x = o or x = o + 1) that are not full: "
        f"{s['decision_positions']} real decision positions plus "
        f"{s['with_a_line']} boards that already hold a line (finished, or "
        f"impossible). A strategy is only ever asked about the {s['decision_positions']}. "
        + verdict
    )


def _frontier_paragraph(counts: Mapping[str, Any]) -> str:
    return (
        "**003's frontier search** scores a node with the *min* of its children at even depth; "
        "with +1 meaning a win for player 1, who moves at even depth, that must be the *max* "
        "(a typo in the text: its results are those of the correct rule). minttt runs the frontier "
        "search as corrected and tests it against plain recursion on all "
        f"{counts['symmetric']['positions']:,} and {counts['hashed']['positions']:,} positions."
    )


# ------------------------------------------------------------------------------------- tables


def tables_markdown(
    results: Sequence[Mapping[str, Any]],
    source: Iterable[tuple[Any, Mapping[str, int], int]],
) -> list[str]:
    """003's minimal tables beside ours (``source``: variant, variables, optimum), then the
    entries minima."""
    by_name = {r["variant"]: r for r in results}
    proven = sum(bool(r["optimal"]) for r in results)
    claim = (
        "Every minimum is proven: a table of that size exists and the solver proved none smaller "
        "(UNSAT at k-1), and a second solver family (Z3 against PySAT) found the same optimum."
        if proven == len(results)
        else f"{proven} of {len(results)} minima are proven (✓: a table of that size exists, the "
        "solver proved none smaller, and a second solver family found the same optimum)."
    )
    lines = [
        "## Minimal tables (003)",
        "",
        claim,
        "",
        "| variant | 003 variables | minttt | 003 optimum | minttt (positions) | lookups "
        "| proven, 2 families | |",
        "| --- | --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for variant, variables, optimum in source:
        r = by_name[variant.name]
        ours = r["variables"]
        ok = r["size"] == optimum and ours == variables and r["optimal"]
        lines.append(
            f"| {variant.name} | {_variables(variant.encoding, variables)} | "
            f"{_variables(variant.encoding, ours)} | {optimum} | {r['size']} | "
            f"{r['lookups']} | {mark(r['optimal'])} | {mark(ok)} |"
        )
    lines += ["", "Minimising table entries directly (lookup encoding):", ""]
    lines += ["| variant | entries (minimum) | proven, 2 families |", "| --- | ---: | --- |"]
    for r in results:
        if r["size_counts"] == "entries":
            lines.append(f"| {r['variant']} | {r['size']} | {mark(r['optimal'])} |")
    return lines + [""]


def _variables(encoding: str, variables: Mapping[str, int]) -> str:
    if encoding == "tree":
        return f"{variables['positions']}"
    return f"{variables['positions']} + {variables['edges']}"


def raw_tables_markdown(results: Sequence[Mapping[str, Any]], raw_positions: int) -> list[str]:
    """The tables keyed by the raw board (``raw_positions``: the non-symmetric graph's size)."""
    verified = all(r["verified"] for r in results)
    lines = [
        "## Minimal tables without symmetry (--symmetry none)",
        "",
        f"Keyed by the raw board over the {raw_positions:,} raw positions: the player applies no "
        "transform. "
        "Each minimum is proven here by PySAT's RC2 (size k, UNSAT at k-1); the second family "
        "(Z3) and the DRAT certificates come from a long run, not part of `reproduce`, "
        "reported below; X with any opening "
        "is solved by cases (the least of the nine fixed-opening minima). With no symmetry a "
        "fixed opening is one cell: corner = cell 0, edge = cell 1. "
        + ("Every table passes the exhaustive verifier. " if verified else "")
        + "See `tables-raw.json`.",
        "",
        "| variant | variables p + e | raw minimum | symmetric minimum | proven (RC2) | verified |",
        "| --- | --- | ---: | ---: | --- | --- |",
    ]
    for r in results:
        v = r["variables"]
        var_text = "by cases" if "-any-" in r["variant"] else f"{v['positions']} + {v['edges']}"
        symmetric = r["symmetric_size"] if r["symmetric_size"] is not None else "-"
        lines.append(
            f"| {r['variant']} | {var_text} | {r['size']} | {symmetric} | "
            f"{mark(r['optimal'])} | {mark(r['verified'])} |"
        )
    return lines + [""]


def verification_markdown(passed: Mapping[str, bool]) -> list[str]:
    """How many tables pass the exhaustive verifier (``passed``: table name -> passes)."""
    ok, n = sum(bool(v) for v in passed.values()), len(passed)
    who = f"All {n}" if ok == n else f"{ok} of {n}"
    return [
        "## Exhaustive verification",
        "",
        f"{who} tables pass `minttt verify`: every opponent line is played, every "
        "position reached has an entry, every move is legal and keeps the minimax value, and no "
        "game is lost. See `verification.json`.",
        "",
    ]


# ---------------------------------------------------------------------------------- evolution


def evolution_markdown(summary: Mapping[str, Any], recipe: HochmuthConfig) -> list[str]:
    """000's genetic recipe over seeds (``recipe``: the configuration the runs used)."""
    runs = summary["runs"]
    lines = [
        "## Genetic evolution (000, 002)",
        "",
        f"000's recipe (population {summary['population']}, at most {summary['max_generations']} "
        f"generations, replication {recipe.p_replicate:.2f}, per-gene crossover "
        f"{recipe.p_crossover:.2f}, mutation {recipe.p_mutate:g}), "
        f"{len(runs)} seeds, first runs only (no restarts):",
        "",
        "| seed | perfect | generations | best individual's lost games | table size (lookups) |",
        "| ---: | --- | ---: | ---: | ---: |",
    ]
    for r in runs:
        lines.append(
            f"| {r['seed']} | {mark(r['perfect'])} | {r['generations']} | {r['best_lost']} | "
            f"{r['table_size'] if r['table_size'] is not None else '–'} |"
        )
    return lines + ["", _evolution_paragraph(summary), ""]


def _evolution_paragraph(summary: Mapping[str, Any]) -> str:
    runs, source = summary["runs"], summary["source_000"]
    reached = [
        (int(key.removeprefix("population_")), rec["generation"]) for key, rec in source.items()
    ]
    first, *others = reached
    source_runs = f"generation {first[1]} (population {first[0]})" + "".join(
        f" and {gen} ({pop})" for pop, gen in others
    )
    minutes = round(source[f"population_{first[0]}"]["seconds"] / 60)
    perfect = sum(r["perfect"] for r in runs)
    return (
        f"000 reached a perfect strategy at {source_runs}. Ours: "
        f"{perfect} of {len(runs)} first runs succeed within {summary['max_generations']} "
        "generations; the others stall with the best individual losing a few games (000's trap: "
        "losing early costs fewer games than blocking into untuned subtrees). "
        f"A perfect evolved strategy needs {summary['saved'].get('size', '–')} lookups; the proven "
        f"minimum for a table that never loses as X (any opening) and as O is "
        f"{summary['proven_minimum']} ({summary['proven_minimum_variant']}). 000's run took "
        f"{minutes} minutes; ours vary from run to run and are not reported here."
    )


# ------------------------------------------------------------------------------- certificates


def certificates_markdown(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The certificates shipped under ``proofs/`` (in the results folder), their sizes and what
    checked them (a certificate is called checked only where its record names the check)."""
    shipped = [r for r in records if r["shipped"]]
    total = sum(r["cnf_bytes"] + (r["proof_bytes"] if r["shipped"] else 0) for r in records)
    checked = [r for r in records if r.get("checked_by")]
    lines = [
        "## Certificates: a proof anyone can check for every minimum",
        "",
        f"`proofs/` holds {len(records)} certificates ({len(shipped)} with their DRAT "
        f'proof; {total / 1e6:.1f} MB xz): for each minimum k, the CNF "a table of at most k-1 '
        "exists\", CaDiCaL's DRAT proof that it is unsatisfiable, and a table of size k that "
        "passes `minttt verify`. Check one with `minttt check-proof CNF PROOF` or drat-trim. "
        f"{len(checked)} of the {len(records)} proofs are checked: drat-trim verified each and "
        "minttt's LRAT checker the refutation it wrote (`proofs/second-check.json`, the same "
        "proof by its SHA-256; each record's `checked_by` says so)"
        + (
            "."
            if len(checked) == len(records)
            else f"; {len(records) - len(checked)} are not (`checked_by` null)."
        ),
        "",
        "| variant | minimum | CNF variables / clauses | proof lemmas | proof (xz) | checked |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in records:
        proof = f"{r['proof_bytes']:,} B" + ("" if r["shipped"] else " (not shipped)")
        lines.append(
            f"| {r['variant']} | {r['minimum']} | {r['variables']:,} / {r['clauses']:,} | "
            f"{r['lemmas']:,} | {proof} | {'yes' if r.get('checked_by') else '**no**'} |"
        )
    return lines + [""]
