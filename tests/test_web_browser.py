"""The play page in real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright.

Games are played by clicks; after every click the page's board must be the Python table player's
answer (``table.move``), and the page never loses. Skips only when no browser can be had.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minttt.game.graph import build_graph
from minttt.game.rules import EMPTY, Board, O, Rules, X
from minttt.table.model import Table, table_from_moves
from minttt.web import build_site
from minttt.web.sample import first_optimal_moves, sample_table

# A real browser starts for these: all of them are in the full run, none in the quick loop.
pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
RANDOM_GAMES = 200
SYMBOL = {X: "x", O: "o"}


class Browser:
    """One Chromium with a fresh profile; records every request and script error."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page = context.pages[0] if context.pages else context.new_page()
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def open(self, site: Path) -> None:
        self.page.goto((site / "index.html").as_uri())
        self.page.wait_for_selector("#game[data-ready='1']", timeout=10_000)

    def state(self) -> tuple[str, str, str | None]:
        """(board string, 'your-turn' | 'over', result or None)."""
        board, state, result = self.page.evaluate(
            """() => {
                const g = document.getElementById("game");
                return [document.getElementById("board").dataset.board,
                        g.dataset.state, g.dataset.result || null];
            }"""
        )
        return board, state, result

    def click(self, cell: int) -> None:
        """A real mouse click on the cell (``force``: no waiting for animations; none run)."""
        self.page.click(f"#board [data-cell='{cell}']", force=True, timeout=5_000)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(f"no browser: {CHROMIUM} is missing (run .ci/install-browser)")
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("no browser: the playwright package is not installed (run .ci/install-browser)")
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with tempfile.TemporaryDirectory(prefix="minttt-chromium-") as profile:
        manager = sync_playwright().start()
        try:
            try:
                context = manager.chromium.launch_persistent_context(
                    profile,
                    executable_path=executable,
                    headless=True,
                    args=CHROMIUM_ARGS,
                    viewport={"width": 1000, "height": 900},
                )
            except PlaywrightError as exc:
                pytest.skip(
                    f"no browser: {executable} would not start ({str(exc).splitlines()[0]})"
                )
            context.set_default_timeout(10_000)
            yield Browser(context)
            context.close()
        finally:
            manager.stop()


@pytest.fixture(scope="module")
def table() -> Table:
    return sample_table()


