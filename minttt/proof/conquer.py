"""Cube and conquer past one machine: the cubes of :mod:`minttt.proof.cubes` refuted on a Dask
cluster (a local one by default, ``--workers N``; a real one by ``--scheduler ADDRESS``), each
cube's proof kept in a checkpoint folder as it arrives, so a run that stops resumes with the cubes
still open.

The formula's clauses are scattered once to every worker (``broadcast``, under a key of the run's
own: two runs on one cluster never share a solver), and each worker loads them into CaDiCaL once
(:class:`~minttt.proof.cubes.CubeSolver`): every cube it gets is solved under assumptions in that
solver, keeping what earlier cubes taught it. A cube's proof segment holds after its solver's
earlier segments, so the checkpoint records each cube's solver (session) and place in it; a
resumed run keeps a session's cubes up to the first one missing.

The checkpoint is a run store (:class:`minttt.store.RunStore`): locked while a run holds it,
each cube's proof file recorded with its SHA-256 and size. Nothing it holds is trusted: its
formula must be the same (SHA-256) and its splits equal, a proof file that does not match its
record is solved again (the run says so), and the joined proof is checked before any certificate
claims it.

>>> from minttt.formula.encode import encode
>>> from minttt.formula.variants import Variant
>>> from minttt.game.graph import build_graph
>>> f = encode(build_graph(), Variant.parse("second-lookup-entries"))
>>> [len(s) for s in lookup_splits(f, 2)]   # O's allowed answers to X's first two openings
[1, 4]
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from minttt.cluster import ClusterLost, DaskCluster, fan_out, scatter
from minttt.errors import DefectError, InputError
from minttt.fileio import inflate
from minttt.formula.arrays import ArrayFormula, Clauses
from minttt.formula.encode import Formula
from minttt.proof.cubes import SOLVER_OPTIONS, Cube, CubeSolver, decision_cubes
from minttt.store import RunStore

STATE = "cubes.json"
#: /4: the CaDiCaL options its cubes were refuted with; /3: each cube's proof file with its
#: SHA-256 and size; /2 (each cube names its solver session and place in it). /2 and /3 are read
#: too (refuted with CaDiCaL's defaults), a /2's files checked by the joined proof's check only
CUBES_FORMAT = "minttt-cubes/4"
READ_FORMATS = ("minttt-cubes/2", "minttt-cubes/3", CUBES_FORMAT)
CUBES_SCHEMA = "cube-checkpoint.schema.json"  # in minttt/schemas/
CUBE_CHECKPOINT = "cube checkpoint"
#: the largest cube proof a checkpoint may hold (bytes, decompressed)
MAX_CUBE_PROOF = 1 << 32


def lookup_splits(formula: Formula | ArrayFormula, depth: int) -> list[list[int]]:
    """The edge literals of the lookup clauses of the first ``depth`` start positions (each
    unit-forced: a table answers there), in move order: the splits of the cubes."""
    if isinstance(formula, ArrayFormula):
        splits = formula.start_splits()
    else:
        if len(formula.parts) != 1 or not formula.parts[0].edges:
            raise InputError(f"{formula.variant.name}: cubes split a lookup formula of one role")
        part = formula.parts[0]
        by_start: dict[int, list[int]] = {s: [] for s in part.starts}
        for (h, _move), var in part.edges.items():
            if h in by_start:
                by_start[h].append(var)
        splits = [by_start[s] for s in part.starts if by_start[s]]
    if not 1 <= depth <= len(splits):
        raise InputError(f"--cubes {depth}: this formula splits on 1 to {len(splits)} starts")
    return splits[:depth]


def _unbroken(cubes: dict[int, CubeRecord]) -> list[int]:
    """The cubes whose segments hold: in each session, those before the first place missing
    (a segment may use every lemma its solver learnt before it)."""
    sessions: dict[str, dict[int, int]] = {}
    for i, r in cubes.items():
        sessions.setdefault(r.session, {})[r.sequence] = i
    kept = []
    for places in sessions.values():
        n = 0
        while n in places:
            kept.append(places[n])
            n += 1
    return kept


def _digest(clauses: Sequence[Sequence[int]] | Clauses) -> str:
    """SHA-256 of the clauses' DIMACS lines (a view's written a chunk at a time: the same bytes)."""
    h = hashlib.sha256()
    if isinstance(clauses, Clauses):
        for block in clauses.dimacs():
            h.update(block)
        return h.hexdigest()
    for c in clauses:
        h.update((" ".join(map(str, c)) + " 0\n").encode())
    return h.hexdigest()


class PackedClauses:
    """Clauses as two int arrays (literals, then each clause's start), the form sent to the
    workers: one object, serialised as two buffers, where a list of lists is millions of
    Python objects (and Dask would scatter each one as a future of its own).

    >>> packed = PackedClauses.pack([[1, -2], [3]])
    >>> packed.clauses()
    [[1, -2], [3]]
    """

    def __init__(self, literals: np.ndarray, starts: np.ndarray) -> None:
        self.literals, self.starts = literals, starts
        self._unpacked: list[list[int]] | None = None
        self._solver: CubeSolver | None = None
        self._lock = threading.Lock()

    @classmethod
    def pack(cls, clauses: Sequence[Sequence[int]] | Clauses) -> PackedClauses:
        """Pack ``clauses`` (lists of nonzero ints; a view straight from its arrays)."""
        if isinstance(clauses, Clauses):
            return cls(*clauses.csr())
        sizes = np.fromiter((len(c) for c in clauses), dtype=np.int64, count=len(clauses))
        starts = np.zeros(len(clauses) + 1, dtype=np.int64)
        np.cumsum(sizes, out=starts[1:])
        literals = np.fromiter(
            (x for c in clauses for x in c), dtype=np.int64, count=int(starts[-1])
        )
        return cls(literals, starts)

    def clauses(self) -> list[list[int]]:
        """The clauses as lists, unpacked once per worker (the scattered object is kept there
        for the run, so every later cube on that worker reuses them)."""
        if self._unpacked is None:
            flat = self.literals.tolist()
            bounds = self.starts.tolist()
            self._unpacked = [flat[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
        return self._unpacked

    def solver(self) -> CubeSolver:
        """The clauses loaded into CaDiCaL, once per worker (the scattered object is kept there
        for the run: every cube the worker gets is solved in this solver)."""
        with self._lock:
            if self._solver is None:
                self._solver = CubeSolver(self.clauses())
                self._unpacked = None  # loaded: the lists are no longer needed
            return self._solver

    def __getstate__(self) -> dict[str, Any]:
        return {"literals": self.literals, "starts": self.starts}  # never the lists or solver

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["literals"], state["starts"])  # type: ignore[misc]


@dataclass(frozen=True)
class RefutedCube:
    """What a worker sends back: the cube's proof segment, xz-compressed on the worker (the
    compression runs in parallel and the transfer is a tenth), its lemma count, seconds (and
    of them loading the clauses: the worker's first cube only), and its solver's session and
    place in it; ``proof_bytes`` is the segment's size uncompressed."""

    proof_xz: bytes
    proof_bytes: int
    lemmas: int
    seconds: float
    load_seconds: float
    session: str
    sequence: int


def refute_packed(
    packed: PackedClauses, cube: Cube, below: Sequence[Sequence[int]] = ()
) -> RefutedCube:
    """Refute ``cube`` in the worker's solver (loaded on its first cube), through its sub-cubes
    of ``below`` if any: what a worker runs."""
    start = time.perf_counter()
    solver = packed.solver()
    load = time.perf_counter() - start  # unpacking and loading, on the worker's first cube
    result = solver.refute(cube, below)
    segment = result.segment  # compressed as it grew (fast xz: a certificate recompresses)
    return RefutedCube(
        segment.xz,
        segment.bytes,
        segment.lemmas,
        result.seconds - result.load_seconds + load,
        load,
        result.session,
        result.sequence,
    )


@dataclass(frozen=True)
class CubeRecord:
    """What the checkpoint keeps of a refuted cube: its proof file's SHA-256 and size
    (uncompressed), its lemma count and seconds, its solver's session and place in it (and the
    sub-cubes it was refuted through)."""

    lemmas: int
    seconds: float
    load_seconds: float
    session: str
    sequence: int
    sha256: str | None = None  # None: a cube of a minttt-cubes/2 checkpoint
    bytes: int | None = None
    sub_depth: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The record as ``cubes.json`` holds it."""
        out = {k: v for k, v in asdict(self).items() if v is not None}
        if not self.sub_depth:
            del out["sub_depth"]
        return out


class Checkpoint:
    """A folder of refuted cubes on a run store: ``cubes.json`` (the formula's SHA-256, the
    splits, the CaDiCaL options its cubes were refuted with, a :class:`CubeRecord` per finished
    cube) and one ``cube-N.drat.xz`` per finished cube. Open it with ``with``: the store's lock
    is held meanwhile."""

    def __init__(
        self, folder: Path, digest: str, splits: list[list[int]], say: Callable[[str], None]
    ) -> None:
        self.folder, self.digest, self.splits, self.say = folder, digest, splits, say
        self.store = RunStore(folder / STATE, CUBES_SCHEMA, what=CUBE_CHECKPOINT)
        self.cubes: dict[int, CubeRecord] = {}
        self.options: dict[str, int] = dict(SOLVER_OPTIONS)  # a resumed one's: what it recorded
        self.resumed = 0  # cubes taken from the checkpoint (their proofs were not made now)

    def __enter__(self) -> Checkpoint:
        self.store.acquire()
        try:
            if self.store.exists():
                self._resume()
        except BaseException:
            self.store.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.store.release()

    def _resume(self) -> None:
        saved = self.store.load()
        where = self.store.state
        if saved["format"] not in READ_FORMATS:
            raise InputError(f"{where}: a {saved['format']} checkpoint; this minttt reads /2 to /4")
        if saved["cnf_sha256"] != self.digest or saved["splits"] != self.splits:
            raise InputError(f"{where}: a checkpoint of another formula or other cubes")
        count = len(decision_cubes(self.splits))
        kept: dict[int, CubeRecord] = {}
        for key, raw in saved["cubes"].items():
            index = int(key)  # the schema allows ASCII digits only
            if index >= count:
                raise InputError(f"{where}: cube {key} is not one of its {count} cubes")
            record = CubeRecord(**raw)
            if self._usable(index, record):
                kept[index] = record
        self.cubes = {i: kept[i] for i in _unbroken(kept)}
        self.resumed = len(self.cubes)
        if self.cubes:  # the rule its segments were made under (CaDiCaL's defaults before /4)
            self.options = dict(saved.get("solver_options", {}))

    def check_options(self) -> None:
        """InputError when cubes are left to refute and the checkpoint's were refuted with other
        CaDiCaL options than this minttt's: one run's segments hold under one rule (with
        :data:`~minttt.proof.cubes.SOLVER_OPTIONS` they keep their deletions, without they do
        not), and its session record names one."""
        if self.options != dict(SOLVER_OPTIONS):
            raise InputError(
                f"{self.store.state}: its cubes were refuted with CaDiCaL options "
                f"{self.options}, this minttt refutes with {dict(SOLVER_OPTIONS)}: finish it "
                "with the minttt that began it, or start a new checkpoint"
            )

    def _usable(self, index: int, record: CubeRecord) -> bool:
        """Whether cube ``index``'s proof file is there and is the one recorded (else it is
        solved again, and the run says why)."""
        name = self.proof_path(index).name
        try:
            self.proof_text(index, record)
        except InputError as exc:
            self.say(f"cube {index}: its proof {name} is solved again ({exc})")
            return False
        return True

    def proof_path(self, index: int) -> Path:
        """Where cube ``index``'s proof is kept."""
        return self.folder / f"cube-{index}.drat.xz"

    def done(self) -> set[int]:
        """The cubes already refuted (their proofs on disk, their session unbroken before them)."""
        return set(self.cubes)

    def order(self) -> list[int]:
        """The refuted cubes in the order their segments are valid: session by session (the one
        holding the lowest cube first), each in the order its solver refuted them. DefectError
        for a session with a place missing (a resumed checkpoint has none: they are re-opened on
        reading; one of this run means its solver refuted a cube of another run)."""
        sessions: dict[str, list[tuple[int, int]]] = {}
        for i, r in self.cubes.items():
            sessions.setdefault(r.session, []).append((r.sequence, i))
        for session, chain in sessions.items():
            places = sorted(place for place, _ in chain)
            if places != list(range(len(places))):
                gap = next(n for n, place in enumerate(places) if place != n)
                raise DefectError(
                    f"solver session {session} has no cube at place {gap}: its later segments "
                    "may use lemmas this run does not hold (another run shared its solver?)"
                )
        chains = sorted(sessions.values(), key=lambda chain: min(i for _, i in chain))
        return [i for chain in chains for _, i in sorted(chain)]

    def record(self, index: int, cube: RefutedCube, sub_depth: int = 0) -> None:
        """Keep a refuted cube (refuted through the sub-cubes of ``sub_depth`` more starts): its
        proof first, then the state naming it with its SHA-256 (both atomic)."""
        digest = self.store.put(self.proof_path(index).name, cube.proof_xz)
        self.cubes[index] = CubeRecord(
            lemmas=cube.lemmas,
            seconds=round(cube.seconds, 2),
            load_seconds=round(cube.load_seconds, 2),
            session=cube.session,
            sequence=cube.sequence,
            sha256=digest,
            bytes=cube.proof_bytes,
            sub_depth=sub_depth,
        )
        self.store.save(
            {
                "format": CUBES_FORMAT,
                "cnf_sha256": self.digest,
                "splits": self.splits,
                "solver_options": self.options,
                "cubes": {str(i): r.to_dict() for i, r in sorted(self.cubes.items())},
            }
        )

    def proof(self, index: int) -> bytes:
        """Cube ``index``'s DRAT proof text (checked against its record; see
        :meth:`proof_text`)."""
        return self.proof_text(index, self.cubes[index])

    def proof_text(self, index: int, record: CubeRecord) -> bytes:
        """Cube ``index``'s proof file read back: its SHA-256 and size as recorded (a /2 record
        has neither: bounded by :data:`MAX_CUBE_PROOF`), ASCII DRAT text whose lines each end
        in a newline (InputError naming the file otherwise). The file itself may be as large as
        :data:`MAX_CUBE_PROOF` (a hard cube's: 3x4 O's cube 75 is 482 MB of xz)."""
        name = self.proof_path(index).name
        where = self.proof_path(index)
        size = record.bytes if record.bytes is not None else MAX_CUBE_PROOF
        if record.bytes is None or record.sha256 is None:
            raw = self.store.read(name, None, max_bytes=MAX_CUBE_PROOF)
            data = inflate(raw, size, where=str(where))
        else:
            data = self.store.read_xz(name, record.sha256, size, max_bytes=MAX_CUBE_PROOF)
        if not data.isascii():
            raise InputError(f"{where}: not a DRAT text proof")
        if data and not data.endswith(b"\n"):
            raise InputError(f"{where}: its last line has no newline (a truncated segment?)")
        return data


