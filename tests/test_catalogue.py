"""The catalogue of the small m,n,k games (issue 43): its games and cells, one game worked out
(every minimum proven by RC2, its table verified and its certificate checked), the resumable run
on the run store (serially and on a Dask cluster), the report's check of it, and the command."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest

from minttt.catalogue.cell import same_moves, work_game
from minttt.catalogue.games import POSITIONS, by_size, catalogue_games, cells
from minttt.catalogue.run import (
    RESULTS,
    STATE,
    _better,
    catalogue_document,
    describe,
    open_store,
    run_catalogue,
)
from minttt.cli import run as cli_run
from minttt.errors import InputError
from minttt.game.arrays import build_array_graph
from minttt.game.rules import Rules
from minttt.proof import drat
from minttt.proof.index import INDEX, load_index
from minttt.render.catalogue import catalogue_plot
from minttt.report.catalogue import catalogue_markdown, check_state, solve_again
from minttt.table.model import load_table
from minttt.table.verify import verify_table


def test_the_games_are_every_small_board_and_k() -> None:
    games = catalogue_games(misere=False)
    assert len(games) == 40  # 2x2..2x8: 28, 3x3..3x5: 9, 4x4: 3
    for name in games:
        rules = Rules.from_name(name)
        assert rules.rows <= rules.cols and rules.cells <= 16 and 2 <= rules.k <= rules.cols
    misere = [g for g in catalogue_games() if g.endswith("-misere")]
    assert misere and all(g.removesuffix("-misere") in games for g in misere)
    assert by_size(games)[0] == "mnk:2,2,2" and by_size(games)[-1] in ("mnk:4,4,4", "mnk:3,5,5")


def test_the_position_counts_are_the_graphs() -> None:
    for name, count in POSITIONS.items():
        if count <= 5000:
            assert build_array_graph(Rules.from_name(name)).size == count, name


def test_a_game_worked_out_proves_and_certifies_every_cell(tmp_path: Path) -> None:
    result = work_game("mnk:2,3,3", 60.0)
    assert result.figures == {
        "rows": 2, "cols": 3, "k": 3, "misere": False, "value": 0, "positions": 75
    }  # fmt: skip
    by_key = {c.cell.key: c for c in result.cells}
    assert by_key["O never-lose"].record == {"status": "same", "same_as": "O optimal"}
    for key in ("X optimal", "X never-lose", "O optimal"):
        cell = by_key[key]
        assert cell.record["status"] == "proven" and cell.record["lower_by"] == "certificate"
        assert cell.table is not None and verify_table(cell.table).ok
        (record,) = cell.minimum
        assert record["minimum"] == cell.record["upper"] == cell.table.size
        assert record["checked_by"]  # checked before it is kept
        cnf, proof = (lzma.decompress(cell.files[record[k]]) for k in ("cnf", "proof"))
        assert drat.check(cnf, proof).valid
    assert by_key["X optimal"].record["upper"] == 10 and by_key["O optimal"].record["upper"] == 11


def test_never_lose_differs_only_where_its_moves_do() -> None:
    graph = build_array_graph(Rules.from_name("3x3"))
    assert not same_moves(graph, 1) and not same_moves(graph, 2)  # 22 = 22, but 72 > 71
    assert same_moves(build_array_graph(Rules.from_name("mnk:2,2,2")), 1)


def test_the_run_keeps_each_game_and_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "cat"
    games = ["mnk:2,2,2", "mnk:2,3,2"]
    lines: list[str] = []
    doc = run_catalogue(folder, seconds=30, games=games, serial=True, say=lines.append)
    assert doc["games"]["mnk:2,2,2"]["cells"]["X optimal"]["upper"] == 3
    assert doc["games"]["mnk:4,4,4"]["cells"]["X optimal"] == {"status": "pending"}
    assert "seconds" not in json.dumps(doc)  # the results file holds no timing
    assert (folder / STATE).is_file() and (folder / RESULTS).is_file()
    state = check_state(folder)  # every proven cell by a checked certificate and its table
    assert state["games"]["mnk:2,3,2"]["value"] == 1
    for record in load_index(folder / INDEX)["certificates"]:
        assert load_table(folder / record["table"]).size == record["minimum"]
    again: list[str] = []
    run_catalogue(folder, seconds=30, games=games, serial=True, say=again.append)
    assert again[0] == "catalogue: 2 of 2 games done, 0 to go"
    assert catalogue_document(state) == json.loads((folder / RESULTS).read_text())


def test_a_damaged_run_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "cat"
    run_catalogue(folder, seconds=30, games=["mnk:2,2,2"], serial=True, say=lambda _m: None)
    state = json.loads((folder / STATE).read_text())
    table = state["games"]["mnk:2,2,2"]["cells"]["X optimal"]["table"]
    original = (folder / table).read_text()
    (folder / table).write_text(original.replace('"size": 3', '"size": 4'))
    # the certificate's record reads its table first, then the state's SHA-256 would
    with pytest.raises(InputError, match="not the file|size: 4 but the table has 3 entries"):
        check_state(folder)
    (folder / table).write_text(original)
    state["games"]["mnk:2,2,2"]["cells"]["O optimal"]["upper"] = 2
    (folder / STATE).write_text(json.dumps(state))
    with pytest.raises(InputError):
        check_state(folder)
    state["games"]["mnk:2,2,2"]["cells"]["O optimal"]["upper"] = 1
    state["games"]["mnk:2,2,2"]["cells"]["O optimal"]["certified_lower"] = 1
    state["games"]["mnk:2,2,2"]["cells"]["O optimal"]["status"] = "bounded"
    (folder / STATE).write_text(json.dumps(state))
    with pytest.raises(InputError, match="lower bound 1 certified by no record"):
        check_state(folder)
    # proven by relaxed cores: only with a checked lower-bounds.json record of the minimum
    cell = state["games"]["mnk:2,2,2"]["cells"]["O optimal"]
    del cell["certified_lower"]
    cell.update(status="proven", lower_by="lower certificate")
    (folder / STATE).write_text(json.dumps(state))
    with pytest.raises(InputError, match="proven, but no checked certificate of 1"):
        check_state(folder)


def test_the_run_spreads_games_over_a_dask_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    doc = run_catalogue(
        tmp_path, seconds=30, games=["mnk:2,2,2", "mnk:3,3,2"], workers=1, say=lambda _m: None
    )
    assert doc["games"]["mnk:3,3,2"]["cells"]["O optimal"]["upper"] == 6
    with open_store(tmp_path) as store:  # the run released its lock
        assert store.exists()


def test_reproduce_solves_the_quick_games_again() -> None:
    assert solve_again("mnk:2,3,3") == {
        "X optimal": 10, "X never-lose": 10, "O optimal": 11, "O never-lose": "O optimal"
    }  # fmt: skip


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_the_report_and_picture(tmp_path: Path) -> None:
    run_catalogue(tmp_path, seconds=30, games=["mnk:2,2,2"], serial=True, say=lambda _m: None)
    doc = json.loads((tmp_path / RESULTS).read_text())
    figures = {"available": True, "quick": ["mnk:2,2,2"], "document": doc}
    text = "\n".join(catalogue_markdown(figures))
    assert "| mnk:2,2,2 | +1 | 6 | **3** | = | **1** | = |" in text
    assert catalogue_plot(doc) == catalogue_plot(doc)  # deterministic bytes
    assert catalogue_plot(doc).startswith(b"\x89PNG")


def test_the_command_says_bad_games_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_run(["catalogue", "--games", "mnk:2,9,2"]) == 2
    assert cli_run(["catalogue", "--games", "mnk:5,3,2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "not in the catalogue" in err


def test_every_cell_has_a_variant() -> None:
    for cell in cells("mnk:3,4,3-misere"):
        assert cell.variant.game == "mnk:3,4,3-misere" and cell.variant.objective == "entries"


def test_3x3_is_the_certified_minima_of_the_standard_variants() -> None:
    index = load_index(Path(__file__).resolve().parent.parent / "results" / "proofs" / INDEX)
    minimum = {r["variant"]: r["minimum"] for r in index["certificates"]}
    again = solve_again("3x3")
    assert again["X optimal"] == minimum["first-any-lookup-entries"] == 22
    assert again["X never-lose"] == minimum["first-any-lookup-entries-never-lose"]
    assert again["O optimal"] == minimum["second-lookup-entries"] == 72
    assert again["O never-lose"] == minimum["second-lookup-entries-never-lose"] == 71


def test_figures_only_fills_value_and_positions(tmp_path: Path) -> None:
    games = ["mnk:2,2,2", "mnk:3,4,2"]
    doc = run_catalogue(
        tmp_path, seconds=30, games=games, serial=True, figures_only=True, say=lambda _m: None
    )
    game = doc["games"]["mnk:3,4,2"]
    assert (game["value"], game["positions"]) == (1, 2732)
    assert all(c == {"status": "pending"} for c in game["cells"].values())


RESULTS_DIR = Path(__file__).resolve().parent.parent / "results"


def test_the_frontiers_games_show_the_frontiers_figures() -> None:
    # one figure for each: 3x4 O is 189 (certified) in the catalogue as in bounds.json, not the
    # catalogue's own 175 .. 215; 4x4 k=4 shows the frontier's bounds, each certified (O's the
    # least over the parts of its split by reply), nothing starred
    from minttt.report.catalogue import frontier_cells

    frontier = frontier_cells(RESULTS_DIR)
    bounds = json.loads((RESULTS_DIR / "games" / "bounds.json").read_text())["variants"]
    assert set(frontier) == set(bounds)  # every variant the frontier bounds is a catalogue cell
    state = check_state(RESULTS_DIR / "catalogue")
    doc = catalogue_document(state, frontier=frontier)
    for name, record in bounds.items():
        game = name.split("@")[1]
        key = ("X" if name.startswith("first") else "O") + " optimal"
        cell = doc["games"][game]["cells"][key]
        assert (cell["lower"], cell["upper"]) == (record["lower"], record["upper"])
        assert (cell["status"] == "proven") == (record["lower_by"]["method"] == "certificate")
        own = state["games"].get(game, {}).get("cells", {}).get(key)
        if own is not None and own["status"] == "proven":  # 3x4 X: both proven, the same 46
            assert "frontier" not in cell
            continue
        assert cell["frontier"] == "games/bounds.json"
        assert load_table(RESULTS_DIR / "catalogue" / cell["table"]).size == record["upper"]
        sure = record.get("certified")
        if not cell["lower_certified"] and sure and sure["lower"] < record["lower"]:
            # an uncertified bound (per-level minima, RC2) above the certified one
            assert cell["certified_lower"] == sure["lower"]
        else:
            assert "certified_lower" not in cell
    o444 = doc["games"]["mnk:4,4,4"]["cells"]["O optimal"]
    assert o444["lower_certified"] and "certified_lower" not in o444
    assert o444["lower"] == bounds["second-lookup-entries@mnk:4,4,4"]["certified"]["lower"] >= 389
    assert doc == json.loads((RESULTS_DIR / "catalogue" / RESULTS).read_text())


def test_a_frontier_cell_is_never_worked_by_the_catalogue(tmp_path: Path) -> None:
    from minttt.catalogue.run import to_do

    frontier = {"second-lookup-entries@mnk:2,2,2": {"status": "proven", "lower": 1, "upper": 1}}
    state = {"format": "minttt-catalogue/1", "games": {}}
    work = to_do(state, ["mnk:2,2,2"], 30, elsewhere=set(frontier))
    assert work == {"mnk:2,2,2": ["X optimal", "X never-lose", "O never-lose"]}
    doc = run_catalogue(
        tmp_path, seconds=30, games=["mnk:2,2,2"], serial=True, frontier=frontier,
        say=lambda _m: None,
    )  # fmt: skip
    assert (
        doc["games"]["mnk:2,2,2"]["cells"]["O optimal"]
        == frontier["second-lookup-entries@mnk:2,2,2"]
    )
    assert (
        "O optimal" not in json.loads((tmp_path / STATE).read_text())["games"]["mnk:2,2,2"]["cells"]
    )


def test_the_frontier_and_the_catalogue_are_overlaid_whole_or_refused() -> None:
    from minttt.catalogue.run import overlay
    from minttt.errors import DefectError

    own = {"status": "bounded", "lower": 175, "upper": 215, "lower_certified": True}
    proven = {"status": "proven", "lower": 189, "upper": 189}
    assert overlay("c", own, proven) is proven
    assert overlay("c", None, own) is own and overlay("c", {"status": "pending"}, own) is own
    wide = {"status": "bounded", "lower": 100, "upper": 300}
    narrow = {"status": "bounded", "lower": 180, "upper": 200}
    assert overlay("c", own, wide) is own and overlay("c", own, narrow) is narrow
    assert overlay("c", {**proven, "table": "mine"}, proven)["table"] == "mine"
    same = {"status": "same", "same_as": "O optimal"}
    assert overlay("c", same, proven) is same
    with pytest.raises(DefectError, match="contradict"):
        overlay("3x4 O", own, {"status": "bounded", "lower": 216, "upper": 300})
    with pytest.raises(DefectError, match="contradict"):
        overlay("3x4 O", own, {"status": "proven", "lower": 170, "upper": 170})


def test_a_tampered_frontier_file_is_refused_in_one_line(tmp_path: Path) -> None:
    import shutil

    from minttt.report.catalogue import frontier_cells

    assert frontier_cells(tmp_path) == {}
    shutil.copytree(RESULTS_DIR / "games", tmp_path / "games")
    shutil.copytree(RESULTS_DIR / "proofs" / "mnk", tmp_path / "proofs" / "mnk")
    path = tmp_path / "games" / "bounds.json"
    bounds = json.loads(path.read_text())
    bounds["variants"]["second-lookup-entries@mnk:3,4,3"]["lower"] = 190  # above its table
    path.write_text(json.dumps(bounds))
    with pytest.raises(InputError, match="bounds.json"):
        frontier_cells(tmp_path)


def test_a_never_lose_cell_is_bounded_by_the_optimal_table_too() -> None:
    # an optimal table never loses: 3x4 O never-lose is at most the 189 of O optimal (the
    # catalogue's own never-lose table has 196), and that table passes the never-lose verifier
    from minttt.catalogue.run import within_optimal
    from minttt.table.verify import verify_player

    doc = json.loads((RESULTS_DIR / "catalogue" / RESULTS).read_text())
    for game in doc["games"].values():
        for role in ("X", "O"):
            never, best = game["cells"][f"{role} never-lose"], game["cells"][f"{role} optimal"]
            if never["status"] == "bounded" and best["status"] != "pending":
                assert never["upper"] <= best["upper"]
    cells3x4 = doc["games"]["mnk:3,4,3"]["cells"]
    assert cells3x4["O never-lose"]["upper"] == 189 == cells3x4["O optimal"]["upper"]
    table = load_table(RESULTS_DIR / "catalogue" / cells3x4["O never-lose"]["table"])
    assert verify_player(table.player(), "O", "never-lose", rules=Rules.from_name("mnk:3,4,3")).ok
    same = {"status": "same", "same_as": "O optimal"}
    assert within_optimal(same, cells3x4["O optimal"]) is same
    wide = {"status": "bounded", "lower": 1, "upper": 500, "table_sha256": "0" * 64, "table": "t"}
    assert "table_sha256" not in within_optimal(wide, {**cells3x4["O optimal"]})


def _one_core_solver() -> type:
    """A cube solver whose time runs out after its first core: a core search stopped early."""
    from minttt.proof.cubes import CubeSolver

    class OneCore(CubeSolver):
        def refute_core(self, assumptions, deadline=None):
            if self.sequence:
                raise TimeoutError("stand-in: the time ran out")
            return super().refute_core(assumptions, deadline)

    return OneCore


def test_relaxed_cores_certify_a_bound_the_refutation_did_not_reach(monkeypatch) -> None:
    """Where CaDiCaL does not refute "fewer than RC2's bound" in time, relaxed cores certify
    the cell's lower bound instead: run to their end, the minimum, with their last model as a
    table of it (mnk:3,3,2 O: RC2 said 1..7, the cores prove 6; 3x3 X: 20..23, they prove 22);
    stopped early (here after one core), a bound beneath RC2's as ``certified_lower``."""
    from minttt.catalogue import cell as cell_module
    from minttt.catalogue.games import Cell
    from minttt.formula.arrays import encode_arrays
    from minttt.proof import lower as lower_module
    from minttt.proof.certify import OutOfTime

    def out_of_time(*_args, **_kwargs):
        raise OutOfTime("stand-in: the cardinality refutation ran out of time")

    monkeypatch.setattr(cell_module, "build_lower_certificate", out_of_time)
    runs = (("mnk:3,3,2", "O", 1, 7, 6), ("3x3", "X", 20, 23, 22))
    for game, role, lower, upper, minimum in runs:
        one = Cell(game, role, "optimal")
        graph = build_array_graph(Rules.from_name(game))
        formula = encode_arrays(graph, one.variant)
        result = cell_module.CellResult(one, {"variant": one.variant.name, "upper": upper})
        result.record.update(lower=lower, table=f"{one.variant.name}.table.json")
        cell_module._certify_lower(result, one.variant, graph, formula, lower, 30.0, None)
        record = result.record
        (cert,) = result.lower
        assert cert["method"] == "relaxed cores" and cert["complete"] and cert["exact"]
        assert record["status"] == "proven" and record["lower_by"] == "lower certificate"
        assert record["lower"] == record["upper"] == cert["lower"] == minimum
        assert record["upper_by"] == "relaxed cores" and result.table is not None
        assert result.table.size == minimum and cert["cores"] in result.files
        assert record["certificate"] == cert["proof"] and "lower_certified" not in record

    # stopped after its first core (the next call's time runs out): one certified, RC2's 20
    # stands above it, uncertified
    monkeypatch.setattr(lower_module, "CubeSolver", _one_core_solver())
    one = Cell("3x3", "X", "optimal")
    graph = build_array_graph(Rules.from_name("3x3"))
    formula = encode_arrays(graph, one.variant)
    result = cell_module.CellResult(one, {"variant": one.variant.name, "upper": 23, "lower": 20})
    cell_module._certify_lower(result, one.variant, graph, formula, 20, 30.0, None)
    record = result.record
    (cert,) = result.lower
    assert cert["method"] == "relaxed cores" and not cert["complete"]
    assert (record["status"], record["lower"], record["lower_certified"]) == ("bounded", 20, False)
    assert record["certified_lower"] == cert["lower"] < 20
    assert f"not certified; {cert['lower']} certified" in describe(record)


