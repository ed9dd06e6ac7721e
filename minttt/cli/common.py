"""Shared pieces of the command-line layer: one-line errors, JSON output, the console."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, NoReturn, TypeVar

import typer
from rich.console import Console

from minttt.errors import InputError

F = TypeVar("F", bound=Callable[..., Any])

console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit (2 = bad input)."""
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def guarded(func: F) -> F:
    """Turn InputError (and Ctrl-C) raised by a command into a one-line error and exit code."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        except KeyboardInterrupt:
            err_console.print("interrupted", highlight=False)
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def print_json(data: Any) -> None:
    """Write ``data`` as JSON to stdout (plain, no rich markup)."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")
