"""The exhaustive verifier: it passes good tables and players and catches every kind of break."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.game.graph import build_graph
from minttt.game.player import RandomPlayer
from minttt.game.rules import Board, Rules
from minttt.play.players import make_player
from minttt.table.model import Entry, first_move_table, merge_tables, save_table
from minttt.table.verify import Counterexample, minimax, verify_player, verify_table

#: mutants of minttt/table/verify.py no test can tell from it (scripts/mutation.py), and why
EQUIVALENT_MUTANTS = {
    "result = -1  # 1 -> 2": "X to move has a child (the board is not full): the max over the "
    "children is at least -1, so a start of -2 never shows",
    "self.sign = 1 if side == X else -1  # 1 -> 2": "the sign only orients values: scaling "
    "either side's by 2 keeps every comparison (!=, < min(value, 0), < 0)",
    "return None  # return None -> pass": "the function returns None without it",
    "while free and result < 1:  # result < 1 -> result <= 1": "values are at most 1: the "
    "search only goes on past a won move, to the same value",
    "while free and result > -1:  # result > -1 -> result >= -1": "values are at least -1: "
    "the search only goes on past a lost move, to the same value",
    "while free and result < 1:  # 1 -> 2": "values are at most 1: the search only goes on "
    "past a won move, to the same value",
    "while free and result > -1:  # -1 -> -2": "values are at least -1: the search only goes "
    "on past a lost move, to the same value",
    "result = 1  # 1 -> 2": "O to move has a child (the board is not full): the min over the "
    "children is at most 1, so a start of 2 never shows",
    "self.lost_from_start = self.sign * start < 0  # 0 -> 1": "a drawn side taken for lost "
    "from the start: a lost game still fails, at the move that lost the draw (every move is "
    "judged before the game goes on)",
    "if child > result:  # child > result -> child >= result": "an equal child stores the "
    "value already stored",
    "if child < result:  # child < result -> child <= result": "an equal child stores the "
    "value already stored",
}

GRAPH = build_graph()
FULL = build_graph(symmetric=False)
TX = first_move_table(GRAPH, "X")
TX4 = first_move_table(GRAPH, "X", opening=4)
TO = first_move_table(GRAPH, "O")
TB = merge_tables(TX4, TO)


def test_own_minimax_agrees_with_the_graph():
    for h, cells in FULL.boards.items():
        assert minimax(cells) == FULL.value(h)


@pytest.mark.parametrize("table", [TX, TX4, TO, TB], ids=["X", "X-centre", "O", "both"])
def test_full_tables_verify(table):
    report = verify_table(table)
    assert report.ok, report.counterexample
    assert report.losses == 0
    assert report.games == report.wins + report.draws
    assert report.entries == table.size and report.unreached == ()


def test_counts_for_a_known_player():
    # O answering everything: X's 9 openings, every line; the hashed tree never loses
    report = verify_player(make_player("hashed-tree"), "both", "optimal")
    assert report.ok and report.losses == 0 and report.games > 0


def _swap(table, index, **changes):
    entries = list(table.entries)
    entries[index] = replace(entries[index], **changes)
    return replace(table, entries=tuple(entries))


def _index_of_reached(table, predicate):
    for i, e in enumerate(table.entries):
        if predicate(e):
            return i
    raise AssertionError("no such entry")


def test_catches_a_losing_move():
    board_needs = {}
    for i, e in enumerate(TO.entries):
        b = Board.parse(e.board)
        for m in b.legal_moves():
            if minimax(b.play(m).cells) == 1 and minimax(b.cells) != 1:
                board_needs[i] = m
                break
        if board_needs:
            break
    ((i, m),) = board_needs.items()
    report = verify_table(_swap(TO, i, move=m))
    assert not report.ok
    assert "not optimal" in report.counterexample.reason or "loses" in report.counterexample.reason
    # the counterexample replays: the sequence reaches the printed board
    board = Board.empty()
    for cell in report.counterexample.moves:
        board = board.play(cell)
    assert str(board) == report.counterexample.board


def test_catches_a_missing_entry():
    broken = replace(TX, entries=TX.entries[:-1])
    report = verify_table(broken)
    assert not report.ok and "no move" in report.counterexample.reason


def test_catches_an_illegal_move():
    i = _index_of_reached(TX, lambda e: e.board != ".........")
    occupied = next(k for k, c in enumerate(TX.entries[i].board) if c != ".")
    report = verify_table(_swap(TX, i, move=occupied))
    assert not report.ok and "illegal" in report.counterexample.reason


def test_catches_a_wrong_stored_value():
    report = verify_table(_swap(TX, 0, value=1))
    assert not report.ok and "stores value" in report.counterexample.reason


def test_reports_unreached_entries():
    # an extra entry that own play never reaches (X never opens in the corner with this table)
    extra = Entry(1, "x........", 4, 0)
    table = replace(TX4, entries=(*TX4.entries, extra))
    report = verify_table(table)
    assert report.ok and report.unreached == (1,)


def test_never_lose_accepts_what_optimal_rejects():
    # at x0 o4 (a draw) X may play anything that keeps the draw; at a won position X may throw
    # the win away to a draw under never-lose but not under optimal
    i = _index_of_reached(TX, lambda e: e.value == 1 and Board.parse(e.board).depth >= 2)
    b = Board.parse(TX.entries[i].board)
    draw_move = next((m for m in b.legal_moves() if minimax(b.play(m).cells) == 0), None)
    if draw_move is None:
        pytest.skip("no drawing alternative at this entry")
    table = _swap(TX, i, move=draw_move)
    assert not verify_table(table).ok
    relaxed = verify_player(table.player(), "X", "never-lose")
    # the changed move may lead to positions the table lacks; it must not be a criterion failure
    assert relaxed.ok or "no move" in relaxed.counterexample.reason


def test_random_and_broken_players_fail():
    assert not verify_player(RandomPlayer(), "X", "never-lose").ok
    naive = verify_player(make_player("alphabeta-naive-random"), "both", "never-lose")
    assert not naive.ok


def test_bad_role_or_criterion():
    with pytest.raises(InputError):
        verify_player(RandomPlayer(), "Y", "optimal")
    with pytest.raises(InputError):
        verify_player(RandomPlayer(), "X", "best")


def test_cli_exit_codes(tmp_path):
    runner = CliRunner()
    good = tmp_path / "good.json"
    save_table(TB, good)
    ok = runner.invoke(app, ["verify", str(good), "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["ok"] is True

    broken = tmp_path / "broken.json"
    save_table(replace(TX, entries=TX.entries[:-1]), broken)
    bad = runner.invoke(app, ["verify", str(broken)])
    assert bad.exit_code == 1
    assert "moves:" in bad.output and "no move" in bad.output

    player = runner.invoke(app, ["verify", "--player", "hashed-tree", "--role", "X"])
    assert player.exit_code == 0, player.output
    rand = runner.invoke(app, ["verify", "--player", "random"])
    assert rand.exit_code == 1
    unknown = runner.invoke(app, ["verify", "--player", "nobody"])
    assert unknown.exit_code == 2
    neither = runner.invoke(app, ["verify"])
    assert neither.exit_code == 2


def test_a_side_lost_from_the_start_may_lose_but_must_keep_the_value() -> None:
    """On 2x2 with k=2 X always wins: O's losses are no failure, but its moves are still judged."""
    from minttt.game.player import RandomPlayer
    from minttt.game.rules import Rules

    tiny = Rules(2, 2, 2)
    report = verify_player(RandomPlayer(), "O", "optimal", rules=tiny)
    assert report.ok and report.losses == report.games > 0
    # On 3x3 O is not lost from the start, so a random O's losses are failures.
    assert not verify_player(RandomPlayer(), "O", "never-lose").ok


