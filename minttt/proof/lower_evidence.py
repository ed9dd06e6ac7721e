"""What a lower-bound record's shipped files say, read cheaply: the bound a record may claim is
the one its evidence states, never its ``lower`` field (:func:`minttt.proof.lower.load_lower`).

* a cores record's bound is its cores file's: the number of bounded literals (relaxed cores,
  each a core's literal or its totalizer's first output, the literals of the CNF's last clause)
  or of groups (disjoint cores); each core's size follows from the file too (a totalizer made
  over a core stands for it), and the file must be consistent in itself (:func:`cores_summary`);
* a shipped CNF states its bound and variant in its first comment lines (:func:`cnf_claim`);
* a proof's text must be at least as long as the lines it must hold: every core's clause, then
  every group's or totalizer root's unit, then the empty clause (the summary's
  ``proof_floor``), its size read from the xz file's own index (:func:`xz_text_size`) without
  decompressing it.

None of this checks a proof: ``minttt recheck`` makes a record's CNF again and checks its proof.
A cores file's summary is a function of its bytes alone (and the record's variable count), so it
is kept by the SHA-256 of those bytes, in this process and, for a file of
:data:`KEEP_BYTES` or more, in the user's cache folder (:func:`minttt.assets.cache_folder`,
``lower-evidence/``): the 347 cores files of ``proofs/mnk`` (110 MB of xz, 420 MB of JSON) are
decompressed and read once per machine, not on every ``reproduce``. A file of other bytes has
another SHA-256, so a changed file is read again.

>>> import json
>>> text = json.dumps({"log": [["new", 2, 1, 2]], "bounded": [5, 4]}).encode()
>>> cores_summary(text, "relaxed cores", 6)
{'lower': 2, 'core_sizes': [2, 1], 'proof_floor': 16}
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import lzma
import re
import zlib
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from minttt.errors import InputError

#: a cores file of this many bytes (xz) or more has its summary kept on disk too
KEEP_BYTES = 64 << 10
#: the version of :func:`cores_summary`'s output (a summary kept by another is read again)
SUMMARY_VERSION = 1
#: decompressed bytes of a file's head read for its first lines
HEAD_BYTES = 4096
#: the file suffix of each method's certificates (before ``.cnf.xz``, ``.drat.xz``, ``.json.xz``)
METHOD_SUFFIX = {"cardinality": "", "disjoint cores": ".cores", "relaxed cores": ".relaxed"}
#: the extension of each record field's file
FIELD_EXT = {"cnf": "cnf", "proof": "drat", "cores": "json"}

_KEPT: dict[str, dict[str, Any]] = {}


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """An xz multibyte integer at ``pos``: its value and the position after it."""
    value = shift = 0
    for _ in range(9):
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos
    raise ValueError("an xz integer of more than 9 bytes")


def _stream_size(raw: bytes, end: int) -> tuple[int, int]:
    """The uncompressed size the index of the xz stream ending at ``end`` states, and where
    that stream begins (ValueError where its footer, index or header is not one)."""
    footer = raw[end - 12 : end]
    if end < 24 or footer[10:] != b"YZ":
        raise ValueError("no xz stream footer")
    if zlib.crc32(footer[4:10]) != int.from_bytes(footer[:4], "little"):
        raise ValueError("an xz stream footer's CRC32 is wrong")
    begin = end - 12 - (int.from_bytes(footer[4:8], "little") + 1) * 4
    index = raw[max(begin, 0) : end - 12]
    if (
        begin < 12
        or index[0] != 0
        or zlib.crc32(index[:-4]) != int.from_bytes(index[-4:], "little")
    ):
        raise ValueError("an xz index is not one")
    count, pos = _varint(index, 1)
    size = blocks = 0
    for _ in range(count):
        unpadded, pos = _varint(index, pos)
        text, pos = _varint(index, pos)
        size += text
        blocks += -(-unpadded // 4) * 4
    start = begin - blocks - 12
    if start < 0 or raw[start : start + 6] != b"\xfd7zXZ\x00":
        raise ValueError("an xz stream header is not where its index says")
    return size, start


def xz_text_size(raw: bytes) -> int | None:
    """The uncompressed size an xz file's indexes state (every stream's), read from its end
    without decompressing anything; ``None`` for bytes that are not an xz file so laid out.
    (A file whose index lies is refused by any decompressor: ``minttt recheck``.)

    >>> xz_text_size(lzma.compress(b"1 2 0\\n" * 1000)), xz_text_size(b"0\\n")
    (6000, None)
    """
    end, total = len(raw), 0
    try:
        while end > 0:
            while end >= 4 and raw[end - 4 : end] == b"\0\0\0\0":  # stream padding
                end -= 4
            size, end = _stream_size(raw, end)
            total += size
    except (ValueError, IndexError):
        return None
    return total


def head_text(raw: bytes, size: int = HEAD_BYTES) -> tuple[bytes, bool]:
    """The first ``size`` bytes (at most) an xz file decompresses to, and whether that is all
    of it; InputError for bytes that are not xz."""
    engine = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    try:
        head = engine.decompress(raw, size)
    except lzma.LZMAError as exc:
        raise InputError(f"not a readable xz file ({exc})") from None
    return head, engine.eof


def expected_name(record: dict[str, Any], field: str, lower: int) -> str:
    """The file name a record of ``lower`` gives its ``field`` (``cnf``, ``proof``, ``cores``):
    the variant, bound and depths (:func:`minttt.proof.lower.lower_stem`) and the method."""
    from minttt.formula.variants import Variant
    from minttt.proof.certify import file_stem

    depths = record["depths"]
    where = "" if depths is None else ".depths-" + "-".join(map(str, depths))
    stem = f"{file_stem(Variant.parse(str(record['variant'])))}.lower-{lower}{where}"
    suffix = METHOD_SUFFIX[record.get("method", "cardinality")]
    return f"{stem}{suffix}.{FIELD_EXT[field]}.xz"


_CLAIM = re.compile(
    rb"^c minttt lower-bound formula[^\n]*? has at least (\d+) entries \(lookups\) ([^\n]*)\n"
)
_VARIANT = re.compile(rb"\nc variant: (\S+) \(")


def cnf_claim(head: bytes) -> tuple[int, str, str]:
    """The bound, the depths (``in all``, ``at depths 0,2,..``) and the variant a lower-bound
    CNF's first comment lines state (:mod:`minttt.proof.cnf`); InputError when they are not
    there."""
    claim, variant = _CLAIM.match(head), _VARIANT.search(head)
    if claim is None or variant is None:
        raise InputError("its first lines do not state a lower bound and a variant")
    return int(claim[1]), claim[2].decode("ascii", "replace"), variant[1].decode("ascii", "replace")


def depths_words(depths: list[int] | None) -> str:
    """How a lower-bound CNF's first line names ``depths``."""
    return "in all" if depths is None else "at depths " + ",".join(map(str, depths))


