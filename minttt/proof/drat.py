"""An independent DRAT proof checker: DIMACS CNF + DRAT proof (text or binary) in, verdict out.

Shares no code with the solvers (imports nothing from PySAT or Z3, nor from the rest of minttt but
its error type). A proof is valid when every lemma it needs is RUP (reverse unit propagation) or
RAT on its first literal, and it adds the empty clause. The check runs backward, as drat-trim does:

1. Forward: add the formula, then each lemma, keeping the top-level unit-propagation closure,
   until it conflicts (the empty clause, or a lemma that makes propagation fail). Deletions are
   honoured, except a deletion of a clause that is the reason of a top-level literal, which is
   ignored (as drat-trim does; ignoring a deletion is always sound: it only keeps a clause that
   was derived anyway).
2. Backward: mark the clauses of that conflict; walk the lemmas back, undoing additions and
   deletions, and check only the marked lemmas (the core), each against the clauses present when
   it was added; the clauses its check uses are marked in turn.

A proof that never adds the empty clause is invalid even if its last lemmas already conflict
(stricter than drat-trim, which warns). Lemmas after the conflict are not checked (they cannot
matter). Variables are any positive integers (RAT lemmas may introduce new ones).

>>> cnf = b"p cnf 2 4\\n1 2 0\\n-1 2 0\\n1 -2 0\\n-1 -2 0\\n"
>>> check(cnf, b"2 0\\n0\\n").valid
True
>>> r = check(cnf, b"1 0\\n")
>>> r.valid, r.message
(False, 'the proof never adds the empty clause')
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from itertools import chain
from operator import itemgetter, neg
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from minttt.errors import InputError

if TYPE_CHECKING:  # annotations only: the checkers start in a few milliseconds (no pathlib)
    from pathlib import Path
    from types import ModuleType

ADD, DELETE = 0, 1
PROGRESS_EVERY = 4096  # steps between two progress calls
Progress = Callable[[str, int, int], None]  # (phase, done, total)


class ProofFormatError(InputError):
    """A CNF or proof file that cannot be read (exit 2, not an invalid proof)."""


class Step(NamedTuple):
    """One proof line: an added lemma or a deletion, with its 1-based line (or record) number."""

    kind: int
    lits: tuple[int, ...]
    line: int


class CheckResult:
    """The verdict. ``failed`` names the first (in proof order) needed lemma that fails.

    ``lemmas`` counts the lemmas the proof adds (deletions not counted), ``core_lemmas`` those
    the refutation needs (each checked), ``core_clauses`` the formula clauses it uses;
    ``failed_index`` is 1-based among the added lemmas; ``core_formula`` lists the 0-based
    indices of the formula clauses used, ``core_steps`` the 0-based indices of the proof steps
    checked; ``lrat`` is the refutation as LRAT (``check(..., lrat=True)``, RUP proofs only).
    """

    def __init__(self, valid: bool, message: str, *, lemmas: int = 0, deletions: int = 0) -> None:
        self.valid = valid
        self.message = message
        self.lemmas = lemmas
        self.deletions = deletions
        self.core_lemmas = 0
        self.core_clauses = 0
        self.rat_lemmas = 0
        self.ignored_deletions = 0
        self.failed: Step | None = None
        self.failed_index: int | None = None
        self.core_formula: list[int] = []
        self.core_steps: list[int] = []
        self.lrat: bytes | None = None
        #: which checker ran: "reference" (Python) or "compiled" (the same method, in C)
        self.engine = "reference"

    def __repr__(self) -> str:
        return f"CheckResult(valid={self.valid!r}, message={self.message!r})"

    def to_dict(self) -> dict[str, object]:
        """The verdict as JSON-ready data."""
        out: dict[str, object] = {
            "valid": self.valid,
            "message": self.message,
            "lemmas": self.lemmas,
            "deletions": self.deletions,
            "core_lemmas": self.core_lemmas,
            "core_clauses": self.core_clauses,
            "rat_lemmas": self.rat_lemmas,
            "ignored_deletions": self.ignored_deletions,
            "engine": self.engine,
        }
        if self.failed is not None:
            out["failed_lemma"] = self.failed_index
            out["failed_line"] = self.failed.line
            out["failed_clause"] = list(self.failed.lits)
        return out


# ------------------------------------------------------------------------------------ reading


#: the literals (formula and proof) from which check_parsed runs the compiled checker by default:
#: below, the reference in Python finishes before numpy, which the compiled one needs, is imported
COMPILED_FROM = 15_000
#: the largest variable a CNF or proof may name (drat-trim's and DIMACS's 32-bit int)
MAX_VARIABLE = 2**31 - 1
#: the most bytes a CNF or proof may hold once decompressed (the largest shipped proof is 0.75 GB)
MAX_BYTES = 4 << 30
#: the most a streamed reader (:func:`read_lines`) takes: it never holds the file whole
MAX_STREAM = 1 << 40
#: a compressed file inflating more than this many times (past 64 MiB) is refused as a bomb;
#: CaDiCaL's proofs and minttt's CNFs inflate 3-20 times under xz
MAX_INFLATION = 200
CHUNK = 1 << 20


def inflation_limit(compressed: int) -> int:
    """The most a file of ``compressed`` bytes may decompress to before it is a bomb.

    >>> inflation_limit(1 << 20) == 200 << 20
    True
    """
    return max(64 << 20, MAX_INFLATION * compressed)


def read_chunks(
    path: str | Path,
    *,
    text: bool = False,
    check_first: Callable[[bytes], None] | None = None,
    limit: int | None = None,
) -> Iterator[bytes]:
    """The bytes of a plain, xz or gzip file (by magic number), decompressed piece by piece with
    bounded memory: ProofFormatError past ``limit`` bytes (default :data:`MAX_BYTES`: what a
    reader that holds the file whole may take), for a compression bomb (:data:`MAX_INFLATION`) and,
    with ``text``, at the first NUL byte (``/dev/zero`` is refused at once, not read for ever).
    ``check_first`` is shown the first decompressed piece and may refuse the file before the
    rest is read."""
    p = os.fspath(path)
    limit = MAX_BYTES if limit is None else limit
    try:
        with open(p, "rb") as handle:
            reader = _Counted(handle)
            first = reader.read()
            if first[:6] == b"\xfd7zXZ\x00":
                pieces: Iterator[bytes] = _xz(reader, first)
            elif first[:2] == b"\x1f\x8b":
                pieces = _gzip(reader, first)
            else:
                pieces = _plain(reader, first)
            out = 0
            for data in pieces:
                if check_first is not None and data:
                    check_first(data)
                    check_first = None
                out += len(data)
                if out > limit:
                    raise ProofFormatError(f"{p}: more than {limit:,} bytes once decompressed")
                if reader.compressed and out > inflation_limit(reader.total):
                    raise ProofFormatError(
                        f"{p}: inflates more than {MAX_INFLATION} times: refused as a bomb"
                    )
                if text and b"\0" in data:
                    raise ProofFormatError(f"{p}: a NUL byte in a text file: not DIMACS")
                yield data
    except (_Corrupt, EOFError) as exc:
        raise ProofFormatError(f"{p}: corrupt compressed file ({exc})") from None
    except OSError as exc:
        raise ProofFormatError(f"cannot read {p}: {exc.strerror or exc}") from None


class _Corrupt(Exception):
    """A decompressor's error (lzma and zlib are imported only for a compressed file)."""