class _Keeper:
    """Every move that keeps the minimax value (a slow win as well as a quick one): a player
    perfect under the optimal criterion by construction, by a search of its own (cell tuples
    and ``Rules.winner``, memoised per position; no bit boards, none of the verifier's code)."""

    name = "keeper"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.values: dict[tuple[int, ...], int] = {}

    def value(self, cells: tuple[int, ...]) -> int:
        if cells not in self.values:
            winner = self.rules.winner(cells)
            free = [i for i, v in enumerate(cells) if v == 0]
            if winner or not free:
                self.values[cells] = {0: 0, 1: 1, 2: -1}[winner]
            else:
                mover = 1 if cells.count(1) == cells.count(2) else 2
                after = [self.value(cells[:i] + (mover,) + cells[i + 1 :]) for i in free]
                self.values[cells] = max(after) if mover == 1 else min(after)
        return self.values[cells]

    def choices(self, board: Board) -> tuple[int, ...]:
        now = self.value(board.cells)
        moves = board.legal_moves()
        return tuple(m for m in moves if self.value(board.play(m).cells) == now)

    def choose(self, board: Board, rng: object) -> int:
        return self.choices(board)[0]


def test_a_side_is_lost_from_the_start_only_where_the_empty_board_is_lost() -> None:
    """On 1x3 with k=2 X wins by the middle, yet X at an end only draws: a perfect O loses
    games and is still perfect there, where the start decides."""
    line = Rules(1, 3, 2)
    report = verify_player(_Keeper(line), "O", "optimal", rules=line)
    assert report.ok and report.losses > 0 and report.draws > 0
    assert verify_player(_Keeper(line), "X", "optimal", rules=line).ok
    # misère: X loses from the start (against a perfect O it must complete a line)
    line = Rules(1, 3, 2, misere=True)
    report = verify_player(_Keeper(line), "X", "optimal", rules=line)
    assert report.ok and report.losses > 0 and report.wins == 0
    report = verify_player(_Keeper(line), "O", "optimal", rules=line)
    assert report.ok and report.wins > 0 and report.losses == 0


