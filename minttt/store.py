"""The run store: where every long run keeps its state between sessions (``minttt scale`` and its
``--search``, cube and conquer's checkpoint, ``minttt evolve``).

A store is one state document (JSON, checked against its schema whenever it is read) and the files
it names beside it, each recorded with its SHA-256 when written (:meth:`RunStore.put`) and checked
against it when read back (:meth:`RunStore.read`: a file that does not match is refused, never
trusted). Everything is written atomically (:mod:`minttt.fileio`). While a run holds the store
(``with store:``), an exclusive lock on ``<state>.lock`` refuses a second run on it in one line
(InputError, exit 2): two runs on one checkpoint would overwrite each other's files. The lock is
the operating system's (portalocker: ``flock`` on POSIX, ``LockFileEx`` on Windows): a run that
dies releases it; its file is removed when the run ends.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> with RunStore(folder / "run.json", None, what="demo run") as store:
...     digest = store.put("part.bin", b"abc")
...     store.save({"part": "part.bin", "sha256": digest})
...     store.read("part.bin", digest)
b'abc'
>>> sorted(p.name for p in folder.iterdir())
['part.bin', 'run.json']
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Any

import portalocker

from minttt.errors import InputError
from minttt.fileio import MAX_READ, inflate, read_regular, write_bytes_atomic, write_json_atomic
from minttt.schema import load_json


def sha256(data: bytes) -> str:
    """The SHA-256 of ``data`` (hex)."""
    return hashlib.sha256(data).hexdigest()


class RunStore:
    """A long run's state document ``state`` (checked against ``minttt/schemas/SCHEMA``;
    ``None``: any JSON) and the files it names in the same folder; ``what`` names it in errors
    ("scale checkpoint", "cube checkpoint", ...). Use it as a context manager to hold its lock
    for the run."""

    def __init__(self, state: str | os.PathLike[str], schema: str | None, *, what: str) -> None:
        self.state = Path(state)
        self.folder = self.state.parent
        self.schema, self.what = schema, what
        self.lock_path = self.state.with_name(self.state.name + ".lock")
        self._lock: int | None = None

    # -- the lock -----------------------------------------------------------------------------

    def __enter__(self) -> RunStore:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the store's lock, or refuse in one line when another run holds it."""
        if self._lock is not None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                f"{self.folder}: cannot make the {self.what}'s folder ({exc.strerror})"
            ) from None
        while True:
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise InputError(f"{self.lock_path}: cannot lock ({exc.strerror})") from None
            try:
                portalocker.lock(fd, portalocker.LOCK_EX | portalocker.LOCK_NB)
            except portalocker.exceptions.LockException:
                holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
                os.close(fd)
                raise InputError(
                    f"{self.state}: in use by another run (pid {holder}); wait for it to end "
                    f"or give another {self.what}"
                ) from None
            # the file may have been removed by the run that held it just before: lock the one
            # that is there now
            with contextlib.suppress(OSError):
                if os.fstat(fd).st_ino == os.stat(self.lock_path).st_ino:
                    break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        self._lock = fd

    def release(self) -> None:
        """Give the lock back (its file removed first, while still held)."""
        if self._lock is None:
            return
        with contextlib.suppress(OSError):
            self.lock_path.unlink()
        portalocker.unlock(self._lock)
        os.close(self._lock)
        self._lock = None

    def _held(self) -> None:
        if self._lock is None:
            raise RuntimeError(f"{self.state}: written without holding its lock")

    # -- the state document --------------------------------------------------------------------

    def exists(self) -> bool:
        """Whether the state document is there (a run to resume)."""
        return self.state.exists() or self.state.is_symlink()

    def load(self, *, max_bytes: int = MAX_READ) -> Any:
        """The state document, checked against the schema (InputError, one line, naming it)."""
        return load_json(self.state, self.schema, what=self.what, max_bytes=max_bytes, follow=False)

    def save(self, document: Any) -> None:
        """Write the state document atomically (the lock must be held)."""
        self._held()
        write_json_atomic(self.state, document)

    # -- the files it names --------------------------------------------------------------------

    def path(self, name: str) -> Path:
        """Where the file ``name`` lives (a plain name in the store's folder)."""
        if not name or Path(name).name != name or name in (".", ".."):
            raise InputError(f"{self.state}: {name!r} is not a file name of this {self.what}")
        return self.folder / name

    def put(self, name: str, data: bytes) -> str:
        """Write the file ``name`` atomically (the lock must be held); its SHA-256, for the state
        document to record."""
        self._held()
        write_bytes_atomic(self.path(name), data)
        return sha256(data)

    def read(self, name: str, digest: str | None, *, max_bytes: int = MAX_READ) -> bytes:
        """The bytes of ``name``, refused (InputError naming it) unless it is a regular file of
        its own (no symlink) whose SHA-256 is ``digest`` (``None``: a file an older run named
        without recording one; the caller checks it another way)."""
        data = read_regular(self.path(name), max_bytes=max_bytes, follow=False)
        if digest is not None and sha256(data) != digest:
            raise InputError(f"{self.path(name)}: not the file the {self.what} recorded (SHA-256)")
        return data

    def read_xz(self, name: str, digest: str, size: int, *, max_bytes: int = MAX_READ) -> bytes:
        """:meth:`read`, then decompressed to exactly ``size`` bytes (bounded: a file that
        inflates past it is refused)."""
        where = str(self.path(name))
        data = inflate(self.read(name, digest, max_bytes=max_bytes), size, where=where)
        if len(data) != size:
            raise InputError(f"{where}: {len(data):,} bytes, the {self.what} says {size:,}")
        return data


__all__ = ["RunStore", "sha256"]