class _Counted:
    """A binary file read in chunks, counting the bytes read."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle, self.total, self.compressed = handle, 0, False

    def read(self) -> bytes:
        chunk = self.handle.read(CHUNK)
        self.total += len(chunk)
        return chunk


def _plain(reader: _Counted, first: bytes) -> Iterator[bytes]:
    chunk = first
    while chunk:
        yield chunk
        chunk = reader.read()


def _xz(reader: _Counted, first: bytes) -> Iterator[bytes]:
    """xz, at most :data:`CHUNK` inflated bytes at a time (a bomb never inflates at once)."""
    import lzma

    reader.compressed = True
    inflater = lzma.LZMADecompressor()
    pending = first
    while not inflater.eof:
        if inflater.needs_input and not pending:
            pending = reader.read()
            if not pending:
                raise EOFError("the xz stream ends early")
        try:
            piece = inflater.decompress(pending, max_length=CHUNK)
        except lzma.LZMAError as exc:
            raise _Corrupt(str(exc)) from None
        yield piece
        pending = b""


def _gzip(reader: _Counted, first: bytes) -> Iterator[bytes]:
    """gzip (every member), at most :data:`CHUNK` inflated bytes at a time."""
    import zlib

    reader.compressed = True
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    pending = first
    while True:
        if not pending:
            pending = reader.read()
            if not pending:
                if not inflater.eof:
                    raise EOFError("the gzip stream ends early")
                return
        try:
            piece = inflater.decompress(pending, CHUNK)
        except zlib.error as exc:
            raise _Corrupt(str(exc)) from None
        yield piece
        pending = inflater.unconsumed_tail
        if inflater.eof:
            pending = inflater.unused_data + pending
            if not pending:
                pending = reader.read()
                if not pending:
                    return
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)


def read_bytes(path: str | Path, *, text: bool = False) -> bytes:
    """A file's bytes, decompressed when it is xz or gzip (see :func:`read_chunks`)."""
    return b"".join(read_chunks(path, text=text))


def read_proof(path: str | Path) -> bytes:
    """A DRAT proof's bytes (see :func:`read_chunks`): a binary proof must start with a record
    (``a`` or ``d``), seen in the first piece, before the rest is read."""

    def record_first(data: bytes) -> None:
        if is_binary(data) and data[:1] not in (b"a", b"d"):
            raise ProofFormatError(f"{path}: binary proof byte 0: expected 'a' or 'd'")

    return b"".join(read_chunks(path, check_first=record_first))


def read_lines(path: str | Path, max_line: int = 1 << 26) -> Iterator[bytes]:
    """The lines of a text file (see :func:`read_chunks`), read lazily; a line longer than
    ``max_line`` bytes is refused (a text proof's lines are short). Streamed, a file is not held
    whole, so it may pass :data:`MAX_BYTES` (up to :data:`MAX_STREAM`): drat-trim's LRAT of 3x4
    O's 4.4 GB proof is 6 GB."""
    parts: list[bytes] = []  # the line read so far (a long one comes in many chunks)
    size = 0
    for chunk in read_chunks(path, text=True, limit=MAX_STREAM):
        if b"\n" not in chunk:
            parts.append(chunk)
            size += len(chunk)
            if size > max_line:
                raise ProofFormatError(f"{path}: a line longer than {max_line:,} bytes")
            continue
        lines = (b"".join(parts) + chunk if parts else chunk).split(b"\n")
        rest = lines.pop()
        parts, size = [rest], len(rest)
        if size > max_line:
            raise ProofFormatError(f"{path}: a line longer than {max_line:,} bytes")
        yield from lines
    if size:
        yield b"".join(parts)


def parse_cnf(data: bytes) -> tuple[int, list[tuple[int, ...]]]:
    """``(variables, clauses)`` of DIMACS CNF text; raises ProofFormatError naming the line.

    The common file (comments, the header, then numbers only) is read in one sweep; any other,
    and every file with an error, line by line (which names the line)."""
    fast = _parse_cnf_numbers(data)
    return fast if fast is not None else _parse_cnf_lines(data)


#: the bytes of a CNF's body of clauses in the common case: numbers and white space
_NUMBERS = b"0123456789- \t\n\r\x0b\x0c"


def _parse_cnf_numbers(data: bytes) -> tuple[int, list[tuple[int, ...]]] | None:
    """:func:`parse_cnf` for comment lines, the header, then only numbers; None for any other
    text, or an error (:func:`_parse_cnf_lines` reads it then, and names the line)."""
    start, header = 0, None
    while header is None:
        end = data.find(b"\n", start)
        line = (data[start:] if end < 0 else data[start:end]).strip()
        if line[:1] == b"p":
            try:
                header = _cnf_header(line, 0)
            except ProofFormatError:
                return None
        elif line and line[:1] not in (b"c", b"%"):
            return None
        if end < 0:
            break
        start = end + 1
    body = data[start:] if header is not None and end >= 0 else b""
    if header is None or body.translate(None, _NUMBERS):
        return None
    try:
        nums = list(map(int, body.split()))
    except ValueError:
        return None
    nvars, count = header
    if nums and (max(nums) > nvars or min(nums) < -nvars):
        return None
    clauses: list[tuple[int, ...]] = []
    append, index, i = clauses.append, nums.index, 0
    try:
        while True:
            j = index(0, i)
            append(tuple(nums[i:j]))
            i = j + 1
    except ValueError:
        pass
    if i != len(nums) or len(clauses) != count:
        return None
    return nvars, clauses


