"""Re-derive part of a cube-and-conquer certificate and compare: anyone can check that the proof
a certificate records is the one its solver sessions make.

A cube-and-conquer certificate ships a session record (``<stem>.sessions.json``,
:func:`minttt.proof.certify.sessions_document`): the formula's SHA-256, the split, the solver and
its settings, and each solver session's cubes in the order it refuted them with the SHA-256 of
each segment. :func:`audit` rebuilds the formula (it must have the recorded SHA-256), replays
sessions chosen at random (each: CaDiCaL loaded with the formula once, refuting the session's
cubes in order, as the worker did; a prefix of them with ``prefix``), compares every segment
with its recorded SHA-256, and checks what it replayed: the formula with the last replayed cube
as unit clauses is refuted by the session's segments (:mod:`minttt.drat`; or, when given,
drat-trim with its LRAT checked by :mod:`minttt.lrat`). A replayed segment equal to the recorded one
is a segment of the joined proof the certificate's check verified.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minttt.errors import DefectError, InputError
from minttt.fileio import parse_json, read_regular
from minttt.formula.arrays import Clauses
from minttt.formula.instance import instance_for
from minttt.formula.variants import Variant
from minttt.proof import drat
from minttt.proof.cnf import certificate_cnf
from minttt.proof.conquer import lookup_splits
from minttt.proof.cubes import SOLVER_OPTIONS, CubeSolver, decision_cubes
from minttt.proof.drat_trim import DRAT_TRIM_LIMIT, drat_trim_check
from minttt.proof.index import INDEX, MAX_SESSIONS, SESSIONS_FORMAT, check_record, load_index

#: the solver settings a session record may name, each replayed as it was made: CaDiCaL's
#: defaults (segments without deletions: certificates made before /4 checkpoints) and
#: :data:`~minttt.proof.cubes.SOLVER_OPTIONS` (nothing set aside, deletions kept)
REPLAYABLE_OPTIONS: tuple[dict[str, int], ...] = ({}, dict(SOLVER_OPTIONS))


@dataclass
class SessionAudit:
    """One session replayed: its place in the record, the cubes replayed (of how many), and
    how many segments matched their recorded SHA-256."""

    session: int
    replayed: int
    cubes: int
    matched: int
    seconds: float


@dataclass
class Audit:
    """What :func:`audit` did: the sessions replayed (a sample unless every session was
    replayed whole), whether every replayed segment matched and the replay's refutation
    checked (``valid``), and by what."""

    variant: str
    sessions: int
    replayed: list[SessionAudit] = field(default_factory=list)
    checked_by: list[str] = field(default_factory=list)
    seed: int = 0

    @property
    def whole(self) -> bool:
        """Every session replayed, every cube of each."""
        return len(self.replayed) == self.sessions and all(
            s.replayed == s.cubes for s in self.replayed
        )

    @property
    def valid(self) -> bool:
        """Every replayed segment is the recorded one."""
        return all(s.matched == s.replayed for s in self.replayed)

    def to_dict(self) -> dict[str, Any]:
        """The audit as ``second-check.json`` records it (a full re-check or a sample)."""
        return {
            "kind": "full replay" if self.whole else "sample",
            "seed": self.seed,
            "sessions": self.sessions,
            "replayed": [
                {"session": s.session, "cubes": s.replayed, "of": s.cubes, "matched": s.matched}
                for s in self.replayed
            ],
            "checked_by": self.checked_by,
            "valid": self.valid,
        }


def load_sessions(folder: Path, record: dict[str, Any]) -> dict[str, Any]:
    """The session record a certificate names, checked against its SHA-256 (InputError)."""
    name = record.get("sessions")
    if name is None:
        raise InputError(
            f"{folder / INDEX}, {record['variant']}: no session record (not a cube-and-conquer "
            "certificate, or one made before minttt recorded its sessions)"
        )
    data = read_regular(folder / str(name), max_bytes=MAX_SESSIONS)
    if hashlib.sha256(data).hexdigest() != record.get("sessions_sha256"):
        raise InputError(f"{folder / str(name)}: not the file the certificate records")
    doc = parse_json(data, where=str(folder / str(name)), what="session record")
    if not isinstance(doc, dict) or doc.get("format") != SESSIONS_FORMAT:
        raise InputError(f"{folder / str(name)}: not a {SESSIONS_FORMAT} record")
    if doc.get("solver_options") not in REPLAYABLE_OPTIONS:
        raise InputError(
            f"{folder / str(name)}: made with solver options {doc.get('solver_options')!r}, "
            f"this minttt replays {' or '.join(map(repr, REPLAYABLE_OPTIONS))}"
        )
    return doc


def audit(
    variant: Variant,
    folder: Path,
    *,
    sessions: int = 1,
    seed: int = 0,
    prefix: int | None = None,
    drat_trim: Path | None = None,
    say: Callable[[str], None] = print,
    deadline: float | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> Audit:
    """Replay ``sessions`` sessions of ``variant``'s certificate in ``folder`` chosen at random
    (``seed``; the first ``prefix`` cubes of each when given), compare every segment, and check
    the replay (see the module docstring). DefectError when a segment differs or the check
    fails; InputError for a certificate that cannot be audited, and for one not audited by
    ``deadline`` (``time.perf_counter()``; looked at between solver slices, cubes and steps:
    the audit stops, and claims nothing). ``progress(what, done, total)`` is told each step,
    and each cube replayed (``done`` of ``total``)."""
    clock = _Clock(deadline, progress)
    clock.show("checking the certificate", 0, 0)
    index = load_index(folder / INDEX)
    record = next((r for r in index["certificates"] if r["variant"] == variant.name), None)
    if record is None:
        raise InputError(f"{folder / INDEX}: no certificate of {variant.name}")
    check_record(folder, record)
    doc = load_sessions(folder, record)
    clock.show("building the formula", 0, 0)
    inst = instance_for(variant)
    cnf, nvars, clauses = certificate_cnf(inst.graph, inst.formula, int(record["minimum"]))
    clock.check()
    if hashlib.sha256(cnf).hexdigest() != doc["cnf_sha256"]:
        raise DefectError(f"{variant.name}: the formula rebuilt is not the one the record holds")
    every = lookup_splits(inst.formula, doc["depth"] + doc["sub_depth"])
    cubes = decision_cubes(every[: doc["depth"]])
    below = every[doc["depth"] :]
    log: list[list[list[Any]]] = doc["sessions"]
    chosen = sorted(random.Random(seed).sample(range(len(log)), min(sessions, len(log))))
    result = Audit(variant.name, len(log), seed=seed)
    clock.total = sum(len(log[n][:prefix] if prefix is not None else log[n]) for n in chosen)
    for number in chosen:
        replayed, texts, last = _replay(
            number, log[number], cubes, below, clauses, prefix, say, doc["solver_options"], clock
        )
        result.replayed.append(replayed)
        if not result.valid:
            raise DefectError(f"{variant.name}: session {number} replays to another proof")
        clock.check()
        result.checked_by = _check(nvars, clauses, texts, last, drat_trim)
    return result


class _Clock:
    """An audit's deadline and progress: :meth:`check` raises InputError past the deadline (the
    audit then claims nothing), :meth:`cube` counts the cubes replayed."""

    def __init__(
        self, deadline: float | None, progress: Callable[[str, int, int], None] | None
    ) -> None:
        self.deadline, self.progress = deadline, progress
        self.total = self.done = 0

    def show(self, what: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(what, done, total)

    def check(self) -> None:
        """InputError once past the deadline."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            done = f"after {self.done:,} of {self.total:,} cubes replayed" if self.total else ""
            raise InputError(
                f"the audit reached its time limit {done or 'before its replay began'}: "
                "stopped, nothing audited"
            )

    def cube(self) -> None:
        """One more cube replayed."""
        self.done += 1
        self.show("replaying", self.done, self.total)