@pytest.fixture(scope="module")
def site(table: Table, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_site(table, out)
    return out


@pytest.fixture()
def page(browser: Browser, site: Path) -> Iterator[Browser]:
    browser.requests.clear()
    browser.errors.clear()
    browser.open(site)
    yield browser
    assert not browser.errors, browser.errors
    allowed = {(site / n).as_uri() for n in ("index.html", "play.js", "style.css")}
    assert set(browser.requests) <= allowed, set(browser.requests) - allowed


def choose_side(b: Browser, human: int) -> None:
    b.page.click("#play-x" if human == X else "#play-o", force=True)


def expect_after(table: Table, board: Board) -> Board:
    """The board after the table answers ``board`` (unchanged when the game is over)."""
    return board if board.is_terminal else board.play(table.move(board))


def play_game(b: Browser, table: Table, human: int, pick: Any) -> Board:
    """Play one game by clicks; ``pick(board)`` names the human's cell. Checks every reply."""
    board = Board.empty(table.rules)
    if human == O:
        board = expect_after(table, board)
    shown, state, _ = b.state()
    assert shown == str(board) and state == "your-turn"
    while not board.is_terminal:
        cell = pick(board)
        board = expect_after(table, board.play(cell))
        b.click(cell)
        shown, state, result = b.state()
        assert shown == str(board), f"after clicking {cell}: page {shown}, table player {board}"
        assert state == ("over" if board.is_terminal else "your-turn")
    winner = board.winner()
    assert result == (SYMBOL[winner] if winner else "draw")
    assert winner != human, f"the page lost as {SYMBOL[3 - human]}: {board}"
    return board


def first_empty(board: Board) -> int:
    return board.legal_moves()[0]


# ------------------------------------------------------------------ scripted


def test_page_starts_ready_for_x(page: Browser, table: Table) -> None:
    assert page.state() == ("." * 9, "your-turn", None)
    assert "148 entries" in page.page.inner_text("#about")
    assert page.page.get_attribute("#play-x", "aria-pressed") == "true"


def test_computer_opens_in_the_centre_when_the_person_plays_o(page: Browser) -> None:
    choose_side(page, O)
    assert page.state() == ("....x....", "your-turn", None)
    assert page.page.get_attribute("#game", "data-human") == "o"
    assert "centre" in page.page.inner_text("#log")


def test_scripted_games(page: Browser, table: Table) -> None:
    # X in a corner, then always the lowest free cell; then the same as O; then the far corner
    play_game(page, table, X, first_empty)
    choose_side(page, O)
    play_game(page, table, O, first_empty)
    script = iter([8, 0, 2, 6, 1, 3, 5, 7])
    choose_side(page, X)

    def scripted(board: Board) -> int:
        for cell in script:
            if board.cells[cell] == EMPTY:
                return cell
        return first_empty(board)

    play_game(page, table, X, scripted)


def test_entry_shows_canonical_board_and_symmetry(page: Browser, table: Table) -> None:
    page.click(8)  # bottom right: the canonical board puts the x in the top left
    board = Board.parse("........x")
    canon = board.canonical()
    entry = table.entry(board)
    assert entry is not None and canon.transform != 0
    text = page.page.inner_text("#log li:first-child")
    assert f"board {entry.board}" in text and f"hash {entry.hash}" in text
    assert f"real \u2192 canonical is transform {canon.transform}" in text
    assert f"canonical cell {entry.move} to real cell {table.move(board)}" in text
    page.page.uncheck("#show-entries")
    assert not page.page.is_visible("#log")
    page.page.check("#show-entries")
    assert page.page.is_visible("#log")


def test_clicks_on_occupied_cells_and_after_the_end_do_nothing(page: Browser, table: Table) -> None:
    page.click(0)
    before = page.state()
    occupied = [i for i, ch in enumerate(before[0]) if ch != "."]
    for cell in occupied:
        page.click(cell)
        assert page.state() == before
    log_items = page.page.locator("#log li").count()
    final = play_game_from(page, table, Board.parse(before[0]))
    for cell in range(9):
        page.click(cell)
        assert page.state()[0] == str(final) and page.state()[1] == "over"
    assert page.page.locator("#log li").count() >= log_items
    assert page.page.is_visible("#after")


def play_game_from(b: Browser, table: Table, board: Board) -> Board:
    while not board.is_terminal:
        cell = first_empty(board)
        board = expect_after(table, board.play(cell))
        b.click(cell)
    assert b.state()[0] == str(board)
    return board


def test_new_game_resets(page: Browser) -> None:
    page.click(4)
    page.page.click("#new-game")
    assert page.state() == ("." * 9, "your-turn", None)
    assert page.page.locator("#log li").count() == 0


# -------------------------------------------------------------------- random


def test_random_games_by_clicks_never_lose_and_match_the_table_player(
    page: Browser, table: Table
) -> None:
    rng = random.Random(20180225)
    results = {"x": 0, "o": 0, "draw": 0}
    for game in range(RANDOM_GAMES):
        human = X if game % 2 == 0 else O
        choose_side(page, human)
        final = play_game(page, table, human, lambda b: rng.choice(b.legal_moves()))
        w = final.winner()
        results[SYMBOL[w] if w else "draw"] += 1
    assert sum(results.values()) == RANDOM_GAMES
    assert results["x"] + results["o"] > 0  # random play does lose to the table sometimes


# ------------------------------------------------------------ other tables


def one_role_table(role: str, rules: Rules | None = None) -> Table:
    graph = build_graph(rules) if rules else build_graph()
    side = X if role == "X" else O
    moves = first_optimal_moves(graph, side)
    return table_from_moves(graph, moves, role=role, opening=None, criterion="optimal")


@pytest.mark.parametrize("role", ["X", "O"])
def test_one_role_table_plays_its_own_role(browser: Browser, tmp_path: Path, role: str) -> None:
    table = one_role_table(role)
    build_site(table, tmp_path)
    browser.errors.clear()
    browser.open(tmp_path)
    human = O if role == "X" else X
    assert browser.page.get_attribute("#game", "data-human") == SYMBOL[human]
    assert f"This table plays {role}" in browser.page.inner_text("#role-text")
    hidden = "#play-x" if human == O else "#play-o"
    assert not browser.page.is_visible(hidden)
    rng = random.Random(role)
    for _ in range(10):
        browser.page.click("#new-game")
        play_game(browser, table, human, lambda b: rng.choice(b.legal_moves()))
    assert not browser.errors, browser.errors


def test_misere_table_in_the_browser(browser: Browser, tmp_path: Path) -> None:
    graph = build_graph(Rules(misere=True))
    moves = first_optimal_moves(graph, X, opening=4)
    moves.update(first_optimal_moves(graph, O))
    table = table_from_moves(graph, moves, role="both", opening=4, criterion="optimal")
    build_site(table, tmp_path)
    browser.errors.clear()
    browser.open(tmp_path)
    assert "Mis\u00e8re" in browser.page.inner_text("#about")
    rng = random.Random(7)
    for game in range(20):
        human = X if game % 2 == 0 else O
        choose_side(browser, human)
        play_game(browser, table, human, lambda b: rng.choice(b.legal_moves()))
    assert not browser.errors, browser.errors


def test_browser_hashing_agrees_on_every_position(browser: Browser, site: Path) -> None:
    """The same check as the node test, in the browser's own JavaScript engine."""
    browser.open(site)
    graph = build_graph(symmetric=False)
    boards = [graph.board(h) for h in sorted(graph.boards)]
    rows = browser.page.evaluate(
        """(boards) => boards.map((t) => {
            const c = window.minttt.canonical(window.minttt.parseBoard(t));
            return [c.hash, c.transform];
        })""",
        [str(b) for b in boards],
    )
    assert len(rows) == 5478
    assert rows == [list(b.canonical()[:2]) for b in boards]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("inline", "reason"),
    [
        ("", "not valid JSON"),
        ("{broken", "not valid JSON"),
        ('{"format": "minttt-table/1"}', "at most 16 cells"),
        ("OPENING", "opening 99 is not a cell"),
    ],
)
def test_broken_table_is_reported_on_the_page(
    browser: Browser, table: Table, tmp_path: Path, inline: str, reason: str
) -> None:
    """A broken inline table gives a message on the page, never "Loading" nor a misplay."""
    import json

    build_site(table, tmp_path)
    index = tmp_path / "index.html"
    html = index.read_text("utf-8")
    start = html.index('type="application/json">') + len('type="application/json">')
    end = html.index("</script>", start)
    if inline == "OPENING":
        inline = json.dumps({**table.to_dict(), "opening": 99})
    index.write_text(html[:start] + inline + html[end:], "utf-8")
    browser.errors.clear()
    browser.page.goto(index.as_uri())
    browser.page.wait_for_selector("#game[data-state='error']", state="attached", timeout=10_000)
    about = browser.page.inner_text("#about")
    assert about.startswith("This page cannot play: ") and reason in about, about
    assert "undefined" not in about and "Loading" not in about
    assert browser.page.is_hidden("#board")