def _parse_cnf_lines(data: bytes) -> tuple[int, list[tuple[int, ...]]]:  # noqa: C901 - one pass
    """:func:`parse_cnf` line by line."""
    header: tuple[int, int] | None = None
    clauses: list[tuple[int, ...]] = []
    current: list[int] = []
    loose = _loose_line(data, b"c%p")
    for number, raw in enumerate(data.split(b"\n"), start=1):
        line = raw.strip()
        if not line or line[:1] == b"c" or line[:1] == b"%":
            continue
        if line[:1] == b"p":
            if header is not None:
                raise ProofFormatError(f"CNF line {number}: bad header {_show(line)}")
            header = _cnf_header(line, number)
            continue
        if header is None:
            raise ProofFormatError(f"CNF line {number}: clause before the 'p cnf' header")
        try:
            if number == loose:
                raise ValueError
            nums = [int(w) for w in line.split()]
        except ValueError:
            raise ProofFormatError(f"CNF line {number}: not a clause: {_show(line)}") from None
        for x in nums:
            if x == 0:
                clauses.append(tuple(current))
                current = []
            elif abs(x) > header[0]:
                raise ProofFormatError(
                    f"CNF line {number}: literal {x} beyond the header's {header[0]} variables"
                )
            else:
                current.append(x)
    if header is None:
        raise ProofFormatError("CNF: no 'p cnf' header")
    if current:
        raise ProofFormatError("CNF: the last clause is not terminated by 0")
    if len(clauses) != header[1]:
        raise ProofFormatError(f"CNF: header says {header[1]} clauses, found {len(clauses)}")
    return header[0], clauses


def _cnf_header(line: bytes, number: int) -> tuple[int, int]:
    """``(variables, clauses)`` of a ``p cnf V C`` line."""
    words = line.split()
    bad = ProofFormatError(f"CNF line {number}: bad header {_show(line)}")
    if len(words) != 4 or words[1] != b"cnf" or not (words[2].isdigit() and words[3].isdigit()):
        raise bad
    header = (int(words[2]), int(words[3]))
    if header[0] > MAX_VARIABLE:
        raise ProofFormatError(
            f"CNF line {number}: {header[0]} variables, more than DIMACS allows ({MAX_VARIABLE})"
        )
    return header


def _loose_line(data: bytes, skipped: bytes) -> int:
    """The number of the first line that holds a ``+`` or ``_`` and does not open with one of
    ``skipped`` (a comment, a header: read apart), 0 for none. ``int()`` reads both (``+1``,
    ``1_0``), a DIMACS number is ``-?[0-9]+``: with neither byte in a line, every word ``int()``
    takes there is one. The text is searched for the two bytes, not read line by line.

    >>> _loose_line(b" c a_b\\n1 2 0\\n+1 0\\n", b"c"), _loose_line(b"1 -2 0\\n", b"c")
    (3, 0)
    """
    found = len(data)  # where the first such line starts
    for byte in (b"+", b"_"):
        at = data.find(byte, 0, found)
        while at >= 0:
            start = data.rfind(b"\n", 0, at) + 1
            if data[start : at + 1].lstrip(b" \t\r\x0b\x0c")[:1] not in skipped:
                found = start
                break
            end = data.find(b"\n", at)  # a skipped line: on from the next
            at = data.find(byte, end, found) if end >= 0 else -1
    return data.count(b"\n", 0, found) + 1 if found < len(data) else 0


def _show(line: bytes) -> str:
    text = line.decode("utf-8", "replace")
    return repr(text if len(text) <= 40 else text[:40] + "...")


def is_binary(data: bytes) -> bool:
    """Binary DRAT (records ``a``/``d`` + variable-length literals) rather than text."""
    if not data:
        return False
    if data[:1] == b"a":
        return True
    head = data[:1024]
    return any(b == 0 or b >= 0x80 or (b < 0x20 and b not in (9, 10, 13)) for b in head)


def parse_proof(data: bytes) -> list[Step]:
    """The steps of a DRAT proof, text or binary (detected)."""
    return _parse_binary(data) if is_binary(data) else _parse_text(data)


def _parse_text(data: bytes) -> list[Step]:
    steps: list[Step] = []
    append, new = steps.append, tuple.__new__
    loose = _loose_line(data, b"c")
    for number, raw in enumerate(data.split(b"\n"), start=1):
        words = raw.split()
        if not words or words[0][:1] == b"c":
            continue
        kind = ADD
        if words[0] == b"d":
            kind, words = DELETE, words[1:]
        try:
            if number == loose:
                raise ValueError
            nums = list(map(int, words))
        except ValueError:
            raise ProofFormatError(f"proof line {number}: not a lemma: {_show(raw)}") from None
        if not nums or nums.pop() != 0 or 0 in nums:
            raise ProofFormatError(
                f"proof line {number}: a lemma is one clause ending in 0: {_show(raw)}"
            )
        if nums and (max(nums) > MAX_VARIABLE or min(nums) < -MAX_VARIABLE):
            raise ProofFormatError(
                f"proof line {number}: a literal beyond the largest variable ({MAX_VARIABLE})"
            )
        append(new(Step, (kind, tuple(nums), number)))
    return steps


def _parse_binary(data: bytes) -> list[Step]:
    steps: list[Step] = []
    i, n = 0, len(data)
    while i < n:
        tag = data[i]
        if tag not in (0x61, 0x64):
            raise ProofFormatError(f"binary proof byte {i}: expected 'a' or 'd', got {tag:#04x}")
        i += 1
        lits: list[int] = []
        while True:
            value, shift = 0, 0
            while True:
                if i >= n:
                    raise ProofFormatError("binary proof: truncated record at the end")
                b = data[i]
                i += 1
                value |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
                if shift > 28:  # a fifth byte with more to come: past 2 * MAX_VARIABLE + 1
                    raise ProofFormatError(f"binary proof byte {i}: a literal past 32 bits")
            if value >> 1 > MAX_VARIABLE:
                raise ProofFormatError(
                    f"binary proof byte {i}: a literal beyond the largest variable ({MAX_VARIABLE})"
                )
            if value == 0:
                break
            if value == 1:
                raise ProofFormatError(f"binary proof byte {i}: invalid literal code 1")
            lits.append(-(value >> 1) if value & 1 else value >> 1)
        steps.append(Step(ADD if tag == 0x61 else DELETE, tuple(lits), len(steps) + 1))
    return steps


# ------------------------------------------------------------------------------------ checking


