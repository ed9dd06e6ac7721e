"""Files: atomic writes (a reader never sees a half-written file, an interrupted write leaves
none), bounded reads (:func:`read_regular`, :func:`inflate`: what a command reads back cannot
take the memory, and a bound is never allocated up front) and the one rule for JSON text
(:func:`parse_json`: bounded in size and nesting, any problem one line).

An unusable path (read-only, under ``/proc``, a folder where a file goes, an empty name) raises
:class:`~minttt.errors.InputError` naming it. :func:`write_texts_atomic` writes several files all
or none: each goes to a temporary file first, and the renames run shielded from Ctrl-C.

A path that names something other than a regular file is written *through*, never replaced: a
symlink (dangling or not) writes its target, atomically; an existing character device or FIFO
(``/dev/null``, ``/dev/stdout``, a named pipe) is opened and written in place, after the staged
files are committed; a socket or block device is refused.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from minttt.errors import InputError
from minttt.interrupt import shielded

#: a path as the callers hold it (a str or a Path; a mapping is invariant in its key type)
P = TypeVar("P", bound=str | os.PathLike[str])


def _unusable(target: Path, exc: Exception) -> InputError:
    return InputError(f"{target}: cannot write ({getattr(exc, 'strerror', None) or exc})")


def destination(path: str | os.PathLike[str]) -> tuple[Path, bool]:
    """``(where the bytes go, whether they are written in place)`` for an output ``path``: a
    symlink's final target (written atomically), an existing character device or FIFO in place,
    anything else as itself. InputError for an empty name, a socket or a block device.

    >>> destination("/dev/null")
    (PosixPath('/dev/null'), True)
    """
    if not os.fspath(path):
        raise InputError("an empty path is not a file name")
    target = Path(path)
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    try:
        mode = target.stat().st_mode
    except OSError:
        return target, False  # not there yet: created atomically
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return target, True
    if stat.S_ISSOCK(mode) or stat.S_ISBLK(mode):
        raise InputError(f"{path}: is a socket or block device, not a file to write")
    return target, False


def _write_in_place(target: Path, data: bytes) -> None:
    """Write ``data`` to a character device or FIFO (no temporary file: it cannot be renamed)."""
    try:
        with open(target, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise _unusable(target, exc) from None


def _make_parents(folder: Path, made: list[Path]) -> None:
    """Create ``folder`` and its missing parents, appending each one created to ``made``."""
    missing: list[Path] = []
    for parent in (folder, *folder.parents):
        if parent.exists() or parent.is_symlink():
            break
        missing.append(parent)
    for parent in reversed(missing):
        parent.mkdir(exist_ok=True)
        made.append(parent)


def _remove_made(made: list[Path]) -> None:
    """Remove the folders a failed write created (deepest first; one holding other files stays)."""
    for folder in reversed(made):
        with contextlib.suppress(OSError):
            folder.rmdir()


def _stage(target: Path, data: bytes, made: list[Path]) -> str:
    """Write ``data`` to a temporary file beside ``target`` (folders created go to ``made``);
    returns its path."""
    if target.is_dir():
        raise InputError(f"{target}: is a folder; give a file name")
    try:
        _make_parents(target.parent, made)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except (OSError, ValueError) as exc:
        raise _unusable(target, exc) from None
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes 0600; results are meant to be read by others
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _unusable(target, exc) from None
        raise
    return tmp


def write_many_atomic(files: Mapping[P, bytes], *, final: bool = False) -> list[Path]:
    """Write every file or none: stage them all, then rename them shielded from interrupts.

    ``final``: these are the command's last results; a later signal no longer interrupts it.
    """

    staged: list[tuple[str, Path]] = []
    in_place: list[tuple[Path, bytes]] = []
    written: list[Path] = []
    made: list[Path] = []  # folders created for the files: removed again if nothing lands
    committed = False
    try:
        for path, data in files.items():
            target, through = destination(path)
            if through:
                in_place.append((target, data))
            else:
                staged.append((_stage(target, data, made), target))
            written.append(Path(path))
        with shielded(final):
            for tmp, target in staged:
                try:
                    os.replace(tmp, target)
                except OSError as exc:
                    raise _unusable(target, exc) from None
            for target, data in in_place:
                _write_in_place(target, data)
            committed = True
    finally:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        if not committed:
            _remove_made(made)
    return written


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes, *, final: bool = False) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    ``final``: the command's last result (see :func:`write_many_atomic`).
    """
    return write_many_atomic({path: data}, final=final)[0]


