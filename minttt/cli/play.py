"""``minttt play``: a game at the console against a table or a player, as in 001's transcript."""

from __future__ import annotations

import typer

from minttt.cli.common import game_of, guarded
from minttt.errors import InputError


def register(app: typer.Typer) -> None:
    @app.command("play")
    @guarded
    def play_command(
        table: str | None = typer.Option(None, "--table", "-t", help="Play against a table file."),
        player: str | None = typer.Option(
            None, "--player", "-p", help="A player or module:callable (default alphabeta)."
        ),
        side: str | None = typer.Option(None, "--as", help="Your side, X or O (asked if absent)."),
        seed: int | None = typer.Option(None, "--seed", help="Seed for random players."),
    ) -> None:
        """Play tic-tac-toe at the console (cells 1-9). End of input quits cleanly."""
        from minttt.play.console import play_console

        if seed is not None and not 0 <= seed <= 2**63 - 1:
            raise InputError(f"--seed {seed}: must be 0-{2**63 - 1}")
        if table is not None and player is not None:
            raise InputError("give --table or --player, not both")
        if side is not None and side.strip().upper() not in ("X", "O"):
            raise InputError(f"--as {side!r}: expected X or O")
        human = side.strip().upper() if side else None
        if table is not None:
            from minttt.table.model import load_table

            tab = load_table(table)
            opponent = tab.player()
            rules = tab.rules
            if human is None and tab.role != "both":
                human = "O" if tab.role == "X" else "X"
            if human is not None and not tab.plays(2 if human == "X" else 1):
                raise InputError(f"this table plays {tab.role} only; play as the other side")
        else:
            from minttt.play.players import make_player

            opponent = make_player(player or "alphabeta")
            if getattr(opponent, "name", "") == "human":
                raise InputError("--player human: choose a computer opponent")
            rules = game_of(opponent)  # a table:PATH player plays its table's game
        try:
            play_console(opponent, human, seed=seed, rules=rules)
        except EOFError:
            typer.echo("")
            typer.echo("Bye.")