def test_where_relaxed_cores_stay_below_the_refutation_certifies_rc2s_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Relaxed cores stopped after one core, below RC2's bound of 5 (mnk:3,3,2 O, minimum 6):
    CaDiCaL's refutation of "fewer than 5" certifies it, and its record and files replace the
    cores' (nothing of theirs is left to write)."""
    from minttt.catalogue import cell as cell_module
    from minttt.catalogue.games import Cell
    from minttt.formula.arrays import encode_arrays
    from minttt.proof import lower as lower_module

    monkeypatch.setattr(lower_module, "CubeSolver", _one_core_solver())
    one = Cell("mnk:3,3,2", "O", "optimal")
    graph = build_array_graph(Rules.from_name("mnk:3,3,2"))
    formula = encode_arrays(graph, one.variant)
    result = cell_module.CellResult(one, {"variant": one.variant.name, "upper": 7, "lower": 5})
    cell_module._certify_lower(result, one.variant, graph, formula, 5, 30.0, None)
    record = result.record
    (cert,) = result.lower
    assert cert.get("method", "cardinality") == "cardinality" and cert["lower"] == 5
    assert (record["lower"], record["lower_certified"]) == (5, True)
    assert "certified_lower" not in record
    assert not [name for name in result.files if ".relaxed." in name]


