"""O's tables split by their reply to one of X's openings (issue 43): the variant ``second-A:B``
(O's reply ``B`` to X's ``A`` fixed), the split every table falls into, its certified bounds
whose least bounds O, and the report's check that a split leaves no reply out."""

from __future__ import annotations

from pathlib import Path

import pytest

from minttt.errors import InputError
from minttt.formula.arrays import encode_arrays, split_moves, split_variants, table_edge_mask
from minttt.formula.variants import Variant, uses_arrays
from minttt.game.arrays import build_array_graph
from minttt.game.rules import Board, Rules
from minttt.proof.lower import build_cores_certificate, checked_lower, write_lower_records
from minttt.report.bounds import check_level_certificates, check_split

O33 = Variant.parse("second-lookup-entries")


@pytest.fixture(scope="module")
def graph33():
    return build_array_graph(O33.rules)


def test_o_reply_is_a_variant_named_and_read_back() -> None:
    v = Variant.parse("second-5:10-lookup-entries@mnk:4,4,4")
    assert (v.replies(), v.opening_cell(), v.name) == (
        ((5, 10),),
        None,
        "second-5:10-lookup-entries@mnk:4,4,4",
    )
    assert uses_arrays(Variant.parse("second-4:0-lookup-entries"))  # 3x3 too: arrays only
    assert Variant.parse("first-5-lookup-entries@mnk:4,4,4").replies() == ()
    two = Variant.parse("second-5:10+0:5-lookup-entries@mnk:4,4,4")  # a part split again
    assert two.replies() == ((5, 10), (0, 5)) and Variant.parse(two.name) == two


@pytest.mark.parametrize(
    "name, why",
    [
        ("second-5-lookup-entries", "expected A:B"),  # a cell alone is X's opening
        ("second-4:4-lookup-entries", "two different cells"),
        ("second-4:9-lookup-entries", "two different cells"),  # cells 0-8
        ("second-4:x-lookup-entries", "expected A:B"),
        ("second-4:0+4:1-lookup-entries", "one reply per opening"),
        ("second-4:0+-lookup-entries", "expected A:B"),
        ("second-4:0-tree-positions", "lookup entries"),
        ("second-4:0-lookup-positions", "lookup entries"),
    ],
)
def test_a_bad_reply_is_refused_in_one_line(name: str, why: str) -> None:
    with pytest.raises(InputError, match=why):
        Variant.parse(name)


def test_a_reply_must_be_allowed_and_on_the_board_the_graph_stores(graph33) -> None:
    with pytest.raises(InputError, match="not an allowed reply"):  # O loses after 4:1
        table_edge_mask(graph33, Variant.parse("second-4:1-lookup-entries"))
    with pytest.raises(InputError, match="symmetric copy 0"):  # corner 2 is stored as 0
        table_edge_mask(graph33, Variant.parse("second-2:4-lookup-entries"))
    mask = table_edge_mask(graph33, Variant.parse("second-4:0-lookup-entries"))
    assert mask.sum() == table_edge_mask(graph33, O33).sum() - 3  # the other 3 corners gone


def test_the_split_holds_every_allowed_reply_up_to_symmetry(graph33) -> None:
    assert Board.empty().play(1).distinct_moves() == (0, 3, 4, 6, 7)
    split = [v.opening for v in split_variants(graph33, O33, 1)]
    assert split == ["1:0", "1:4", "1:7"]  # 1:3 and 1:6 lose
    with pytest.raises(InputError, match="one of X's openings"):
        split_variants(graph33, O33)
    with pytest.raises(InputError, match="one of X's openings"):
        split_variants(graph33, Variant.parse("first-any-lookup-entries"), 1)
    x = [v.opening for v in split_variants(graph33, Variant.parse("first-any-lookup-entries"))]
    assert x == ["0", "1", "4"]
    part = Variant.parse("second-1:0-lookup-entries")
    assert [v.opening for v in split_variants(graph33, part, 4)] == ["1:0+4:0"]  # split again
    with pytest.raises(InputError, match="not one fixed already"):
        split_variants(graph33, part, 1)
    g444 = Rules.from_name("mnk:4,4,4")
    assert len(Board.empty(g444).play(5).distinct_moves()) == 9  # the parts of O's 4x4 k=4 split


