"""The REPORT.md table of the array pipeline's bounds (from ``results/games/bounds.json``), and
the check of that file before anything is reported from it.

Every lower bound carries what proves it (``lower_by``: a method and its evidence): a checked
certificate in ``proofs/mnk/index.json`` (method ``certificate``; checked here against the index),
the decomposition by opening (``openings``; checked against the decomposition the file holds), or
a long run's solver (``rc2``, ``per-level minima``, ``mip dual bound``, ``hinted``; named by its
checkpoint and run). The report says "proven" only where a checked certificate backs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minttt.errors import InputError
from minttt.formula.arrays import split_variants
from minttt.formula.instance import check_table
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph, build_array_graph
from minttt.game.rules import Board
from minttt.proof.index import INDEX, load_index
from minttt.proof.lower import LOWER_INDEX, checked_lower
from minttt.schema import load_json
from minttt.table.model import load_table
from minttt.vocabulary import Role

#: tables up to this many entries are verified whenever bounds.json is read (under 1 s in all);
#: the two 4x4 k=4 tables by tests/test_games_tables.py (about 32 s of CPU for both)
VERIFY_ON_LOAD = 1000
BOUNDS_SCHEMA = "bounds.schema.json"  # in minttt/schemas/
#: the certificates of the m,n,k minima, relative to the results folder
CERTIFICATES = Path("proofs") / "mnk" / INDEX
#: the lower-bound certificates (level by level, block by block), relative to the results folder
LOWER_CERTIFICATES = Path("proofs") / "mnk" / LOWER_INDEX
#: what the report says of a lower-bound certificate's check: what the record says of it (the
#: report checks its files and its bound against them, not its proof)
RECORDED = (
    "each proof recorded as checked by drat-trim (its LRAT by minttt.lrat) when made: "
    "`minttt recheck NAME` checks it again"
)
#: the methods a lower bound can name (``lower_by.method``)
METHODS = (
    "certificate",
    "level certificates",
    "openings",
    "rc2",
    "per-level minima",
    "mip dual bound",
    "hinted",
)


def certified(index: Path) -> dict[str, int]:
    """``variant -> minimum`` of every record of the certificate ``index`` whose proof a checker
    checked (``checked_by``; none without the file)."""
    if not index.is_file():
        return {}
    return {
        r["variant"]: int(r["minimum"])
        for r in load_index(index)["certificates"]
        if r.get("checked_by")
    }


def load_bounds(path: Path) -> dict[str, Any]:
    """``bounds.json`` re-checked (InputError, one line, naming what is inconsistent): per
    variant, ``lower <= upper``, ``optimal`` exactly when they meet, the lower bound's evidence
    where it can be checked (a certificate in ``../proofs/mnk/index.json``, the decomposition by
    opening), and the table it names beside it is that variant's, of ``upper`` entries, and (up
    to :data:`VERIFY_ON_LOAD` entries) passes the exhaustive verifier."""
    bounds = load_json(path, BOUNDS_SCHEMA, what="bounds file")
    proofs = certified(path.parent.parent / CERTIFICATES)
    openings = {d["variant"]: d["lower"] for d in bounds.get("opening_decomposition", [])}
    splits = {d["variant"]: list(d["openings"]) for d in bounds.get("opening_decomposition", [])}
    lowers = checked_lower(path.parent.parent / LOWER_CERTIFICATES)
    for name, record in bounds["variants"].items():
        check_bounds_record(path.parent, name, record, proofs, openings)
        cells = splits.get(name)
        check_level_certificates(path.parent, name, record, lowers, cells)
    return bounds


def check_level_certificates(
    folder: Path,
    name: str,
    record: dict[str, Any],
    lowers: dict[tuple[str, tuple[int, ...]], int],
    openings: list[str] | None = None,
) -> None:
    """A variant's certified lower bound (``certified``): the sum of its blocks, of disjoint
    depths, each at most what a checked record of ``proofs/mnk/lower-bounds.json`` proves; or the
    least over a split of its tables by their first move (``openings``): for X, its canonical
    ``openings`` (every one of them), for O, its replies ``A:B`` to one opening of X (every
    allowed one up to symmetry, :func:`check_split`), of each part's blocks (the variant with
    that move fixed). InputError naming the first that is not; a lower bound by ``level
    certificates`` must be the certified one."""
    where = f"{folder}/bounds.json, {name}"
    certified = record.get("certified")
    if certified is None:
        if record["lower_by"]["method"] == "level certificates":
            raise InputError(f"{where}: lower bound by level certificates, but none is named")
        return
    if "openings" in certified:
        per = certified["openings"]
        variant = Variant.parse(name)
        if variant.role is Role.O:
            check_split(where, variant, list(per))
        else:
            _check_x_split(where, variant, list(per), openings)
        sums = []
        for key, part in per.items():
            fixed = variant.replace(opening=key)
            sums.append(_blocks_sum(where, fixed.name, part["blocks"], lowers))
            if sums[-1] != part["lower"]:
                raise InputError(f"{where}: {fixed.name}: {part['lower']} is not its sum")
        total = min(sums)
    else:
        total = _blocks_sum(where, name, certified["blocks"], lowers)
    if total != certified["lower"]:
        raise InputError(f"{where}: certified {certified['lower']} is not its blocks' {total}")
    if record["lower_by"]["method"] == "level certificates" and total != record["lower"]:
        raise InputError(f"{where}: lower bound {record['lower']} is not the certified {total}")


def check_split(where: str, variant: Variant, keys: list[str]) -> None:
    """The parts ``keys`` cover every table of ``variant``: O's (each ``A:B``, or ``A:B+C:D..``
    where a part was split again) or X's after its opening cell (each ``CELL+B:C..``, X's
    answers to O's replies). Each split is by one move of the opponent, and holds every answer
    up to symmetry (:meth:`~minttt.game.rules.Board.distinct_moves` of the board it answers) or,
    where some are left out, every allowed one (the game graph's
    :func:`~minttt.formula.arrays.split_variants`). InputError naming what is missing."""
    if len(set(keys)) != len(keys):
        raise InputError(f"{where}: a part is named twice in {keys}")
    try:
        known = len(variant.replies())
        lines = [variant.replace(opening=k).replies()[known:] for k in keys]
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    graphs: list[ArrayGraph] = []  # built only where a split leaves a reply out
    _covers(where, variant, [list(line) for line in lines], graphs)


def _check_x_split(
    where: str, variant: Variant, keys: list[str], openings: list[str] | None
) -> None:
    """X's parts ``keys`` cover its tables: its openings (the decomposition's ``openings``, else
    every allowed one), each whole or split by its answers (:func:`check_split`)."""
    heads: dict[str, list[str]] = {}
    for key in keys:
        heads.setdefault(key.partition("+")[0], []).append(key)
    if openings is not None and sorted(heads) != sorted(openings):
        raise InputError(f"{where}: certified for openings {sorted(heads)}, not {openings}")
    if openings is None:
        need = {str(v.opening) for v in split_variants(build_array_graph(variant.rules), variant)}
        if need - set(heads):
            raise InputError(f"{where}: its openings leave out {sorted(need - set(heads))}")
    for head, parts in heads.items():
        check_split(where, variant.replace(opening=head), parts)


def _covers(
    where: str, variant: Variant, lines: list[list[tuple[int, int]]], graphs: list[ArrayGraph]
) -> None:
    """``lines`` (each part's replies beyond ``variant``'s, in the order they split) cover
    ``variant``'s tables (see :func:`check_split`)."""
    if any(not line for line in lines):  # the variant itself is a part
        return
    firsts = {line[0][0] for line in lines}
    theirs = "opening of X" if variant.role is Role.O else "reply of O"
    if len(firsts) != 1:
        raise InputError(
            f"{where}: {variant.name} is split by more than one {theirs}, {sorted(firsts)}"
        )
    (move,) = firsts
    board = Board.empty(variant.rules)
    opening = variant.opening_cell()
    for cell in (move,) if opening is None else (opening, move):
        board = board.play(cell)
    if opening is None and board.canonical().board != board:  # X's answers are named as played
        raise InputError(f"{where}: X's opening {move} is not the board the graph stores")
    groups: dict[int, list[list[tuple[int, int]]]] = {}
    for line in lines:
        groups.setdefault(line[0][1], []).append(line[1:])
    prefix = f"{variant.opening}+{move}:" if variant.opening else f"{move}:"
    if set(groups) != set(board.distinct_moves()):
        if not graphs:
            graphs.append(build_array_graph(variant.rules))
        need = {str(v.opening) for v in split_variants(graphs[0], variant, move)}
        missing = need - {f"{prefix}{b}" for b in groups}
        if missing:
            raise InputError(f"{where}: its replies leave out {sorted(missing)}")
    for b, rest in groups.items():
        _covers(where, variant.replace(opening=f"{prefix}{b}"), rest, graphs)