def test_a_formula_too_large_to_refute_keeps_the_cores_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Above ``REFUTE_MAX_CLAUSES`` hard clauses no refutation of "fewer than RC2's bound" is
    tried (2x8 k=5's, with its cardinality, grew a worker past 19 GB and could not end in the
    time): the case above, at a limit below mnk:3,3,2's formula, keeps the cores' bound beneath
    RC2's, uncertified, and never calls the refutation."""
    from minttt.catalogue import cell as cell_module
    from minttt.catalogue.games import Cell
    from minttt.formula.arrays import encode_arrays
    from minttt.proof import lower as lower_module

    def never(*_args, **_kwargs):
        raise AssertionError("the refutation was tried")

    monkeypatch.setattr(lower_module, "CubeSolver", _one_core_solver())
    monkeypatch.setattr(cell_module, "build_lower_certificate", never)
    one = Cell("mnk:3,3,2", "O", "optimal")
    graph = build_array_graph(Rules.from_name("mnk:3,3,2"))
    formula = encode_arrays(graph, one.variant)
    monkeypatch.setattr(cell_module, "REFUTE_MAX_CLAUSES", formula.num_clauses - 1)
    result = cell_module.CellResult(one, {"variant": one.variant.name, "upper": 7, "lower": 5})
    cell_module._certify_lower(result, one.variant, graph, formula, 5, 30.0, None)
    record = result.record
    (cert,) = result.lower
    assert cert["method"] == "relaxed cores" and not cert["complete"]
    assert (record["lower"], record["lower_certified"]) == (5, False)
    assert record["certified_lower"] == cert["lower"] < 5


