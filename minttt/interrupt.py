"""Interruptions: Ctrl-C (SIGINT) and SIGTERM end a command with exit 130 / 143 and no result.

The CLI entry point installs :func:`handlers`: both signals raise :class:`KeyboardInterrupt`
(:class:`Terminated` for SIGTERM) and are recorded, so an interrupt that a library turns into
another exception (ctypes wraps it in ``ArgumentError``) is still reported as one.
:func:`shielded` marks the short commit phase that moves finished results into place: a signal
arriving then is ignored, so a command writes all of its results (exit 0) or none (130 / 143).

Signal handlers are process-wide by nature; :class:`Signals` is the one piece of process state here,
created by the entry point and reached through :func:`current`. :func:`repeating` runs an action
beside a long call (a time limit's repeated interrupt, a long phase's heartbeat).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (a subclass of KeyboardInterrupt: every Ctrl-C path handles it too)."""


class Signals:
    """What the handlers saw: the first signal number received outside a shield, if any."""

    __slots__ = ("finished", "received", "shield_depth")

    def __init__(self) -> None:
        self.received: int | None = None
        self.shield_depth = 0
        self.finished = False

    def handle(self, signum: int, _frame: FrameType | None) -> None:
        """The signal handler: record the first signal and raise it, unless shielded."""
        if self.shield_depth or self.finished:
            return  # the commit in progress (or done) finishes; the command then succeeds
        if self.received is None:
            self.received = signum
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    def exit_code(self) -> int | None:
        """128 + the signal number, or None when no signal arrived."""
        return None if self.received is None else 128 + self.received


_CURRENT: list[Signals] = []


def current() -> Signals | None:
    """The :class:`Signals` of the running command (None outside :func:`handlers`)."""
    return _CURRENT[-1] if _CURRENT else None


@contextmanager
def handlers() -> Iterator[Signals]:
    """Install the SIGINT/SIGTERM handlers for the duration of a command."""

    state = Signals()
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s in old:
        signal.signal(s, state.handle)
    old_hook = sys.unraisablehook

    def quiet_hook(unraisable: object) -> None:
        # objects torn down by the interrupt (Z3's __del__) may complain; that is not news
        if state.received is None:
            old_hook(unraisable)  # type: ignore[arg-type]

    sys.unraisablehook = quiet_hook
    _CURRENT.append(state)
    try:
        yield state
    finally:
        _CURRENT.pop()
        sys.unraisablehook = old_hook
        for s, h in old.items():
            signal.signal(s, h)


@contextmanager
def shielded(final: bool = False) -> Iterator[None]:
    """Ignore SIGINT/SIGTERM while results are moved into place (keep the block short).

    With ``final`` the command's results are complete once the block ends: signals stay ignored,
    so a late Ctrl-C cannot report an interruption for a run whose results were written.
    """
    state = current()
    if state is None:
        yield
        return
    state.shield_depth += 1
    try:
        yield
        state.finished = state.finished or final
    finally:
        state.shield_depth -= 1


def check() -> None:
    """Raise KeyboardInterrupt when a signal was recorded (for code that may have swallowed it)."""
    state = current()
    if state is not None and state.received is not None:
        raise Terminated() if state.received == signal.SIGTERM else KeyboardInterrupt()


def raise_interrupt(signum: int = signal.SIGINT) -> None:
    """Record ``signum`` as received and raise it: for a library that swallowed the signal."""
    state = current()
    if state is not None and state.received is None:
        state.received = signum
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def worker_init() -> None:
    """Initializer of worker processes: the parent alone decides; it terminates the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def solver_library() -> Iterator[None]:
    """Around a call into a SAT library that may swallow Ctrl-C: PySAT's C code catches it and
    raises "Caught keyboard interrupt"; a signal recorded meanwhile is an interruption too,
    never a result."""
    try:
        yield
    except Exception as exc:
        if "keyboard interrupt" in str(exc).lower():
            raise_interrupt()
        raise
    check()


@contextmanager
def repeating(first: float, every: float, act: Callable[[int], None], name: str) -> Iterator[None]:
    """Call ``act(0)`` once the block has run ``first`` seconds, then ``act(1)``, ``act(2)``...
    every ``every`` seconds, until the block ends (from a daemon thread ``name``; none after it
    ended). A block that ends sooner sees no call.

    >>> import time
    >>> calls = []
    >>> with repeating(0.01, 0.01, calls.append, "demo"):
    ...     time.sleep(0.2)
    >>> calls[:2]
    [0, 1]
    """

    done = threading.Event()

    def run() -> None:
        if done.wait(max(0.0, first)):
            return
        n = 0
        act(n)
        while not done.wait(every):
            n += 1
            act(n)

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


__all__ = [
    "Signals",
    "Terminated",
    "check",
    "current",
    "handlers",
    "raise_interrupt",
    "repeating",
    "shielded",
    "solver_library",
    "worker_init",
]
