"""What the OpenSpiel and PettingZoo adapter tests share: the two results tables they seat, the
seats, the CLI runner, and the check that a table never loses a line of a foreign game loop."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from minttt.cli import app
from minttt.table.model import Table, load_table
from minttt.table.verify import verify_player

TABLES = Path(__file__).parent.parent / "results" / "tables"
X22 = load_table(TABLES / "first-center-lookup-entries.json")
BOTH94 = load_table(TABLES / "both-center-lookup-entries.json")
#: (table, role it is seated as): a one-role table, and the two-role table in each seat
SEATS = [(X22, "X"), (BOTH94, "X"), (BOTH94, "O")]
runner = CliRunner()


def assert_matches_verify(table: Table, role: str, games: int, wins: int) -> None:
    """Every opponent line played in the foreign loop is one ``verify`` counted, with its wins."""
    expected = verify_player(table.player(), role)
    assert (games, wins) == (expected.games, expected.wins)


def verify_agent_file(folder: Path, name: str, source: str, attr: str, *args: str) -> Result:
    """``minttt verify --player FOLDER/NAME.py:ATTR ARGS``, the module written from ``source``."""
    module = folder / f"{name}.py"
    module.write_text(source)
    return runner.invoke(app, ["verify", "--player", f"{module}:{attr}", *args])