def test_a_cell_proven_by_relaxed_cores_is_kept_and_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every refutation of "fewer than RC2's minimum" out of time: relaxed cores prove the
    cells instead, the run keeps their records in lower-bounds.json, and reading the run back
    checks each proven cell against a checked record of its minimum."""
    from minttt.catalogue import cell as cell_module
    from minttt.proof.certify import OutOfTime
    from minttt.proof.lower import LOWER_INDEX, load_lower

    def out_of_time(*_args, **_kwargs):
        raise OutOfTime("stand-in: the refutation ran out of time")

    monkeypatch.setattr(cell_module, "build_certificate", out_of_time)
    monkeypatch.setattr(cell_module, "build_lower_certificate", out_of_time)
    folder = tmp_path / "cat"
    run_catalogue(folder, seconds=30, games=["mnk:3,3,2"], serial=True, say=lambda _m: None)
    state = check_state(folder)
    cells_ = state["games"]["mnk:3,3,2"]["cells"]
    proven = [c for c in cells_.values() if c["status"] == "proven"]
    assert proven and all(c["lower_by"] == "lower certificate" for c in proven)
    records = {r["variant"]: r for r in load_lower(folder / LOWER_INDEX)}
    for cell in proven:
        record = records[cell["variant"]]
        assert record["method"] == "relaxed cores" and record["exact"]
        assert record["lower"] == cell["upper"] and record["proof"] == cell["certificate"]


def test_a_rerun_keeps_the_higher_certified_bound_beneath_an_uncertified_one() -> None:
    """Two runs of a bounded cell: the higher lower bound stands, and beneath an uncertified one
    the higher of the two runs' certified bounds (never a certified bound lost)."""
    rc2 = {"lower": 70, "lower_by": "rc2", "lower_certified": False, "certified_lower": 40}
    refuted = {"lower": 65, "lower_by": "lower certificate", "lower_certified": True}
    for old, new in ((dict(rc2), dict(refuted)), (dict(refuted), dict(rc2))):
        kept = _better(old, new)
        assert (kept["lower"], kept["lower_certified"], kept["certified_lower"]) == (70, False, 65)
    higher = {"lower": 72, "lower_by": "lower certificate", "lower_certified": True}
    assert "certified_lower" not in _better(dict(rc2), dict(higher))
    less = {"lower": 60, "lower_by": "rc2", "lower_certified": False, "certified_lower": 30}
    assert _better(dict(rc2), less)["certified_lower"] == 40