class _Checker:
    """Clause database with two watched literals, a top-level trail and core marking.

    The watch lists are exact: a clause is listed under its two watched literals (a binary
    clause under both, as ``(other literal, id)``) while it is present, in the marked lists once
    it is in the core and in the unmarked ones before; :meth:`activate`, :meth:`deactivate`
    and :meth:`mark` keep them so, and propagation never meets a deleted clause.
    """

    def __init__(self, nvars: int, nformula: int, deleted_sums: set[int]) -> None:
        top = self.nvars = nvars  # no literal of the formula or the proof goes beyond
        size = 2 * top + 1  # literal l indexes l (negative l from the end)
        self.val = [0] * size
        # long clauses watching a literal, and binary clauses as (other literal, id), each in
        # two lists: [0] unmarked, [1] marked (core) clauses
        self.watches: tuple[list[list[int]], list[list[int]]] = (
            [[] for _ in range(size)],
            [[] for _ in range(size)],
        )
        self.binaries: tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]] = (
            [[] for _ in range(size)],
            [[] for _ in range(size)],
        )
        self.reason = [-1] * (top + 1)
        self.in_top = bytearray(top + 1)
        self.cone = bytearray(top + 1)  # the reasons of this top-level literal are all marked
        self.tpos = [0] * (top + 1)
        self.trail: list[int] = []
        self.wave = 0  # where the propagation of the last lemma added began (on the trail)
        self.names: list[int] | None = None  # original variable of each dense one (_dense)
        self.lits: list[list[int]] = []
        self.active = bytearray()
        self.marked = bytearray()
        self.key_to_ids: dict[tuple[int, ...], list[int]] = {}
        #: the sums of the deleted clauses' literals: only a clause whose literals sum to one of
        #: them is filed in key_to_ids (the others are never looked up)
        self.deleted_sums = deleted_sums
        self.nformula = nformula
        self.seen = bytearray(top + 1)
        self.occurs: dict[int, list[int]] | None = None
        self.pivot: dict[int, int] = {}  # lemma id -> its first literal as written (RAT pivot)
        self.hints: dict[int, list[int]] | None = None  # lemma id -> LRAT hints (clause ids)
        self.last_hints: list[int] = []

    # --- clause database

    def new_clause(self, lits: tuple[int, ...]) -> int:
        cid = len(self.lits)
        c = list(dict.fromkeys(lits))
        self.lits.append(c)
        self.active.append(0)
        self.marked.append(0)
        if sum(c) in self.deleted_sums:
            self.key_to_ids.setdefault(tuple(sorted(c)), []).append(cid)
        if self.occurs is not None:
            for x in self.lits[cid]:
                self.occurs.setdefault(x, []).append(cid)
        return cid

    def activate(self, cid: int) -> int:
        """Make ``cid`` present at top level: watch it, propagate if unit. Conflict id or -1."""
        self.active[cid] = 1
        c = self.lits[cid]
        val = self.val
        if len(c) == 0:
            return cid
        if len(c) == 1:
            x = c[0]
            if val[x] == -1:
                return cid
            if val[x] == 0:
                return self._propagate_top(x, cid)
            return -1
        if len(c) == 2:
            a, b = c
            binaries = self.binaries[self.marked[cid]]
            binaries[a].append((b, cid))
            binaries[b].append((a, cid))
            if val[a] == -1 and val[b] == -1:
                return cid
            if val[a] == -1 and val[b] == 0:
                a, b = b, a
            if val[b] == -1 and val[a] == 0:
                return self._propagate_top(a, cid)
            return -1
        if val[c[0]] == -1 or val[c[1]] == -1:
            # true, then unassigned, then false; the sort is stable, so a clause restored in the
            # backward pass watches what it watched when it was deleted (a false watch, then,
            # became false after its true partner became true: truncate_top never keeps the one
            # alone)
            c.sort(key=lambda x: -val[x])
        watches = self.watches[self.marked[cid]]
        watches[c[0]].append(cid)
        watches[c[1]].append(cid)
        if val[c[0]] == -1:
            return cid
        if val[c[1]] == -1 and val[c[0]] == 0:
            return self._propagate_top(c[0], cid)
        return -1

    def deactivate(self, cid: int) -> None:
        """Take ``cid`` out of the database (out of its watch lists)."""
        if not self.active[cid]:
            return
        self.active[cid] = 0
        self._unwatch(cid, self.marked[cid])

    def _unwatch(self, cid: int, marked: int) -> None:
        c = self.lits[cid]
        if len(c) == 2:
            a, b = c
            binaries = self.binaries[marked]
            binaries[a].remove((b, cid))
            binaries[b].remove((a, cid))
        elif len(c) > 2:
            watches = self.watches[marked]
            watches[c[0]].remove(cid)
            watches[c[1]].remove(cid)

    def mark(self, cid: int) -> None:
        """Put ``cid`` in the core; from now on it propagates in the marked (first) pass."""
        if self.marked[cid]:
            return
        self.marked[cid] = 1
        if not self.active[cid]:
            return
        self._unwatch(cid, 0)
        c = self.lits[cid]
        if len(c) == 2:
            a, b = c
            self.binaries[1][a].append((b, cid))
            self.binaries[1][b].append((a, cid))
        elif len(c) > 2:
            self.watches[1][c[0]].append(cid)
            self.watches[1][c[1]].append(cid)

    def top_reason_pos(self, cid: int) -> int:
        """Trail position of the top-level literal ``cid`` is the reason of, or -1.

        Any literal of the clause may be the implied one (binary clauses are never reordered).
        """
        in_top, reason = self.in_top, self.reason
        for x in self.lits[cid]:
            v = abs(x)
            if in_top[v] and reason[v] == cid:
                return self.tpos[v]
        return -1

    # --- assignment

    def _propagate_top(self, x: int, cid: int) -> int:
        """Assign ``x`` (the unit of ``cid``) at top level and propagate; conflict id or -1."""
        trail = self.trail
        base = len(trail)
        self.val[x], self.val[-x] = 1, -1
        self.reason[abs(x)] = cid
        trail.append(x)
        conflict = self.propagate(base)
        in_top, tpos = self.in_top, self.tpos
        for position in range(base, len(trail)):
            v = abs(trail[position])
            in_top[v] = 1
            tpos[v] = position
        return conflict

    def propagate(self, qhead: int) -> int:  # noqa: C901 - the hot loop, inlined
        """Unit propagation from ``trail[qhead]``; the conflicting clause's id, or -1.

        Core first (as drat-trim): marked clauses propagate to a fixpoint before an unmarked
        clause is used, so conflicts are found among clauses already needed and cores stay small.
        """
        trail, val, lits, reason = self.trail, self.val, self.lits, self.reason
        bu, bm = self.binaries
        wu, wm = self.watches
        qm = qu = qhead
        end = len(trail)  # kept equal to len(trail)
        while True:
            if qm < end:
                f = -trail[qm]
                qm += 1
                bl, ws, watches = bm[f], wm[f], wm
            elif qu < end:
                f = -trail[qu]
                qu += 1
                bl, ws, watches = bu[f], wu[f], wu
            else:
                return -1
            for o, cid in bl:
                vo = val[o]
                if vo == 1:
                    continue
                if vo == -1:
                    return cid
                val[o] = 1
                val[-o] = -1
                reason[o if o > 0 else -o] = cid
                trail.append(o)
                end += 1
            if not ws:
                continue
            j = 0
            for i, cid in enumerate(ws):
                c = lits[cid]
                other = c[0]
                if other == f:
                    other = c[1]
                    c[0] = other
                    c[1] = f
                vo = val[other]
                if vo != 1:
                    for k in range(2, len(c)):
                        x = c[k]
                        if val[x] != -1:
                            c[1] = x
                            c[k] = f
                            watches[x].append(cid)
                            break
                    else:
                        if vo == -1:
                            del ws[j:i]
                            return cid
                        val[other] = 1
                        val[-other] = -1
                        reason[other if other > 0 else -other] = cid
                        trail.append(other)
                        end += 1
                        ws[j] = cid
                        j += 1
                    continue
                ws[j] = cid
                j += 1
            del ws[j:]

    def backtrack(self, length: int) -> None:
        val = self.val
        for x in self.trail[length:]:
            val[x] = val[-x] = 0
        del self.trail[length:]

    def truncate_top(self, length: int) -> None:
        """Unassign the top-level trail from ``length`` on: where the wave of propagation of a
        lemma being removed began. Nothing is propagated again (as in drat-trim): the lemmas are
        removed in the reverse of their order, so ``trail[:length]`` is the closure of the
        clauses present now, as it was in the forward pass before the lemma came."""
        in_top, cone = self.in_top, self.cone
        for x in self.trail[length:]:
            v = abs(x)
            in_top[v] = 0
            cone[v] = 0
        self.backtrack(length)

    # --- analysis and checks

    def mark_conflict(self, cid: int) -> None:
        """Mark ``cid`` and every reason the conflict depends on."""
        mark, marked, lits, reason = self.mark, self.marked, self.lits, self.reason
        seen, cone, in_top = self.seen, self.cone, self.in_top
        mark(cid)
        stack = list(lits[cid])
        visited: list[int] = []
        while stack:
            x = stack.pop()
            v = x if x > 0 else -x
            if seen[v] or cone[v]:
                continue
            seen[v] = 1
            visited.append(v)
            r = reason[v]
            if r >= 0:
                if not marked[r]:
                    mark(r)
                stack.extend(lits[r])
        for v in visited:
            seen[v] = 0
            if in_top[v]:
                cone[v] = 1

    def rup(self, lemma: list[int], hints: bool = False) -> bool:
        """Is ``lemma`` implied by unit propagation? Marks what the conflict used.

        With ``hints``, :attr:`last_hints` receives the clauses of the refutation in LRAT order.
        """
        val = self.val
        for x in lemma:
            if val[x] == 1:  # already true at top level: its reasons refute the negation
                if hints:
                    self.last_hints = self.hints_for(self.reason[abs(x)], len(self.trail), lemma)
                self.mark_conflict_lit(x)
                return True
        base = len(self.trail)
        reason = self.reason
        for x in lemma:
            if val[-x] == 0:
                val[-x], val[x] = 1, -1
                reason[abs(x)] = -1
                self.trail.append(-x)
        conflict = self.propagate(base)
        if conflict >= 0:
            if hints:
                self.last_hints = self.hints_for(conflict, base, lemma)
            self.mark_conflict(conflict)
        self.backtrack(base)
        return conflict >= 0

    def hints_for(self, conflict: int, base: int, lemma: list[int] | tuple[()] = ()) -> list[int]:
        """The clauses that unit-propagate to ``conflict``: every reason in its implication graph
        (top-level ones included, which an LRAT checker does not have), in trail order, then
        ``conflict``. Literals from ``trail[base:]`` are the lemma's (their positions are local).
        The lemma's own variables are the LRAT checker's assumptions: their reasons, if they
        were already set at top level, are not followed.
        """
        lits, reason, seen, in_top, tpos = self.lits, self.reason, self.seen, self.in_top, self.tpos
        local = {abs(x): i for i, x in enumerate(self.trail[base:], start=base)}
        found: list[tuple[int, int]] = []
        visited: list[int] = []
        for x in lemma:
            v = abs(x)
            if not seen[v]:
                seen[v] = 1
                visited.append(v)
        stack = [abs(x) for x in lits[conflict]]
        while stack:
            v = stack.pop()
            if seen[v]:
                continue
            seen[v] = 1
            visited.append(v)
            r = reason[v]
            if r >= 0 and r != conflict:
                found.append((local[v] if v in local else tpos[v] if in_top[v] else -1, r))
                stack.extend(abs(x) for x in lits[r])
        for v in visited:
            seen[v] = 0
        found.sort()
        return [r for _, r in found] + [conflict]

    def mark_conflict_lit(self, x: int) -> None:
        v = abs(x)
        r = self.reason[v]
        if r >= 0 and not self.cone[v]:
            self.mark_conflict(r)

    def rat(self, cid: int) -> bool:
        """RAT on the lemma's first literal against every present clause holding its negation."""
        lemma = self.lits[cid]
        if not lemma:
            return False
        pivot = self.pivot[cid]
        if self.occurs is None:
            self.occurs = {}
            for i, c in enumerate(self.lits):
                for x in c:
                    self.occurs.setdefault(x, []).append(i)
        for other in self.occurs.get(-pivot, []):
            if not self.active[other] or other == cid:
                continue
            resolvent = lemma + [x for x in self.lits[other] if x != -pivot]
            if any(-x in resolvent for x in resolvent):
                continue  # a tautology
            if not self.rup(resolvent):
                return False
            self.mark(other)
        return True


