"""``minttt verify``, ``minttt odds`` and ``minttt export``: tables as artifacts."""

from __future__ import annotations

import sys

from minttt.cli.common import (
    console,
    fail,
    guarded,
    move_timeout_option,
    plain,
    print_json,
    say_wrote,
    word_option,
)
from minttt.cli.spec import Group, argument, option
from minttt.errors import InputError
from minttt.fileio import refuse_overwrite, write_text_atomic
from minttt.game.player import Player
from minttt.play.opponents import check_playable, game_of
from minttt.play.players import make_player
from minttt.table.export import FORMATS, export_table
from minttt.table.firmware import build_firmware
from minttt.table.layouts import check_layout
from minttt.table.model import Table, load_table
from minttt.table.odds import odds_by_role
from minttt.table.verify import VerifyReport, verify_player, verify_table
from minttt.vocabulary import Criterion, Role


def _player_or_table(
    table_path: str | None, player: str | None, move_timeout: float
) -> tuple[Table | None, Player | None]:
    """``(table, None)`` for a file, ``(None, player)`` for ``--player NAME``."""
    if (table_path is None) == (player is None):
        raise InputError("give either a TABLE file or --player PLAYER (exactly one)")
    if table_path is not None:
        return load_table(table_path), None

    assert player is not None
    return None, make_player(player, move_timeout=move_timeout)


def _verify(
    table: Table | None, who: Player | None, role: Role | None, criterion: Criterion | None
) -> VerifyReport:
    """Verify a table as it declares (or with --role/--criterion), or a player (both, optimal)."""

    if table is not None and role is None and criterion is None:
        return verify_table(table)
    if table is not None:
        judged = criterion or table.criterion
        return verify_player(table.player(), role or table.role, judged, rules=table.rules)
    rules = game_of(who)  # a table:PATH player plays its table's game
    check_playable(rules, "verify")
    return verify_player(who, role or Role.BOTH, criterion or Criterion.OPTIMAL, rules=rules)


def verify_command(
    table_path: str | None = argument(
        None, metavar="[TABLE]", help="A table file (minttt-table/1 JSON)."
    ),
    player: str | None = option(
        None,
        "--player",
        "-p",
        metavar="PLAYER",
        help="Verify a player instead: a name (random, alphabeta, ...) or module:callable.",
    ),
    role: Role | None = word_option(
        Role, None, "--role", help="X, O or both (default: the table's role; both for a player)."
    ),
    criterion: Criterion | None = word_option(
        Criterion,
        None,
        "--criterion",
        help="optimal or never-lose (default: the table's; optimal).",
    ),
    json_out: bool = option(False, "--json", help="Print one JSON object."),
    move_timeout: float = move_timeout_option(),
) -> None:
    """Play a table (or a player) against every opponent line and check every move.

    Checks: every position reached has an entry, every move is legal, no game is lost, and for
    ``optimal`` every move keeps the minimax value (``never-lose``: never turns a not-lost
    position into a lost one). Exit 0 when it holds, 1 with the first counterexample, 2 for a
    file that cannot be read or breaks the schema.

    \f
    Parameters
    ----------
    table_path
        Table file.
    player
        Verify a player instead: a name (random, alphabeta, ...) or module:callable.
    role
        X, O or both (default: the table's role; both for a player).
    criterion
        optimal or never-lose (default: the table's; optimal).
    json_out
        Print one JSON object.
    move_timeout
        Seconds a module:callable agent may take per move (then it is stopped).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt verify`` prints it in one line and exits 2.
    """
    table, who = _player_or_table(table_path, player, move_timeout)
    report = _verify(table, who, role, criterion)
    if json_out:
        data = report.to_dict()
        if table is not None:
            data["table"] = table_path
        print_json(data)
    else:
        subject = plain(f"table {table_path}" if table is not None else f"player {report.player}")
        verdict, *details = report.lines(subject)
        console.print(verdict, highlight=False)  # wrapped at the terminal's width
        for line in details:
            console.print(line, highlight=False, markup=False, soft_wrap=True)
    if not report.ok:
        raise SystemExit(1)


def odds_command(
    table_path: str | None = argument(
        None, metavar="[TABLE]", help="A table file (minttt-table/1 JSON)."
    ),
    player: str | None = option(None, "--player", "-p", metavar="PLAYER", help="A player by name."),
    json_out: bool = option(False, "--json", help="Print one JSON object."),
    move_timeout: float = move_timeout_option(),
) -> None:
    """Exact win / draw / loss odds against a uniformly random opponent, as X and as O.

    \f
    Parameters
    ----------
    table_path
        Table file.
    player
        A player by name.
    json_out
        Print one JSON object.
    move_timeout
        Seconds a module:callable agent may take per move (then it is stopped).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt odds`` prints it in one line and exits 2.
    """

    table, named = _player_or_table(table_path, player, move_timeout)
    roles = [Role.X, Role.O]
    who: Player
    if table is not None:
        who, rules = table.player(), table.rules
        roles = [r for r in roles if table.role.plays(r.sides[0])]
    else:
        assert named is not None  # _player_or_table gives exactly one
        who, rules = named, game_of(named)  # a table:PATH player plays its table's game
    check_playable(rules, "odds")
    results = odds_by_role(who, roles, rules=rules)
    if json_out:
        by_role = {str(r): o.to_dict() for r, o in results.items()}
        print_json({"player": who.name, "game": rules.name, **by_role})
        return
    for role, o in results.items():
        console.print(o.line(plain(who.name), role, rules.name), highlight=False, soft_wrap=True)


def export_command(
    table_path: str = argument(..., metavar="TABLE", help="A table file (minttt-table/1 JSON)."),
    fmt: str = option("c", "--format", "-f", metavar="FORMAT", help="c, python, json or avr."),
    out: str | None = option(
        None, "--out", "-o", metavar="PATH", help="Write here (default: stdout)."
    ),
    layout: str = option(
        "bytes",
        "--layout",
        metavar="LAYOUT",
        help="avr only: bytes, nibbles, packed or hash (README: bytes).",
    ),
) -> None:
    """Export a table: a C header with a player loop (-DMINTTT_MAIN), Python, JSON, or
    ATmega328P firmware (avr: an ELF, or Intel HEX for --out NAME.hex; needs avr-gcc).

    \f
    Parameters
    ----------
    table_path
        Table file.
    fmt
        c, python, json or avr.
    out
        Write here (default: stdout).
    layout
        avr only: bytes, nibbles, packed or hash (README: bytes).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt export`` prints it in one line and exits 2.
    """

    refuse_overwrite(out, table_path)
    if fmt != "avr" and layout != "bytes":
        raise InputError("--layout is for --format avr")
    if fmt == "avr":
        check_layout(layout)
        if out is None:
            raise InputError("--format avr writes a binary: give --out FIRMWARE.elf or .hex")
        built = build_firmware(load_table(table_path), out, layout=layout, final=True)
        say_wrote(built.summary())
        return
    if fmt not in FORMATS:
        fail(f"--format {fmt!r}: expected one of {', '.join((*FORMATS, 'avr'))}")
    text = export_table(load_table(table_path), fmt)
    if out is None:
        sys.stdout.write(text)
        return

    write_text_atomic(out, text, final=True)
    say_wrote(out)


def register(app: Group) -> None:
    """Add ``verify``, ``odds`` and ``export`` to ``app``."""
    app.command("verify")(guarded(verify_command))
    app.command("odds")(guarded(odds_command))
    app.command("export")(guarded(export_command))


__all__ = [
    "export_command",
    "odds_command",
    "register",
    "verify_command",
]