def test_a_rerun_keeps_the_smaller_table_and_its_file(tmp_path: Path) -> None:
    """A rerun's RC2 may stop at a worse model: the cell keeps the smaller verified table, its
    file untouched, and takes the rerun's better lower bound."""
    from minttt.catalogue.cell import CellResult, GameResult
    from minttt.catalogue.games import Cell
    from minttt.catalogue.run import keep, read_state

    one = Cell("mnk:2,2,2", "X", "optimal")

    def bounded(lower: int, upper: int, text: bytes) -> GameResult:
        record = {"variant": one.variant.name, "status": "bounded", "lower": lower,
                  "upper": upper, "upper_by": "rc2", "table": "t.table.json",
                  "time_limit": 30.0, "lower_by": "rc2", "lower_certified": False}  # fmt: skip
        cell = CellResult(one, record, files={"t.table.json": text})
        return GameResult("mnk:2,2,2", {"value": 1}, [cell])

    with open_store(tmp_path) as store:
        state = read_state(store)
        keep(store, state, bounded(2, 3, b"small"))
        (line,) = keep(store, state, bounded(3, 5, b"worse"))
        record = state["games"]["mnk:2,2,2"]["cells"]["X optimal"]
        assert (record["lower"], record["upper"]) == (3, 3) and "3 .. 3" in line
        assert store.read("t.table.json", record["table_sha256"]) == b"small"