def _blocks_sum(
    where: str,
    name: str,
    blocks: list[dict[str, Any]],
    lowers: dict[tuple[str, tuple[int, ...]], int],
) -> int:
    """The sum of ``name``'s blocks, each checked against the checked records."""
    depths = [d for b in blocks for d in b["depths"]]
    if len(depths) != len(set(depths)):
        raise InputError(f"{where}: its level certificates count a depth twice")
    for b in blocks:
        if b["lower"] > lowers.get((name, tuple(b["depths"])), 0):
            raise InputError(
                f"{where}: {name} depths {b['depths']}: {b['lower']} entries, but no checked "
                f"record of {LOWER_CERTIFICATES} proves it"
            )
    return sum(int(b["lower"]) for b in blocks)


def check_bounds_record(
    folder: Path,
    name: str,
    record: dict[str, Any],
    proofs: dict[str, int] | None = None,
    openings: dict[str, int] | None = None,
) -> None:
    """One variant's bounds (see :func:`load_bounds`; ``proofs``: the checked certificates,
    ``openings``: the decomposition's lower bounds)."""
    where = f"{folder}/bounds.json, {name}"
    lower, upper = record.get("lower"), record.get("upper")
    if not isinstance(lower, int) or not isinstance(upper, int) or not 0 <= lower <= upper:
        raise InputError(f"{where}: bounds {lower} .. {upper} are not 0 <= lower <= upper")
    if bool(record.get("optimal")) != (lower == upper):
        raise InputError(
            f"{where}: optimal is {record.get('optimal')}, its bounds {lower} .. {upper}"
        )
    split = (openings or {}).get(name)
    if split is not None and split > upper:
        raise InputError(f"{where}: the decomposition's lower bound {split} is above {upper}")
    _check_evidence(where, name, lower, upper, record["lower_by"], proofs or {}, openings or {})
    variant = Variant.parse(name)
    table = load_table(folder / str(record.get("table")))
    check_table(variant, table, f"{where}: its table", size=upper, verify=upper <= VERIFY_ON_LOAD)


