"""Adapters for the frameworks where game agents are trained (optional extras)."""

from __future__ import annotations

from typing import Any

from minttt.errors import InputError


def require_tic_tac_toe(table: Any, framework: str) -> None:
    """InputError unless ``table`` plays plain 3x3 tic-tac-toe, the only game ``framework``'s
    tic-tac-toe environment has (a misère or m,n,k table would be played by the wrong rules)."""
    if table.rules.name != "3x3":
        raise InputError(f"{framework} plays 3x3 tic-tac-toe; this table plays {table.rules.name}")


__all__ = [
    "require_tic_tac_toe",
]
