"""Table files for other games of the family (m,n,k boards): save, load, verify."""

from __future__ import annotations

import pytest

from minttt.errors import InputError
from minttt.formula.encode import encode
from minttt.formula.variants import Variant
from minttt.game.graph import build_graph
from minttt.game.rules import Rules
from minttt.solvers.portfolio import make_table, solve
from minttt.table.export import export_table
from minttt.table.model import Table, hash_convention, load_table, save_table
from minttt.table.verify import verify_table


@pytest.fixture(scope="module")
def table_3x4() -> Table:
    rules = Rules.from_name("mnk:3,4,3")
    graph = build_graph(rules)
    variant = Variant("first", "any", "lookup", "entries", game="mnk:3,4,3")
    solution = solve(encode(graph, variant))
    assert solution.optimal
    return make_table(graph, solution)


def test_an_mnk_table_round_trips_and_verifies(table_3x4: Table, tmp_path) -> None:
    assert table_3x4.game == "mnk:3,4,3" and table_3x4.size == 46
    path = tmp_path / "t.json"
    save_table(table_3x4, path)
    again = load_table(path)
    assert again == table_3x4
    assert again.to_dict()["hash"] == hash_convention(Rules(3, 4, 3))
    assert "4 symmetries of the rectangle" in again.to_dict()["hash"]
    report = verify_table(again)
    assert report.ok and report.losses == 0


def test_mnk_tables_reject_a_wrong_convention_or_game(table_3x4: Table) -> None:
    doc = table_3x4.to_dict()
    with pytest.raises(InputError, match="^hash:"):
        Table.from_dict({**doc, "hash": hash_convention(Rules())})
    with pytest.raises(InputError, match="^game:"):
        Table.from_dict({**doc, "game": "mnk:3,4,9"})
    with pytest.raises(InputError, match="^game:"):
        Table.from_dict({**doc, "game": "chess"})


def test_player_exports_are_for_3x3_only(table_3x4: Table) -> None:
    with pytest.raises(InputError, match="3x3"):
        export_table(table_3x4, "c")
    assert export_table(table_3x4, "json") == table_3x4.to_json()