@pytest.mark.parametrize("opening", [4, 0, 1, 2])
def test_the_least_over_a_split_is_the_minimum(graph33, opening: int, tmp_path: Path) -> None:
    """Each part's relaxed cores run to their end (certified, checked): the least of them is O's
    minimum, 72, whichever opening of X the split is by (2: by the edge, its part 1:4 split
    again by the centre)."""
    bounds = {}
    parts = split_variants(graph33, O33, 1 if opening == 2 else opening)
    if opening == 2:
        parts = [p for p in parts if p.opening != "1:4"] + split_variants(
            graph33, Variant.parse("second-1:4-lookup-entries"), 4
        )
    for part in parts:
        formula = encode_arrays(graph33, part)
        cert = build_cores_certificate(
            part, tmp_path, graph=graph33, formula=formula, relax=True, exhaust=True
        )
        assert cert.record["complete"] and cert.record["checked_by"]
        write_lower_records(tmp_path, [cert.record], {str(p): d for p, d in cert.files.items()})
        bounds[part.opening] = cert.record["lower"]
    assert min(bounds.values()) == 72
    if opening == 1:
        assert bounds == {"1:0": 90, "1:4": 72, "1:7": 85}
    if opening == 2:
        assert bounds == {"1:0": 90, "1:4+4:0": 72, "1:7": 85}
    assert {name for name, _ in checked_lower(tmp_path / "lower-bounds.json")} == {
        f"second-{k}-lookup-entries" for k in bounds
    }


def _record(per: dict[str, int]) -> dict:
    parts = {
        k: {"lower": v, "blocks": [{"depths": [1, 3, 5, 7], "lower": v}]} for k, v in per.items()
    }
    low = min(per.values())
    return {
        "lower": low,
        "lower_by": {"method": "level certificates", "evidence": "proofs"},
        "certified": {"lower": low, "openings": parts},
    }


def test_the_report_checks_o_reply_by_reply(tmp_path: Path) -> None:
    name = O33.name
    per = {"1:0": 90, "1:4": 72, "1:7": 85}
    proven = {(f"second-{k}-lookup-entries", (1, 3, 5, 7)): v for k, v in per.items()}
    check_level_certificates(tmp_path, name, _record(per), proven)  # the losing replies need none
    with pytest.raises(InputError, match=r"leave out \['1:7'\]"):
        check_level_certificates(tmp_path, name, _record({"1:0": 90, "1:4": 72}), proven)
    with pytest.raises(InputError, match="more than one opening"):
        check_level_certificates(tmp_path, name, _record({**per, "4:0": 72}), proven)
    # a part split again (1:4 by X's corner, whose one allowed reply is 4) still covers
    again = {"1:0": 90, "1:4+0:4": 72, "1:7": 85}
    proven_again = {**proven, ("second-1:4+0:4-lookup-entries", (1, 3, 5, 7)): 72}
    check_level_certificates(tmp_path, name, _record(again), proven_again)
    with pytest.raises(InputError, match="more than one opening"):
        check_level_certificates(tmp_path, name, _record({**again, "1:4+4:0": 72}), proven_again)
    with pytest.raises(InputError, match="not the board the graph stores"):
        check_level_certificates(tmp_path, name, _record({"2:4": 72}), proven)
    with pytest.raises(InputError, match="no checked record"):  # a part claims more than proven
        check_level_certificates(tmp_path, name, _record({**per, "1:0": 91}), proven)


