"""The commands and their parameters, declared without the CLI framework, and the quick parse.

A command is a module-level function whose defaults are :func:`option` and :func:`argument`
declarations (plain values: flags, help, metavar, parser). :mod:`minttt.cli.framework` turns them
into the typer application (help, completion, usage errors); :func:`parse` reads an argument list
that names only declared options with well-formed values, straight into the function's keyword
arguments, so that running a command imports nothing of the framework (``minttt solve``'s
start-up, ``tests/test_startup.py``). Anything :func:`parse` does not take on (``--help``, an
unknown option, a value its parser refuses, a missing required value) it leaves to typer, which
prints the help or the one-line usage error; ``tests/test_cli_parse.py`` checks that both read
every accepted argument list the same.

>>> def hello(name: str = argument(..., help="Who."),
...           times: int = option(1, "--times", "-n", help="How often.")) -> None: ...
>>> parse(hello, ["world", "-n", "3"])
{'name': 'world', 'times': 3}
>>> parse(hello, ["world", "--help"]) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "BadValue",
    "Group",
    "Param",
    "argument",
    "help_text",
    "option",
    "parse",
    "target",
]

#: a required parameter (typer's spelling)
REQUIRED: Any = ...


class BadValue(ValueError):
    """A parser's refusal of a value: a usage error (one line, exit 2)."""


class Param:
    """One declared parameter: an option (``flags``) or a positional argument (no flags).

    A plain class, not a dataclass: each dataclass costs start-up (about 0.4 ms to create).
    """

    __slots__ = ("default", "flags", "help", "hidden", "metavar", "parser", "show_default")

    def __init__(
        self,
        default: Any,
        flags: tuple[str, ...] = (),
        help: str = "",
        metavar: str | None = None,
        parser: Callable[[Any], Any] | None = None,
        show_default: bool = True,
        hidden: bool = False,
    ) -> None:
        self.default = default
        self.hidden = hidden
        self.flags = flags
        self.help = help
        self.metavar = metavar
        self.parser = parser
        self.show_default = show_default

    def __repr__(self) -> str:
        return f"Param({self.default!r}, {self.flags!r})"

    @property
    def is_argument(self) -> bool:
        """A positional argument (no flags)."""
        return not self.flags


def option(
    default: Any,
    *flags: str,
    help: str,
    metavar: str | None = None,
    parser: Callable[[Any], Any] | None = None,
    show_default: bool = True,
    hidden: bool = False,
) -> Any:
    """An option: ``--name VALUE``, a flag for a ``bool`` (``--yes/--no`` for both spellings),
    repeatable for a ``list[str]``. ``REQUIRED`` (``...``) as the default makes it required;
    ``hidden``: left out of ``--help`` (an old spelling kept for a release)."""
    return Param(default, flags, help, metavar, parser, show_default, hidden)


def argument(
    default: Any,
    *,
    help: str,
    metavar: str | None = None,
    parser: Callable[[Any], Any] | None = None,
    hidden: bool = False,
) -> Any:
    """A positional argument (every remaining one for a ``list[str]``); ``hidden``: left out of
    ``--help``."""
    return Param(default, (), help, metavar, parser, hidden=hidden)


