"""The typer application built from the declared commands (:mod:`minttt.cli.spec`): the help,
shell completion, ``--version``, and the one-line usage errors.

A command runs through here when :func:`minttt.cli.spec.parse` leaves its arguments to the
framework (``--help``, a usage error, completion), and always in tests through typer's
``CliRunner`` (``minttt.cli.app``).
"""

from __future__ import annotations

import functools
import inspect
import sys
import typing
from collections.abc import Callable
from typing import Any

import typer
from typer.core import TyperGroup

from minttt.cli.spec import BadValue, Group, Param, help_text, target
from minttt.version import __version__

# click's base exception, reached through typer's public BadParameter: typer 0.28 carries its own
# copy of click (older releases used click itself), so click is never imported by name
ClickException: Any = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")

SUMMARY = "Find, prove and ship the smallest lookup tables that play perfect tic-tac-toe."
#: every command and group takes -h as well as --help
CONTEXT = {"help_option_names": ["-h", "--help"]}


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


def _framework_parser(parser: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A declared parser whose refusal (:class:`BadValue`) is typer's usage error."""

    def parse(value: Any) -> Any:
        try:
            return parser(value)
        except BadValue as exc:
            raise typer.BadParameter(str(exc)) from None

    return parse


def _typer_default(param: Param) -> Any:
    """The typer ``Option``/``Argument`` of a declared parameter."""
    extra: dict[str, Any] = {"help": param.help, "metavar": param.metavar}
    if param.parser is not None:
        extra["parser"] = _framework_parser(param.parser)
    if param.is_argument:
        return typer.Argument(param.default, hidden=param.hidden, **extra)
    return typer.Option(
        param.default,
        *param.flags,
        show_default=param.show_default,
        hidden=param.hidden,
        **extra,
    )


def typed(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` (a command, maybe ``guarded``) with a signature typer reads: each declared
    parameter as typer's ``Option``/``Argument``; typer's own declarations are kept."""
    declared = target(func)
    hints = typing.get_type_hints(declared, include_extras=True)  # in the command's module
    signature = inspect.signature(declared)
    parameters = [
        p.replace(
            annotation=hints.get(p.name, p.annotation),
            default=_typer_default(p.default) if isinstance(p.default, Param) else p.default,
        )
        for p in signature.parameters.values()
    ]

    @functools.wraps(func)
    def command(**kwargs: Any) -> Any:
        return func(**kwargs)

    del command.__wrapped__  # typer reads the signature below, not the declared one
    command.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    command.__annotations__ = hints
    return command


def _version(value: bool) -> None:
    if value:
        typer.echo(f"minttt {__version__}")
        raise typer.Exit()


def _add(application: typer.Typer, group: Group) -> None:
    for name, func in group.commands.items():
        doc = help_text(target(func).__doc__)
        short = doc.split("\n\n")[0]
        application.command(name, help=doc, short_help=short)(typed(func))
    for name, sub in group.groups.items():
        doc = help_text(sub.help)
        child = typer.Typer(
            help=doc,
            short_help=doc.split("\n\n")[0],
            no_args_is_help=True,
            rich_markup_mode=None,
            context_settings=CONTEXT,
        )
        _add(child, sub)
        application.add_typer(child, name=name)


def typer_app(group: Group) -> typer.Typer:
    """The typer application of ``group``'s commands."""
    application = typer.Typer(
        name="minttt",
        help=SUMMARY,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings=CONTEXT,
        cls=OneLineErrors,
    )

    @application.callback()
    def _root(
        version: bool = typer.Option(
            False,
            "--version",
            callback=_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ) -> None:
        """Find, prove and ship the smallest lookup tables that play perfect tic-tac-toe."""

    _add(application, group)
    return application


__all__ = ["ClickException", "OneLineErrors", "typed", "typer_app"]
