"""A user's agent in a child process: whatever it does, it cannot decide a verdict by exiting.

:class:`IsolatedAgent` starts a Python process running :func:`serve` on ``SPEC``, which loads the
agent there (:func:`minttt.play.players.agent.load_in_process`: every shape a ``--player
module:callable`` takes) and answers one JSON line per board. The agent's own output goes to stderr,
never to the parent's stdout (``--json`` stays clean). Every answer is checked in the parent
(:func:`~minttt.game.player.legal_cell`). An agent that raises, answers junk, exits (``sys.exit``,
``os._exit``), crashes or takes longer than ``move_timeout`` seconds to answer is a defect of the
agent: :class:`~minttt.game.player.PlayerError` naming what happened at which board (``verify``
reports it as a counterexample, exit 1; elsewhere it is one line, exit 2). An agent that cannot be
loaded at all (no such module or attribute) is bad input: InputError when it is made.

The agent is asked once per position (answers are cached: an agent is taken to be deterministic).

>>> agent = IsolatedAgent("minttt.play.players.agent:first_free")
>>> from minttt.game.rules import Board
>>> agent.choices(Board.parse("xo.......")), agent.choices(Board.parse("xoxoxoxox"))
((2,), ())
>>> agent.close()
"""

from __future__ import annotations

import json
import operator
import os
import random
import select
import signal
import subprocess
import sys
import time
import weakref
from typing import Any

from minttt.errors import InputError
from minttt.game.player import PlayerError, brief, legal_cell
from minttt.game.rules import Board, Rules
from minttt.play.players.agent import load_in_process

__all__ = ["DEFAULT_MOVE_TIMEOUT", "IsolatedAgent", "load_agent", "serve"]

#: seconds an agent may take for one move before it counts as hung (``--move-timeout``)
DEFAULT_MOVE_TIMEOUT = 10.0
#: seconds an agent may take to load (import its module, build its object)
LOAD_TIMEOUT = 120.0
MAX_REPLY = 1 << 20  # bytes of one answer line; more is junk
# the child's program (not ``-m``: this module is imported by the package first)
_CHILD = (
    "import sys, json; sys.path[:] = json.loads(sys.argv[2]); "
    "from minttt.play.players.isolated import serve; sys.exit(serve(sys.argv[1]))"
)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child if it still runs (also at interpreter exit, through weakref.finalize)."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


class IsolatedAgent:
    """The agent named by ``spec`` (``module.path:callable`` or ``file.py:callable``), run in a
    child process; a :class:`~minttt.game.player.Player`."""

    def __init__(self, spec: str, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> None:
        self.name = spec.strip()
        self.move_timeout = move_timeout
        self._cache: dict[tuple[str, str], tuple[int, ...]] = {}
        self._dead: str | None = None
        self._buffer = b""
        self._proc = subprocess.Popen(
            # the child imports from where this process does (a caller may have extended sys.path)
            [sys.executable, "-c", _CHILD, self.name, json.dumps(sys.path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # Ctrl-C reaches the command, which then stops the agent
        )
        self._finalizer = weakref.finalize(self, _stop, self._proc)
        reply = self._receive(LOAD_TIMEOUT, "while loading")
        if reply is not None and "load_error" in reply:
            self.close()
            raise InputError(str(reply["load_error"]))

    def close(self) -> None:
        """Stop the child process (a closed agent answers no more)."""
        self._finalizer()
        self._dead = self._dead or f"{self.name} was closed"

    def _die(self, what: str) -> None:
        self._dead = f"{self.name} {what}"
        self.close()

    def _receive(self, timeout: float, when: str) -> dict[str, Any] | None:
        """The child's next JSON line, or None after recording why there is none."""
        stdout = self._proc.stdout
        assert stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            ready = select.select([stdout], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                self._die(f"did not answer within {timeout:g} s {when}")
                return None
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                code = self._proc.wait()
                how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
                self._die(f"{how} {when}")
                return None
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY:
                self._die(f"wrote more than {MAX_REPLY} bytes {when}")
                return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError):
            reply = None
        if not isinstance(reply, dict):
            self._die(f"broke the answer protocol {when}")
            return None
        return reply

    def choices(self, board: Board) -> tuple[int, ...]:
        """The agent's move at ``board`` (one, checked legal); PlayerError for anything else."""
        if board.is_terminal:
            return ()
        key = (board.rules.name, str(board))
        if key in self._cache:
            return self._cache[key]
        if self._dead is not None:
            raise PlayerError(f"{self._dead}; asked at {board}")
        request = json.dumps({"game": board.rules.name, "board": str(board)}) + "\n"
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(request.encode())
            self._proc.stdin.flush()
        except OSError:
            self._die("is gone")
        reply = self._receive(self.move_timeout, f"at {board}") if self._dead is None else None
        if reply is None:
            raise PlayerError(self._dead or f"{self.name} gave no answer at {board}")
        if "error" in reply:
            raise PlayerError(str(reply["error"]))
        answers = reply.get("choices")
        if not isinstance(answers, list) or not answers:
            raise PlayerError(f"{self.name} gave no move at {board}")
        moves = tuple(legal_cell(a, board, self.name) for a in answers)
        self._cache[key] = moves
        return moves

    def choose(self, board: Board, rng: random.Random) -> int:
        """One of :meth:`choices`, at random with ``rng`` when several."""
        options = self.choices(board)
        return options[0] if len(options) == 1 else rng.choice(options)


def load_agent(spec: str, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> IsolatedAgent:
    """The player named by ``module.path:callable`` (or ``file.py:callable``), in its own
    process (InputError, exit 2, when it cannot be loaded)."""
    return IsolatedAgent(spec, move_timeout)


def _answer(player: Any, name: str, request: dict[str, Any]) -> dict[str, Any]:
    """One reply of the child: the player's choices at the requested board, or the error."""
    board = Board.parse(str(request["board"]), Rules.from_name(str(request["game"])))
    try:
        moves = player.choices(board)
    except PlayerError as exc:
        return {"error": str(exc)}
    except Exception as exc:
        return {"error": f"{name} raised {brief(exc)} at {board}"}
    try:
        listed = [_plain(m) for m in moves]
    except TypeError:
        return {"error": f"{name} answered {moves!r}, not a sequence of moves, at {board}"}
    return {"choices": listed}


def _plain(move: Any) -> Any:
    """A move as JSON carries it: an integer as an int (numpy's too), anything else as its repr
    (the parent's legal_cell then names it)."""
    if isinstance(move, bool | int | float | str) or move is None:
        return move
    if hasattr(move, "__index__"):
        return operator.index(move)
    return repr(move)


def serve(spec: str) -> int:
    """The child: load ``spec``, then answer one JSON line per request line on stdin."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; it stops this process
    channel = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # whatever the agent prints goes to stderr, never into the answers
    sys.stdout = sys.stderr

    def send(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message) + "\n")

    try:
        player = load_in_process(spec)
    except InputError as exc:
        send({"load_error": str(exc)})
        return 0
    send({"ready": True})
    for line in sys.stdin:
        send(_answer(player, spec, json.loads(line)))
    return 0