def conquer(
    clauses: Sequence[Sequence[int]] | Clauses,
    splits: list[list[int]],
    checkpoint: Path,
    *,
    workers: int = 2,
    scheduler: str | None = None,
    on_cube: Callable[[int, int, float], None] | None = None,
    below: Sequence[Sequence[int]] = (),
    say: Callable[[str], None] = print,
) -> tuple[list[bytes], dict[str, Any]]:
    """Refute every cube of ``splits`` on a Dask cluster; ``(segments in the order they hold,
    figures)``, for :func:`~minttt.proof.cubes.join` (each segment its text: bytes).

    Cubes already in ``checkpoint`` are not solved again (``figures["from_checkpoint"]`` counts
    them: their segments were not made by this run). ``on_cube(done, total, seconds)`` is called
    as each cube arrives. With ``below`` (the next starts' splits) a worker refutes each cube
    through its sub-cubes (:meth:`~minttt.proof.cubes.CubeSolver.refute`); the checkpoint keeps
    cubes, whatever split they were refuted through. A satisfiable cube raises DefectError (the
    bound holds a table). ``say`` hears why a cube of the checkpoint is solved again.
    """
    checkpoint.mkdir(parents=True, exist_ok=True)
    cubes = decision_cubes(splits)
    start = time.perf_counter()
    with Checkpoint(checkpoint, _digest(clauses), splits, say) as ckpt:
        todo = [i for i in range(len(cubes)) if i not in ckpt.done()]
        if todo:
            ckpt.check_options()
            with DaskCluster(workers, scheduler) as client:
                data = scatter(client, PackedClauses.pack(clauses))
                below = [list(s) for s in below]
                tasks = {i: (data, cubes[i], below) for i in todo}
                done = [len(cubes) - len(todo)]

                def arrived(index: int, result: RefutedCube) -> None:
                    ckpt.record(index, result, len(below))
                    done[0] += 1
                    if on_cube is not None:
                        on_cube(done[0], len(cubes), result.seconds)

                try:
                    fan_out(client, refute_packed, tasks, arrived)
                except ClusterLost as exc:
                    kept = f"{done[0]} of {len(cubes)} cubes are in {checkpoint}"
                    raise ClusterLost(f"{exc}; {kept}: run the same command to go on") from None
        records = [ckpt.cubes[i] for i in range(len(cubes))]
        figures = {
            "cubes": len(cubes),
            "solved_this_run": len(todo),
            "from_checkpoint": ckpt.resumed,
            "wall_seconds": round(time.perf_counter() - start, 1),
            "cube_seconds": [r.seconds for r in records],
            "sessions": len({r.session for r in records}),
            "load_seconds": round(sum(r.load_seconds for r in records), 2),
            "through_sub_cubes": sum(1 for r in records if r.sub_depth),
            "solver_options": dict(ckpt.options),
        }
        segments = [ckpt.proof(i) for i in ckpt.order()]
        figures["session_log"] = session_log(ckpt, segments)
        return segments, figures


def session_log(ckpt: Checkpoint, segments: list[bytes]) -> list[list[list[Any]]]:
    """Each solver session of a finished run, in the order its segments (their texts) hold: per
    cube, in the order its solver refuted them, ``[cube, sub_depth, SHA-256 of its segment's
    text]`` (what replaying the session must give again, :mod:`minttt.proof.audit`)."""
    log: dict[str, list[list[Any]]] = {}
    for index, text in zip(ckpt.order(), segments, strict=True):
        record = ckpt.cubes[index]
        log.setdefault(record.session, []).append(
            [index, record.sub_depth, hashlib.sha256(text).hexdigest()]
        )
    return list(log.values())


__all__ = [
    "session_log",
    "CUBES_FORMAT",
    "Checkpoint",
    "CubeRecord",
    "PackedClauses",
    "RefutedCube",
    "conquer",
    "lookup_splits",
    "refute_packed",
]