def _check_evidence(
    where: str,
    name: str,
    lower: int,
    upper: int,
    lower_by: dict[str, Any],
    proofs: dict[str, int],
    openings: dict[str, int],
) -> None:
    """The lower bound's evidence, where it can be checked: a certificate is a checked record of
    the index with this minimum; an openings bound is the decomposition's."""
    method = lower_by["method"]
    if method == "certificate" and proofs.get(name) != lower:
        raise InputError(
            f"{where}: lower bound {lower} by certificate, but no checked certificate in "
            f"{CERTIFICATES} proves it"
        )
    if method == "certificate" and lower != upper:
        raise InputError(
            f"{where}: a certificate proves the minimum {lower}, the table has {upper}"
        )
    if method == "openings" and openings.get(name) != lower:
        raise InputError(
            f"{where}: lower bound {lower} by the openings, the decomposition says "
            f"{openings.get(name)}"
        )


GAME_NAMES = {"mnk:3,4,3": "3x4 k=3", "mnk:4,4,3": "4x4 k=3", "mnk:4,4,4": "4x4 k=4"}


def _found_by(record: dict[str, Any]) -> str:
    """The method whose verified table is the upper bound: the first event of the record's
    history that reached it (upper bounds only go down)."""
    for _seconds, _lower, upper, event in record.get("history") or []:
        if upper == record["upper"] and str(event).endswith(" table, verified"):
            return str(event).removesuffix(" table, verified").replace("rc2", "RC2")
    return ""


#: a lower bound's method, as the report's column names it
METHOD_NAMES = {
    "certificate": "certificate",
    "level certificates": "level certificates",
    "openings": "openings",
    "rc2": "RC2",
    "per-level minima": "levels",
    "mip dual bound": "MIP",
    "hinted": "hinted",
}


#: how many of a split variant's least parts the report names as the next to run
NEXT_PARTS = 5


