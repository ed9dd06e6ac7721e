"""Cube and conquer past one machine: the cubes of :mod:`minttt.proof.cubes` refuted on a Dask
cluster (a local one by default, ``--workers N``; a real one by ``--scheduler ADDRESS``), each
cube's proof kept in a checkpoint folder as it arrives, so a run that stops resumes with the cubes
still open.

The formula's clauses are scattered once to every worker (``broadcast``), and each worker loads
them into CaDiCaL once (:class:`~minttt.proof.cubes.CubeSolver`): every cube it gets is solved
under assumptions in that solver, keeping what earlier cubes taught it. A cube's proof segment
holds after its solver's earlier segments, so the checkpoint records each cube's solver
(session) and place in it; a resumed run keeps a session's cubes up to the first one missing.
Nothing a checkpoint holds is trusted: its formula must be the same (SHA-256) and its splits
equal, and the joined proof is checked before any certificate claims it.

>>> from minttt.formula.encode import encode
>>> from minttt.formula.variants import Variant
>>> from minttt.game.graph import build_graph
>>> f = encode(build_graph(), Variant.parse("second-lookup-entries"))
>>> [len(s) for s in lookup_splits(f, 2)]   # O's allowed answers to X's first two openings
[1, 4]
"""

from __future__ import annotations

import hashlib
import json
import lzma
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from minttt.cluster import DaskCluster
from minttt.errors import InputError
from minttt.fileio import write_bytes_atomic, write_json_atomic
from minttt.formula.arrays import ArrayFormula
from minttt.formula.encode import Formula
from minttt.proof.cubes import Cube, CubeSolver, decision_cubes

if TYPE_CHECKING:
    from distributed import Client

STATE = "cubes.json"
FORMAT = "minttt-cubes/2"  # /2: each cube names its solver session and place in it
CHECKPOINT_XZ = 1  # a cube's proof in the checkpoint: fast xz (the certificate recompresses)


def lookup_splits(formula: Formula | ArrayFormula, depth: int) -> list[list[int]]:
    """The edge literals of the lookup clauses of the first ``depth`` start positions (each
    unit-forced: a table answers there), in move order: the splits of the cubes."""
    if isinstance(formula, ArrayFormula):
        heads = formula.long_lits[formula.long_ptr[:-1]]
        units = {int(u) for u in formula.units}
        splits = []
        for i, head in enumerate(heads.tolist()):
            if -head in units:
                a, b = int(formula.long_ptr[i]) + 1, int(formula.long_ptr[i + 1])
                splits.append([int(x) for x in formula.long_lits[a:b]])
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


def _unbroken(cubes: dict[str, dict[str, Any]]) -> list[str]:
    """The cubes whose segments hold: in each session, those before the first place missing
    (a segment may use every lemma its solver learnt before it)."""
    sessions: dict[str, dict[int, str]] = {}
    for i, r in cubes.items():
        sessions.setdefault(r["session"], {})[r["sequence"]] = i
    kept = []
    for places in sessions.values():
        n = 0
        while n in places:
            kept.append(places[n])
            n += 1
    return kept