def write_text_atomic(path: str | os.PathLike[str], text: str, *, final: bool = False) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically (``final``: see :func:`write_many_atomic`)."""
    return write_bytes_atomic(path, _utf8(path, text), final=final)


def write_texts_atomic(texts: Mapping[P, str], *, final: bool = False) -> list[Path]:
    """Write several UTF-8 texts, all or none (``final``: see :func:`write_many_atomic`)."""
    return write_many_atomic({p: _utf8(p, t) for p, t in texts.items()}, final=final)


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> Path:
    """Write ``data`` as indented JSON (keys in insertion order, trailing newline) atomically."""
    return write_text_atomic(path, json.dumps(data, indent=2) + "\n")


def _utf8(path: str | os.PathLike[str], text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{path}: the text holds a lone surrogate, not valid Unicode") from None


#: the largest file :func:`read_regular` reads unless told otherwise (bytes)
MAX_READ = 1 << 28


def read_regular(
    path: str | os.PathLike[str], *, max_bytes: int = MAX_READ, follow: bool = True
) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; InputError in one line naming it for
    anything else: missing, a folder, a device, FIFO or socket (a symlink to ``/dev/zero`` would
    never end), larger than the bound, unreadable. ``follow=False`` refuses a symlink too (the
    files of a run store are its own)."""
    target = Path(path)
    try:
        if not follow and target.is_symlink():
            raise InputError(f"{path}: is a symlink; a run's files must be its own")
        # opened without blocking: opening a FIFO to read waits for a writer, for ever
        with open(os.open(target, os.O_RDONLY | os.O_NONBLOCK), "rb", buffering=0) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError(f"{path}: not a regular file")
            return _bounded(handle, max_bytes, where=str(path))
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except MemoryError:
        raise InputError(f"{path}: too large to hold in memory") from None


#: the piece a bounded read takes at a time (the bound itself is never allocated up front)
CHUNK = 1 << 20


def _bounded(handle: Any, max_bytes: int, *, where: str) -> bytes:
    """All of ``handle`` read in pieces of :data:`CHUNK`, stopping once past ``max_bytes``
    (InputError naming ``where``)."""
    pieces, total = [], 0
    while piece := handle.read(min(CHUNK, max_bytes + 1 - total)):
        pieces.append(piece)
        total += len(piece)
        if total > max_bytes:
            raise InputError(f"{where}: larger than {max_bytes:,} bytes")
    return b"".join(pieces)


#: a compressed file inflating more than this many times (past :data:`INFLATION_FLOOR`) is
#: refused as a bomb: minttt's proofs and checkpoints inflate 3-20 times under xz
MAX_INFLATION = 200
INFLATION_FLOOR = 64 << 20