def check(
    cnf: bytes,
    proof: bytes,
    *,
    lrat: bool = False,
    progress: Progress | None = None,
    compiled: bool | None = None,
) -> CheckResult:
    """Check a DRAT ``proof`` (text or binary bytes) of the DIMACS ``cnf`` (bytes).

    With ``lrat``, a valid proof whose needed lemmas are all RUP also gets ``result.lrat``: the
    refutation as LRAT text (the needed lemmas only, each with the ids of the clauses that
    propagate to its conflict), which an LRAT checker (:mod:`minttt.lrat`, cake_lpr) checks in
    one pass without search. A proof that needs RAT gets none (``result.lrat`` stays None).
    ``progress(phase, done, total)`` is called now and then ("forward", then "backward").

    >>> cnf = b"p cnf 2 4\\n1 2 0\\n-1 2 0\\n1 -2 0\\n-1 -2 0\\n"
    >>> print(check(cnf, b"2 0\\n0\\n", lrat=True).lrat.decode(), end="")
    5 2 0 1 2 0
    6 0 5 3 4 0
    """
    nvars, clauses = parse_cnf(cnf)
    written = sum(map(len, clauses))
    # a text proof's literals are about its spaces: counted in C, so a proof the reference will
    # check is not read twice
    if compiled or (compiled is None and proof.count(b" ") + written >= COMPILED_FROM):
        flat = _flat_text(proof)  # None: binary, or anything the quick reader does not take
        big = flat is not None and len(flat[2]) + written >= COMPILED_FROM
        if flat is not None and (compiled or (big and _kernels() is not None)):
            return _check_flat(nvars, clauses, flat, lrat, progress)
    steps = parse_proof(proof)
    return check_parsed(nvars, clauses, steps, lrat=lrat, progress=progress, compiled=compiled)