@pytest.mark.parametrize("misere", [False, True], ids=["standard", "misere"])
@pytest.mark.parametrize("side", ["X", "O"])
def test_every_value_keeping_move_is_optimal_quick_win_or_slow(side: str, misere: bool) -> None:
    """A won line scores as much as any other win: a player free to win now or later (or, in
    misère, to lose now or later) keeps the value either way."""
    rules = Rules(3, 3, 3, misere=misere)
    report = verify_player(_Keeper(rules), side, "optimal", rules=rules)
    assert report.ok, report.counterexample


def test_a_counterexample_before_any_move_describes_no_board_and_hides_its_rules() -> None:
    empty = Counterexample("no move", (), "")
    assert empty.describe() == "no move\nmoves: (no moves)\n"
    shown = Counterexample("game lost", (0, 1, 2), "xox.", Rules(2, 2, 2))
    assert shown.describe().endswith(Board.parse("xox.", Rules(2, 2, 2)).pretty())
    assert "rules" not in repr(shown) and shown == Counterexample("game lost", (0, 1, 2), "xox.")


def test_the_report_lines_say_ok_with_the_counts_or_failed_with_the_counterexample():
    ok = verify_table(TX)
    verdict, counts, entries = ok.lines("table t.json")
    assert verdict == "ok: table t.json plays X (optimal)"
    assert counts.startswith(f"{ok.games:,} games (every opponent line): {ok.wins:,} won")
    assert entries.startswith(f"{TX.size} entries (lookups), ")
    bad = verify_player(RandomPlayer(), "O", "never-lose")
    verdict, example = bad.lines("player random")
    assert verdict == "FAILED: player random as O (never-lose)"
    assert example == bad.counterexample.describe()
    assert bad.role == "O" and bad.criterion == "never-lose"  # vocabulary members are their text


# ------------------------------------------------------------ boards of more than 16 cells

BIG = Rules(3, 6, 3)  # 18 cells: allowed with --force


