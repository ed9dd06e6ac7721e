"""The ``minttt`` command: a thin layer over the Python API.

Each sub-module of ``minttt.cli`` defines its commands as module-level functions (read the
options, call the library, print), their parameters declared with :mod:`minttt.cli.spec`, and
``register(app)``, which adds them to a :class:`~minttt.cli.spec.Group`. :func:`main` loads only
the module of the command being run and, when the arguments are plain (declared options with
values their parsers accept), calls the command without loading the CLI framework at all; help,
usage errors and shell completion go through the typer application (:mod:`minttt.cli.framework`).
``minttt.cli.app`` is the full typer application.

The grammar every command keeps:

- **What a command acts on is positional**: the file or thing it reads and works on, named in
  capitals in its usage line: ``verify TABLE``, ``odds TABLE``, ``export TABLE``,
  ``render TABLE``, ``web TABLE``, ``play [TABLE]``, ``encode VARIANT``, ``search [BOARD]``,
  ``tournament A B``, ``check-proof CNF PROOF``.
- **A game is always ``--game GAME``**, never positional, ``3x3`` by default (``count``,
  ``solve``, ``encode``, ``scale``): any name :meth:`minttt.game.rules.Rules.from_name` reads
  (``3x3``, ``3x4``, ``4x4``, ``4x4k3``, ``mnk:M,N,K``, each with ``-misere``), the one parser.
- **What a command writes is ``--out PATH``** (``-o`` where a command has a short form): a file,
  or a folder for a command that writes several (``encode --all --out FOLDER``). State a run
  resumes from is ``--checkpoint PATH``.
- Everything else is an option with a value or a flag.

An old spelling keeps working for one release, with one line on stderr naming the new one
(:func:`minttt.cli.common.old_spelling`): ``web --table PATH`` ("--table is deprecated: minttt
web TABLE"), ``play --table/-t PATH``, ``search --board/-b BOARD`` and ``scale GAME`` (now
``scale --game GAME``), ``encode --all FOLDER`` (now ``encode --all --out FOLDER``).
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from minttt.cli.spec import Group, parse

if TYPE_CHECKING:
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
    "scale": "scale",
    "catalogue": "catalogue",
    "fetch": "fetch",
    "recheck": "recheck",
}
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))
#: the variable a shell's completion script sets when it asks ``minttt`` for completions
COMPLETION_VARIABLE = "_MINTTT_COMPLETE"


def commands(modules: tuple[str, ...] = COMMAND_MODULES) -> Group:
    """The commands of ``modules`` (names of ``minttt.cli`` sub-modules), registered."""
    group = Group()
    for name in modules:
        module_name = f"minttt.cli.{name}"
        if importlib.util.find_spec(module_name) is not None:
            importlib.import_module(module_name).register(group)
    return group


def build_app(modules: tuple[str, ...] = COMMAND_MODULES) -> typer.Typer:
    """A typer application with the commands of ``modules`` registered."""
    from minttt.cli.framework import typer_app

    return typer_app(commands(modules))


def __getattr__(name: str) -> typer.Typer:
    if name == "app":
        return build_app()
    raise AttributeError(name)


def quick(args: list[str]) -> Callable[[], Any] | None:
    """The command ``args`` name, ready to run without the framework, or None when typer must
    read them (no command, ``--version`` or ``--help``, completion, anything
    :func:`minttt.cli.spec.parse` leaves to it)."""
    if not args or os.environ.get(COMPLETION_VARIABLE):
        return None
    if args == ["--version"]:
        from minttt.version import __version__

        return lambda: print(f"minttt {__version__}")
    module = COMMANDS.get(args[0])
    if module is None:
        return None
    group, rest = commands((module,)), args[1:]
    if args[0] in group.groups:
        group = group.groups[args[0]]
        if not rest:
            return None
        rest, name = rest[1:], rest[0]
    else:
        name = args[0]
    func = group.commands.get(name)
    kwargs = None if func is None else parse(func, rest)
    if func is None or kwargs is None:
        return None
    return lambda: func(**kwargs)


def run(args: list[str], *, last: bool = False) -> int | str | None:
    """Run ``minttt ARGS`` in this process; the exit code (``SystemExit``'s). ``last``: the process
    ends with this command (the console entry point), so what loading it made is frozen out of the
    garbage collector's sight (:func:`gc.freeze`); a caller running many commands leaves it
    false."""
    try:
        command = quick(args)
        if command is None:
            words = [a for a in args if not a.startswith("-")]
            module = COMMANDS.get(words[0]) if words else None
            build_app((module,) if module else COMMAND_MODULES)(args=args, prog_name="minttt")
        else:
            if last:
                # what loading the command made (modules, classes, functions) lives as long as
                # the process: no collection, the interpreter's last one included, rescans it
                # (2% of ``minttt solve --all``'s instructions)
                gc.freeze()
            command()
    except SystemExit as exc:
        return exc.code
    return 0


def main() -> None:
    """Entry point of the console script: Ctrl-C exits 130 and SIGTERM 143, without a traceback."""
    from minttt.interrupt import handlers

    with handlers() as signals:
        try:
            code = run(sys.argv[1:], last=True)
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
    "COMPLETION_VARIABLE",
    "build_app",
    "commands",
    "main",
    "quick",
    "run",
]