class Group:
    """Commands by name (a function each, or a sub-group), as each ``minttt.cli`` module's
    ``register(app)`` adds them: ``app.command("solve")(solve_command)``."""

    def __init__(self, help: str = "") -> None:
        self.help = help
        self.commands: dict[str, Callable[..., Any]] = {}
        self.groups: dict[str, Group] = {}

    def command(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A decorator that adds a command under ``name``."""

        def add(func: Callable[..., Any]) -> Callable[..., Any]:
            self.commands[name] = func
            return func

        return add

    def add_group(self, group: Group, name: str) -> None:
        """Add a group of subcommands (``minttt nine match``)."""
        self.groups[name] = group


def target(func: Callable[..., Any]) -> Callable[..., Any]:
    """The declared function under its wrappers (``guarded``)."""
    while hasattr(func, "__wrapped__"):
        func = func.__wrapped__
    return func


def help_text(doc: str | None) -> str:
    """A docstring as help: paragraphs joined into lines (the terminal wraps them), reST
    double backticks dropped, numpydoc sections (``Parameters``, ``Returns``...) left out.

    >>> help_text('''Do it.
    ...
    ...     Uses ``x`` and
    ...     ``y``.
    ...
    ...     Parameters
    ...     ----------
    ...     x : int''')
    'Do it.\\n\\nUses x and y.'
    """
    lines = [line.strip() for line in (doc or "").strip().splitlines()]
    for i in range(len(lines) - 1):
        if lines[i] and set(lines[i + 1]) == {"-"}:  # a numpydoc section header
            lines = lines[:i]
            break
    paragraphs = "\n".join(lines).split("\n\n")
    text = "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())
    return text.replace("``", "")


# ------------------------------------------------------------------- the quick parse
_TEXT = {"str", "str | None"}
_NUMBERS: dict[str, Callable[[str], Any]] = {
    "int": int,
    "int | None": int,
    "float": float,
    "float | None": float,
}
_FLAGS = {"bool", "bool | None"}
_LISTS = {"list[str]", "list[str] | None"}
_PATHS = {"Path", "Path | None"}


class _Slot:
    """A parameter as :func:`parse` reads it: its name, declaration, converter (None for a
    flag) and whether it takes many values."""

    __slots__ = ("name", "param", "convert", "many")

    def __init__(
        self, name: str, param: Param, convert: Callable[[Any], Any] | None, many: bool
    ) -> None:
        self.name, self.param, self.convert, self.many = name, param, convert, many


def _converter(param: Param, annotation: str) -> tuple[Callable[[Any], Any] | None, bool] | None:
    """``(convert, many)`` for a parameter :func:`parse` can read, None otherwise."""
    if annotation in _FLAGS:
        return (None, False) if not param.is_argument and param.parser is None else None
    if param.parser is not None:
        return param.parser, False
    if annotation in _TEXT or annotation in _PATHS:
        return (str if annotation in _TEXT else Path), False
    if annotation in _NUMBERS:
        return _NUMBERS[annotation], False
    if annotation in _LISTS:
        return str, True
    return None


def _slots(func: Callable[..., Any]) -> list[_Slot] | None:
    """Every parameter of ``func`` as a slot, or None when one is not declared here."""
    code = func.__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    positional = func.__defaults__ or ()
    defaults = dict(zip(names[code.co_argcount - len(positional) :], positional, strict=False))
    defaults |= func.__kwdefaults__ or {}
    slots = []
    for name in names:
        param = defaults.get(name)
        if not isinstance(param, Param):
            return None
        how = _converter(param, str(func.__annotations__.get(name, "")))
        if how is None:
            return None
        slots.append(_Slot(name, param, *how))
    return slots


def _flag_map(slots: list[_Slot]) -> dict[str, tuple[_Slot, bool | None]]:
    """Each spelling of an option: its slot, and for a flag the value it sets."""
    flags: dict[str, tuple[_Slot, bool | None]] = {}
    for slot in slots:
        for spelling in slot.param.flags:
            on, _, off = spelling.partition("/")
            flags[on.strip()] = (slot, True if slot.convert is None else None)
            if off:
                flags[off.strip()] = (slot, False)
    return flags


def _default(slot: _Slot) -> Any:
    """A parameter's value when it is not given, converted as typer converts it."""
    value = slot.param.default
    if value is None or value is REQUIRED or slot.convert is None or slot.many:
        return value
    return slot.convert(value)


def parse(func: Callable[..., Any], args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of ``func`` read from ``args``, or None for typer to handle:
    ``--help``, an unknown option, ``--``, short options run together, a value that starts
    with ``-``, a missing value, a value a parser refuses (:class:`BadValue` or ValueError),
    one positional argument too many, or a parameter not declared with :func:`option` or
    :func:`argument`."""
    slots = _slots(target(func))
    if slots is None:
        return None
    flags = _flag_map(slots)
    positional = [s for s in slots if s.param.is_argument]
    given: dict[str, Any] = {}
    rest = list(args)
    try:
        while rest:
            token = rest.pop(0)
            if _is_option(token):
                if not _take_option(token, rest, flags, given):
                    return None
            elif positional:
                slot = positional[0]
                _put(given, slot, slot.convert(token) if slot.convert else token)
                if not slot.many:
                    positional.pop(0)
            else:
                return None
        values = {s.name: given[s.name] if s.name in given else _default(s) for s in slots}
    except ValueError:  # BadValue, or int("x"): typer prints the usage error
        return None
    if any(v is REQUIRED for v in values.values()):
        return None
    return values


def _is_option(token: str) -> bool:
    return token.startswith("-") and token != "-"


def _take_option(
    token: str, rest: list[str], flags: dict[str, tuple[_Slot, bool | None]], given: dict[str, Any]
) -> bool:
    """Read the option ``token`` (and its value from ``rest``); False to leave it to typer."""
    # --name=value for a long option; a short one stands alone (click reads -n=5 as "=5")
    name, eq, value = token.partition("=") if token.startswith("--") else (token, "", "")
    if name not in flags:
        return False
    slot, flag = flags[name]
    if slot.convert is None:  # a flag takes no value
        given[slot.name] = flag
        return not eq
    if not eq:
        if not rest or _is_option(rest[0]):
            return False
        value = rest.pop(0)
    _put(given, slot, slot.convert(value))
    return True


def _put(given: dict[str, Any], slot: _Slot, value: Any) -> None:
    """Record a value: the last one given wins, a repeatable option keeps them all."""
    if slot.many:
        given.setdefault(slot.name, []).append(value)
    else:
        given[slot.name] = value