def _plain(cells: tuple[int, ...], rules: Rules) -> int:
    """Minimax by plain search: no memo, no bit boards (the reference for the verifier's)."""
    winner = rules.winner(cells)
    if winner:
        return 1 if winner == 1 else -1
    free = [i for i, v in enumerate(cells) if v == 0]
    if not free:
        return 0
    mover = 1 if cells.count(1) == cells.count(2) else 2
    values = [_plain(cells[:i] + (mover,) + cells[i + 1 :], rules) for i in free]
    return max(values) if mover == 1 else min(values)


def test_the_memo_key_is_exact_past_16_cells():
    """With 18 cells, X on cell 16 and O on cell 1 against X on 17 and O on 0: a key of
    ``xm | om << 16`` gave both one memo entry (and one value); their values differ."""
    a = Board.parse(".oo.o.xoxoxx..xox.", BIG).cells
    b = Board.parse("o.o.o.xoxoxx..xo.x", BIG).cells
    assert (_plain(a, BIG), _plain(b, BIG)) == (-1, 1)
    assert (minimax(a, BIG), minimax(b, BIG)) == (-1, 1)


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_minimax_agrees_with_a_plain_search_on_an_18_cell_board():
    """300 random positions of 3x6 (three in a row) with 11-13 stones, no line yet."""
    import random

    rng = random.Random(44)
    checked = 0
    while checked < 300:
        stones = rng.randint(11, 13)
        cells = [0] * BIG.cells
        for n, i in enumerate(rng.sample(range(BIG.cells), stones)):
            cells[i] = 1 if n % 2 == 0 else 2
        position = tuple(cells)
        if BIG.winner(position):
            continue
        assert minimax(position, BIG) == _plain(position, BIG), Board(position, BIG)
        checked += 1


@pytest.mark.parametrize(
    "name",
    ["3x3", "3x3-misere"]
    + [
        pytest.param(n, marks=pytest.mark.slow)
        for n in ("mnk:3,4,3", "mnk:3,4,4", "mnk:3,4,3-misere")
    ],
)
def test_the_shortcuts_keep_every_reachable_positions_value(name: str) -> None:
    """The verifier's minimax takes a winning move at once and otherwise a forced block (two
    threats: lost) without searching the other moves: on every position reachable in play it
    gives the value a search of every move gives (bit boards, memoised, written here)."""
    import sys

    from minttt.table.verify import _solver

    rules = Rules.from_name(name)
    lines = [sum(1 << i for i in line) for line in rules.lines]
    full = (1 << rules.cells) - 1
    made = (-1, 1) if rules.misere else (1, -1)  # X's, O's line, from X's side
    memo: dict[tuple[int, int], int] = {}

    def every_move(xm: int, om: int) -> int:
        if (xm, om) not in memo:
            x_moves = xm.bit_count() == om.bit_count()
            values = []
            for i in range(rules.cells):
                if (xm | om) >> i & 1:
                    continue
                a, b = (xm | 1 << i, om) if x_moves else (xm, om | 1 << i)
                mine = a if x_moves else b
                if any(mine & line == line for line in lines):
                    values.append(made[0] if x_moves else made[1])
                else:
                    values.append(every_move(a, b))
            memo[xm, om] = (max if x_moves else min)(values) if values else 0
        return memo[xm, om]

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    solver = _solver(rules)
    seen, stack = set(), [(0, 0)]
    while stack:
        xm, om = stack.pop()
        if (xm, om) in seen:
            continue
        seen.add((xm, om))
        if any(xm & line == line or om & line == line for line in lines):
            continue
        assert solver.value(xm, om) == every_move(xm, om), (name, bin(xm), bin(om))
        free = full & ~(xm | om)
        while free:
            bit = free & -free
            free ^= bit
            stack.append((xm | bit, om) if xm.bit_count() == om.bit_count() else (xm, om | bit))
    assert len(seen) > 5000


# ------------------------------------------------------------------- what the mutants showed