def _digest(clauses: Sequence[Sequence[int]]) -> str:
    h = hashlib.sha256()
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
    def pack(cls, clauses: Sequence[Sequence[int]]) -> PackedClauses:
        """Pack ``clauses`` (lists of nonzero ints)."""
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
    place in it."""

    proof_xz: bytes
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
    text = ("\n".join(result.proof) + "\n").encode("ascii")
    lemmas = sum(1 for line in result.proof if line and not line.startswith("d "))
    return RefutedCube(
        lzma.compress(text, preset=CHECKPOINT_XZ),
        lemmas,
        result.seconds - result.load_seconds + load,
        load,
        result.session,
        result.sequence,
    )


class Checkpoint:
    """A folder of refuted cubes: ``cubes.json`` (the formula's SHA-256, the splits, what each
    finished cube took and which solver session refuted it, at which place) and one
    ``cube-N.drat.xz`` per finished cube."""

    def __init__(self, folder: Path, digest: str, splits: list[list[int]]) -> None:
        self.folder, self.digest, self.splits = folder, digest, splits
        self.state: dict[str, Any] = {
            "format": FORMAT,
            "cnf_sha256": digest,
            "splits": splits,
            "cubes": {},
        }
        path = folder / STATE
        if path.exists():
            self._resume(path)

    def _resume(self, path: Path) -> None:
        try:
            saved = json.loads(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"{path}: not a readable cube checkpoint ({exc})") from None
        if not isinstance(saved, dict) or saved.get("format") != FORMAT:
            raise InputError(f"{path}: not a {FORMAT} checkpoint")
        if saved.get("cnf_sha256") != self.digest or saved.get("splits") != self.splits:
            raise InputError(f"{path}: a checkpoint of another formula or other cubes")
        done = saved.get("cubes", {})
        if not isinstance(done, dict):
            raise InputError(f"{path}: its cubes are not a mapping")
        count = len(decision_cubes(self.splits))
        on_disk = {
            i: r
            for i, r in done.items()
            if str(i).isdigit()
            and int(i) < count
            and isinstance(r, dict)
            and isinstance(r.get("session"), str)
            and isinstance(r.get("sequence"), int)
            and self.proof_path(int(i)).is_file()
        }
        self.state["cubes"] = {i: on_disk[i] for i in _unbroken(on_disk)}

    def proof_path(self, index: int) -> Path:
        """Where cube ``index``'s proof is kept."""
        return self.folder / f"cube-{index}.drat.xz"

    def done(self) -> set[int]:
        """The cubes already refuted (their proofs on disk, their session unbroken before them)."""
        return {int(i) for i in self.state["cubes"]}

    def order(self) -> list[int]:
        """The refuted cubes in the order their segments are valid: session by session (the one
        holding the lowest cube first), each in the order its solver refuted them."""
        sessions: dict[str, list[tuple[int, int]]] = {}
        for i, r in self.state["cubes"].items():
            sessions.setdefault(r["session"], []).append((r["sequence"], int(i)))
        chains = sorted(sessions.values(), key=lambda chain: min(i for _, i in chain))
        return [i for chain in chains for _, i in sorted(chain)]

    def record(self, index: int, cube: RefutedCube, sub_depth: int = 0) -> None:
        """Keep a refuted cube (refuted through the sub-cubes of ``sub_depth`` more starts): its
        proof first, then the state naming it (both atomic)."""
        write_bytes_atomic(self.proof_path(index), cube.proof_xz)
        self.state["cubes"][str(index)] = {
            "lemmas": cube.lemmas,
            "seconds": round(cube.seconds, 2),
            "load_seconds": round(cube.load_seconds, 2),
            "session": cube.session,
            "sequence": cube.sequence,
            **({"sub_depth": sub_depth} if sub_depth else {}),
        }
        write_json_atomic(self.folder / STATE, self.state)

    def proof(self, index: int) -> list[str]:
        """Cube ``index``'s DRAT proof, as text lines."""
        return lzma.decompress(self.proof_path(index).read_bytes()).decode("ascii").splitlines()


def conquer(
    clauses: Sequence[Sequence[int]],
    splits: list[list[int]],
    checkpoint: Path,
    *,
    workers: int = 2,
    scheduler: str | None = None,
    on_cube: Callable[[int, int, float], None] | None = None,
    below: Sequence[Sequence[int]] = (),
) -> tuple[list[list[str]], dict[str, Any]]:
    """Refute every cube of ``splits`` on a Dask cluster; ``(segments in the order they hold,
    figures)``, for :func:`~minttt.proof.cubes.join`.

    Cubes already in ``checkpoint`` are not solved again. ``on_cube(done, total, seconds)`` is
    called as each cube arrives. With ``below`` (the next starts' splits) a worker refutes each
    cube through its sub-cubes (:meth:`~minttt.proof.cubes.CubeSolver.refute`); the checkpoint
    keeps cubes, whatever split they were refuted through. A satisfiable cube raises DefectError
    (the bound holds a table).
    """
    checkpoint.mkdir(parents=True, exist_ok=True)
    cubes = decision_cubes(splits)
    ckpt = Checkpoint(checkpoint, _digest(clauses), splits)
    todo = [i for i in range(len(cubes)) if i not in ckpt.done()]
    start = time.perf_counter()
    if todo:
        with DaskCluster(workers, scheduler) as client:
            _run(client, clauses, cubes, todo, ckpt, on_cube, below)
    records = [ckpt.state["cubes"][str(i)] for i in range(len(cubes))]
    figures = {
        "cubes": len(cubes),
        "solved_this_run": len(todo),
        "wall_seconds": round(time.perf_counter() - start, 1),
        "cube_seconds": [r["seconds"] for r in records],
        "sessions": len({r["session"] for r in records}),
        "load_seconds": round(sum(r["load_seconds"] for r in records), 2),
        "through_sub_cubes": sum(1 for r in records if r.get("sub_depth")),
    }
    return [ckpt.proof(i) for i in ckpt.order()], figures


def _run(
    client: Client,
    clauses: Sequence[Sequence[int]],
    cubes: list[Cube],
    todo: list[int],
    ckpt: Checkpoint,
    on_cube: Callable[[int, int, float], None] | None,
    below: Sequence[Sequence[int]] = (),
) -> None:
    from distributed import as_completed

    # one object sent to every worker once (a list would be scattered element by element)
    data = client.scatter(PackedClauses.pack(clauses), broadcast=True)
    below = [list(s) for s in below]
    futures = {client.submit(refute_packed, data, cubes[i], below, pure=False): i for i in todo}
    done = len(cubes) - len(todo)
    try:
        for future in as_completed(futures):
            result = future.result()  # a worker's DefectError is raised here
            ckpt.record(futures[future], result, len(below))
            done += 1
            if on_cube is not None:
                on_cube(done, len(cubes), result.seconds)
    finally:
        client.cancel(list(futures))


__all__ = [
    "Checkpoint",
    "PackedClauses",
    "RefutedCube",
    "conquer",
    "lookup_splits",
    "refute_packed",
]
