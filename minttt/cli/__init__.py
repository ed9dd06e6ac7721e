"""The ``minttt`` command: a thin layer over the Python API.

Each sub-module of ``minttt.cli`` defines ``register(app)`` and adds its commands. ``main`` loads
only the module of the command being run, so a quick command (``minttt count``) never pays for the
imports of a heavy one (solvers, plotting, browsers). ``minttt.cli.app`` is the full application.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import typer

# command name -> module of minttt.cli that registers it
COMMANDS: dict[str, str] = {
    "count": "count",
    "solve": "solve",
    "encode": "encode",
    "verify": "tables",
    "export": "tables",
    "odds": "tables",
    "tournament": "tournament",
    "play": "play",
    "search": "search",
    "render": "render",
    "evolve": "evolve",
    "nine": "nine",
    "web": "web",
    "reproduce": "reproduce",
    "certify": "certify",
    "check-proof": "certify",
}
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))


def build_app(modules: tuple[str, ...] = COMMAND_MODULES) -> typer.Typer:
    """A typer application with the commands of ``modules`` registered."""
    application = typer.Typer(
        name="minttt",
        help="Find, prove and ship the smallest lookup tables that play perfect tic-tac-toe.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    @application.callback()
    def _root() -> None:
        """Find, prove and ship the smallest lookup tables that play perfect tic-tac-toe."""

    for name in modules:
        module_name = f"minttt.cli.{name}"
        if importlib.util.find_spec(module_name) is not None:
            importlib.import_module(module_name).register(application)
    return application


def __getattr__(name: str) -> typer.Typer:
    if name == "app":
        return build_app()
    raise AttributeError(name)


def main() -> None:
    """Entry point of the console script."""
    words = [a for a in sys.argv[1:] if not a.startswith("-")]
    module = COMMANDS.get(words[0]) if words else None
    build_app((module,) if module else COMMAND_MODULES)()
