"""``minttt count``: every count of the source documents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minttt.cli.common import console, game_option, guarded, print_json, word_option
from minttt.cli.spec import Group, option
from minttt.game.counts import count_all, raw_counts
from minttt.game.rules import Rules
from minttt.vocabulary import Symmetry

if TYPE_CHECKING:
    from rich.table import Table as RichTable

SOURCE = {
    "full_tree": {
        "nodes": 549946,
        "leaves": 255168,
        "x_wins": 131184,
        "o_wins": 77904,
        "draws": 46080,
    },
    "hashed": {"examined": 16168, "positions": 5478, "max_hash": 19560},
    "symmetric": {"examined": 2271, "positions": 765, "max_hash": 17141},
}


def _row(table: RichTable, what: str, ours: Any, source: Any = None) -> None:
    from rich.text import Text

    mark = (
        ""
        if source is None
        else (Text("✓", "green") if ours == source else Text(f"003 says {source}", "red"))
    )
    table.add_row(what, f"{ours:,}" if isinstance(ours, int) else str(ours), mark)


def count_command(
    json_out: bool = option(False, "--json", help="Print one JSON object."),
    game: str = game_option(),
    force: bool = option(False, "--force", help="Allow boards larger than 4x4."),
    full: bool = option(
        None,
        "--full/--symmetric-only",
        help="Also count the full tree and hashed positions (default: boards up to 12 cells).",
        show_default=False,
    ),
    symmetry: Symmetry = word_option(
        Symmetry,
        Symmetry.FULL,
        "--symmetry",
        help="full: every count; none: only the raw positions (the graph of raw tables).",
    ),
) -> None:
    """Count the game tree, positions and symmetry classes (every count of 003 and 000).

    \f
    Parameters
    ----------
    json_out
        Print one JSON object.
    game
        A game name: 3x3, 3x4, 4x4, MxN[kK] or mnk:M,N,K, each with -misere if wanted.
    force
        Allow boards larger than 4x4.
    full
        Also count the full tree and hashed positions (default: boards up to 12 cells).
    symmetry
        full: every count; none: only the raw positions (the graph of raw tables).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt count`` prints it in one line and exits 2.
    """

    rules = Rules.from_name(game, force=force)
    if symmetry is Symmetry.NONE:
        _raw(rules, json_out)
        return
    counts = count_all(rules, full=full)
    if json_out:
        print_json(counts)
        return
    console.print(_counts_table(counts, rules))


def register(app: Group) -> None:
    """Add ``count`` to ``app``."""
    app.command("count")(guarded(count_command))


def _counts_table(counts: dict[str, Any], rules: Rules) -> RichTable:
    """The counts beside 003's figures (for 3x3), one row each."""
    from rich.table import Table as RichTable

    t = RichTable(title=f"minttt count: {rules.name}", show_lines=False)
    t.add_column("what (positions unless said)")
    t.add_column("ours", justify="right")
    t.add_column("source")
    src = SOURCE if rules.name == "3x3" else {}
    ft = counts["full_tree"] or {}
    if ft:
        _tree_rows(t, ft, src)
    _hashed_rows(t, counts, src)
    if not ft:
        _row(t, "full tree, hashed positions, game counts", "skipped (pass --full)")
    _class_rows(t, counts, rules.name == "3x3")
    return t


def _tree_rows(t: RichTable, ft: dict[str, Any], src: dict[str, Any]) -> None:
    for key, label in [
        ("nodes", "full tree: nodes (every move sequence)"),
        ("leaves", "full tree: leaves (finished games)"),
        ("x_wins", "  X wins"),
        ("o_wins", "  O wins"),
        ("draws", "  draws"),
    ]:
        _row(t, label, ft[key], src.get("full_tree", {}).get(key))
    _row(t, "full tree: nodes per depth", ", ".join(f"{n:,}" for n in ft["by_depth"]))


def _hashed_rows(t: RichTable, counts: dict[str, Any], src: dict[str, Any]) -> None:
    for part, label in [("hashed", "positions hashed"), ("symmetric", "symmetry removed")]:
        if counts[part] is None:
            continue
        for key in ("examined", "positions", "max_hash"):
            what = f"{label}: {key.replace('_', ' ')}"
            _row(t, what, counts[part][key], src.get(part, {}).get(key))


def _class_rows(t: RichTable, counts: dict[str, Any], is_ttt: bool) -> None:
    """Positions and games up to symmetry, the value, and 000's 827 situations."""
    tc = counts["terminal_classes"]
    _row(t, "terminal positions up to symmetry", sum(tc.values()), 138 if is_ttt else None)
    _row(t, "  X wins / O wins / draws", f"{tc['x_wins']} / {tc['o_wins']} / {tc['draws']}")
    dp = counts["decision_positions"]
    _row(t, "decision positions up to symmetry", sum(dp.values()), 627 if is_ttt else None)
    _row(t, "  X to move / O to move", f"{dp['x_to_move']} / {dp['o_to_move']}")
    if counts["games_up_to_symmetry"] is not None:
        _row(
            t,
            "games up to symmetry (symmetric moves count once)",
            counts["games_up_to_symmetry"],
            26830 if is_ttt else None,
        )
        _row(t, "games up to symmetry (orbits of move sequences)", counts["sequence_orbits"])
    _row(t, "value of the empty board (+1 X wins, 0 draw)", counts["value"])
    if "situations_827" in counts:
        s = counts["situations_827"]
        _row(t, "000's situations: " + s["counts"], s["value"], 827)
        _row(
            t,
            "  of which real decision positions / boards with a line",
            f"{s['decision_positions']} / {s['with_a_line']}",
        )


def _raw(rules: Rules, json_out: bool) -> None:
    counts = raw_counts(rules)
    if json_out:
        print_json(counts)
        return
    from rich.table import Table as RichTable

    is_ttt = rules.name == "3x3"
    src = SOURCE["hashed"] if is_ttt else {}
    t = RichTable(title=f"minttt count: {rules.name}, raw positions (--symmetry none)")
    t.add_column("what")
    t.add_column("ours", justify="right")
    t.add_column("source")
    for key in ("examined", "positions", "max_hash"):
        _row(t, f"raw: {key.replace('_', ' ')}", counts[key], src.get(key))
    _row(t, "terminal positions", counts["terminal"])
    dp = counts["decision_positions"]
    _row(t, "decision positions (X / O to move)", f"{dp['x_to_move']} / {dp['o_to_move']}")
    _row(t, "value of the empty board (+1 X wins, 0 draw)", counts["value"])
    console.print(t)


__all__ = [
    "SOURCE",
    "count_command",
    "register",
]