def test_a_rerun_certified_below_the_kept_bound_leaves_no_files(tmp_path: Path) -> None:
    """A rerun whose certificate is below the one the index keeps: the index keeps the higher,
    and the lower one's files are not left in the folder (named by no record)."""
    from minttt.catalogue.cell import CellResult, GameResult
    from minttt.catalogue.games import Cell
    from minttt.catalogue.run import keep, read_state
    from minttt.proof.lower import LOWER_INDEX, build_lower_certificate, load_lower

    one = Cell("3x3", "X", "optimal")

    def bounded(lower: int) -> GameResult:
        cert = build_lower_certificate(one.variant, lower, "")
        record = {"variant": one.variant.name, "status": "bounded", "lower": lower,
                  "upper": 30, "upper_by": "rc2", "table": "t.table.json", "time_limit": 30.0,
                  "lower_by": "lower certificate", "lower_certified": True}  # fmt: skip
        files = {"t.table.json": b"table", **{str(p): d for p, d in cert.files.items()}}
        cell = CellResult(one, record, lower=[cert.record], files=files)
        return GameResult("3x3", {"value": 0}, [cell])

    with open_store(tmp_path) as store:
        state = read_state(store)
        keep(store, state, bounded(6))
        keep(store, state, bounded(4))
        (kept,) = load_lower(store.path(LOWER_INDEX))
        assert kept["lower"] == 6
        named = {kept[k] for k in ("cnf", "proof") if kept.get(k)} | {"t.table.json"}
        own = ("catalogue.run.json", LOWER_INDEX)
        on_disk = {p.name for p in tmp_path.iterdir() if p.name not in own}
        assert {n for n in on_disk if not n.endswith(".lock")} == named