def test_scale_certifies_a_reply_and_refuses_bad_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from minttt.cli import run as cli_run

    certs = tmp_path / "certs"
    base = ["scale", "--game", "3x3", "--role", "second", "--cores", "30", "--relax"]
    ok = [*base, "--opening", "1:7", "--checkpoint", str(tmp_path / "o.json")]
    assert cli_run([*ok, "--certificates", str(certs)]) == 0
    assert checked_lower(certs / "lower-bounds.json") == {
        ("second-1:7-lookup-entries", (1, 3, 5, 7)): 85
    }
    capsys.readouterr()
    for bad in ("1:3", "2:4", "1", "1:1"):  # loses, stored as 0, X's kind, one cell twice
        ckpt = str(tmp_path / f"bad{bad}.json")
        assert cli_run([*base, "--opening", bad, "--checkpoint", ckpt]) == 2
    # X's opening is a cell
    assert cli_run(["scale", "--game", "3x3", "--opening", "1:0", "--checkpoint", ckpt]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 5 and all(line.startswith("error: ") for line in err)


def test_solve_takes_o_reply(capsys: pytest.CaptureFixture[str]) -> None:
    from minttt.cli import run as cli_run

    base = ["solve", "--role", "second", "--objective", "entries", "--json"]
    assert cli_run([*base, "--opening", "1:0"]) == 0
    out = capsys.readouterr().out
    assert '"second-1:0-lookup-entries"' in out and '"size": 90' in out
    assert cli_run([*base, "--opening", "1:0", "--objective", "positions"]) == 2


def test_the_opening_decomposition_is_the_same_split() -> None:
    from minttt.bounds.openings import opening_bounds

    said: list[str] = []
    out = opening_bounds(Variant.parse("first-any-lookup-entries"), 6, say=said.append)
    assert list(out.openings) == ["0", "1", "4"] and len(said) == 3
    assert out.lower == 22 and all(r["proven"] for r in out.openings.values())


# X's tables split by its answer to one of O's replies: ``first-A+B:C`` (X opens at A, answers
# O's reply B with C), the same split one move later, for X's lower bounds

X4 = Variant.parse("first-4-lookup-entries")


def test_x_answer_is_a_variant_named_and_read_back() -> None:
    v = Variant.parse("first-5+0:6-lookup-entries@mnk:4,4,4")
    assert (v.replies(), v.opening_cell(), v.name) == (
        ((0, 6),),
        5,
        "first-5+0:6-lookup-entries@mnk:4,4,4",
    )
    two = Variant.parse("first-5+0:6+1:2-lookup-entries@mnk:4,4,4")
    assert two.replies() == ((0, 6), (1, 2)) and Variant.parse(two.name) == two
    assert Variant.parse("first-center+0:1-lookup-entries").replies() == ((0, 1),)
    assert uses_arrays(Variant.parse("first-4+0:1-lookup-entries"))


@pytest.mark.parametrize(
    "name, why",
    [
        ("first-any+0:1-lookup-entries", "follow X's opening cell"),
        ("first-4+4:1-lookup-entries", "opening 4 is taken"),
        ("first-4+0:4-lookup-entries", "opening 4 is taken"),
        ("first-4+0:1+0:2-lookup-entries", "one answer per reply"),
        ("first-4+0-lookup-entries", "expected CELL\\+B:C"),
        ("first-4+0:0-lookup-entries", "two different cells"),
        ("first-4+0:1-lookup-positions", "lookup entries"),
    ],
)
def test_a_bad_answer_is_refused_in_one_line(name: str, why: str) -> None:
    with pytest.raises(InputError, match=why):
        Variant.parse(name)


def test_an_answer_must_be_allowed(graph33) -> None:
    with pytest.raises(InputError, match="not an allowed reply"):  # X's 7 after 4, 1 loses a win
        table_edge_mask(graph33, Variant.parse("first-4+1:7-lookup-entries"))
    # the same answer to O's 3, the graph's copy of 1: refused on the copy it names
    with pytest.raises(InputError, match=r"5 is not an allowed reply on its symmetric copy"):
        table_edge_mask(graph33, Variant.parse("first-4+3:5-lookup-entries"))
    mask = table_edge_mask(graph33, Variant.parse("first-4+0:1-lookup-entries"))
    assert mask.sum() < table_edge_mask(graph33, X4).sum()


def _answered(graph, mask, board: Board) -> list[Board]:
    """The boards the table may reach from ``board`` (found as the graph stores it)."""
    node = next(
        n
        for n in range(len(graph.ptr) - 1)
        if tuple(graph.board(n)) == board.canonical().board.cells
    )
    edges = range(int(graph.ptr[node]), int(graph.ptr[node + 1]))
    return [Board(tuple(graph.board(int(graph.child[e]))), board.rules) for e in edges if mask[e]]


def test_an_answer_to_a_reply_the_graph_stores_as_its_copy_is_named_as_played(graph33) -> None:
    """O's corner 2 after X's centre is stored as 0 (and 3 as 1): a part names X's answer on the
    board as played, and its table plays exactly that answer's position."""
    played = Board.empty().play(4).play(2)
    assert played.canonical().board != played
    parts = split_variants(graph33, X4, 2)
    assert [v.opening for v in parts] == [f"4+2:{c}" for c in played.distinct_moves()]
    for part in parts:
        ((_, answer),) = part.replies()
        reached = _answered(graph33, table_edge_mask(graph33, part), played)
        assert reached == [played.play(answer).canonical().board]
    # the split covers X's tables, a left-out answer is named (the report's check)
    check_split("here", X4, [v.opening for v in parts])
    with pytest.raises(InputError, match=r"leave out \['4\+2:6'\]"):
        check_split("here", X4, [v.opening for v in parts[:-1]])
    # 2 and 0 are one position: a part with 2 fixed splits by 1 only, and 0 is refused beside 2
    assert split_moves(graph33, Variant.parse("first-4+2:1-lookup-entries")) == [1]
    with pytest.raises(InputError, match="not an allowed reply"):
        table_edge_mask(graph33, Variant.parse("first-4+2:1+0:5-lookup-entries"))


def test_x_splits_by_its_answer_to_one_reply(graph33) -> None:
    assert Board.empty().play(4).play(0).distinct_moves() == (1, 2, 5, 8)
    assert [v.opening for v in split_variants(graph33, X4, 0)] == [
        "4+0:1",
        "4+0:2",
        "4+0:5",
        "4+0:8",
    ]
    assert [v.opening for v in split_variants(graph33, X4, 1)] == ["4+1:0", "4+1:3", "4+1:6"]
    part = Variant.parse("first-4+0:1-lookup-entries")
    again = [v.opening for v in split_variants(graph33, part, 1)]
    assert again and all(o.startswith("4+0:1+1:") for o in again)
    for bad in (0, 4):  # fixed already; X's own opening
        with pytest.raises(InputError, match="not one fixed already"):
            split_variants(graph33, part, bad)


def test_the_least_over_x_answers_is_the_minimum(graph33, tmp_path: Path) -> None:
    """X's corner table answers O's centre one of four ways: each part's relaxed cores run to
    their end (certified, checked), and the least is X's corner minimum, 30 (the whole
    formula's, run the same way)."""
    corner = Variant.parse("first-0-lookup-entries")
    bounds = {}
    for part in [corner, *split_variants(graph33, corner, 4)]:
        cert = build_cores_certificate(
            part,
            tmp_path,
            graph=graph33,
            formula=encode_arrays(graph33, part),
            relax=True,
            exhaust=True,
        )
        assert cert.record["complete"] and cert.record["checked_by"]
        bounds[part.opening] = cert.record["lower"]
    assert bounds == {"0": 30, "0+4:1": 35, "0+4:2": 30, "0+4:5": 53, "0+4:8": 32}


def test_the_report_checks_x_answer_by_answer(tmp_path: Path) -> None:
    name = "first-any-lookup-entries"
    per = {"0": 30, "1": 40, "4+0:1": 22, "4+0:2": 22, "4+0:5": 23, "4+0:8": 22}
    proven = {(f"first-{k}-lookup-entries", (1, 3, 5, 7)): v for k, v in per.items()}
    openings = ["0", "1", "4"]
    check_level_certificates(tmp_path, name, _record(per), proven, openings)
    check_level_certificates(tmp_path, name, _record(per), proven)  # openings from the rules
    short = {k: v for k, v in per.items() if k != "4+0:8"}
    with pytest.raises(InputError, match=r"leave out \['4\+0:8'\]"):
        check_level_certificates(tmp_path, name, _record(short), proven, openings)
    with pytest.raises(InputError, match="more than one reply of O"):
        check_level_certificates(tmp_path, name, _record({**per, "4+1:0": 22}), proven, openings)
    with pytest.raises(InputError, match=r"leave out \['4\+2:1', '4\+2:3', '4\+2:6'\]"):
        stored = {"0": 30, "1": 40, "4+2:0": 22}  # O's 2, answered as played: one of four
        check_level_certificates(tmp_path, name, _record(stored), proven)
    with pytest.raises(InputError, match="leave out"):  # no decomposition: the rules' openings
        check_level_certificates(tmp_path, name, _record({"0": 30, "1": 40}), proven)
    with pytest.raises(InputError, match="certified for openings"):
        check_level_certificates(tmp_path, name, _record({"0": 30, "1": 40}), proven, openings)


def test_scale_and_solve_take_x_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from minttt.cli import run as cli_run

    certs = tmp_path / "certs"
    base = ["scale", "--game", "3x3", "--role", "first", "--cores", "30", "--relax"]
    ok = [*base, "--opening", "0+4:2", "--checkpoint", str(tmp_path / "x.json")]
    assert cli_run([*ok, "--certificates", str(certs)]) == 0
    assert {(n, v) for (n, _d), v in checked_lower(certs / "lower-bounds.json").items()} == {
        ("first-0+4:2-lookup-entries", 30)
    }
    capsys.readouterr()
    for bad in ("4+3:5", "4+1:7", "any+0:1", "4+0:4"):  # loses (on 3, 1's copy), no cell, taken
        ckpt = str(tmp_path / f"bad{bad}.json")
        assert cli_run([*base, "--opening", bad, "--checkpoint", ckpt]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(line.startswith("error: ") for line in err)
    solve = ["solve", "--role", "first", "--objective", "entries", "--json"]
    assert cli_run([*solve, "--opening", "4+0:5"]) == 0
    out = capsys.readouterr().out
    assert '"first-4+0:5-lookup-entries"' in out and '"size": 23' in out


def test_a_split_bounding_lower_than_its_part_is_left_out(graph33, tmp_path: Path) -> None:
    """Each part at its best (:func:`best_cut`): 1:4's split by X's corner (one part, 1:4+0:4)
    is kept where it bounds higher than 1:4 and left out where lower; either way the parts
    chosen cover O's tables (the report's check)."""
    from minttt.bounds.openings import best_cut

    def name(key: str) -> str:
        return O33.replace(opening=key).name

    splits = {
        O33.name: [p.name for p in split_variants(graph33, O33, 1)],
        name("1:4"): [p.name for p in split_variants(graph33, Variant.parse(name("1:4")), 0)],
    }
    for own, again, expect in ((70, 72, "1:4+0:4"), (72, 60, "1:4")):
        bounds = {name("1:0"): 90, name("1:4"): own, name("1:7"): 85, name("1:4+0:4"): again}
        low, leaves = best_cut(O33.name, splits, bounds)
        keys = [str(Variant.parse(leaf).opening) for leaf in leaves]
        assert low == 72 and sorted(keys) == sorted(["1:0", expect, "1:7"])
        per = {k: bounds[name(k)] for k in keys}
        proven = {(name(k), (1, 3, 5, 7)): v for k, v in per.items()}
        check_level_certificates(tmp_path, O33.name, _record(per), proven)
    assert best_cut(O33.name, splits, {name("1:0"): 90}) is None  # a part without a bound


def test_the_report_names_the_least_parts_and_the_command_that_goes_on_or_a_stall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    from minttt.bounds.state import read_state, scale_store
    from minttt.cli import run as cli_run
    from minttt.report.bounds import certified_markdown, checkpoint_stem

    per = {"0": 30, "1": 40, "4+0:1": 22, "4+0:2": 22, "4+0:5": 23, "4+0:8": 22}
    lines = certified_markdown({"variants": {"first-any-lookup-entries": _record(per)}})
    (line,) = [line for line in lines if line.startswith("The least parts")]
    assert "4+0:1 (22), 4+0:2 (22), 4+0:8 (22), 4+0:5 (23), 0 (30)." in line
    command = shlex.split(line.split("`")[1])
    assert command[:2] == ["minttt", "scale"] and "4+0:1" in command
    (tmp_path / "results" / "games").mkdir(parents=True)  # a checkout's folders
    monkeypatch.chdir(tmp_path)  # the command as the report prints it, from a checkout's root
    assert cli_run(command[1:]) == 0
    stem = checkpoint_stem("first-4+0:1-lookup-entries")
    assert (tmp_path / "results" / "games" / f"{stem}.json").is_file()
    found = checked_lower(tmp_path / "results" / "proofs" / "mnk" / "lower-bounds.json")
    assert {name for name, _depths in found} == {"first-4+0:1-lookup-entries"}
    # run again, its record goes on and finds nothing more: it has stalled, and the report's
    # line marks it so and names the command of the least part that has not
    path = tmp_path / "results" / "games" / f"{stem}.json"
    with scale_store(path) as store:
        first = read_state(store, Variant.parse("first-4+0:1-lookup-entries"))
    assert first.lower_from == 0 and not first.stalled()  # its first run raised it from 0
    assert cli_run(command[1:]) == 0
    with scale_store(path) as store:
        state = read_state(store, Variant.parse("first-4+0:1-lookup-entries"))
    assert state.runs == 2 and state.stalled()
    record = _record(per)
    record["certified"]["openings"]["4+0:1"]["stalled"] = True
    (line,) = [
        x
        for x in certified_markdown({"variants": {"first-any-lookup-entries": record}})
        if x.startswith("The least parts")
    ]
    assert "4+0:1 (22, stalled), 4+0:2 (22), 4+0:8 (22)" in line and "split again" in line
    again = shlex.split(line.split("`")[1])
    assert again[again.index("--opening") + 1] == "4+0:2"
    record["certified"]["openings"] = {"4+0:1": record["certified"]["openings"]["4+0:1"]}
    (line,) = [
        x
        for x in certified_markdown({"variants": {"first-any-lookup-entries": record}})
        if x.startswith("The least parts")
    ]
    assert "`" not in line  # every least part stalled: no command to go on with
    # scale_games.py names the moves a stalled part splits by; none left: it only goes on
    graph = build_array_graph(Variant.parse("first-any-lookup-entries").rules)
    assert split_moves(graph, Variant.parse("first-4+0:1-lookup-entries")) == [1]
    assert split_moves(graph, Variant.parse("first-4+0:1+1:0-lookup-entries")) == []
    record["certified"]["openings"]["4+0:1"]["split_by"] = [1]
    (line,) = [
        x
        for x in certified_markdown({"variants": {"first-any-lookup-entries": record}})
        if x.startswith("The least parts")
    ]
    assert "4+0:1 (22, stalled, split by 1)" in line and "Every reply" not in line
    record["certified"]["openings"]["4+0:1"]["split_by"] = []
    (line,) = [
        x
        for x in certified_markdown({"variants": {"first-any-lookup-entries": record}})
        if x.startswith("The least parts")
    ]
    assert "4+0:1 (22, stalled)" in line
    assert "Every reply of the opponent is fixed in 4+0:1 (split_moves): it goes on" in line
    # split already (SPLITS), its split bounds lower for now: its parts are the ones to go on
    del record["certified"]["openings"]["4+0:1"]["split_by"]
    record["certified"]["openings"]["4+0:1"]["split_at"] = 1
    (line,) = [
        x
        for x in certified_markdown({"variants": {"first-any-lookup-entries": record}})
        if x.startswith("The least parts")
    ]
    assert "4+0:1 (22, stalled, split by 1: its parts go on)" in line and "Every" not in line