def _replay(
    number: int,
    session: list[list[Any]],
    cubes: Sequence[tuple[int, ...]],
    below: Sequence[Sequence[int]],
    clauses: Iterable[Sequence[int]],
    prefix: int | None,
    say: Callable[[str], None],
    options: dict[str, int],
    clock: _Clock | None = None,
) -> tuple[SessionAudit, list[bytes], tuple[int, ...]]:
    """Session ``number`` replayed by a solver of its own, each segment compared: the audit,
    the replayed segments' texts, and the last cube replayed. ``clock`` (none: no deadline) is
    looked at between the solver's slices (a hard cube stops at the deadline too) and counts
    the cubes."""
    clock = clock or _Clock(None, None)
    start = time.perf_counter()
    todo = session if prefix is None else session[:prefix]
    matched, texts = 0, []
    clock.check()
    # under the rule it was made with
    with CubeSolver(clauses, options=options, on_slice=clock.check) as solver:
        for place, (cube, sub_depth, digest) in enumerate(todo):
            clock.check()
            result = solver.refute(cubes[cube], below[:sub_depth])
            clock.cube()
            if result.segment.sha256 != digest:
                say(f"  session {number}, place {place} (cube {cube}): another segment")
                break
            matched += 1
            texts.append(result.segment.text())
    say(f"  session {number}: {matched} of {len(todo)} segments as recorded")
    seconds = time.perf_counter() - start
    audit = SessionAudit(number, len(todo), len(session), matched, seconds)
    return audit, texts, cubes[todo[-1][0]]


def _check(
    nvars: int,
    clauses: Iterable[Sequence[int]],
    texts: list[bytes],
    cube: tuple[int, ...],
    drat_trim: Path | None,
) -> list[str]:
    """The replayed segments (their ``texts``) refute the formula with ``cube`` as unit clauses:
    checked by minttt.drat, or, given drat-trim, by drat-trim with its LRAT checked by
    minttt.lrat (as certify checks a proof too large for minttt.drat: on 4x4 that formula has
    6 M clauses, which minttt.drat alone takes hours over); the checkers' names."""
    cnf = _cube_cnf(nvars, clauses, cube)
    proof = b"".join([*texts, b"0\n"])
    if drat_trim is not None:
        drat_trim_check(drat_trim, cnf, proof, DRAT_TRIM_LIMIT, lrat=True)
        return ["drat-trim, its LRAT by minttt.lrat"]
    verdict = drat.check(cnf, proof)
    if not verdict.valid:
        raise DefectError(f"the replayed segments do not refute their last cube: {verdict.message}")
    return ["minttt.drat"]


def _cube_cnf(nvars: int, clauses: Iterable[Sequence[int]], cube: tuple[int, ...]) -> bytes:
    """DIMACS of ``clauses`` with ``cube``'s literals as unit clauses after them (a view of an
    array formula written a chunk at a time, without a list of its millions of clauses).

    >>> _cube_cnf(2, [[1, 2], [-1]], (-2,))
    b'p cnf 2 3\\n1 2 0\\n-1 0\\n-2 0\\n'
    """
    units = [[lit] for lit in cube]
    if isinstance(clauses, Clauses):
        body = clauses.then(units)
        return b"".join([f"p cnf {nvars} {len(body)}\n".encode("ascii"), *body.dimacs()])
    listed = [*clauses, *units]
    text = "".join(" ".join(map(str, c)) + " 0\n" for c in listed)
    return (f"p cnf {nvars} {len(listed)}\n" + text).encode("ascii")


__all__ = ["Audit", "SessionAudit", "audit", "load_sessions"]
