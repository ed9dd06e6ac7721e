"""The catalogue's part of ``reproduce``: the run's state (``catalogue/catalogue.run.json``, written
by ``minttt catalogue``) checked, the games that take seconds solved again here, and the results
file (``catalogue/catalogue.json``), its picture and REPORT.md's table written from them.

Nothing of the run is taken on its word: a proven cell needs a checked certificate of its minimum
in ``catalogue/index.json`` and its table (SHA-256 as recorded, that many entries); a certified
lower bound a checked record in ``catalogue/lower-bounds.json``; each game of
:data:`QUICK_GAMES` is solved again by RC2 and its tables verified, and must give the same
minima. The long games are listed with their status and the command that continues them.

The cells of the frontier's games (3x4 k=3, 4x4 k=3 and k=4) come from ``games/bounds.json``
(:func:`frontier_cells`), read back through :func:`minttt.report.bounds.load_bounds` (every
lower bound's evidence, every table): one figure for each, in every file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minttt.catalogue.cell import same_moves
from minttt.catalogue.check import check_run, unshipped
from minttt.catalogue.games import catalogue_games, cells
from minttt.catalogue.run import CONTINUE, RESULTS, catalogue_document, open_store
from minttt.errors import DefectError
from minttt.fileio import write_bytes_atomic, write_json_atomic
from minttt.formula.arrays import encode_arrays
from minttt.game.arrays import build_array_graph
from minttt.game.rules import Rules
from minttt.proof.index import load_index
from minttt.render.catalogue import catalogue_plot
from minttt.report.bounds import CERTIFICATES, load_bounds
from minttt.report.other_games import BOUNDS_FILE
from minttt.solvers.arrays import array_table, moves_from_model, rc2_arrays
from minttt.table.verify import verify_table

FOLDER = "catalogue"
#: a game's value as the table writes it (X's side)
VALUE_WORDS = {1: "+1", 0: "0", -1: "-1"}
PLOT = "catalogue.png"
#: the games ``reproduce`` solves again (a few seconds in all): every cell RC2, every table
#: verified, every minimum compared with the run's
QUICK_GAMES = (
    "mnk:2,2,2",
    "mnk:2,3,2",
    "mnk:2,3,3",
    "mnk:3,3,2",
    "mnk:2,4,2",
    "mnk:2,5,2",
    "3x3",
    "mnk:2,2,2-misere",
    "mnk:2,3,3-misere",
    "mnk:3,3,2-misere",
)


#: the mark of a proven cell whose proof does not ship (:func:`minttt.catalogue.check.unshipped`)
UNSHIPPED = "†"
#: the frontier's bounds, relative to the results folder (the catalogue's folder's parent)
FRONTIER = Path(BOUNDS_FILE)
#: the lower-bound methods of ``bounds.json`` that a checked certificate backs
CERTIFIED_METHODS = ("certificate", "level certificates")
#: the command that continues a frontier cell (its variant follows)
FRONTIER_CONTINUE = "minttt scale"


def frontier_cells(results: Path) -> dict[str, dict[str, Any]]:
    """``variant -> cell record`` of every catalogue cell that ``results/games/bounds.json``
    bounds, that file read back by :func:`~minttt.report.bounds.load_bounds` (InputError, one
    line, when it is inconsistent): proven where a checked certificate meets the verified table,
    bounded otherwise (its lower bound certified where a checked certificate backs it). Empty
    without the file."""
    path = results / FRONTIER
    if not path.is_file():
        return {}
    bounds = load_bounds(path)
    wanted = {c.variant.name for game in catalogue_games() for c in cells(game)}
    proofs = _frontier_proofs(results)
    out: dict[str, dict[str, Any]] = {}
    for name, record in bounds["variants"].items():
        if name not in wanted:
            continue
        method = record["lower_by"]["method"]
        proven = bool(record["optimal"]) and method == "certificate"
        shown = {"certificate": proofs[name]} if proven and name in proofs else {}
        out[name] = {
            "status": "proven" if proven else "bounded",
            "variant": name,
            "lower": record["lower"],
            "upper": record["upper"],
            "upper_by": FRONTIER_CONTINUE,
            "lower_by": method,
            "lower_certified": method in CERTIFIED_METHODS,
            **_certified_beneath(record, method),
            "table": f"../{FRONTIER.parent}/{record['table']}",
            "frontier": FRONTIER.as_posix(),
            **shown,
        }
    return out


def _frontier_proofs(results: Path) -> dict[str, str]:
    """``variant -> proof`` (relative to the catalogue's folder) of every record of the
    frontier's certificate index whose proof ships (``load_bounds`` checked the records): a
    proven frontier cell names it (``certificate``), else names none, as a catalogue cell whose
    proof does not ship (:func:`minttt.catalogue.check.unshipped`)."""
    path = results / CERTIFICATES
    if not path.is_file():
        return {}
    return {
        str(r["variant"]): f"../{CERTIFICATES.parent.as_posix()}/{r['proof']}"
        for r in load_index(path)["certificates"]
        if r.get("proof") is not None
    }


def _certified_beneath(record: dict[str, Any], method: str) -> dict[str, int]:
    """``{"certified_lower": n}`` for a frontier bound not certified itself but above the
    certified sum ``bounds.json`` names (checked by its reader); else nothing."""
    certified = record.get("certified")
    if method in CERTIFIED_METHODS or not certified or certified["lower"] >= record["lower"]:
        return {}
    return {"certified_lower": int(certified["lower"])}


def check_state(folder: Path) -> dict[str, Any]:
    """The run's state in ``folder`` read back and checked against its files, as ``minttt
    catalogue`` checks it when it resumes (:func:`minttt.catalogue.check.check_run`:
    InputError, one line, naming the cell)."""
    return check_run(open_store(folder))


def solve_again(game: str) -> dict[str, int | str]:
    """``cell key -> minimum`` (or the key of the cell it equals) of ``game`` by RC2, every
    table verified (DefectError otherwise)."""
    graph = build_array_graph(Rules.from_name(game))
    out: dict[str, int | str] = {}
    for cell in cells(game):
        side = 1 if cell.role == "X" else 2
        if cell.criterion == "never-lose" and same_moves(graph, side):
            out[cell.key] = f"{cell.role} optimal"
            continue
        formula = encode_arrays(graph, cell.variant)
        raw = rc2_arrays(formula)
        assert raw.model is not None  # no time limit
        chosen = moves_from_model(graph, formula, raw.model)
        table = array_table(graph, formula, chosen, {"variant": cell.variant.name})
        if not verify_table(table).ok:
            raise DefectError(f"{game} {cell.key}: RC2's table fails verification")
        out[cell.key] = len(chosen)
    return out


def catalogue_figures(out: Path, solved: dict[str, dict[str, int | str]]) -> dict[str, Any]:
    """Check the run under ``out/catalogue`` against ``solved`` (:func:`solve_again` of each game
    of :data:`QUICK_GAMES`; DefectError when a minimum differs from the run's), write the results
    file and the picture; the figures."""
    folder = out / FOLDER
    if not (folder / "catalogue.run.json").is_file():
        return {"available": False}
    state = check_state(folder)
    for game in QUICK_GAMES:
        have = state["games"].get(game, {}).get("cells", {})
        for key, value in solved[game].items():
            cell = have.get(key)
            if cell is None:
                continue
            mine = cell["same_as"] if cell["status"] == "same" else cell["upper"]
            if cell["status"] not in ("same", "proven") or mine != value:
                raise DefectError(f"{game} {key}: the run says {mine}, solved again {value}")
    document = catalogue_document(state, frontier=frontier_cells(out))
    write_json_atomic(folder / RESULTS, document)
    write_bytes_atomic(folder / PLOT, catalogue_plot(document))
    return {"available": True, "quick": list(QUICK_GAMES), "document": document}


def _cell(cell: dict[str, Any], doc: dict[str, Any]) -> str:
    """A cell in the table: ``**22**`` proven, ``40..55`` bounded, ``=`` as the optimal one."""
    status = cell["status"]
    if status == "same":
        return "="
    if status == "proven":
        return f"**{cell['upper']:,}**" + ("" if cell.get("certificate") else UNSHIPPED)
    if status == "bounded":
        if cell.get("lower_certified"):
            return f"{cell['lower']:,}..{cell['upper']:,}"
        if cell.get("certified_lower") is not None:
            return f"{cell['certified_lower']:,}..{cell['upper']:,} ({cell['lower']:,}*)"
        return f"{cell['lower']:,}*..{cell['upper']:,}"
    return "·"


def catalogue_markdown(figures: dict[str, Any]) -> list[str]:
    """REPORT.md's catalogue section."""
    head = ["## The catalogue of the small m,n,k games", ""]
    if not figures.get("available"):
        return [*head, "Not run yet: `minttt catalogue` writes `catalogue/`.", ""]
    games = figures["document"]["games"]
    done = sum(c["status"] != "pending" for g in games.values() for c in g["cells"].values())
    missing = unshipped(figures["document"])
    total = sum(len(g["cells"]) for g in games.values())
    lines = [
        *head,
        "Every m,n,k game with m <= n, m*n <= 16 and k from 2 to n (misère where cheap): its "
        "value (+1 X wins, 0 draw, -1 O wins), its canonical positions, and the smallest lookup "
        "table (entries) for X (any opening) and for O, under the optimal criterion and under "
        "never-lose (`=`: never-lose allows the same moves). **Bold**: proven (RC2's minimum, "
        "its table verified, and a checked certificate in `catalogue/index.json`); `lo..hi`: "
        "a verified table above and a lower bound below, certified in "
        "`catalogue/lower-bounds.json` unless starred (`*`: RC2's bound only; `lo..hi (r*)`: "
        "`lo` certified, RC2's higher bound `r` not); `·`: not run "
        f"yet. {done} of {total} cells settled or bounded; the games "
        f"{', '.join(figures['quick'])} are solved again by every `reproduce`. Continue the "
        f"rest with `{CONTINUE}` (a larger limit reruns the bounded cells). The cells of "
        "3x4 k=3 and 4x4 (k=3, k=4) are the frontier's, from `games/bounds.json` (proven by "
        f"the certificates of `proofs/mnk/`; continued by `{FRONTIER_CONTINUE}`), never "
        "worked twice.",
        "",
        f"`{UNSHIPPED}`: proven, but the proof is too large to ship ({len(missing)} cells: "
        "its SHA-256, sizes and check are recorded in the certificate index; a run given more "
        f"time than the cell had, `{CONTINUE}`, tries relaxed cores, whose proof may ship). "
        "Every other proven cell names its shipped proof.",
        "",
        "| game | value | positions | X optimal | X never-lose | O optimal | O never-lose |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, g in games.items():
        value = "" if g.get("value") is None else VALUE_WORDS[g["value"]]
        positions = "" if g.get("positions") is None else f"{g['positions']:,}"
        row = [_cell(g["cells"][key], g) for key in g["cells"]]
        lines.append(f"| {name} | {value} | {positions} | " + " | ".join(row) + " |")
    lines += ["", f"![the catalogue]({FOLDER}/{PLOT})", ""]
    return lines


__all__ = [
    "FRONTIER",
    "QUICK_GAMES",
    "catalogue_figures",
    "catalogue_markdown",
    "check_state",
    "frontier_cells",
    "solve_again",
]
