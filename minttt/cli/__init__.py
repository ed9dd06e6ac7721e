"""The ``minttt`` command: a thin layer over the Python API.

Each sub-module of ``minttt.cli`` defines its commands as module-level functions (read the
options, call the library, print) and ``register(app)``, which adds them to the app. ``main`` loads
only the module of the command being run, so a quick command (``minttt count``) never pays for the
imports of a heavy one (solvers, plotting, browsers). ``minttt.cli.app`` is the full application.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

import typer
from typer.core import TyperGroup

# click's base exception, reached through typer's public BadParameter: typer 0.28 carries its own
# copy of click (older releases used click itself), so click is never imported by name
ClickException: Any = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")

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
    "scale": "scale",
}
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))


class OneLineErrors(TyperGroup):
    """The root command: a usage error (bad option value, unknown option) is one line, exit 2."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Run the command; a usage error is one line, exit 2 (bare ``minttt``: the help)."""
        options = {**kwargs, "standalone_mode": False}
        if not standalone_mode:
            return super().main(*args, **options)
        try:
            code = super().main(*args, **options)
        except ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare ``minttt``: the help, exit 2
                exc.show()
                sys.exit(exc.exit_code)
            from minttt.cli.common import plain

            message = plain(" ".join(exc.format_message().split()))
            ctx = getattr(exc, "ctx", None)
            command = ctx.command_path if ctx else "minttt"
            typer.echo(f"error: {message} (see {command} --help)", err=True)
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


def build_app(modules: tuple[str, ...] = COMMAND_MODULES) -> typer.Typer:
    """A typer application with the commands of ``modules`` registered."""
    application = typer.Typer(
        name="minttt",
        help="Find, prove and ship the smallest lookup tables that play perfect tic-tac-toe.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        cls=OneLineErrors,
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
    """Entry point of the console script: Ctrl-C exits 130 and SIGTERM 143, without a traceback."""
    from minttt.interrupt import handlers

    with handlers() as signals:
        try:
            words = [a for a in sys.argv[1:] if not a.startswith("-")]
            module = COMMANDS.get(words[0]) if words else None
            build_app((module,) if module else COMMAND_MODULES)()
            code: int | str | None = 0
        except SystemExit as exc:
            code = exc.code
        except BaseException:
            # an interrupt that a library wrapped in another exception is still an interrupt
            if signals.received is None:
                raise
            code = None
        if signals.received is not None:
            code = signals.exit_code()
    import signal

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)  # the outcome is decided; a late signal changes none
    sys.exit(code)


__all__ = [
    "COMMANDS",
    "COMMAND_MODULES",
    "ClickException",
    "OneLineErrors",
    "build_app",
    "main",
]
