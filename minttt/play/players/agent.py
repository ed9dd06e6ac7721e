"""Any agent as a player: ``--player module.path:callable`` (or ``path/to/file.py:callable``).

The object named after the colon (dots reach inside it: ``mod:Agent.move``) becomes a player:

- a class is instantiated with no arguments first;
- an object with a ``choices(board)`` method is already a minttt player and is used as it is;
- an object with a ``move(board)`` method is asked through that method;
- otherwise the object itself must be callable: ``f(board) -> cell``.

``board`` is the 9-character board string (``x.o......``: cells 0-8 row-major from the top left,
``x`` moves first) and the answer a cell 0-8 (an int, or anything ``operator.index`` accepts, e.g.
a numpy integer). The agent is asked once per position, so it is taken to be deterministic.

This module loads an agent in the current process; the commands run every agent in a process of
its own (:mod:`minttt.play.players.isolated`, with a time limit per move), which loads it with
:func:`load_in_process`. A spec that cannot be loaded raises :class:`~minttt.errors.InputError`
(exit 2). An agent that raises or answers something that is not a legal move raises
:class:`PlayerError` (an InputError): ``verify`` reports it as a counterexample (exit 1);
``odds``, ``tournament`` and ``play`` exit 2.

>>> p = load_in_process("minttt.play.players.agent:first_free")
>>> p.name, p.choices(Board.parse("xo.......")), p.choices(Board.parse("xoxoxoxox"))
('minttt.play.players.agent:first_free', (2,), ())
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minttt.errors import InputError
from minttt.game.player import Player, PlayerError, brief, legal_cell
from minttt.game.rules import Board
from minttt.integrations.openspiel import OpenSpielPlayer
from minttt.integrations.pettingzoo import PettingZooPlayer

_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def looks_like_agent(spec: str) -> bool:
    """Whether ``spec`` has the ``module:callable`` shape (``table:PATH`` is not an agent)."""
    head, sep, tail = spec.strip().rpartition(":")
    if not sep or not head or not tail or head.lower() == "table":
        return False
    return bool(_MODULE.match(head)) or head.endswith(".py")


def first_free(board: str) -> int:
    """An example agent: the first empty cell (loses, as ``minttt verify`` shows)."""
    return board.index(".")


def _exec(spec: importlib.machinery.ModuleSpec, label: str) -> Any:
    """Run the module of ``spec`` (registered in sys.modules while and after it runs)."""
    if spec.loader is None:
        raise InputError(f"agent module {label}: cannot be loaded")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:
        sys.modules.pop(spec.name, None)
        raise InputError(f"agent module {label} failed to import: {brief(exc)}") from None
    return mod


def _import_file(module: str) -> Any:
    """The module of a ``path/to/file.py``, loaded by its path (sys.path untouched)."""
    path = Path(module)
    if not path.is_file():
        raise InputError(f"agent module {module}: no such file")
    name = f"minttt_agent_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise InputError(f"agent module {module}: cannot be loaded")
    return _exec(spec, module)


def _import_here(module: str) -> None:
    """As ``python -m`` would: the top package of ``module`` found in the working directory when
    the import path has no such package, loaded from there without changing sys.path."""
    top = module.partition(".")[0]
    if top in sys.modules or importlib.util.find_spec(top) is not None:
        return
    spec = importlib.machinery.PathFinder.find_spec(top, [os.getcwd()])
    if spec is not None:
        _exec(spec, repr(module))


def _import(module: str) -> Any:
    if module.endswith(".py"):
        return _import_file(module)
    if not _MODULE.match(module):
        raise InputError(f"agent {module!r}: expected a module path like pkg.mod")
    try:
        _import_here(module)
        return importlib.import_module(module)
    except InputError:
        raise
    except ModuleNotFoundError as exc:
        raise InputError(f"agent module {module!r} not found ({exc.name} is missing)") from None
    except Exception as exc:
        raise InputError(f"agent module {module!r} failed to import: {brief(exc)}") from None


def _resolve(spec: str) -> Any:
    module, _, attr = spec.strip().rpartition(":")
    obj = _import(module)
    for part in attr.split("."):
        if not part.isidentifier():
            raise InputError(f"agent {spec!r}: {attr!r} is not an attribute path")
        if not hasattr(obj, part):
            raise InputError(f"agent {spec!r}: module {module!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:
            raise InputError(
                f"agent {spec!r}: class {obj.__name__} cannot be built without arguments "
                f"({brief(exc)})"
            ) from None
    return obj


def adapt(obj: Any, name: str) -> Player:
    """The player for ``obj``: a minttt player as is, an OpenSpiel bot or policy, a PettingZoo
    policy marked with ``pettingzoo_policy``, a ``move`` method, or a callable."""
    if callable(getattr(obj, "choices", None)):
        return obj
    if callable(getattr(obj, "step", None)) and callable(getattr(obj, "restart_at", None)):
        return OpenSpielPlayer(obj, name=name)
    if callable(getattr(obj, "action_probabilities", None)):
        return OpenSpielPlayer(obj, name=name)
    if getattr(obj, "pettingzoo_policy", False):
        return PettingZooPlayer(obj, name=name)
    method = getattr(obj, "move", None)
    if callable(method):
        return AgentPlayer(method, name)
    if callable(obj):
        return AgentPlayer(obj, name)
    raise InputError(f"agent {name!r}: {type(obj).__name__} is not callable and has no move()")


def load_in_process(spec: str) -> Player:
    """The player named by ``module.path:callable``, in this process (see the module docstring):
    what :mod:`minttt.play.players.isolated` runs in the agent's own process."""
    text = spec.strip()
    return adapt(_resolve(text), text)


class AgentPlayer:
    """A function from a board string to a cell, as a player (asked once per position)."""

    def __init__(self, func: Callable[[str], Any], name: str) -> None:
        self.func = func
        self.name = name

    def choices(self, board: Board) -> tuple[int, ...]:
        """The agent's move at ``board``, checked legal."""
        if board.is_terminal:
            return ()
        try:
            answer = self.func(str(board))
        except Exception as exc:
            raise PlayerError(f"{self.name} raised {brief(exc)} at {board}") from None
        return (legal_cell(answer, board, self.name),)

    def choose(self, board: Board, rng: random.Random) -> int:
        """The agent's move (it names one)."""
        return self.choices(board)[0]


__all__ = ["AgentPlayer", "adapt", "load_in_process", "looks_like_agent"]
