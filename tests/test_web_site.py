"""The static play page: files, determinism, the CLI, and the page's hashing run under node."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.game.graph import build_graph, own_play
from minttt.game.rules import TIC_TAC_TOE, Board, Rules, inverse_transform
from minttt.table.model import Table, first_move_table, save_table, table_from_moves
from minttt.web import SITE_FILES, build_site, render_site, write_site
from minttt.web.sample import first_optimal_moves, sample_table
from minttt.web.site import asset_text, page_files

PLAY_JS = Path(__file__).resolve().parents[1] / "minttt" / "web" / "assets" / "play.js"


@pytest.fixture(scope="module")
def table() -> Table:
    return sample_table()


@pytest.fixture(scope="module")
def all_boards() -> list[Board]:
    graph = build_graph(symmetric=False)
    boards = [graph.board(h) for h in sorted(graph.boards)]
    assert len(boards) == 5478
    return boards


# ------------------------------------------------------------------ the files


def test_sample_table_is_both_sides_and_optimal(table: Table) -> None:
    graph = build_graph()
    assert table.role == "both" and table.opening == 4 and table.move(Board.empty()) == 4
    for e in table.entries:
        assert e.move in graph.allowed(e.hash, "optimal")
    depths = {9 - e.board.count(".") for e in table.entries}
    assert {0, 1} <= depths  # X entries (even depth) and O entries (odd depth)


def test_build_site_writes_the_files_deterministically(table: Table, tmp_path: Path) -> None:
    first = build_site(table, tmp_path / "a")
    second = build_site(table, tmp_path / "b" / "nested")
    assert [p.name for p in first] == list(SITE_FILES)
    for p, q in zip(first, second, strict=True):
        assert p.read_bytes() == q.read_bytes()
        assert p.stat().st_mode & 0o444 == 0o444  # readable by a web server
    assert not [p for p in (tmp_path / "a").iterdir() if p.name not in SITE_FILES]  # no temp left
    # writing again over an existing site gives the same bytes
    again = build_site(table, tmp_path / "a")
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in second]


def test_index_inlines_the_table_and_table_json_is_the_table_file(
    table: Table, tmp_path: Path
) -> None:
    build_site(table, tmp_path)
    html = (tmp_path / "index.html").read_text("utf-8")
    match = re.search(
        r'<script id="minttt-table" type="application/json">(.*?)</script>', html, re.S
    )
    assert match is not None
    assert json.loads(match.group(1)) == table.to_dict()
    assert Table.from_dict(json.loads((tmp_path / "table.json").read_text("utf-8"))) == table
    save_table(table, tmp_path / "saved.json")
    assert (tmp_path / "saved.json").read_bytes() == (tmp_path / "table.json").read_bytes()


def test_inlined_json_cannot_close_the_script_element(table: Table) -> None:
    hostile = Table(
        table.role,
        table.opening,
        table.criterion,
        table.entries,
        {"name": "</script><script>alert(1)</script><!--"},
        table.game,
    )
    html = render_site(hostile)["index.html"].decode("utf-8")
    body = html.split('type="application/json">', 1)[1].split("</script>", 1)[0]
    assert json.loads(body)["provenance"]["name"] == "</script><script>alert(1)</script><!--"


def test_site_loads_nothing_from_the_network(table: Table) -> None:
    files = render_site(table)
    for name in ("index.html", "play.js", "style.css"):
        text = files[name].decode("utf-8")
        assert "http://" not in text and "https://" not in text, name
        for call in ("url(", "@import", "fetch(", "XMLHttpRequest", "import(", "WebSocket"):
            assert call not in text, (name, call)
    html = files["index.html"].decode("utf-8")
    assert "connect-src 'none'" in html and "default-src 'none'" in html
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == ["style.css", "table.json", "play.js"]


def test_build_site_refuses_a_file_as_folder(table: Table, tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        build_site(table, target)


def test_write_site_loads_the_table_file(table: Table, tmp_path: Path) -> None:
    save_table(table, tmp_path / "t.json")
    paths = write_site(tmp_path / "t.json", tmp_path / "site")
    assert (tmp_path / "site" / "index.html") in paths
    with pytest.raises(InputError, match="no such file"):
        write_site(tmp_path / "missing.json", tmp_path / "site2")
    assert not (tmp_path / "site2").exists()


# -------------------------------------------------------------------- the CLI


def test_cli_web_writes_the_site(table: Table, tmp_path: Path) -> None:
    save_table(table, tmp_path / "t.json")
    result = CliRunner().invoke(
        app, ["web", str(tmp_path / "t.json"), "--out", str(tmp_path / "out"), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["size"] == table.size
    assert sorted(Path(f).name for f in data["files"]) == sorted(SITE_FILES)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (None, "no such file"),
        ("{not json", "malformed JSON"),
        ('{"format": "minttt-table/1"}', "t.json"),
        ("[]", "t.json"),
    ],
)
def test_cli_web_bad_table_exits_2_with_one_line(
    tmp_path: Path, content: str | None, needle: str
) -> None:
    path = tmp_path / "t.json"
    if content is not None:
        path.write_text(content)
    result = CliRunner().invoke(app, ["web", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_cli_web_out_is_a_file_exits_2(table: Table, tmp_path: Path) -> None:
    save_table(table, tmp_path / "t.json")
    result = CliRunner().invoke(
        app, ["web", str(tmp_path / "t.json"), "--out", str(tmp_path / "t.json")]
    )
    assert result.exit_code == 2
    assert "not a directory" in result.stderr


# --------------------------------------------------- the page's hashing (node)

NODE_DRIVER = r"""
const core = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const index = core.indexTable(input.table);
const misereIndex = core.indexTable(input.misereTable);
const out = {
  symmetries: core.SYMMETRIES,
  inverses: core.SYMMETRIES.map((_, t) => core.inverseTransform(t)),
  names: core.SYMMETRY_NAMES,
  boards: input.boards.map((text) => {
    const cells = core.parseBoard(text);
    const c = core.canonical(cells);
    const found = core.tableMove(index, cells);
    const foundMisere = core.tableMove(misereIndex, cells);
    return [core.hash(cells), c.hash, c.transform, core.boardString(c.cells),
            core.winner(cells, false), core.winner(cells, true), core.isTerminal(cells),
            core.toMove(cells), found ? found.move : null, foundMisere ? foundMisere.move : null];
  }),
};
process.stdout.write(JSON.stringify(out));
"""


def run_node(payload: dict) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: cannot run the page's script outside a browser")
    proc = subprocess.run(
        [node, "-e", NODE_DRIVER, str(PLAY_JS)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def misere_sample() -> Table:
    graph = build_graph(Rules(misere=True))
    moves = first_optimal_moves(graph, 1, opening=4)
    moves.update(first_optimal_moves(graph, 2))
    return table_from_moves(
        graph, moves, role="both", opening=4, criterion="optimal", provenance={}
    )


def python_move(table: Table, board: Board) -> int | None:
    if board.is_terminal:
        return None
    try:
        return table.move(board)
    except KeyError:
        return None


def test_page_hashing_agrees_with_minttt_game_on_every_position(
    table: Table, all_boards: list[Board]
) -> None:
    misere = misere_sample()
    misere_rules = Rules(misere=True)
    out = run_node(
        {
            "boards": [str(b) for b in all_boards],
            "table": table.to_dict(),
            "misereTable": misere.to_dict(),
        }
    )
    assert [tuple(p) for p in out["symmetries"]] == list(TIC_TAC_TOE.symmetries)
    assert out["inverses"] == [inverse_transform(t) for t in range(8)]
    assert len(out["boards"]) == 5478
    answered = 0
    for board, row in zip(all_boards, out["boards"], strict=True):
        canon = board.canonical()
        mis = Board(board.cells, misere_rules)
        expected = [
            board.hash,
            canon.hash,
            canon.transform,
            str(canon.board),
            board.winner(),
            mis.winner(),
            board.is_terminal,
            board.to_move,
            python_move(table, board),
            python_move(misere, mis),
        ]
        assert row == expected, str(board)
        answered += row[8] is not None
    assert answered > 500  # the table's move was compared on many real boards


def test_symmetry_names_describe_the_transforms() -> None:
    out = run_node(
        {"boards": [], "table": sample_table().to_dict(), "misereTable": {"entries": []}}
    )
    geometry = {
        "identity": lambda r, c: (r, c),
        "flip top and bottom": lambda r, c: (2 - r, c),
        "flip left and right": lambda r, c: (r, 2 - c),
        "rotate 180": lambda r, c: (2 - r, 2 - c),
        "main diagonal": lambda r, c: (c, r),
        "90\u00b0 clockwise": lambda r, c: (c, 2 - r),
        "anticlockwise": lambda r, c: (2 - c, r),
        "anti-diagonal": lambda r, c: (2 - c, 2 - r),
    }
    for t, name in enumerate(out["names"]):
        (move,) = [f for key, f in geometry.items() if key in name]
        assert list(TIC_TAC_TOE.symmetries[t]) == [
            3 * r + c for r, c in (move(*divmod(i, 3)) for i in range(9))
        ], name


def test_page_plays_the_opening_when_the_table_leaves_out_the_empty_board() -> None:
    graph = build_graph()
    moves = first_optimal_moves(graph, 1, opening=0)
    del moves[graph.root]
    x_table = table_from_moves(graph, moves, role="X", opening=0, criterion="optimal")
    boards = ["." * 9, "x...o....", "x.......o"]
    out = run_node({"boards": boards, "table": x_table.to_dict(), "misereTable": {"entries": []}})
    got = [row[8] for row in out["boards"]]
    assert got == [python_move(x_table, Board.parse(b)) for b in boards]
    assert got[0] == 0


def test_assets_are_shipped_with_the_package() -> None:
    assert "@@MINTTT_TABLE@@" in asset_text("index.html")
    assert "function canonical" in asset_text("play.js")
    assert ".board" in asset_text("style.css")


PROBLEM_DRIVER = r"""
const core = require(process.argv[1]);
const docs = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(docs.map((d) => core.tableProblem(d))));
"""


def test_page_names_the_problem_of_a_broken_table(table: Table) -> None:
    """The page refuses, with a reason it shows, every table it would misplay."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    good = table.to_dict()
    first = good["entries"][0]
    occupied = next(i for i, ch in enumerate(first["board"]) if ch != ".") if first["hash"] else 0
    broken = {
        "good": good,
        "not an object": [],
        "format": {**good, "format": "minttt-table/9"},
        "game": {**good, "game": "mnk:5,5,4"},
        "other board": {**good, "game": "mnk:3,4,3"},
        "opening": {**good, "opening": 99},
        "empty": {**good, "entries": []},
        "hash": {**good, "entries": [{**first, "hash": first["hash"] + 1}]},
        "move": {**good, "entries": [{**first, "move": 9}]},
        "float move": {**good, "entries": [{**first, "move": 1.5}]},
    }
    if first["hash"]:
        broken["occupied"] = {**good, "entries": [{**first, "move": occupied}]}
    proc = subprocess.run(
        [node, "-e", PROBLEM_DRIVER, str(PLAY_JS)],
        input=json.dumps(list(broken.values())),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    problems = dict(zip(broken, json.loads(proc.stdout), strict=True))
    assert problems.pop("good") is None
    for name, problem in problems.items():
        assert isinstance(problem, str) and problem, name
    assert "opening 99" in problems["opening"] and "undefined" not in problems["opening"]
    assert "mnk:5,5,4" in problems["game"] and "16 cells" in problems["game"]
    assert "no valid board" in problems["other board"]  # 9-cell boards in a 3x4 table


def test_page_shows_a_message_instead_of_loading_forever() -> None:
    """A broken inline table is reported on the page; the footer link is the table played."""
    js = asset_text("play.js")
    assert "This page cannot play: " in js and "showBroken(" in js
    assert 'id="table-link"' in asset_text("index.html") and "createObjectURL" in js


@pytest.mark.parametrize(("side", "opening"), [(1, None), (1, 4), (1, 0), (2, None)])
def test_first_optimal_moves_are_the_first_move_table(side, opening):
    """The sample's moves: own play of the first optimal move (the opening at the root)."""
    graph = build_graph()
    moves = first_optimal_moves(graph, side, opening)

    def first(h: int) -> int:
        return opening if h == graph.root and opening is not None else graph.allowed(h)[0]

    assert moves == own_play(graph, side, first)
    table = first_move_table(graph, "X" if side == 1 else "O", opening=opening)
    assert {e.hash: e.move for e in table.entries}.items() <= moves.items()


# ------------------------------------------------------- m,n,k boards (3x4, 4x4)

ROOT = Path(__file__).resolve().parents[1]
GAME_TABLES = sorted((ROOT / "results" / "games").glob("*.table.json"))

MNK_DRIVER = r"""
const base = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = input.cases.map((c) => {
  const core = base.forGame(c.table.game);
  const index = core.indexTable(c.table);
  return {
    problem: base.tableProblem(c.table),
    cells: core.CELLS,
    symmetries: core.SYMMETRIES,
    lines: core.LINES.length,
    boards: c.boards.map((text) => {
      const cells = core.parseBoard(text);
      const canon = core.canonical(cells);
      const found = core.tableMove(index, cells);
      return [canon.hash, canon.transform, core.winner(cells, false), core.isTerminal(cells),
              found ? found.move : null];
    }),
  };
});
process.stdout.write(JSON.stringify(out));
"""


def _random_boards(table: Table, count: int, seed: int) -> list[Board]:
    """Boards the table meets: random opponent moves, the table's own moves, up to the end."""
    rng = random.Random(seed)
    side = 1 if table.plays(1) else 2
    boards = []
    while len(boards) < count:
        board = Board.empty(table.rules)
        while not board.is_terminal:
            boards.append(board)
            move = table.move(board) if board.to_move == side else rng.choice(board.legal_moves())
            board = board.play(move)
    return boards[:count]


@pytest.mark.skipif(not GAME_TABLES, reason="no results/games tables")
def test_page_core_plays_every_shipped_mnk_table_as_the_python_table() -> None:
    """Every 3x4 and 4x4 table in results/games: the page's canonical form, winner and move
    are minttt's, on every entry's board and on boards its own games reach."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    tables = [Table.from_dict(json.loads(p.read_text("utf-8"))) for p in GAME_TABLES]
    cases = []
    samples = []
    for k, t in enumerate(tables):
        boards = [Board.parse(e.board, t.rules) for e in t.entries[:300]]
        boards += _random_boards(t, 300, seed=k)
        samples.append(boards)
        cases.append({"table": t.to_dict(), "boards": [str(b) for b in boards]})
    proc = subprocess.run(
        [node, "-e", MNK_DRIVER, str(PLAY_JS)],
        input=json.dumps({"cases": cases}),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    games = set()
    for t, boards, got in zip(tables, samples, json.loads(proc.stdout), strict=True):
        games.add(t.game)
        assert got["problem"] is None, (t.game, got["problem"])
        assert got["cells"] == t.rules.cells
        assert [tuple(p) for p in got["symmetries"]] == list(t.rules.symmetries)
        assert got["lines"] == len(t.rules.lines)
        for board, row in zip(boards, got["boards"], strict=True):
            canon = board.canonical()
            expected = [canon.hash, canon.transform, board.winner(), board.is_terminal]
            assert row[:4] == expected, (t.game, str(board))
            assert row[4] == python_move(t, board), (t.game, str(board))
    assert {"mnk:3,4,3", "mnk:4,4,4"} <= games


@pytest.mark.skipif(not GAME_TABLES, reason="no results/games tables")
def test_4x4_pages_stay_small() -> None:
    """The biggest shipped table's page: the table inlined once (and table.json beside it)."""
    biggest = max(GAME_TABLES, key=lambda p: p.stat().st_size)
    files = page_files(Table.from_dict(json.loads(biggest.read_text("utf-8"))))
    index = len(files["index.html"])
    assert index < len(files["table.json"]) + 4_000  # the page around the table: a few KB
    assert sum(len(b) for b in files.values()) < 600_000


@pytest.mark.parametrize("name", [p.name for p in GAME_TABLES if "mnk343" in p.name])
def test_cli_web_writes_a_3x4_page(tmp_path: Path, name: str) -> None:
    """A 3x4 table just solved and verified gets its page (the verifier runs)."""
    result = CliRunner().invoke(
        app, ["web", str(ROOT / "results" / "games" / name), "--out", str(tmp_path), "--json"]
    )
    assert result.exit_code == 0, result.output
    html = (tmp_path / "index.html").read_text("utf-8")
    assert '"game": "mnk:3,4,3"' in html or '"game":"mnk:3,4,3"' in html


def test_cli_web_old_table_option_still_works_with_a_notice(table: Table, tmp_path: Path) -> None:
    save_table(table, tmp_path / "t.json")
    result = CliRunner().invoke(
        app, ["web", "--table", str(tmp_path / "t.json"), "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.strip().splitlines() == ["--table is deprecated: minttt web TABLE"]
    assert (tmp_path / "out" / "index.html").exists()
    both = CliRunner().invoke(
        app,
        ["web", str(tmp_path / "t.json"), "--table", str(tmp_path / "t.json"), "-o", "x"],
    )
    assert both.exit_code == 2 and len(both.stderr.strip().splitlines()) == 1
    # bad input in the old spelling: still one line, the error (the notice is for a success)
    missing = CliRunner().invoke(
        app, ["web", "--table", str(tmp_path / "missing.json"), "--out", str(tmp_path / "o3")]
    )
    assert missing.exit_code == 2
    (line,) = missing.stderr.strip().splitlines()
    assert line.startswith("error: ") and "no such file" in line
    none = CliRunner().invoke(app, ["web", "--out", str(tmp_path / "o2")])
    assert none.exit_code == 2 and none.stderr.strip().splitlines() == [
        "error: give a table file: minttt web TABLE --out FOLDER"
    ]


CATALOGUE_TABLES = sorted((ROOT / "results" / "catalogue").glob("*.table.json"))


@pytest.mark.slow  # 170 tables, about 40 s
@pytest.mark.skipif(not CATALOGUE_TABLES, reason="no results/catalogue tables")
def test_page_core_plays_every_catalogue_table_as_the_python_table() -> None:
    """Every table of the catalogue (2x2 to 2x8 and 4x4, misère too): the page takes it, and
    its move is minttt's on entry boards and on boards the table's own games reach."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    tables = [Table.from_dict(json.loads(p.read_text("utf-8"))) for p in CATALOGUE_TABLES]
    cases, samples = [], []
    for k, t in enumerate(tables):
        boards = [Board.parse(e.board, t.rules) for e in t.entries[:40]]
        boards += _random_boards(t, 40, seed=k)
        samples.append(boards)
        cases.append({"table": t.to_dict(), "boards": [str(b) for b in boards]})
    proc = subprocess.run(
        [node, "-e", MNK_DRIVER, str(PLAY_JS)],
        input=json.dumps({"cases": cases}),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    for t, boards, got in zip(tables, samples, json.loads(proc.stdout), strict=True):
        assert got["problem"] is None, (t.game, got["problem"])
        for board, row in zip(boards, got["boards"], strict=True):
            assert row[4] == python_move(t, board), (t.game, str(board))
            assert row[2] == board.winner(), (t.game, str(board))
