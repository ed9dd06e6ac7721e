"""``minttt verify``, ``minttt odds`` and ``minttt export``: tables as artifacts."""

from __future__ import annotations

from typing import Any

import typer

from minttt.cli.common import (
    check_playable,
    console,
    fail,
    game_of,
    guarded,
    plain,
    print_json,
)
from minttt.errors import InputError


def _player_or_table(table_path: str | None, player: str | None) -> tuple[Any, Any]:
    """``(table, None)`` for a file, ``(None, player)`` for ``--player NAME``."""
    if (table_path is None) == (player is None):
        raise InputError("give either a TABLE.json or --player NAME (exactly one)")
    if table_path is not None:
        from minttt.table.model import load_table

        return load_table(table_path), None
    from minttt.play.players import make_player  # the players issue; imported lazily

    assert player is not None
    return None, make_player(player)


def _role(role: str | None, default: str) -> str:
    if role is None:
        return default
    value = role.strip()
    value = value.upper() if value.lower() in ("x", "o") else value.lower()
    if value not in ("X", "O", "both"):
        raise InputError(f"--role {role!r}: expected X, O or both")
    return value


def register(app: typer.Typer) -> None:
    @app.command("verify")
    @guarded
    def verify_command(
        table_path: str | None = typer.Argument(None, metavar="[TABLE.json]", help="Table file."),
        player: str | None = typer.Option(
            None,
            "--player",
            "-p",
            help="Verify a player instead: a name (random, alphabeta, ...) or module:callable.",
        ),
        role: str | None = typer.Option(
            None, "--role", help="X, O or both (default: the table's role; both for a player)."
        ),
        criterion: str | None = typer.Option(
            None, "--criterion", help="optimal or never-lose (default: the table's; optimal)."
        ),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Play a table (or a player) against every opponent line and check every move.

        Checks: every position reached has an entry, every move is legal, no game is lost, and for
        ``optimal`` every move keeps the minimax value (``never-lose``: never turns a not-lost
        position into a lost one). Exit 0 when it holds, 1 with the first counterexample, 2 for a
        file that cannot be read or breaks the schema.
        """
        from minttt.table.verify import CRITERIA, verify_player, verify_table

        table, who = _player_or_table(table_path, player)
        if criterion is not None and criterion not in CRITERIA:
            raise InputError(f"--criterion {criterion!r}: expected one of {', '.join(CRITERIA)}")
        if table is not None and role is None and criterion is None:
            report = verify_table(table)
        elif table is not None:
            rep_role = _role(role, table.role)
            report = verify_player(
                table.player(), rep_role, criterion or table.criterion, rules=table.rules
            )
        else:
            rules = game_of(who)  # a table:PATH player plays its table's game
            check_playable(rules, "verify")
            report = verify_player(who, _role(role, "both"), criterion or "optimal", rules=rules)
        if json_out:
            data = report.to_dict()
            if table is not None:
                data["table"] = table_path
            print_json(data)
        else:
            subject = plain(
                f"table {table_path}" if table is not None else f"player {report.player}"
            )
            counts = (
                f"{report.games:,} games (every opponent line): {report.wins:,} won, "
                f"{report.draws:,} drawn, {report.losses:,} lost; the player moved at "
                f"{report.positions:,} positions"
            )
            if report.ok:
                console.print(
                    f"ok: {subject} plays {report.role} ({report.criterion})", highlight=False
                )
                console.print(counts, highlight=False, soft_wrap=True)
                if report.entries is not None:
                    console.print(
                        f"{report.entries} entries (lookups), {len(report.unreached)} never reached"
                        + (f": {list(report.unreached)}" if report.unreached else ""),
                        highlight=False,
                        soft_wrap=True,
                    )
            else:
                assert report.counterexample is not None
                console.print(
                    f"FAILED: {subject} as {report.role} ({report.criterion})", highlight=False
                )
                console.print(
                    report.counterexample.describe(), highlight=False, markup=False, soft_wrap=True
                )
        if not report.ok:
            raise typer.Exit(1)

    @app.command("odds")
    @guarded
    def odds_command(
        table_path: str | None = typer.Argument(None, metavar="[TABLE.json]", help="Table file."),
        player: str | None = typer.Option(None, "--player", "-p", help="A player by name."),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Exact win / draw / loss odds against a uniformly random opponent, as X and as O."""
        from minttt.table.odds import exact_odds, pct

        table, who = _player_or_table(table_path, player)
        rules = game_of(who)  # a table:PATH player plays its table's game
        if table is not None:
            who = table.player()
            rules = table.rules
            roles = [r for r, side in (("X", 1), ("O", 2)) if table.plays(side)]
        else:
            roles = ["X", "O"]
        check_playable(rules, "odds")
        results = {role: exact_odds(who, role, rules=rules) for role in roles}
        if json_out:
            print_json(
                {
                    "player": who.name,
                    "game": rules.name,
                    **{r: o.to_dict() for r, o in results.items()},
                }
            )
            return
        for role, o in results.items():
            console.print(
                f"{plain(who.name)} as {role} vs random ({rules.name}): win {pct(o.win)} "
                f"({o.win}), draw {pct(o.draw)} ({o.draw}), loss {pct(o.loss)} ({o.loss})",
                highlight=False,
                soft_wrap=True,
            )

    @app.command("export")
    @guarded
    def export_command(
        table_path: str = typer.Argument(..., metavar="TABLE.json", help="Table file."),
        fmt: str = typer.Option("c", "--format", "-f", help="c, python, json or avr."),
        out: str | None = typer.Option(None, "--out", "-o", help="Write here (default: stdout)."),
    ) -> None:
        """Export a table: a C header with a player loop (-DMINTTT_MAIN), Python, JSON, or
        ATmega328P firmware (avr: an ELF, or Intel HEX for --out NAME.hex; needs avr-gcc)."""
        import sys

        from minttt.fileio import refuse_overwrite
        from minttt.table.export import FORMATS, export_table
        from minttt.table.model import load_table

        refuse_overwrite(out, table_path)
        if fmt == "avr":
            from minttt.table.firmware import build_firmware

            if out is None:
                raise InputError("--format avr writes a binary: give --out FIRMWARE.elf or .hex")
            built = build_firmware(load_table(table_path), out, final=True)
            console.print(f"wrote {built.summary()}", highlight=False, soft_wrap=True)
            return
        if fmt not in FORMATS:
            fail(f"--format {fmt!r}: expected one of {', '.join((*FORMATS, 'avr'))}")
        text = export_table(load_table(table_path), fmt)
        if out is None:
            sys.stdout.write(text)
        else:
            from minttt.fileio import write_text_atomic

            write_text_atomic(out, text, final=True)
            console.print(f"wrote {plain(out)}", highlight=False, soft_wrap=True)