def inflate(data: bytes, max_bytes: int, *, where: str) -> bytes:
    """``data`` decompressed (xz, or gzip by its magic bytes), at most ``max_bytes`` of output:
    InputError in one line naming ``where`` for a truncated or corrupt stream, one that
    inflates past the bound or more than :data:`MAX_INFLATION` times (a bomb), or one that does
    not fit in memory. It inflates :data:`CHUNK` bytes at a time, so a small file cannot take
    the memory, and the bound is never allocated up front.

    >>> import lzma
    >>> inflate(lzma.compress(b"1 2 0"), 10, where="x")
    b'1 2 0'
    """
    import lzma
    import zlib

    if data[:2] == b"\x1f\x8b":
        engine: Any = zlib.decompressobj(wbits=31)
        errors: tuple[type[Exception], ...] = (zlib.error,)
    else:
        engine = lzma.LZMADecompressor()
        errors = (lzma.LZMAError,)
    most = min(max_bytes, max(INFLATION_FLOOR, MAX_INFLATION * len(data)))
    try:
        pieces = _inflated(engine, data, most)
        if pieces is None:
            if most < max_bytes:
                raise InputError(f"{where}: inflates more than {MAX_INFLATION} times: a bomb")
            raise InputError(f"{where}: inflates past {max_bytes:,} bytes")
        out = b"".join(pieces)
    except errors as exc:
        raise InputError(f"{where}: not a readable compressed file ({exc})") from None
    except MemoryError:
        raise InputError(f"{where}: too large to inflate in memory") from None
    if not engine.eof or engine.unused_data:
        raise InputError(f"{where}: a truncated or padded compressed stream")
    return out


def _inflated(engine: Any, data: bytes, most: int) -> list[bytes] | None:
    """The pieces ``engine`` inflates ``data`` to, :data:`CHUNK` bytes at a time; ``None`` as
    soon as they pass ``most`` bytes."""
    pieces, total = [], 0
    tail = getattr(engine, "unconsumed_tail", None) is not None  # zlib keeps the input left
    while not engine.eof:
        piece = engine.decompress(data, CHUNK)
        data = engine.unconsumed_tail if tail else b""
        if not piece and (not data if tail else engine.needs_input):
            break  # the input is used up: a truncated stream (the caller says so)
        total += len(piece)
        if total > most:
            return None
        pieces.append(piece)
    return pieces


#: the deepest nesting of lists and objects a JSON document minttt reads may have (its own
#: documents nest a few levels: a deeper one is hostile, and would break a recursive reader)
MAX_JSON_DEPTH = 64


def parse_json(data: bytes | str, *, where: str, what: str, max_bytes: int = MAX_READ) -> Any:
    """The JSON document ``data`` holds: the one rule every JSON text minttt reads back goes
    through. InputError in one line naming ``where`` and ``what`` it should be for a text past
    ``max_bytes``, not UTF-8, not JSON, or nested deeper than :data:`MAX_JSON_DEPTH`.

    >>> parse_json(b'{"a": [1, 2]}', where="x", what="record")
    {'a': [1, 2]}
    >>> parse_json(b"[" * 100 + b"]" * 100, where="x", what="record")
    Traceback (most recent call last):
    ...
    minttt.errors.InputError: x: not a readable record (nested too deeply)
    """
    if len(data) > max_bytes:
        raise InputError(f"{where}: not a readable {what} (larger than {max_bytes:,} bytes)")
    deep = f"{where}: not a readable {what} (nested too deeply)"
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        document = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{where}: not a readable {what} ({exc})") from None
    except RecursionError:
        raise InputError(deep) from None
    except MemoryError:
        raise InputError(f"{where}: not a readable {what} (too large to hold in memory)") from None
    # no walk for a text with few brackets: it cannot nest deeper than it has them
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _depth(document) > MAX_JSON_DEPTH:
        raise InputError(deep)
    return document


def _depth(document: Any) -> int:
    """How deep lists and objects nest in ``document``, found without recursion."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in item if isinstance(child, (list, dict)))
    return deepest


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether the paths name one file (existing or not)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def refuse_overwrite(out: str | os.PathLike[str] | None, *inputs: Any, what: str = "--out") -> None:
    """InputError when ``out`` names one of the ``inputs`` (an output never replaces an input)."""
    if out is None:
        return
    for path in inputs:
        if path is not None and same_file(out, path):
            raise InputError(f"{what} {out} is an input of this command; write elsewhere")


__all__ = [
    "MAX_READ",
    "P",
    "destination",
    "inflate",
    "parse_json",
    "read_regular",
    "refuse_overwrite",
    "same_file",
    "write_bytes_atomic",
    "write_json_atomic",
    "write_many_atomic",
    "write_text_atomic",
    "write_texts_atomic",
]