def test_a_counterexample_equals_another_whatever_its_rules():
    from minttt.table.verify import Counterexample

    a = Counterexample("r", (4,), "....x....")
    assert a == Counterexample("r", (4,), "....x....", Rules(3, 3, 3, misere=True))
    assert a.describe().startswith("r\nmoves: x4\n")
    assert Counterexample("r", (4, 0, 8), "o...x...x").describe().startswith("r\nmoves: x4 o0 x8\n")


def test_a_report_is_frozen():
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        verify_table(TX).ok = False  # type: ignore[misc]


class _Perfect:
    """Every move that keeps the minimax value (of any rules)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def choices(self, board: Board) -> list[int]:
        best = minimax(board.cells, self.rules)
        return [m for m in board.legal_moves() if minimax(board.play(m).cells, self.rules) == best]


def test_a_perfect_misere_player_verifies_with_lines_completed_by_either_side():
    """In misère the one who completes a line loses: the opponent's lines are the player's wins."""
    misere = Rules(3, 3, 3, misere=True)
    for side in ("X", "O"):
        report = verify_player(_Perfect(misere), side, "optimal", rules=misere)
        assert report.ok, report.counterexample
        assert report.losses == 0 and report.wins > 0 and report.draws > 0


def test_a_lost_side_counts_each_lost_game_once():
    """2x2, two in a row: X wins at its second move whatever happens: 4 * 3 * 2 games."""
    report = verify_player(RandomPlayer(), "O", "optimal", rules=Rules(2, 2, 2))
    assert (report.games, report.losses, report.wins, report.draws) == (24, 24, 0, 0)


class _Answers:
    """Always the same answer, whatever the board."""

    def __init__(self, move: object) -> None:
        self.move = move

    def choices(self, board: Board) -> list[object]:
        return [self.move]


@pytest.mark.parametrize("move", [-1, 9, True, "4"])
def test_a_move_off_the_board_is_illegal(move):
    report = verify_player(_Answers(move), "X", "optimal")
    assert not report.ok
    assert report.counterexample.reason == f"illegal move {move!r}: not a cell 0-8"
    assert report.counterexample.moves == ()


def test_the_first_side_that_fails_is_the_one_reported():
    """A random player fails as X and as O; with role both the report is X's failure."""
    report = verify_player(RandomPlayer(), "both", "never-lose")
    assert not report.ok
    moves = report.counterexample.moves
    assert len(moves) % 2 == 0  # X to move
    assert report.counterexample == verify_player(RandomPlayer(), "X", "never-lose").counterexample


def test_a_failed_table_reports_the_walk_and_no_unreached_entries():
    """A table missing an entry fails in the walk; its unreached entries are not listed (nor
    are its stored values checked): the counterexample is the walk's."""
    extra = Entry(1, "x........", 4, 0)  # never reached: this table opens in the centre
    index = _index_of_reached(TX4, lambda e: e.board != ".........")
    entries = [e for i, e in enumerate(TX4.entries) if i != index]
    report = verify_table(replace(TX4, entries=(*entries, extra)))
    assert not report.ok and "no move" in report.counterexample.reason
    assert report.unreached == ()


def test_a_raw_table_lists_exactly_its_unreached_entries():
    """A raw table (keyed by the board itself) reaches a board only as it is, not through a
    symmetry: an entry for a mirror image of a reached board is unreached, the others are not."""
    raw = first_move_table(FULL, "X", opening=4)
    assert raw.raw
    reached = verify_table(raw)
    assert reached.ok and reached.unreached == ()
    known = {e.board for e in raw.entries}
    board = next(
        Board.parse(e.board).transform(t)
        for e in raw.entries
        for t in range(8)
        if str(Board.parse(e.board).transform(t)) not in known
    )
    extra = Entry(board.hash, str(board), raw.entries[0].move, minimax(board.cells))
    mirror = next(m for m in board.legal_moves() if minimax(board.play(m).cells) == extra.value)
    extra = replace(extra, move=mirror)
    report = verify_table(replace(raw, entries=(*raw.entries, extra)))
    assert report.ok and report.unreached == (board.hash,)
