"""Shared pieces of the command-line layer: one-line errors, JSON output, the console.

Both consoles read no markup and highlight nothing: user text (paths, provenance names) is printed
as it is. Styled output builds ``rich.text.Text`` objects instead of markup strings.
"""

from __future__ import annotations

import errno
import json
import math
import re
import signal
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from minttt.cli.spec import BadValue, argument, option
from minttt.errors import DefectError, InputError
from minttt.interrupt import Terminated
from minttt.vocabulary import Word

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "cluster_options",
    "console",
    "counted_progress",
    "err_console",
    "fail",
    "game_option",
    "guarded",
    "old_spelling",
    "plain",
    "print_json",
    "require_folder",
    "say_wrote",
    "step_progress",
    "MAX_SECONDS",
    "number",
    "number_option",
    "move_timeout_option",
    "notice",
    "path_argument",
    "path_option",
    "word_option",
]


class LazyConsole:
    """A rich ``Console`` made on first use: importing rich.console costs about 40 ms, which a
    command that prints only JSON never pays. Attribute access goes to the console; pass
    :meth:`get` where a real Console is needed (a Progress)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def get(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(markup=False, highlight=False, **self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


console = LazyConsole()
err_console = LazyConsole(stderr=True)

#: C0/C1 control characters (ESC starts ANSI sequences), DEL, and lone surrogates
_UNPRINTABLE = r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]"  # compiled on first use (5 ms)


def counted_progress(
    *,
    transient: bool,
    disable: bool = False,
    stderr: bool = False,
    label: str = "[bold]{task.description}",
) -> Progress:
    """The progress bar of countable work (steps, generations, games): what runs, a bar, done
    of total, the time elapsed and an estimate of the time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=(err_console if stderr else console).get(),
        transient=transient,
        disable=disable,
    )


def step_progress(*, transient: bool, disable: bool = False) -> Progress:
    """The progress bar of a command made of named steps (``reproduce``, ``certify``)."""
    return counted_progress(transient=transient, disable=disable)


def require_folder(path: Any, option: str = "--out") -> None:
    """InputError when ``path`` exists and is not a folder."""
    if path.exists() and not path.is_dir():
        raise InputError(f"{option} {plain(path)} is a file, not a folder")


def plain(text: object) -> str:
    """``text`` for a terminal: control characters (ANSI escapes), lone surrogates as ``?``."""
    return re.sub(_UNPRINTABLE, "?", str(text))


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit (2 = bad input)."""
    sys.stderr.write(f"error: {plain(message)}\n")
    raise SystemExit(code)


def guarded(func: F) -> F:
    """Turn InputError, an unusable path (OSError) and Ctrl-C / SIGTERM raised by a command into a
    one-line error and exit code 2, 130 or 143."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            result = func(*args, **kwargs)
        except BaseException:
            _NOTICES.clear()  # a failure is one line on stderr: the error
            raise
        else:
            _flush_notices()
            return result

    @wraps(func)
    def errors(*args: Any, **kwargs: Any) -> Any:
        try:
            return wrapper(*args, **kwargs)
        except InputError as exc:
            fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        except DefectError as exc:
            fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, code=1)
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # the reader went away (| head): not a bad path
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            fail(f"{where}{exc.strerror or exc}")
        except KeyboardInterrupt as exc:
            term = isinstance(exc, Terminated)
            sys.stderr.write("terminated\n" if term else "interrupted\n")
            raise SystemExit(128 + (signal.SIGTERM if term else signal.SIGINT)) from None

    return errors  # type: ignore[return-value]


def say_wrote(what: object, *, json_out: bool = False) -> None:
    """``wrote WHAT``: every command that writes a file says what it wrote, on stdout (on stderr
    when stdout carries the command's JSON)."""
    stream = sys.stderr if json_out else sys.stdout
    stream.write(f"wrote {plain(what)}\n")