def check_files(
    cnf: str | Path,
    proof: str | Path,
    *,
    lrat: bool = False,
    progress: Progress | None = None,
    compiled: bool | None = None,
) -> CheckResult:
    """Check files (plain, .xz or .gz); raises ProofFormatError for an unreadable file."""
    return check(
        read_bytes(cnf, text=True),
        read_proof(proof),
        lrat=lrat,
        progress=progress,
        compiled=compiled,
    )


def check_parsed(
    nvars: int,
    clauses: list[tuple[int, ...]],
    steps: list[Step],
    *,
    lrat: bool = False,
    progress: Progress | None = None,
    compiled: bool | None = None,
) -> CheckResult:
    """Check parsed ``steps`` against ``clauses`` (see the module docstring for the method).

    The checker's arrays are sized by the variables the formula and proof use, never by a number
    they merely name: sparse numbering (a lemma ``2147483647 0`` against ``p cnf 2 2``) is first
    made dense, keeping the variables' order, so the check is the same.

    ``compiled``: run the same method compiled (``minttt.proof.kernels``, C, built with the
    package where a C compiler was at hand), whose every verdict, core and LRAT line is this
    reference's; ``None`` (the default) does where it pays (:data:`COMPILED_FROM` literals or
    more, and the kernel built), ``False`` never; ``True`` where it was not built is an
    InputError. ``result.engine`` says which ran."""
    n_lemmas = sum(1 for s in steps if s.kind == ADD)
    result = CheckResult(False, "", lemmas=n_lemmas, deletions=len(steps) - n_lemmas)
    if compiled is None:
        compiled = _compiled_pays(clauses, steps)
    result.engine = "compiled" if compiled else "reference"
    if not any(s.kind == ADD and not s.lits for s in steps):
        result.message = "the proof never adds the empty clause"
        return result
    top, clauses, dense, names = _dense(nvars, clauses, steps)
    if compiled:
        import numpy as np

        kinds = np.fromiter(map(itemgetter(0), dense), np.int8, len(dense))
        s_start, s_lits = _flat_rows([s.lits for s in dense])
        flat = (kinds, s_start, s_lits)
        return _check_compiled(
            top, _flat_rows(clauses), flat, names, steps.__getitem__, result, lrat, progress
        )
    ch = _Checker(top, len(clauses), {sum(set(s.lits)) for s in dense if s.kind == DELETE})
    ch.names = names
    if lrat:
        ch.hints = {}
    conflict = _load_formula(ch, clauses)
    events: list[tuple[int, int, int]] = []  # (kind, clause id, step index)
    if conflict < 0:
        conflict, failed = _forward(ch, dense, events, result, progress)
        if failed is not None:  # no conflict before it: the empty clause is not RUP
            return _fail(result, steps, failed, "the empty clause, not RUP")
    final_hints = ch.hints_for(conflict, len(ch.trail)) if lrat else []
    ch.mark_conflict(conflict)
    failures = _backward(ch, events, result, progress)
    result.core_formula = [i for i in range(ch.nformula) if ch.marked[i]]
    result.core_clauses = len(result.core_formula)
    if failures:
        res = _fail(result, steps, min(failures), "neither RUP nor RAT")
        if len(failures) > 1:
            res.message += f" ({len(failures) - 1} later needed lemma(s) fail too)"
        return res
    _valid(result)
    if lrat and not result.rat_lemmas:
        assert ch.hints is not None
        lemmas = [(c, ch.lits[c]) for kind, c, _ in events if kind == ADD and c in ch.hints]
        result.lrat = _lrat_lines(ch.nformula, lemmas, ch.hints, final_hints, ch.names)
    return result


def _valid(result: CheckResult) -> None:
    result.valid = True
    result.message = f"valid: {result.lemmas} lemmas, {result.core_lemmas} needed and checked" + (
        f" ({result.rat_lemmas} by RAT)" if result.rat_lemmas else ""
    )


def _compiled_pays(clauses: list[tuple[int, ...]], steps: list[Step]) -> bool:
    """Is the proof large enough for the compiled checker (and the kernel built)? Below
    :data:`COMPILED_FROM` literals its start-up (numpy's import) costs more than it saves."""
    size = sum(map(len, clauses)) + sum(len(s.lits) for s in steps)
    return size >= COMPILED_FROM and _kernels() is not None


def _kernels() -> ModuleType | None:
    """The compiled checkers (``minttt.proof.kernels``, C), or None where the package was
    built without them (no C compiler at install: the reference runs)."""
    try:
        from minttt.proof import kernels
    except ImportError:
        return None
    return kernels


#: a deletion's mark in :func:`_flat_text`'s numbers (beyond any literal)
_DELETE_MARK = -(1 << 32)


def _flat_text(proof: bytes) -> tuple[Any, Any, Any] | None:  # noqa: C901 - one sweep, checks
    """A text proof as arrays ``(kinds, starts, literals)`` (step ``i``: ``literals[starts[i]:
    starts[i + 1]]``), read by numpy in one sweep; ``None`` unless every line is one lemma or
    deletion ending in 0, with single spaces and nothing :func:`parse_proof` would refuse or skip
    (a comment, a blank line: then it reads the proof, and says what is wrong). Line ``i + 1``
    is step ``i``."""
    import warnings

    import numpy as np

    text = proof[:-1] if proof.endswith(b"\n") else proof
    if not text or proof.translate(None, b"0123456789- d\n"):
        return None  # another byte: a comment, a tab, a binary proof
    deletions = text.count(b"d")
    if (
        text[:1] in b" \n"
        or text[-1:] in b" -d"
        or deletions != text.count(b"\nd ") + (text[:2] == b"d ")
    ):
        return None  # a line opening with a space or a newline, a "d" inside a line
    buf = np.frombuffer(text, np.uint8)
    this, following = buf[:-1], buf[1:]
    digit = (following >= 48) & (following <= 57)
    if (
        ((this == 10) & ((following == 10) | (following == 32)))  # a blank line, or indented
        | ((this == 32) & (following == 10))  # a space closing a line
        | ((this == 45) & ~digit)  # a minus sign alone
        | ((this == 100) & (following != 32))  # "d" and no space
    ).any():
        return None
    last = np.append(np.flatnonzero(buf == 10) - 1, len(buf) - 1)  # each line's last byte
    before = buf[np.maximum(last - 1, 0)]
    if (buf[last] != 48).any() or ((last > 0) & (before != 32) & (before != 10)).any():
        return None  # a line that does not end in the number 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            nums = np.fromstring(text.replace(b"d ", b"%d " % _DELETE_MARK), np.int64, sep=" ")
        except (ValueError, DeprecationWarning):
            return None
    ends = np.flatnonzero(nums == 0)
    if len(ends) != len(last):  # a zero inside a line (each line ends in one)
        return None
    firsts = np.concatenate(([0], ends[:-1] + 1))
    deletes = nums[firsts] == _DELETE_MARK
    if (
        np.count_nonzero(deletes) != deletions
        or np.count_nonzero(nums == _DELETE_MARK) != deletions
    ):
        return None
    keep = np.ones(len(nums), bool)
    keep[ends] = False
    keep[firsts[deletes]] = False
    lits = nums[keep]
    if len(lits) and (lits.max() > MAX_VARIABLE or lits.min() < -MAX_VARIABLE):
        return None
    starts = np.zeros(len(ends) + 1, np.int64)
    np.cumsum(ends - firsts - deletes, out=starts[1:])
    return deletes.astype(np.int8), starts, lits