def test_a_minimum_too_large_to_ship_is_proven_by_relaxed_cores_that_ship(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No refutation's proof ships (the limit at 0 bytes): relaxed cores prove each minimum
    instead, with a proof that ships, the refutation's record stays in index.json, and the
    run read back names every proof."""
    from minttt.catalogue.check import unshipped
    from minttt.proof import certify

    monkeypatch.setattr(certify, "MAX_SHIPPED_PROOF", 0)
    folder = tmp_path / "cat"
    doc = run_catalogue(folder, seconds=30, games=["mnk:2,3,3"], serial=True, say=lambda _m: None)
    state = check_state(folder)
    proven = [c for c in state["games"]["mnk:2,3,3"]["cells"].values() if c["status"] == "proven"]
    assert len(proven) == 3 and all(c["lower_by"] == "lower certificate" for c in proven)
    assert all((folder / c["certificate"]).is_file() for c in proven)
    refutations = {r["variant"]: r for r in load_index(folder / INDEX)["certificates"]}
    assert all(refutations[c["variant"]]["proof"] is None for c in proven)
    assert unshipped(doc) == []


def test_a_proven_cell_whose_proof_does_not_ship_is_worked_again_given_more_time() -> None:
    from minttt.catalogue.run import to_do

    record = {"status": "proven", "certificate": None, "time_limit": 30.0, "table_sha256": "a"}
    state = {"games": {"mnk:2,2,2": {"cells": {c.key: dict(record) for c in cells("mnk:2,2,2")}}}}
    assert to_do(state, ["mnk:2,2,2"], 30.0) == {}
    assert to_do(state, ["mnk:2,2,2"], 60.0) == {"mnk:2,2,2": [c.key for c in cells("mnk:2,2,2")]}
    for cell in state["games"]["mnk:2,2,2"]["cells"].values():
        cell["certificate"] = "p.drat.xz"
    assert to_do(state, ["mnk:2,2,2"], 60.0) == {}


def test_every_proven_cell_names_its_shipped_proof_or_is_listed_unshipped() -> None:
    from minttt.catalogue.check import unshipped

    folder = RESULTS_DIR / "catalogue"
    doc = json.loads((folder / RESULTS).read_text())
    missing = set(unshipped(doc))
    for game, g in doc["games"].items():
        for key, cell in g["cells"].items():
            if cell["status"] == "proven" and f"{game} {key}" not in missing:
                assert (folder / cell["certificate"]).is_file(), (game, key)
    text = "\n".join(catalogue_markdown({"available": True, "quick": [], "document": doc}))
    assert f"({len(missing)} cells:" in text
    assert text.count("†") == len(missing) + 1  # each such cell, and the legend