def checkpoint_stem(name: str) -> str:
    """A variant's checkpoint stem under ``games/`` (``scripts/scale_games.py``'s layout).

    >>> checkpoint_stem("second-5:10-lookup-entries@mnk:4,4,4")
    'second-5-10-lookup-entries_mnk444'
    """
    head, _, game = name.partition("@")
    head = head.replace(":", "-")
    return f"{head}_{game.replace(':', '').replace(',', '')}" if game else head


def _mark(part: dict[str, Any]) -> str:
    """A least part's mark: stalled, and the replies it splits by where any is left, or the
    one it is split by already (its parts bound lower for now: they go on)."""
    if not part.get("stalled"):
        return ""
    if "split_at" in part:
        return f", stalled, split by {part['split_at']}: its parts go on"
    moves = part.get("split_by")
    return ", stalled" + (f", split by {'/'.join(map(str, moves))}" if moves else "")


def next_parts_markdown(name: str, parts: dict[str, dict[str, Any]]) -> str:
    """The least parts of a split certified bound, lowest first, each that has stalled marked
    (its last run raised it by less than 1%, or not at all: it is split, not run on), and the
    command that goes on from the least one's record that has not."""
    least = sorted(parts.items(), key=lambda item: (item[1]["lower"], item[0]))[:NEXT_PARTS]
    named = ", ".join(f"{cell} ({p['lower']}{_mark(p)})" for cell, p in least)
    line = f"The least parts, the next to run: {named}."
    stalled = any(p.get("stalled") for _cell, p in least)
    going = [cell for cell, p in least if not p.get("stalled")]
    if going:
        part = Variant.parse(name).replace(opening=going[0])
        who = "The others go on from their records" if stalled else "Each goes on from its record"
        line += (
            f" {who}, e.g. `minttt scale --game {part.game} --role {part.role.word} "
            f"--opening {going[0]} --cores 150 --relax --checkpoint "
            f"results/games/{checkpoint_stem(part.name)}.json --certificates results/proofs/mnk`."
        )
    if stalled:
        line += (
            " A part marked stalled gained less than 1% in its last run: it is split again "
            "instead, by the opponent's next move, as SPLITS in scale_games.py names."
        )
    ends = [cell for cell, p in least if p.get("stalled") and p.get("split_by") == []]
    if ends:
        line += (
            f" Every reply of the opponent is fixed in {', '.join(ends)} (split_moves): "
            f"{'it goes' if len(ends) == 1 else 'they go'} on, longer."
        )
    return line + (
        " Then a checkout's scripts/scale_games.py (--only none-such) takes the least again."
    )


def certified_markdown(bounds: dict[str, Any]) -> list[str]:
    """A line per variant with a certified lower bound: the bound and its blocks' sum, and
    where it is split, its least parts and the command that raises them."""
    lines = []
    for name, v in bounds.get("variants", {}).items():
        certified = v.get("certified")
        if not certified:
            continue
        parts = certified.get("openings") or {"": certified}
        word = "opening" if name.startswith("first") else "reply"
        per = "; ".join(
            f"{word + ' ' + cell + ': ' if cell else ''}{p['lower']} = "
            + " + ".join(str(b["lower"]) for b in p["blocks"])
            for cell, p in parts.items()
        )
        lines += [
            "",
            f"Certified lower bound, {name}: **{certified['lower']}** ({per}; each block's "
            "bound certified, by CaDiCaL's refutation one below, disjoint cores or relaxed "
            f"cores, in `{LOWER_CERTIFICATES}`, each the bound its cores file or CNF states; "
            f"{RECORDED}).",
        ]
        if certified.get("openings"):
            lines += ["", next_parts_markdown(name, certified["openings"])]
    return lines