def _check_flat(
    nvars: int,
    clauses: list[tuple[int, ...]],
    flat: tuple[Any, Any, Any],
    lrat: bool,
    progress: Progress | None,
) -> CheckResult:
    """:func:`check_parsed` with the compiled engine on a proof read by :func:`_flat_text`."""
    kinds, starts, lits = flat
    adds = kinds == ADD
    n_lemmas = int(adds.sum())
    result = CheckResult(False, "", lemmas=n_lemmas, deletions=len(kinds) - n_lemmas)
    result.engine = "compiled"
    lengths = starts[1:] - starts[:-1]
    if not (adds & (lengths == 0)).any():
        result.message = "the proof never adds the empty clause"
        return result
    formula = _flat_rows(clauses)
    written = len(formula[1]) + len(lits)
    top = max([nvars, *(int(abs(a).max()) for a in (formula[1], lits) if len(a))])
    if top > 2 * written + 1024:  # sparse numbering: renamed densely on the way of check_parsed
        steps = [Step(int(kinds[i]), tuple(lits[starts[i] : starts[i + 1]].tolist()), i + 1)
                 for i in range(len(kinds))]  # fmt: skip
        return check_parsed(nvars, clauses, steps, lrat=lrat, progress=progress, compiled=True)

    def step_at(i: int) -> Step:
        return Step(int(kinds[i]), tuple(lits[starts[i] : starts[i + 1]].tolist()), i + 1)

    return _check_compiled(top, formula, flat, None, step_at, result, lrat, progress)


def _flat_rows(rows: list[tuple[int, ...]]) -> tuple[Any, Any]:
    """``(starts, literals)``: the rows one after the other, as numpy arrays."""
    import numpy as np

    start = np.zeros(len(rows) + 1, np.int64)
    np.cumsum(np.fromiter(map(len, rows), np.int64, len(rows)), out=start[1:])
    return start, np.fromiter(chain.from_iterable(rows), np.int64, int(start[-1]))


def _check_compiled(
    top: int,
    formula: tuple[Any, Any],
    flat: tuple[Any, Any, Any],
    names: list[int] | None,
    step_at: Callable[[int], Step],
    result: CheckResult,
    lrat: bool,
    progress: Progress | None,
) -> CheckResult:
    """:func:`check_parsed` on the compiled kernel, the formula as arrays ``(starts,
    literals)`` (:func:`_flat_rows`) and the proof's steps as arrays ``(kinds, starts,
    literals)``, over variables 1..``top`` (``step_at(i)``: step ``i`` as written, for a
    failure's message): the same phases (load, forward, backward), in slices of
    :data:`PROGRESS_EVERY` steps (progress, and Ctrl-C, between slices)."""
    import numpy as np

    k = _kernels()
    if k is None:
        raise InputError(
            "the compiled DRAT checker was not built (it needs a C compiler when minttt is "
            "installed); run the reference instead"
        )
    kinds, s_start, s_lits = flat
    st = k.drat_new(top, *formula, kinds, s_start, s_lits, lrat)
    nformula = len(formula[0]) - 1

    def array(name: str, dtype: type = np.int64) -> Any:
        return np.frombuffer(k.drat_array(st, name), dtype)

    conflict, failed = _forward_compiled(k, st, len(kinds), progress)
    if failed >= 0:  # no conflict before it: the empty clause is not RUP
        result.ignored_deletions = k.drat_counts(st)[1]
        return _fail_at(result, kinds, step_at, failed, "the empty clause, not RUP")
    k.drat_conflict(st, conflict)
    n = k.drat_counts(st)[0]
    for lo in range(0, n, PROGRESS_EVERY):
        if progress is not None:
            progress("backward", lo, n)
        if k.drat_backward(st, lo, min(lo + PROGRESS_EVERY, n)):  # pragma: no cover
            raise RuntimeError("internal: top-level conflict when restoring a clause")
    _, result.ignored_deletions, result.core_lemmas, result.rat_lemmas, nfailed = k.drat_counts(st)
    result.core_steps = array("checked").tolist()
    result.core_formula = np.flatnonzero(array("marked", np.uint8)[:nformula]).tolist()
    result.core_clauses = len(result.core_formula)
    if nfailed:
        first = int(array("failures").min())
        res = _fail_at(result, kinds, step_at, first, "neither RUP nor RAT")
        if nfailed > 1:
            res.message += f" ({nfailed - 1} later needed lemma(s) fail too)"
        return res
    _valid(result)
    if lrat and not result.rat_lemmas:
        result.lrat = _lrat_compiled(array, nformula, names)
    return result


def _forward_compiled(
    k: ModuleType, st: object, nsteps: int, progress: Progress | None
) -> tuple[int, int]:
    """The compiled load and forward phases: ``(conflict, -1)``, or ``(-1, index of the empty
    clause)`` when the proof reaches it with no conflict before."""
    conflict = k.drat_load(st)
    for lo in range(0, nsteps if conflict < 0 else 0, PROGRESS_EVERY):
        if progress is not None:
            progress("forward", lo, nsteps)
        conflict, failed = k.drat_forward(st, lo, min(lo + PROGRESS_EVERY, nsteps))
        if failed >= 0 or conflict >= 0:
            return conflict, failed
    return conflict, -1


def _lrat_compiled(array: Callable[..., Any], nformula: int, names: list[int] | None) -> bytes:
    """:func:`_lrat_lines` of the compiled check, whose arrays ``array(name, dtype)`` reads."""
    import numpy as np

    events, h_start, h_len = array("events"), array("h_start"), array("h_len")
    start, lits, pool = array("start"), array("lits", np.int32), array("hints")
    adds = events[events & 1 == 0] >> 1
    lemmas = [
        (cid, lits[start[cid] : start[cid + 1]].tolist())
        for cid in adds[h_start[adds] >= 0].tolist()
    ]
    hints = {cid: pool[h_start[cid] : h_start[cid] + h_len[cid]].tolist() for cid, _ in lemmas}
    return _lrat_lines(nformula, lemmas, hints, array("final").tolist(), names)