def print_json(data: Any) -> None:
    """Write ``data`` as JSON to stdout (plain, no rich markup)."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


W = TypeVar("W", bound=Word)


def word_option(word: type[W], default: Any, *flags: str, help: str) -> Any:
    """An option whose value is a member of a :mod:`minttt.vocabulary` enum, read by its
    ``parse`` (any case; a role also as ``first``/``second``), named in ``--help`` by the word
    (``--criterion CRITERION``, the help saying the choices); a bad value is a usage error, one
    line and exit 2.

    ``criterion: Criterion = word_option(Criterion, Criterion.OPTIMAL, "--criterion", help=...)``
    """

    def parse(text: str | W) -> W:
        try:
            return word.parse(text, flags[0])
        except InputError as exc:
            raise BadValue(str(exc)) from None

    return option(default, *flags, parser=parse, metavar=word.__name__.upper(), help=help)


def _path(text: str | Path) -> Path:
    """A path as typed; an empty one is a usage error (``Path("")`` would be the current folder)."""
    if isinstance(text, Path):
        return text
    if not text.strip():
        raise BadValue("an empty path names no file or folder")
    return Path(text)


def path_option(default: Any, *flags: str, help: str, metavar: str = "PATH", **kwargs: Any) -> Any:
    """An option whose value is a :class:`~pathlib.Path`, never the empty path (``FOLDER`` as
    the metavar for a folder)."""
    return option(default, *flags, parser=_path, help=help, metavar=metavar, **kwargs)


def path_argument(default: Any, *, help: str, metavar: str = "PATH") -> Any:
    """A positional argument whose value is a :class:`~pathlib.Path`, never the empty path."""
    return argument(default, parser=_path, help=help, metavar=metavar)


#: the longest time limit any option takes (seconds, about 11.6 days): timers overflow beyond
MAX_SECONDS = 1e6


def number(low: float, high: float, *, above: bool = False) -> Callable[[str], float]:
    """A ``parser`` for a finite number in ``[low, high]`` (``(low, high]`` with
    ``above``): ``nan``, ``inf`` and absurd values are usage errors (one line, exit 2).

    >>> number(0, 1)("0.25"), number(0, 10, above=True)("10")
    (0.25, 10.0)
    """

    def parse(text: str | float) -> float:
        try:
            value = float(text)
        except ValueError:
            raise BadValue(f"{text!r} is not a number") from None
        inside = (value > low if above else value >= low) and value <= high
        if not math.isfinite(value) or not inside:
            left = "(" if above else "["
            raise BadValue(f"{text} is not a finite number in {left}{low:g}, {high:g}]")
        return value

    return parse


def number_option(
    default: Any,
    *flags: str,
    help: str,
    low: float = 0.0,
    high: float = MAX_SECONDS,
    above: bool = False,
    metavar: str = "SECONDS",
) -> Any:
    """An option whose value is a finite float in range (see :func:`number`); most are times,
    hence the metavar."""
    parser = number(low, high, above=above)
    return option(default, *flags, parser=parser, help=help, metavar=metavar)


def cluster_options(what: str) -> tuple[Any, Any]:
    """``--workers N`` (local Dask workers, 2 by default) and ``--scheduler ADDRESS`` (a running
    Dask cluster instead) for the command's ``what``."""
    workers = option(2, "--workers", metavar="N", help=f"Local Dask workers{what}.")
    scheduler = option(
        None,
        "--scheduler",
        metavar="ADDRESS",
        help=f"A Dask scheduler's address{what} (instead of --workers).",
    )
    return workers, scheduler


def game_option(default: Any = "3x3") -> Any:
    """``--game GAME``: a game name as :meth:`minttt.game.rules.Rules.from_name` reads it (the
    one parser: ``3x3``, ``3x4``, ``4x4``, ``4x4k3``, ``mnk:M,N,K``, ``-misere``), given to the
    command by its long name (``mnk:3,4,3``); a name it cannot read is a usage error. The size
    limit (boards over 4x4) is the command's to check."""
    from minttt.game.rules import GAME_NAMES

    def parse(text: str) -> str:
        from minttt.game.rules import Rules

        try:
            return Rules.from_name(text, force=True).name
        except InputError as exc:
            raise BadValue(str(exc)) from None

    return option(default, "--game", parser=parse, metavar="GAME", help=f"{GAME_NAMES}.")


#: the notices of old spellings a running command used, printed when it succeeds
_NOTICES: list[str] = []


def _flush_notices() -> None:
    for notice in dict.fromkeys(_NOTICES):
        sys.stderr.write(f"{notice}\n")
    _NOTICES.clear()


def notice(text: str) -> None:
    """A one-line notice on stderr once the running command succeeds (an old spelling's)."""
    _NOTICES.append(text)


def old_spelling(value: Any, old: Any, spelling: str, use: str) -> Any:
    """A parameter given in its new spelling (``value``) or its old one (``old``, which keeps
    working for one release): the old one prints ``SPELLING is deprecated: USE`` on stderr, one
    line, once the command (:func:`guarded`) has succeeded; a command that fails prints only its
    one-line error. Both spellings at once are bad input.

    >>> old_spelling("t.json", None, "--table", "minttt web TABLE")
    't.json'
    """
    if old is None:
        return value
    if value is not None:
        raise InputError(f"{spelling} is deprecated and the new spelling is given too: {use}")
    notice(f"{spelling} is deprecated: {use}")
    return old


def move_timeout_option() -> Any:
    """``--move-timeout``: seconds a ``module:callable`` agent may take for one move (it runs in
    a process of its own; one that hangs is stopped and counts as a defect of the agent)."""
    from minttt.play.players.isolated import DEFAULT_MOVE_TIMEOUT

    return number_option(
        DEFAULT_MOVE_TIMEOUT,
        "--move-timeout",
        help="Seconds a module:callable agent may take per move (then it is stopped).",
        above=True,
        high=3600.0,
    )