def scale_markdown(bounds: dict[str, Any], plot: str | None = None) -> list[str]:
    """Per variant: proven lower bound, best verified table, status (proven / bounded) and gap."""
    lines = [
        "### 3x4 and 4x4 with the array pipeline",
        "",
        "From `games/bounds.json` (a long run, not part of `reproduce`; seed "
        f"{bounds.get('seed', 0)}; lookup encoding, size = entries). Upper bound = the best table "
        "found (by the method in the next column: greedy + local search, forced search, "
        "large-neighbourhood search, the hinted descent or RC2's model), each verified by "
        "`minttt verify` and saved under `games/`; "
        "lower bound (no smaller table exists) = a certificate's refutation one below a table "
        "(`certificate`: in `proofs/mnk/index.json`, recorded as checked when made), RC2's cores "
        "on the whole formula, "
        "the sum of each table level's own minimum (`levels`, `minttt scale --levels`), HiGHS's "
        "dual bound (`MIP`, `minttt scale --mip`), or the least over X's canonical openings of "
        "RC2's bound with that opening fixed (`openings`), whichever is higher; status `proven` "
        "only where a certificate recorded as checked backs the minimum; seconds = RC2 and table "
        "search, all runs.",
        "",
        "| game | player | lower | by | upper (verified table) | by | status | gap | greedy "
        "| seconds |",
        "| --- | --- | ---: | --- | ---: | --- | --- | ---: | ---: | ---: |",
    ]
    for name, v in bounds.get("variants", {}).items():
        role, game = name.split("@")
        player = "first (X)" if role.startswith("first") else "second (O)"
        lo, hi, method = v["lower"], v["upper"], v["lower_by"]["method"]
        by = METHOD_NAMES.get(method, method)
        if method == "certificate":
            status = "proven"
        else:
            status = "met, not certified" if lo >= hi else "bounded"
        gap = "0" if lo >= hi else f"{hi - lo} ({(hi - lo) / hi:.0%})"
        lines.append(
            f"| {GAME_NAMES.get(game, game)} | {player} | {lo} | {by} | {hi} | {_found_by(v)} | "
            f"{status} | {gap} | "
            f"{v.get('greedy_entries', '')} | {v['seconds']} |"
        )
    for d in bounds.get("opening_decomposition", []):
        per = ", ".join(
            f"{cell}: {r['lower']}{' (optimum)' if r['proven'] else ''}"
            for cell, r in d["openings"].items()
        )
        lines += [
            "",
            f"Decomposition by opening, {d['variant']} ({d['seconds_each']} s of RC2 per "
            f"canonical opening): lower bound min = {d['lower']} ({per}).",
        ]
    lines += certified_markdown(bounds)
    for name, v in bounds.get("variants", {}).items():
        levels = v.get("levels")
        if not levels:
            continue
        per = ", ".join(
            f"{lv['depth']}: {lv['lower']}{'' if lv['optimal'] else '+'}" for lv in levels["levels"]
        )
        lines += [
            "",
            f"Per-level minima, {name} (RC2, at most {levels['seconds_per_level']:g} s per level; "
            f"depth: minimum, `+` where RC2 stopped at a bound): sum {levels['lower']} ({per}).",
        ]
        if "certified" in levels:
            blocks = ", ".join(f"{b['depths']}: {b['lower']}" for b in levels.get("blocks", []))
            lines[-1] += (
                f" Certified: {levels['certified']} (blocks of {levels.get('block', 1)} "
                "level(s), each certified, by CaDiCaL's refutation one below or by disjoint "
                f"cores, in `{LOWER_CERTIFICATES}` ({RECORDED}): {blocks or 'none yet'})."
            )
    for name, v in bounds.get("variants", {}).items():
        mip = v.get("mip")
        if mip:
            lines += [
                "",
                f"HiGHS branch and bound on the 0/1 program, {name} ({mip['seconds']:g} s, "
                f"`minttt scale --mip`): dual bound {mip['lower']}, best point {mip['upper']}"
                f"{' (optimal)' if mip['optimal'] else ''}.",
            ]
    lp = [r for r in bounds.get("lp_relaxation", []) if r.get("lower") is not None]
    if lp:
        lines += ["", "LP relaxation (HiGHS) against RC2, same formula:", ""]
        rc2 = {k: v["lower"] for k, v in bounds.get("variants", {}).items()}
        for r in lp:
            lines.append(
                f"- {r['variant']}: LP {r['lower']} ({r['seconds']} s), "
                f"RC2 {rc2.get(r['variant'], '?')}"
            )
    if plot:
        lines += ["", f"![bounds over time]({plot})"]
    return lines


__all__ = [
    "VERIFY_ON_LOAD",
    "NEXT_PARTS",
    "certified_markdown",
    "check_bounds_record",
    "checkpoint_stem",
    "check_level_certificates",
    "load_bounds",
    "next_parts_markdown",
    "scale_markdown",
]
