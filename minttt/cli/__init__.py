"""The ``minttt`` command: a thin layer over the Python API.

Each sub-module of ``minttt.cli`` defines ``register(app)`` and adds its commands.
"""

from __future__ import annotations

import importlib
import importlib.util

import typer

COMMAND_MODULES = (
    "count",
    "solve",
    "encode",
    "tables",
    "tournament",
    "play",
    "search",
    "render",
    "evolve",
    "nine",
    "web",
    "reproduce",
)

app = typer.Typer(
    name="minttt",
    help="Find, prove and ship the smallest lookup tables that play perfect tic-tac-toe.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)



@app.callback()
def _root() -> None:
    """Find, prove and ship the smallest lookup tables that play perfect tic-tac-toe."""


for _name in COMMAND_MODULES:
    _module_name = f"minttt.cli.{_name}"
    if importlib.util.find_spec(_module_name) is not None:
        importlib.import_module(_module_name).register(app)


def main() -> None:
    """Entry point of the console script."""
    app()