@pytest.mark.slow
def test_footer_link_is_the_table_played(browser: Browser, site: Path, table: Table) -> None:
    browser.open(site)
    href = browser.page.get_attribute("#table-link", "href")
    assert href is not None and href.startswith("blob:")
    with browser.page.expect_download() as download:
        browser.page.click("#table-link")
    text = Path(download.value.path()).read_text("utf-8")
    assert Table.from_dict(__import__("json").loads(text)) == table  # the table inlined, played


# ------------------------------------------------------- m,n,k tables (3x4, 4x4)

RESULTS = Path(__file__).resolve().parents[1] / "results"


def _smallest(pattern: str) -> list[Path]:
    found = sorted((RESULTS / "catalogue").glob(pattern), key=lambda p: p.stat().st_size)
    return found[:1]


# results/games (3x4, 4x4 k=3 and 4) and two of the catalogue: a 2x8 board, a misère one
GAME_TABLES = [
    *sorted((RESULTS / "games").glob("*.table.json")),
    *_smallest("*@mnk-2-8-*.table.json"),
    *_smallest("*@mnk-*-misere.table.json"),
]
MNK_GAMES = 12  # random games by clicks per shipped table


@pytest.mark.parametrize("path", GAME_TABLES, ids=[p.name for p in GAME_TABLES])
def test_shipped_mnk_tables_play_in_the_browser(
    browser: Browser, tmp_path: Path, path: Path
) -> None:
    """Every 3x4 and 4x4 table of results/games plays by clicks as the Python table player, on
    a board of its shape, and never loses. (The files are :func:`page_files`: these tables are
    the verified ones the results ship, and the verifier takes minutes on 4x4.)"""
    import json

    from minttt.fileio import write_many_atomic
    from minttt.web.site import page_files

    table = Table.from_dict(json.loads(path.read_text("utf-8")))
    write_many_atomic({tmp_path / n: data for n, data in page_files(table).items()})
    browser.requests.clear()
    browser.errors.clear()
    browser.open(tmp_path)
    rules = table.rules
    assert browser.page.locator("#board .cell").count() == rules.cells
    columns = browser.page.evaluate(
        "() => getComputedStyle(document.getElementById('board')).gridTemplateColumns"
    )
    assert len(columns.split()) == rules.cols
    heading = browser.page.inner_text("header h1")
    assert heading.startswith(f"{rules.rows}x{rules.cols} m,n,k"), heading
    human = O if table.role == "X" else X
    rng = random.Random(path.name)
    for _ in range(MNK_GAMES):
        browser.page.click("#new-game", force=True)
        play_game(browser, table, human, lambda b: rng.choice(b.legal_moves()))
    assert not browser.errors, browser.errors
    allowed = {(tmp_path / n).as_uri() for n in ("index.html", "play.js", "style.css")}
    assert set(browser.requests) <= allowed