def _dense(
    nvars: int, clauses: list[tuple[int, ...]], steps: list[Step]
) -> tuple[int, list[tuple[int, ...]], list[Step], list[int] | None]:
    """``(variables, clauses, steps, names)``: as given when the numbering is compact (the
    arrays it needs are at most twice the literals written, plus 1,024), else renumbered 1..n
    in the variables' order, ``names[v]`` the original of dense variable ``v``."""
    written = [*filter(None, clauses), *filter(None, map(itemgetter(1), steps))]
    top = max(max(map(max, written), default=0), -min(map(min, written), default=0))
    if max(top, nvars) <= 2 * sum(map(len, written)) + 1024:
        return max(top, nvars), clauses, steps, None
    used = {abs(x) for c in written for x in c}
    names = [0, *sorted(used)]
    index = {v: i for i, v in enumerate(names)}

    def rename(lits: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(index[x] if x > 0 else -index[-x] for x in lits)

    dense = [Step(st.kind, rename(st.lits), st.line) for st in steps]
    return len(used), [rename(c) for c in clauses], dense, names


def _lrat_lines(
    nformula: int,
    lemmas: list[tuple[int, list[int]]],
    hints: dict[int, list[int]],
    final: list[int],
    names: list[int] | None,
) -> bytes:
    """The needed ``lemmas`` (clause id, literals) in proof order, each with its ``hints``, then
    the empty clause with ``final``, as LRAT lines.

    Formula clause i (0-based) has id i + 1; the lemmas are numbered on from there.
    """
    ids = {cid: cid + 1 for cid in range(nformula)}
    next_id = nformula + 1
    out: list[str] = []
    for cid, lits in lemmas:
        ids[cid] = next_id
        if names is not None:  # back to the proof's own variables
            lits = [names[x] if x > 0 else -names[-x] for x in lits]
        clause = " ".join(map(str, lits))
        line_hints = " ".join(str(ids[h]) for h in hints[cid])
        out.append(
            f"{next_id} {clause} 0 {line_hints} 0" if clause else f"{next_id} 0 {line_hints} 0"
        )
        next_id += 1
    out.append(f"{next_id} 0 {' '.join(str(ids[h]) for h in final)} 0")
    return ("\n".join(out) + "\n").encode("ascii")


def _load_formula(ch: _Checker, clauses: list[tuple[int, ...]]) -> int:
    """Add the formula's clauses; the first top-level conflict's clause id, or -1."""
    conflict = -1
    for c in clauses:
        cid = ch.new_clause(c)
        if conflict < 0 and not _tautology(c):
            conflict = ch.activate(cid)
    return conflict


def _forward(
    ch: _Checker,
    steps: list[Step],
    events: list[tuple[int, int, int]],
    result: CheckResult,
    progress: Progress | None = None,
) -> tuple[int, int | None]:
    """Add lemmas (and honour deletions) until top-level propagation conflicts.

    Returns ``(conflicting clause id or -1, index of an empty clause met before any conflict)``.
    """
    for index, s in enumerate(steps):
        if progress is not None and index % PROGRESS_EVERY == 0:
            progress("forward", index, len(steps))
        if s.kind == ADD:
            if not s.lits:
                return -1, index
            cid = ch.new_clause(s.lits)
            ch.pivot[cid] = s.lits[0]
            events.append((ADD, cid, index))
            if _tautology(s.lits):
                continue
            ch.wave = len(ch.trail)
            conflict = ch.activate(cid)
            if conflict >= 0:
                return conflict, None
        else:
            ids = ch.key_to_ids.get(tuple(sorted(set(s.lits))), ())
            live = [i for i in ids if ch.active[i]]
            if not live:
                continue  # deleting an absent clause: ignored (as drat-trim does)
            cid = live[-1]
            if ch.top_reason_pos(cid) >= 0:
                result.ignored_deletions += 1
                continue
            ch.deactivate(cid)
            events.append((DELETE, cid, index))
    return -1, None


def _backward(
    ch: _Checker,
    events: list[tuple[int, int, int]],
    result: CheckResult,
    progress: Progress | None = None,
) -> list[int]:
    """Check the marked lemmas, last first, each against the clauses present when it was added;
    the step indexes of those that fail."""
    failures: list[int] = []
    for position, (kind, cid, index) in enumerate(reversed(events)):
        if progress is not None and position % PROGRESS_EVERY == 0:
            progress("backward", position, len(events))
        if kind == DELETE:
            if ch.activate(cid) >= 0:  # pragma: no cover - see the module docstring
                raise RuntimeError("internal: top-level conflict when restoring a clause")
            continue
        if position == 0:  # the lemma that conflicts: back to the closure before it came
            ch.deactivate(cid)
            ch.truncate_top(ch.wave)
        else:
            pos = ch.top_reason_pos(cid)
            ch.deactivate(cid)
            if pos >= 0:
                ch.truncate_top(pos)
        if not ch.marked[cid]:
            continue
        result.core_lemmas += 1
        result.core_steps.append(index)
        if ch.rup(ch.lits[cid], hints=ch.hints is not None):
            if ch.hints is not None:
                ch.hints[cid] = ch.last_hints
            continue
        if ch.rat(cid):
            result.rat_lemmas += 1
            continue
        failures.append(index)
    return failures


def _fail_at(
    result: CheckResult, kinds: Any, step_at: Callable[[int], Step], index: int, why: str
) -> CheckResult:
    """:func:`_fail` where the steps are arrays (the compiled engine)."""
    return _failed(result, step_at(index), int((kinds[: index + 1] == ADD).sum()), why)


def _fail(result: CheckResult, steps: list[Step], index: int, why: str) -> CheckResult:
    return _failed(result, steps[index], sum(1 for t in steps[: index + 1] if t.kind == ADD), why)


def _failed(result: CheckResult, s: Step, number: int, why: str) -> CheckResult:
    clause = " ".join(str(x) for x in (*s.lits, 0))
    result.valid = False
    result.failed = s
    result.failed_index = number
    result.message = f"lemma {number} (proof line {s.line}) '{clause}' is {why}"
    return result


def _tautology(lits: tuple[int, ...] | list[int]) -> bool:
    return not set(lits).isdisjoint(map(neg, lits))


__all__ = [
    "CheckResult",
    "ProofFormatError",
    "Step",
    "check",
    "check_files",
    "check_parsed",
    "inflation_limit",
    "is_binary",
    "parse_cnf",
    "parse_proof",
    "read_bytes",
]