def _ints(values: Any, what: str) -> np.ndarray:
    """``values`` (a list from JSON of no ``true``, ``false``, ``null`` or fractions: see
    :func:`cores_summary`) as an array of positive literals (InputError otherwise)."""
    try:
        if not isinstance(values, list):
            raise TypeError(what)
        arr = np.fromiter(values, dtype=np.int64, count=len(values))
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{what} is not a list of positive literals") from None
    if not (arr > 0).all():
        raise InputError(f"{what} is not a list of positive literals")
    return arr


_POWERS = 10 ** np.arange(19, dtype=np.int64)


def _line_bytes(cores: list[np.ndarray]) -> int:
    """The bytes of the DRAT lines of the clauses ``cores`` (``1 2 0`` and a newline): each
    literal's digits and a space, then ``0`` and the newline."""
    if not cores:
        return 0
    every = np.concatenate(cores)
    digits = int(np.searchsorted(_POWERS, every, side="right").sum())
    return digits + len(every) + 2 * len(cores)


def _distinct(arr: np.ndarray) -> bool:
    """Whether the literals ``arr`` are distinct."""
    ordered = np.sort(arr)
    return bool((ordered[1:] != ordered[:-1]).all())


@lru_cache(maxsize=4096)
def _inner_sizes(size: int) -> tuple[tuple[int, int], ...]:
    """``(size, count)`` of the inner nodes of the balanced tree over ``size`` inputs (the left
    half first, as :mod:`minttt.proof.totalizer` builds it): a few distinct sizes per level."""
    if size < 2:
        return ()
    counts = Counter({size: 1})
    for half in (size // 2, size - size // 2):
        for inner, n in _inner_sizes(half):
            counts[inner] += n
    return tuple(sorted(counts.items()))


def _made(size: int, before: int, after: int) -> int:
    """The variables a totalizer over ``size`` inputs takes growing from bound ``before`` to
    ``after``: every inner node of ``s`` inputs has ``min(bound, s)`` outputs."""
    return sum(n * (min(after, s) - min(before, s)) for s, n in _inner_sizes(size))


def _op(op: Any, made: int) -> tuple[str, int, int]:
    """An operation of a totalizers' log checked (InputError otherwise; ``made``: totalizers so
    far): ``("new", bound, 0)`` or ``("grow", bound, index)``."""
    ints = isinstance(op, list) and len(op) >= 3 and all(isinstance(x, int) for x in op[1:3])
    if ints and op[0] == "new" and len(op) >= 4 and op[1] >= 1:
        return "new", op[1], 0
    if ints and op[0] == "grow" and len(op) == 3 and 0 <= op[1] < made and op[2] >= 1:
        return "grow", op[2], op[1]
    raise InputError(f"not a totalizer operation: {str(op)[:40]}")


def _roots(log: list[Any], top: int) -> tuple[list[list[int]], int]:
    """Each totalizer's root outputs, numbered from ``top + 1`` on as
    :class:`minttt.proof.totalizer.Totalizers` numbers them (its trees not built, its clauses
    not made: a tree grown to bound ``b`` has ``min(b, s)`` outputs at each inner node of ``s``
    inputs, made children first, so the root's come last), and the last variable; InputError
    on an operation that is not one."""
    roots: list[list[int]] = []
    sizes: list[int] = []
    bounds: list[int] = []
    for op in log:
        kind, bound, index = _op(op, len(roots))
        if kind == "new":
            roots.append([])
            sizes.append(len(op) - 2)
            bounds.append(0)
            index = len(roots) - 1
        size, before = sizes[index], bounds[index]
        if min(bound, size) <= min(before, size):
            continue
        top += _made(size, before, bound)
        grown = min(bound, size) - min(before, size)
        roots[index] += range(top - grown + 1, top + 1)
        bounds[index] = bound
    return roots, top


def _relaxed(doc: Any, variables: int) -> dict[str, Any]:
    """:func:`cores_summary` of a relaxed-cores file (``{"log": .., "bounded": ..}``)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        raise InputError("not a relaxed cores file (no log)")
    log, bounded = doc["log"], _ints(doc.get("bounded"), "its bounded literals")
    _, last = _roots(log, 0)
    top = variables - last  # the totalizers' variables are the CNF's last ones
    if top < 1:
        raise InputError(f"its totalizers take {last} variables of the {variables} recorded")
    roots, _ = _roots(log, top)
    made = [_ints(op[2:], "a totalizer's inputs") for op in log if op[0] == "new"]
    inputs = np.concatenate(made) if made else np.zeros(0, dtype=np.int64)
    outputs = np.fromiter((x for r in roots for x in r), dtype=np.int64)
    if not _distinct(inputs) or not np.isin(inputs[inputs > top], outputs).all():
        raise InputError("a totalizer's inputs are not positions or roots, once each")
    if not _distinct(bounded) or np.isin(bounded, inputs).any():
        raise InputError("its bounded literals are not distinct literals input to no totalizer")
    if not np.isin(bounded[bounded > top], outputs).all():
        raise InputError("a bounded literal is neither a position nor a totalizer's output")
    over = {r[0]: core for r, core in zip(roots, made, strict=True)}
    firsts = [int(b) for b in bounded if int(b) in over]
    cores = [over.get(int(b), bounded[i : i + 1]) for i, b in enumerate(bounded)]
    units = [np.asarray([b], dtype=np.int64) for b in firsts]  # each root's "g 0"
    floor = _line_bytes(cores) + _line_bytes(units) + 2
    return {"lower": len(cores), "core_sizes": [len(c) for c in cores], "proof_floor": floor}


def _disjoint(doc: Any) -> dict[str, Any]:
    """:func:`cores_summary` of a disjoint-cores file (a list of groups of positions)."""
    if not isinstance(doc, list) or not doc:
        raise InputError("not a disjoint cores file (no list of cores)")
    cores = [_ints(c, "a core") for c in doc]
    every = np.concatenate(cores)
    if min(map(len, cores)) < 1 or not _distinct(every):
        raise InputError("its cores are not non-empty, disjoint sets of positions")
    group = len(str(int(every.max()))) + 3  # a group's unit "g 0": g above every position
    floor = _line_bytes(cores) + group * len(cores) + 2
    return {"lower": len(cores), "core_sizes": [len(c) for c in cores], "proof_floor": floor}


def _only_ints(text: bytes) -> bool:
    """Whether a cores file's JSON ``text`` holds no ``true``, ``false``, ``null`` or fraction
    (which ``_ints`` would read as numbers): no ``e`` but its keys' and ``"new"``'s."""
    if any(word in text for word in (b"true", b"false", b"null", b".", b"E")):
        return False
    return text.count(b"e") == text.count(b'"new"') + text.count(b'"bounded"')


def cores_summary(text: bytes, method: str, variables: int) -> dict[str, Any]:
    """What a cores file's ``text`` says, checked for consistency (InputError, one line): the
    bound (``lower``: its bounded literals or groups), each core's size, and the fewest bytes a
    proof of its CNF holds (``proof_floor``: each core's clause, each group's or totalizer
    root's unit, the empty clause; ``variables``: the record's, the CNF's last variable)."""
    if not _only_ints(text):
        raise InputError("holds a value that is not a literal (true, false, null, a fraction)")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InputError(f"not JSON ({str(exc)[:60]})") from None
    return _relaxed(doc, variables) if method == "relaxed cores" else _disjoint(doc)


def _kept_path(key: str) -> Path | None:
    """The cache file of a summary's ``key``; None where there is no cache folder."""
    try:
        from minttt.assets import cache_folder

        return (
            cache_folder() / "lower-evidence" / f"{hashlib.sha256(key.encode()).hexdigest()}.json"
        )
    except (ImportError, OSError, RuntimeError):
        return None


def kept_summary(
    raw: bytes,
    digest: str,
    text_of: Callable[[], bytes],
    method: str,
    variables: int,
    *,
    fresh: bool = False,
) -> dict[str, Any]:
    """:func:`cores_summary` of the cores file of bytes ``raw`` (xz, of SHA-256 ``digest``;
    ``text_of()`` its text, read only when no summary of these bytes is kept, or with
    ``fresh``), kept as the module docstring says."""
    key = f"{SUMMARY_VERSION}:{method}:{variables}:{digest}"
    if key in _KEPT and not fresh:
        return _KEPT[key]
    path = _kept_path(key) if len(raw) >= KEEP_BYTES else None
    summary = None if fresh else _read_kept(path, key)
    if summary is None:
        summary = cores_summary(text_of(), method, variables)
        if path is not None:
            _write_kept(path, key, summary)
    _KEPT[key] = summary
    return summary


def _read_kept(path: Path | None, key: str) -> dict[str, Any] | None:
    """The summary kept at ``path`` for ``key``, if any and of the right shape."""
    if path is None or not path.is_file():
        return None
    try:
        doc = json.loads(path.read_bytes())
        summary = doc["summary"]
        ok = doc["key"] == key and isinstance(summary["lower"], int)
        ok = ok and isinstance(summary["proof_floor"], int)
        return summary if ok and isinstance(summary["core_sizes"], list) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_kept(path: Path, key: str, summary: dict[str, Any]) -> None:
    """Keep ``summary`` at ``path`` (atomically); a cache folder that cannot be written is
    only slower next time."""
    from minttt.fileio import write_json_atomic

    with contextlib.suppress(OSError, InputError):
        write_json_atomic(path, {"key": key, "summary": summary})


__all__ = [
    "cnf_claim",
    "cores_summary",
    "depths_words",
    "expected_name",
    "head_text",
    "kept_summary",
    "xz_text_size",
]
