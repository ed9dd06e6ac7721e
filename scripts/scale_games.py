"""4x4 and 3x4 with the array pipeline: verified tables, proven lower bounds, resumable runs.

    python scripts/scale_games.py [--limit-scale 1.0] [--out results/games]
    python scripts/scale_games.py --search 600 --only "@mnk:4,4,4" [--workers 2] [--method lns]
    python scripts/scale_games.py --levels 120 --only "@mnk:4,4,4"

Writes ``<out>/<variant>.json`` (checkpoint: bounds, history), ``<out>/<variant>.table.json``
(the best verified table), ``<out>/bounds.json`` (all bounds, opening decomposition) and
``<out>/bounds.png``. Fixed seeds; rerunning resumes from the checkpoints (delete them to start
over). Takes about 20 minutes at the default limits; ``minttt reproduce`` only reads the files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from minttt.bounds.openings import best_cut, opening_bounds
from minttt.bounds.runs import hinted_upper, level_lower, long_solve, searched_upper
from minttt.bounds.state import read_state, scale_store
from minttt.fileio import write_bytes_atomic, write_json_atomic
from minttt.formula.arrays import split_moves, split_variants
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph, build_array_graph
from minttt.render.bounds import bounds_plot
from minttt.report.bounds import CERTIFICATES, LOWER_CERTIFICATES, certified, checkpoint_stem

RUNS: tuple[tuple[str, str, float], ...] = (  # game, role, seconds
    ("mnk:3,4,3", "first", 60.0),
    ("mnk:3,4,3", "second", 180.0),
    ("mnk:4,4,3", "first", 60.0),
    ("mnk:4,4,3", "second", 240.0),
    ("mnk:4,4,4", "first", 300.0),
    ("mnk:4,4,4", "second", 240.0),
)
LP_RUNS: tuple[tuple[str, str, float], ...] = (  # the LP relaxation (scipy, if installed)
    ("mnk:3,4,3", "first", 30.0),
    ("mnk:3,4,3", "second", 60.0),
    ("mnk:4,4,3", "first", 90.0),
    ("mnk:4,4,3", "second", 120.0),
)
OPENINGS: tuple[tuple[str, float], ...] = (("mnk:4,4,3", 60.0), ("mnk:4,4,4", 240.0))
#: A certified bound is the least over the parts of a split (each part's checkpoint, from
#: ``minttt scale --opening ... --cores S``): X's by its openings (the decomposition's), O's
#: by its reply to the opening of X named for ``""``; then each part named here split again,
#: O's by its reply to another opening of X (``second-A-B+C-D-...``), X's by its answer to one
#: reply of O (``first-A+B-C-...``)
SPLITS: dict[str, dict[str, int]] = {
    # X's centre (293) and corner (297 disjoint cores, 316 relaxed) openings bound lowest: split
    # by X's answer to O's reply stored as played (0 after 5, 5 after 0), 8 answers each; then
    # 5+0:6, stalled at 367 (369 going on 250 s more), by X's answer to O's next reply, 1;
    # then the stalled: the edge opening (381, whole) by X's answer to O's 5, and 5+0:10 (386)
    # and 0+5:3 (408, no core in 120 s more) by X's answer to O's reply 1; then the least two,
    # 5+0:10+1:10 (401) by X's answer to O's reply 2 and 1+5:4 (406) by its answer to O's 0,
    # and 5+0:1 (418, stalled) by X's answer to O's reply 1; then 0+5:15 (424, stalled going
    # on) by X's answer to O's reply 1; then the stalled three, 5+0:3 (437, no core in 150 s
    # more) and 5+0:15 (446, none) by X's answer to O's reply 1, 5+0:6+1:6 (444, one) by its
    # answer to O's reply 2; then 5+0:6+1:6+2:6 (445, +2 in 240 s) by its answer to O's reply 3;
    # then 5+0:7 (458, none in 90 s more) by X's answer to O's reply 1, and
    # 5+0:6+1:6+2:6+3:6 (445, 1 in 200 s, none in 300 s; every reply stored as played fixed) by
    # its answer to O's reply 10, a reply the graph stores as its symmetric copy; then 0+5:1
    # (460, none in 90 s more) by X's answer to O's reply 10 (8 parts)
    "first-any-lookup-entries@mnk:4,4,4": {
        "5": 0,
        "0": 5,
        "5+0:6": 1,
        "1": 5,
        "5+0:10": 1,
        "0+5:3": 1,
        "5+0:10+1:10": 2,
        "1+5:4": 0,
        "5+0:1": 1,
        "0+5:15": 1,
        "5+0:3": 1,
        "5+0:15": 1,
        "5+0:6+1:6": 2,
        "5+0:6+1:6+2:6": 3,
        "5+0:7": 1,
        "5+0:6+1:6+2:6+3:6": 10,
        "0+5:1": 10,
    },
    # the three replies on X's diagonal bound lowest (370 to 387): split again by X's corner;
    # then the parts with one reply fixed as each stalled: 5:6 (428; 424 at 240 s), 5:1 (463),
    # 5:3 (466; 477 going on 250 s more), 5:7 (469, no core in 100 s more), and 5:2 (474, then
    # the least, split without going on as its kin had stalled); then the parts with two replies
    # fixed that stalled, by O's reply to X's edge: 5:10+0:5 (477), 5:0+0:15 (491) and
    # 5:10+0:10 (494), each under 6 more in 120 s more
    "second-lookup-entries@mnk:4,4,4": {
        "": 5,
        "5:0": 0,
        "5:10": 0,
        "5:15": 0,
        "5:6": 0,
        "5:1": 0,
        "5:3": 0,
        "5:7": 0,
        "5:2": 0,
        "5:10+0:5": 1,
        "5:0+0:15": 1,
        "5:10+0:10": 1,
    },
}
SEED = 0


#: the checkpoint's history events that raise the lower bound, and the method each names
EVENTS = {
    "rc2 lower bound": "rc2",
    "proven": "rc2",
    "per-level minima": "per-level minima",
    "mip dual bound": "mip dual bound",
    "level certificates": "level certificates",
}
KEYS = ("upper", "greedy_entries", "tree_dp", "seconds", "runs", "table", "levels", "mip")


def _split_tree(name: str, split: dict | None) -> dict[str, list[str]] | None:
    """The splits behind a certified bound of ``name``: each split variant's parts (every
    allowed move up to symmetry), ``name``'s by X's canonical openings (the decomposition's
    ``split``) or by O's reply to the opening :data:`SPLITS` names for ``""``, then each part
    :data:`SPLITS` names split again; None where the variant has no split."""
    if split is None and name not in SPLITS:
        return None
    v = Variant.parse(name)
    tree = {}
    if split is not None:
        tree[name] = [v.replace(opening=str(cell)).name for cell in split["openings"]]
    if name in SPLITS:
        graph = build_array_graph(v.rules)
        for key, move in SPLITS[name].items():
            part = v.replace(opening=key) if key else v
            tree[part.name] = [p.name for p in split_variants(graph, part, move)]
    return tree


def _part_bound(out: Path, name: str) -> tuple[int, list, float, bool] | None:
    """A part's certified bound from its checkpoint: ``(lower, blocks, seconds, stalled)``
    (stalled: its last run raised it by less than 1%, or not at all,
    :meth:`~minttt.bounds.state.BoundsState.stalled`);
    None where it has none (no checkpoint, or no certified blocks)."""
    path = out / f"{checkpoint_stem(name)}.json"
    if not path.is_file():
        return None
    with scale_store(path) as store:
        state = read_state(store, Variant.parse(name))
    blocks = (state.levels or {}).get("blocks")
    if not blocks:
        return None
    return sum(b["lower"] for b in blocks), blocks, state.seconds, state.stalled()


def _stalled(name: str, part: str, graph: ArrayGraph) -> dict:
    """A stalled ``part``'s marks (of the variant ``name``): stalled, and the moves it splits
    by (:func:`~minttt.formula.arrays.split_moves`; empty: none is left, it can only go on),
    or the one :data:`SPLITS` splits it by already (``split_at``: its parts, which bound
    lower than it for now, are the ones to go on)."""
    v = Variant.parse(part)
    done = SPLITS.get(name, {}).get(str(v.opening))
    if done is not None:
        return {"stalled": True, "split_at": done}
    return {"stalled": True, "split_by": split_moves(graph, v)}


def _certified(st, split: dict | None, out: Path, name: str) -> dict | None:
    """The certified lower bound of a variant: its checkpoint's certified blocks (``minttt scale
    --levels S --certify`` or ``--cores S``), or the least over its split (X's canonical
    openings, O's replies, each part at its best, its own or its split's:
    :func:`minttt.bounds.openings.best_cut`) of each part's (the checkpoints of the fixed
    variants, every part needed), whichever is higher."""
    own = None
    blocks = (st.levels or {}).get("blocks")
    if blocks:
        own = {"lower": sum(b["lower"] for b in blocks), "blocks": blocks}
    tree = _split_tree(name, split)
    if tree is None:
        return own
    parts = {p: _part_bound(out, p) for ps in tree.values() for p in ps if p != name}
    found = {p: b for p, b in parts.items() if b is not None}
    best = best_cut(name, tree, {p: b[0] for p, b in found.items()})
    if best is None:
        return own
    stalled = any(found[p][3] for p in best[1])  # their marks need the graph: built once
    graph = build_array_graph(Variant.parse(name).rules) if stalled else None
    by_opening = {
        "lower": best[0],
        "openings": {
            str(Variant.parse(p).opening): {"lower": found[p][0], "blocks": found[p][1]}
            | (_stalled(name, p, graph) if graph is not None and found[p][3] else {})
            for p in best[1]
        },
        "seconds": round(sum(b[2] for b in found.values()), 2),
    }
    return by_opening if own is None or by_opening["lower"] > own["lower"] else own


def _record(
    name: str, st, split: dict | None, proofs: dict[str, int], certified: dict | None = None
) -> dict:
    """A variant's bounds.json record: its best lower bound with what proves it (a checked
    certificate, level certificates, the decomposition by opening, or the checkpoint's run),
    ``optimal`` exactly when the bounds meet; the certified lower bound beside it."""
    lower, lower_by = (
        st.lower,
        {
            "method": _method(st),
            "evidence": f"checkpoint {checkpoint_stem(name)}.json, {st.lower_by or 'its history'}",
        },
    )
    if split is not None and split["lower"] > lower:
        lower = split["lower"]
        lower_by = {
            "method": "openings",
            "evidence": f"opening_decomposition: RC2 on each canonical opening, "
            f"{split['seconds_each']:g} s each",
        }
    if certified is not None and certified["lower"] >= lower:
        lower = certified["lower"]
        how = f"per {_part_word(name)}, " if "openings" in certified else ""
        lower_by = {
            "method": "level certificates",
            "evidence": f"{LOWER_CERTIFICATES}: {how}one checked record per block of levels "
            "(certified: CaDiCaL's refutation one below, disjoint cores or relaxed cores)",
        }
    if st.upper is not None and proofs.get(name) == st.upper:
        lower = st.upper
        lower_by = {"method": "certificate", "evidence": f"{CERTIFICATES}: {name}, checked"}
    doc = st.to_dict()
    record = {"lower": lower, "lower_by": lower_by}
    record |= {k: doc.get(k) for k in KEYS}
    if certified is not None:
        record["certified"] = certified
    record["optimal"] = st.upper is not None and lower >= st.upper
    record["history"] = list(doc["history"])
    if lower > max((h[1] for h in doc["history"]), default=0):
        # a bound no run of this checkpoint reached (X's openings, a certificate) ends its
        # history, at the seconds of all the runs behind it (the openings' too)
        spent = float(doc.get("seconds") or 0) + float((certified or {}).get("seconds", 0))
        split = "openings" in (certified or {})
        event = lower_by["method"] + (f" per {_part_word(name)}" if split else "")
        record["history"].append([round(spent, 2), lower, st.upper, event])
    return record


def _part_word(name: str) -> str:
    """What a split of ``name`` is by: X's openings, O's replies."""
    return "opening" if name.startswith("first") else "reply"


def _method(st) -> str:
    """The method behind a checkpoint's lower bound: named by the run that raised it, else by
    the first event of its history that reached it (RC2 when none says otherwise)."""
    if st.lower_by:
        return st.lower_by.split(",")[0]
    for _seconds, lower, _upper, event in st.history:
        if lower == st.lower:
            return EVENTS.get(str(event), "rc2")
    return "rc2"


def variant(game: str, role: str) -> Variant:
    return Variant(role, "any" if role == "first" else None, "lookup", "entries", game=game)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("results/games"))
    parser.add_argument("--limit-scale", type=float, default=1.0, help="multiply every limit")
    parser.add_argument("--only", default="", help="run only variants whose name contains this")
    parser.add_argument("--lp", action="store_true", help="only the LP relaxation bounds")
    parser.add_argument(
        "--hint",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="upper bounds only: greedy + local search, then a hinted SAT descent this long",
    )
    parser.add_argument(
        "--search",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="upper bounds only: a portfolio of searches this long per variant (Dask)",
    )
    parser.add_argument(
        "--levels",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="lower bounds only: the per-level minima, at most this long per level",
    )
    parser.add_argument(
        "--method", choices=("lns", "forced"), default="lns", help="the search for --search"
    )
    parser.add_argument("--workers", type=int, default=2, help="local Dask workers for --search")
    parser.add_argument("--slack", type=int, default=0, help="record-to-record slack (--search)")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler's address (--search)")
    args = parser.parse_args(argv)
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    states = {}
    for game, role, limit in RUNS:
        v = variant(game, role)
        path = args.out / f"{checkpoint_stem(v.name)}.json"
        if args.lp or (args.only and args.only not in v.name):
            with scale_store(path) as store:  # kept as it is (run before)
                states[v.name] = read_state(store, v)
            continue
        if args.levels > 0:
            states[v.name] = level_lower(
                v, path, seconds_per_level=args.levels * args.limit_scale, say=say
            )
            continue
        if args.search > 0:
            states[v.name] = searched_upper(
                v,
                path,
                seconds=args.search * args.limit_scale,
                seeds=args.workers,
                workers=args.workers,
                scheduler=args.scheduler,
                slack=args.slack,
                method=args.method,
                say=say,
            )
            continue
        if args.hint > 0:
            states[v.name] = hinted_upper(
                v, path, hint_seconds=args.hint * args.limit_scale, seed=SEED, say=say
            )
            continue
        states[v.name] = long_solve(
            v, path, time_limit=limit * args.limit_scale, seed=SEED, say=say
        )
    previous = args.out / "bounds.json"
    old = json.loads(previous.read_text()) if previous.exists() else {}
    decomposition = old.get("opening_decomposition", [])
    lp_rows = old.get("lp_relaxation", [])
    if args.lp:
        from dataclasses import asdict

        from minttt.formula.arrays import encode_arrays
        from minttt.game.arrays import build_array_graph
        from minttt.solvers.highs import lp_bound

        lp_rows = []
        for game, role, limit in LP_RUNS:
            v = variant(game, role)
            f = encode_arrays(build_array_graph(v.rules), v)
            row = lp_bound(f, limit * args.limit_scale)
            if row is not None:
                lp_rows.append({"variant": v.name, **asdict(row)})
                say(f"{v.name}: LP relaxation {row}")
    for game, limit in OPENINGS:
        v = variant(game, "first")
        bounds_only = args.lp or args.hint > 0 or args.search > 0 or args.levels > 0
        if bounds_only or (args.only and args.only not in v.name):
            continue
        decomposition = [d for d in decomposition if d["variant"] != v.name]
        say(f"{v.name}: decomposition by opening")
        decomposition.append(opening_bounds(v, limit * args.limit_scale, say=say).to_dict())
    proofs = certified(args.out.parent / CERTIFICATES)
    splits = {d["variant"]: d for d in decomposition}
    summary = {
        "seed": SEED,
        "variants": {
            name: _record(
                name,
                st,
                splits.get(name),
                proofs,
                _certified(st, splits.get(name), args.out, name),
            )
            for name, st in states.items()
        },
        "opening_decomposition": decomposition,
        "lp_relaxation": lp_rows,
    }
    write_json_atomic(args.out / "bounds.json", summary)
    plot = bounds_plot({name: r["history"] for name, r in summary["variants"].items()})
    write_bytes_atomic(args.out / "bounds.png", plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
