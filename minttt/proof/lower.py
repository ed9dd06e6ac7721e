"""Lower-bound certificates: "no table has fewer than L entries (at these depths)", shipped as a
CNF and CaDiCaL's DRAT proof that it is unsatisfiable, checked before anything claims it.

A minimum's certificate (:mod:`minttt.proof.certify`) needs a table of size k; a lower bound has
none: its CNF (:func:`minttt.proof.cnf.lower_cnf`) is the lookup formula (cut below the deepest
depth it counts) and "at most L-1 of the table positions at those depths". The sum of the bounds
of disjoint sets of depths bounds a whole table (:mod:`minttt.bounds.levels`), so a bound by
per-level minima or by blocks of levels is certified level by level, block by block.

The records live in their own index, ``lower-bounds.json`` (:data:`LOWER_INDEX`, schema
``minttt/schemas/lower-index.schema.json``) beside a certificate folder's ``index.json``: one
record per (variant, depths), each checked against its files when read back (:func:`load_lower`),
its bound the one those files state, never its ``lower`` field taken at its word
(:mod:`minttt.proof.lower_evidence`; ``minttt recheck`` checks the proofs again).

>>> import tempfile
>>> from minttt.formula.variants import Variant
>>> cert = build_lower_certificate(Variant.parse("second-lookup-entries@mnk:3,3,2"), 2,
...                                tempfile.mkdtemp())
>>> cert.record["lower"], cert.record["depths"], cert.record["checked_by"]
(2, None, 'minttt check-proof (minttt.drat)')
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import portalocker

from minttt.assets import evidence
from minttt.errors import DefectError, InputError
from minttt.fileio import inflate, read_regular, write_many_atomic
from minttt.formula.arrays import ArrayFormula
from minttt.formula.instance import instance_for
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph
from minttt.proof import drat
from minttt.proof import lower_evidence as ev
from minttt.proof.certify import (
    Certificate,
    OutOfTime,
    checked,
    compress,
    compress_within,
    file_stem,
    prove_unsat,
)
from minttt.proof.cnf import CARD_ENCODING, cores_cnf, level_literals, lower_cnf, relaxed_cnf
from minttt.proof.cubes import CORE_SOLVER, SAT_SOLVER_NAME, SOLVER_NAMES, CubeSolver, Segment
from minttt.proof.drat_trim import DRAT_TRIM_LIMIT, drat_trim_check
from minttt.proof.index import XZ_PRESET
from minttt.proof.totalizer import Totalizers, replay
from minttt.schema import load_json
from minttt.solvers.exhaustion import EXHAUST_SHARE, ExhaustionBudget

LOWER_INDEX = "lower-bounds.json"
LOWER_FORMAT = "minttt-lower-bounds/1"
LOWER_SCHEMA = "lower-index.schema.json"  # in minttt/schemas/
LOWER_FILES = ("cnf", "proof", "cores")  # the fields of a record that name its files
#: xz bytes: a larger proof or CNF is checked where it was made and its SHA-256 recorded
MAX_SHIPPED = 4_000_000
#: conflicts between two looks at the clock in a core search (a second or so at most)
CORE_SLICE = 5_000
#: seconds between two progress lines of a relaxed search at most (a core may take minutes)
SAY_SECONDS = 30.0


def _arrays(
    variant: Variant, graph: ArrayGraph | None = None, formula: ArrayFormula | None = None
) -> tuple[ArrayGraph, ArrayFormula]:
    """The variant's array instance: the one given, else built."""
    if graph is not None and formula is not None:
        return graph, formula
    inst = instance_for(variant, arrays=True)
    assert isinstance(inst.graph, ArrayGraph) and isinstance(inst.formula, ArrayFormula)
    return inst.graph, inst.formula


def lower_stem(variant: Variant, lower: int, depths: Sequence[int] | None) -> str:
    """The file stem of a lower-bound certificate: variant, bound and the depths it counts.

    >>> lower_stem(Variant.parse("second-lookup-entries@mnk:4,4,4"), 63, [5])
    'second-lookup-entries@mnk-4-4-4.lower-63.depths-5'
    """
    where = "" if depths is None else ".depths-" + "-".join(map(str, depths))
    return f"{file_stem(variant)}.lower-{lower}{where}"


def build_lower_certificate(
    variant: Variant,
    lower: int,
    out_dir: str | Path,
    *,
    depths: Sequence[int] | None = None,
    graph: ArrayGraph | None = None,
    formula: ArrayFormula | None = None,
    seconds: float | None = None,
    check: bool = True,
    drat_trim: Path | None = None,
    exact: bool = False,
) -> Certificate:
    """``variant``'s certificate that every table has at least ``lower`` entries at ``depths``
    (``None``: in all), in memory: its CNF, CaDiCaL's refutation (in ``seconds`` at most:
    :class:`~minttt.proof.certify.OutOfTime`), checked by drat-trim (its LRAT by minttt.lrat)
    when given, else by :mod:`minttt.drat` with ``check``; DefectError when the bound is
    satisfiable or the proof fails. ``graph`` and ``formula``: the variant's array instance;
    ``exact``: ``lower`` is the minimum there (a solver proved it), recorded."""
    graph, formula = _arrays(variant, graph, formula)
    cnf, nvars, clauses = lower_cnf(graph, formula, lower, depths)
    start = time.perf_counter()
    proof = prove_unsat(nvars, clauses, seconds)
    cadical = time.perf_counter() - start
    stem = lower_stem(variant, lower, depths)
    files, shipped, proof = _packed(Path(out_dir), stem, cnf, proof, drat_trim)
    record: dict[str, Any] = {
        "variant": variant.name,
        "game": variant.game,
        "criterion": str(variant.criterion),
        "lower": lower,
        "bound": lower - 1,
        "depths": None if depths is None else [int(d) for d in depths],
        "exact": exact,
        **shipped,
        "variables": nvars,
        "clauses": len(clauses),
        "lemmas": _lemmas(proof),
        "cadical_seconds": round(cadical, 1),
    }
    cert = Certificate(record, cadical, files)
    return checked(cert, cnf, proof, check=check, drat_trim=drat_trim, record=True)


def _lemmas(proof: bytes) -> int:
    """The lines of a DRAT text that add a clause."""
    return sum(1 for line in proof.splitlines() if line and not line.startswith(b"d "))


def _packed(
    out: Path, stem: str, cnf: bytes, proof: bytes, drat_trim: Path | None = None
) -> tuple[dict[Path, bytes], dict[str, Any], bytes]:
    """The files to write (``stem.cnf.xz``, ``stem.drat.xz``: each where it compresses within
    :data:`MAX_SHIPPED`), the record's fields naming them (file names or ``None``, the SHA-256
    of each text, the compressed sizes of those shipped; ``trimmed`` below) and the proof to
    check. A CNF too large to ship is made again from its record (:func:`lower_cnf_of`) and
    compared by its SHA-256. A proof too large to ship gives way, given drat-trim, to the
    lemmas drat-trim's check of it used (``-l``: a DRAT proof of the same CNF) where those fit
    (``"trimmed": true``; 3x4 O's 189 by relaxed cores: 5.4 MB of xz, its core 2.3 to 2.5 MB);
    DefectError when drat-trim rejects the proof."""
    files: dict[Path, bytes] = {}
    fields: dict[str, Any] = {}
    for key, ext, text in (("cnf", "cnf", cnf), ("proof", "drat", proof)):
        packed = compress_within(text, MAX_SHIPPED)
        if packed is None and key == "proof" and drat_trim is not None:
            core = drat_trim_check(drat_trim, cnf, text, DRAT_TRIM_LIMIT, core=True)["core_proof"]
            packed = compress_within(core, MAX_SHIPPED)
            if packed is not None:
                text = proof = core
                fields["trimmed"] = True
        name = f"{stem}.{ext}.xz"
        fields[key] = None if packed is None else name
        fields[f"{key}_sha256"] = hashlib.sha256(text).hexdigest()
        if packed is not None:
            fields[f"{key}_bytes"] = len(packed)
            fields[f"{key}_file_sha256"] = hashlib.sha256(packed).hexdigest()
            files[out / name] = packed
    return files, fields, proof


def _next_core(
    solver: CubeSolver, free: dict[int, None], deadline: float | None
) -> tuple[list[int], Segment] | Literal[True] | None:
    """The next core among the ``free`` softs (all assumed false) and its proof segment;
    ``True`` when there is none (satisfiable), ``None`` when the time ran out (that call's
    answer is no answer)."""
    try:
        found = solver.refute_core([-p for p in free], deadline)
    except TimeoutError:
        return None
    if found is None:
        return True
    failed, segment = found
    core = sorted({-x for x in failed})
    if not core or any(p not in free for p in core):  # never: assumptions only
        raise DefectError(f"CaDiCaL's core {failed} is not among the assumptions")
    return core, segment


def disjoint_cores(
    clauses: Iterable[Sequence[int]],
    softs: Sequence[int],
    *,
    seconds: float | None = None,
    say: Callable[[str], None] | None = None,
    sat_solver: str = CORE_SOLVER,
) -> tuple[list[list[int]], list[Segment], bool]:
    """Disjoint cores of ``softs`` (table positions) under ``clauses``: CaDiCaL assumes every
    soft not yet in a core false; unsatisfiable gives a core (the positions it needed, one of
    which every table holds) and its proof segment, and those positions are set free; until
    the formula is satisfiable (``complete``) or ``seconds`` have passed (the cores found so far
    stand: a stopped search bounds lower, never wrongly). ``(cores, segments, complete)``.
    (Assuming a core again on its own to shrink it, as core-guided solvers do, found no more
    cores here: 139 for 140 on 3x4 O.) ``sat_solver``: PySAT's name of the CaDiCaL that
    searches (:data:`minttt.proof.cubes.CORE_SOLVER`, whose calls cost least)."""
    start = time.perf_counter()
    free = dict.fromkeys(softs)
    cores: list[list[int]] = []
    segments: list[Segment] = []
    deadline = None if seconds is None else start + seconds
    report = _Report(say, start, lambda: f"{len(cores)} disjoint cores")
    with CubeSolver(
        clauses, slice_conflicts=CORE_SLICE, on_slice=report.tick, solver=sat_solver
    ) as solver:
        while deadline is None or time.perf_counter() < deadline:
            found = _next_core(solver, free, deadline)
            if found is None:  # the time ran out: the cores found stand
                break
            if found is True:
                return cores, segments, True
            core, segment = found
            for p in core:
                del free[p]
            cores.append(core)
            segments.append(segment)
            report.tick(due=len(cores) % 25 == 0)
    return cores, segments, False


class _Report:
    """A core search's progress lines: ``status()`` and the seconds so far, said every 25 cores
    (``due``) and whenever :data:`SAY_SECONDS` have passed since the last line, between the
    slices of one CaDiCaL call too (``CubeSolver(on_slice=...)``): near a stall one core may take
    minutes, and a search never goes quiet that long."""

    def __init__(
        self, say: Callable[[str], None] | None, start: float, status: Callable[[], str]
    ) -> None:
        self.say, self.start, self.status = say, start, status
        self.said = start

    def tick(self, due: bool = False) -> None:
        """Say the status if it is ``due`` or :data:`SAY_SECONDS` have passed."""
        now = time.perf_counter()
        if self.say is not None and (due or now - self.said > SAY_SECONDS):
            self.say(f"  {self.status()} ({now - self.start:.0f} s)")
            self.said = now


@dataclass(frozen=True)
class Relaxed:
    """What a core-guided search found (:func:`relaxed_cores`): its totalizers' operations
    (``Totalizers.log``), the literals its bound counts (one per core: the core's literal when
    alone, else its totalizer's first output), each core, the proof segments of those it found
    (none for the cores ``carried`` in), and whether it ran to the end (then its bound is the
    minimum, and ``model`` the last call's model: every soft false, as many of the ``softs``
    true as the bound); ``budget``: its core exhaustion's (None: without)."""

    log: list[list[int | str]]
    bounded: list[int]
    cores: list[list[int]]
    segments: list[Segment]
    complete: bool
    model: list[int] | None = None
    budget: ExhaustionBudget | None = None


@dataclass(frozen=True)
class Carried:
    """An earlier relaxed-cores search that a new one goes on from (:func:`carried_from`): its
    record (its bound, seconds and runs), its cores in the order found and its totalizers' log
    (the new search must make the same), and its proof's lemmas, the clauses it added in order:
    without its deletions (the new search's CaDiCaL starts again from every clause) or its last
    empty clause (the new claim has more bounded literals)."""

    record: dict[str, Any]
    cores: list[list[int]]
    log: list[list[int | str]]
    lemmas: bytes


def carried_from(record: dict[str, Any], folder: Path, top: int) -> Carried:
    """What the relaxed-cores ``record`` of ``folder``'s index hands on to a search that goes
    on from it, its files checked against the record first (InputError, one line, otherwise:
    the new certificate's check would refuse them anyway). Its cores are made again from the
    cores file: a totalizer's first output stands for the core it was made over, any other
    bounded literal for a core of itself (``top``: the formula's last variable, from which the
    totalizers are numbered). A record whose search ran to its end (``complete``) is gone on
    from too: that is how its claim, the minimum, is checked (the search that goes on finds the
    formula satisfiable at once, or finds more cores)."""
    where = f"{folder / LOWER_INDEX}, {record.get('variant')}"
    if record.get("method") != "relaxed cores" or not record.get("cores"):
        raise InputError(f"{where}: not a relaxed-cores record to go on from")
    if not record.get("proof"):
        raise InputError(f"{where}: its proof was too large to ship, so no search goes on from it")
    listed = drat.read_bytes(folder / str(record["cores"]), text=True)
    proof = drat.read_bytes(folder / str(record["proof"]))
    for field, data in (("cores", listed), ("proof", proof)):
        if hashlib.sha256(data).hexdigest() != record[f"{field}_sha256"]:
            raise InputError(f"{where}: {record[field]} is not the file the record names")
    try:
        doc = json.loads(listed)
        log, bounded = doc["log"], [int(b) for b in doc["bounded"]]
        tot, _ = replay(log, top)
        made = [op for op in log if op[0] == "new"]  # totalizer i: the i-th made
        over = {tot.outputs(i)[0]: [int(x) for x in op[2:]] for i, op in enumerate(made)}
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InputError(f"{folder / str(record['cores'])}: not a cores file ({exc})") from None
    if drat.is_binary(proof[:64]):
        raise InputError(f"{where}: a binary proof; the search writes text")
    lemmas = b"".join(
        line + b"\n"
        for line in proof.splitlines()
        if line.strip() and not line.startswith(b"d ") and line.strip() != b"0"
    )
    return Carried(record, [over.get(b, [b]) for b in bounded], log, lemmas)


def _carried_for(
    variant: Variant,
    depths: Sequence[int] | None,
    going_on: dict[str, Any] | None,
    relax: bool,
    folder: Path,
    top: int,
) -> Carried | None:
    """The record ``going_on`` (None: none) read for a relaxed search of ``variant`` at
    ``depths`` to go on from (:func:`carried_from`); InputError where it is another part's, or
    the search is not relaxed."""
    if going_on is None:
        return None
    if not relax:
        raise InputError("only a search by relaxed cores goes on from an earlier one")
    if record_key(going_on) != (variant.name, tuple(depths or ())):
        raise InputError(f"{variant.name}: the record to go on from is of another part")
    return carried_from(going_on, folder, top)


def relaxed_cores(
    clauses: Iterable[Sequence[int]],
    softs: Sequence[int],
    top: int,
    *,
    seconds: float | None = None,
    exhaust: bool = False,
    exhaust_share: float = EXHAUST_SHARE,
    carried: Sequence[Sequence[int]] = (),
    say: Callable[[str], None] | None = None,
    sat_solver: str = CORE_SOLVER,
) -> Relaxed:
    """A core-guided lower bound on how many ``softs`` (table positions) are true under
    ``clauses`` (variables up to ``top``), as OLL and RC2 find theirs: CaDiCaL assumes every
    soft false and fails on a core (one of its literals is true). A core of one literal is
    counted; a larger one is *relaxed*, not set aside: a totalizer over it (variables from
    ``top + 1`` on, :class:`minttt.proof.totalizer.Totalizers`) counts its true literals, its
    first output ("at least one") is counted and its second ("at least two") becomes a soft in
    their place. A core that holds a totalizer's output ``j`` makes output ``j + 1`` a soft.
    The bound is the number of cores; the search ends when the softs can all be false (the
    bound is then the minimum) or after ``seconds`` (the cores found stand: a stopped search
    bounds lower, never wrongly). Disjoint cores (:func:`disjoint_cores`) are its first cores
    without the relaxation: where they run out, it goes on. A core is used as CaDiCaL gives it:
    shrinking it first (RC2's ``trim``, up to 5 calls that assume it again alone) cost more
    than it bought (4x4 k=4 O: 103 cores in 60 s of CPU against 152; 2x7 k=2 misere O's
    minimum, 58, in 121 s against 81). With ``exhaust`` (RC2's core exhaustion), each new
    totalizer's outputs are refuted alone, each a core of one (:func:`_exhausted`), as far as
    they go: it pays where the search runs to its end (3x4 O's 189 in 16 s of CPU against 46 s),
    and not on 4x4 k=4 (no output refuted alone, each call a whole model), so an exhaustion
    starts only while its satisfiable calls have taken at most ``exhaust_share`` of the time
    (:class:`~minttt.solvers.exhaustion.ExhaustionBudget`; 1.0: every core's).

    ``carried``: an earlier search's cores, in the order it found them (:class:`Carried`),
    taken first as if found again (the same totalizers, numbered the same), with no proof
    segment: the search goes on where that one stopped (InputError for a core it could not
    have found). ``sat_solver``: as for :func:`disjoint_cores` (CaDiCaL 1.5.3: on 4x4 k=4 O's
    part 5:0+0:6, 438 cores in 60 s where 1.9.5 found 92; ``scripts/bench_cores.py``)."""
    start = time.perf_counter()
    budget = ExhaustionBudget(exhaust_share, start)
    deadline = None if seconds is None else start + seconds
    tot = Totalizers(top)
    free = dict.fromkeys(int(p) for p in softs)
    owner: dict[int, tuple[int, int]] = {}  # a root output -> (its totalizer, its index j)
    bounded: list[int] = []
    cores: list[list[int]] = []
    segments: list[Segment] = []
    complete, model = False, None

    def status() -> str:
        tried = f", {budget.tried} exhausted ({budget.skipped} not)" if exhaust else ""
        return f"{len(cores)} cores, {len(tot)} totalizers{tried}"

    report = _Report(say, start, status)

    def take(core: list[int]) -> int | None:
        """Count and relax ``core``: its totalizer's second output (the new soft), if any."""
        for p in core:
            _retire(solver, tot, owner, free, p)
        cores.append(core)
        if len(core) == 1:
            bounded.append(core[0])
            return None
        index, made = tot.new(core, 2)
        solver.add_clauses(made)
        first, second = tot.outputs(index)
        owner[second] = (index, 2)
        free[second] = None
        bounded.append(first)
        return second

    with CubeSolver(
        clauses, slice_conflicts=CORE_SLICE, on_slice=report.tick, solver=sat_solver
    ) as solver:
        for old in carried:
            core = sorted(int(p) for p in old)
            if not core or len(set(core)) != len(core) or any(p not in free for p in core):
                raise InputError(f"carried core {len(cores) + 1} is not among the softs left")
            take(core)
        while deadline is None or time.perf_counter() < deadline:
            found = _next_core(solver, free, deadline)
            if found is None:  # the time ran out: the cores found stand
                break
            if found is True:
                complete, model = True, solver.model()
                break
            core, segment = found
            segments.append(segment)
            second = take(core)
            if (
                exhaust
                and second is not None
                and budget.allows()
                and not _exhausted(
                    solver, tot, second, owner, free, (bounded, cores, segments), budget, deadline
                )
            ):
                break  # the time ran out: the cores found stand
            report.tick(due=len(cores) % 25 == 0)
    return Relaxed(tot.log, bounded, cores, segments, complete, model, budget if exhaust else None)


def _retire(
    solver: CubeSolver,
    tot: Totalizers,
    owner: dict[int, tuple[int, int]],
    free: dict[int, None],
    literal: int,
) -> int | None:
    """``literal`` leaves the softs (a core holds it); where it is a totalizer's output ``j``,
    output ``j + 1`` takes its place (the totalizer grown to it). Returns that output, if any."""
    del free[literal]
    if literal not in owner:
        return None
    index, j = owner[literal]
    if j >= tot.inputs(index):
        return None
    solver.add_clauses(tot.grow(index, j + 1))
    nxt = tot.outputs(index)[j]
    owner[nxt] = (index, j + 1)
    free[nxt] = None
    return nxt


def _exhausted(
    solver: CubeSolver,
    tot: Totalizers,
    output: int,
    owner: dict[int, tuple[int, int]],
    free: dict[int, None],
    found_so_far: tuple[list[int], list[list[int]], list[Segment]],
    budget: ExhaustionBudget,
    deadline: float | None,
) -> bool:
    """Core exhaustion for :func:`relaxed_cores`: the totalizer ``output`` (its "at least j"),
    assumed false alone, refuted is a core of one, counted as any core is (into
    ``found_so_far``: the bounded literals, cores, segments), and the next output takes its
    place (:func:`_retire`) and is tried; until one is satisfiable (it stays a soft; the call's
    time is charged to ``budget``) or the outputs end. False when the time ran out (that call's
    answer is no answer)."""
    bounded, cores, segments = found_so_far
    next_output: int | None = output
    while next_output is not None:
        called = time.perf_counter()
        try:
            found = solver.refute_core([-next_output], deadline)
        except TimeoutError:
            return False
        if found is None:
            budget.spent(time.perf_counter() - called)
            return True
        failed, segment = found
        if [-x for x in failed] != [next_output]:  # never: one assumption, and tables exist
            raise DefectError(f"CaDiCaL's core {failed} is not the output {next_output} assumed")
        bounded.append(next_output)
        cores.append([next_output])
        segments.append(segment)
        next_output = _retire(solver, tot, owner, free, next_output)
    return True


def build_cores_certificate(
    variant: Variant,
    out_dir: str | Path,
    *,
    depths: Sequence[int] | None = None,
    graph: ArrayGraph | None = None,
    formula: ArrayFormula | None = None,
    seconds: float | None = None,
    check: bool = True,
    drat_trim: Path | None = None,
    relax: bool = False,
    exhaust: bool = False,
    exhaust_share: float = EXHAUST_SHARE,
    going_on: dict[str, Any] | None = None,
    say: Callable[[str], None] | None = None,
    sat_solver: str = CORE_SOLVER,
) -> Certificate:
    """``variant``'s lower bound by disjoint cores at ``depths`` (``None``: in all), certified:
    the cores (:func:`disjoint_cores`, ``seconds`` at most), the formula "a table hits fewer
    groups than there are cores" (:func:`minttt.proof.cnf.cores_cnf`) and its DRAT proof: each
    core's segment (ending with the clause "one of its positions"), then each group's variable
    (RUP from that clause), then the empty clause (the cardinality propagates to a conflict).
    With ``relax``, the cores are relaxed rather than set aside (:func:`relaxed_cores`, the
    bound RC2 finds; ``exhaust``: with core exhaustion, within ``exhaust_share`` of the time)
    and the formula is
    :func:`minttt.proof.cnf.relaxed_cnf`: the proof is the same but for the groups' variables,
    which are the totalizers' first outputs. Checked as
    :func:`build_lower_certificate` checks; OutOfTime when no core was found.

    ``going_on``: a relaxed-cores record of ``out_dir``'s index (``relax`` only) that this search
    goes on from (:func:`carried_from`): its cores are taken first, and the proof is its lemmas,
    then the new search's; the record counts both runs' CaDiCaL seconds and ``runs``. A search
    stopped at its time limit is so carried on, run after run, as long as its proof ships.
    ``sat_solver``: the CaDiCaL that searches (PySAT's name), which the record names
    (``sat_solver``; after a search by another, both).

    >>> import tempfile
    >>> from minttt.formula.variants import Variant
    >>> cert = build_cores_certificate(Variant.parse("second-lookup-entries@mnk:3,3,2"),
    ...                                tempfile.mkdtemp())
    >>> cert.record["method"], cert.record["lower"] >= 1, cert.record["checked_by"]
    ('disjoint cores', True, 'minttt check-proof (minttt.drat)')
    >>> cert = build_cores_certificate(Variant.parse("first-any-lookup-entries@mnk:3,3,3"),
    ...                                tempfile.mkdtemp(), relax=True)
    >>> cert.record["method"], cert.record["lower"], cert.record["complete"]
    ('relaxed cores', 22, True)
    """
    graph, formula = _arrays(variant, graph, formula)
    cut, softs = level_literals(graph, formula, depths)
    clauses = cut.clauses()  # loaded a chunk at a time: no list of them all (GBs on 2x8)
    carry = _carried_for(variant, depths, going_on, relax, Path(out_dir), cut.num_vars)
    if carry is not None and say is not None:
        say(f"  going on from {len(carry.cores)} relaxed cores, certified")
    start = time.perf_counter()  # as the search's time limit counts (CaDiCaL's loading in it)
    if relax:
        found = relaxed_cores(
            clauses,
            softs,
            cut.num_vars,
            seconds=seconds,
            exhaust=exhaust,
            exhaust_share=exhaust_share,
            carried=() if carry is None else carry.cores,
            say=say,
            sat_solver=sat_solver,
        )
        if carry is not None and found.log[: len(carry.log)] != carry.log:
            raise InputError(
                f"{variant.name}: the carried cores do not make the totalizers of "
                f"{carry.record['cores']}"
            )
        cores, segments, complete = found.cores, found.segments, found.complete
        roots = [z for z, core in zip(found.bounded, cores, strict=True) if len(core) > 1]
        listed_doc: Any = {"log": found.log, "bounded": found.bounded}
    else:
        cores, segments, complete = disjoint_cores(
            clauses, softs, seconds=seconds, say=say, sat_solver=sat_solver
        )
        roots = list(range(cut.num_vars + 1, cut.num_vars + len(cores) + 1))
        listed_doc = cores
    cadical = time.perf_counter() - start
    if not cores:
        raise OutOfTime(f"{variant.name}: no core in {seconds} s")
    if relax:
        cnf, nvars, all_clauses = relaxed_cnf(graph, formula, found.log, found.bounded, depths)
    else:
        cnf, nvars, all_clauses = cores_cnf(graph, formula, cores, depths)
    proof = b"".join(
        [
            b"" if carry is None else carry.lemmas,
            *(s.text() for s in segments),
            "".join(f"{g} 0\n" for g in roots).encode(),
            b"0\n",
        ]
    )
    lower = len(cores)
    if say is not None:
        how = "all found" if complete else "stopped at the time limit"
        if carry is not None:
            how += f", {len(carry.cores)} carried on"
        over = "" if seconds is None or cadical <= seconds + 1 else (
            f", {cadical - seconds:.0f} s past the limit of {seconds:g} s (a slice of CaDiCaL "
            "is not cut where it runs)"
        )  # fmt: skip
        say(
            f"  {lower} cores ({how}) in {cadical:.0f} s{over}; checking the proof "
            f"({len(proof) / 1e6:.1f} MB, {len(all_clauses):,} clauses)"
        )
    stem = lower_stem(variant, lower, depths) + (".relaxed" if relax else ".cores")
    files, shipped, proof = _packed(Path(out_dir), stem, cnf, proof, drat_trim)
    trimmed = bool(shipped.get("trimmed"))
    listed = (json.dumps(listed_doc, separators=(",", ":")) + "\n").encode("ascii")
    files[Path(out_dir) / f"{stem}.json.xz"] = packed_cores = compress(listed)
    record: dict[str, Any] = {
        "variant": variant.name,
        "game": variant.game,
        "criterion": str(variant.criterion),
        "lower": lower,
        "bound": lower - 1,
        "depths": None if depths is None else [int(d) for d in depths],
        "exact": relax and complete,
        "method": "relaxed cores" if relax else "disjoint cores",
        "complete": complete,
        "core_sizes": [len(c) for c in cores],
        "cores": f"{stem}.json.xz",
        "cores_sha256": hashlib.sha256(listed).hexdigest(),
        "cores_file_sha256": hashlib.sha256(packed_cores).hexdigest(),
        **shipped,
        "variables": nvars,
        "clauses": len(all_clauses),
        "lemmas": (
            _lemmas(proof)
            if trimmed or carry is not None
            else sum(s.lemmas for s in segments) + len(roots) + 1
        ),
        "cadical_seconds": round(cadical, 1),
        "sat_solver": SOLVER_NAMES[sat_solver],
    }
    if carry is not None:
        before = carry.record
        record["cadical_seconds"] = round(cadical + float(before.get("cadical_seconds", 0)), 1)
        record["runs"] = int(before.get("runs", 1)) + 1
        earlier = str(before.get("sat_solver", SAT_SOLVER_NAME))  # none named: the index's
        if not earlier.endswith(record["sat_solver"]):
            record["sat_solver"] = f"{earlier}, then {record['sat_solver']}"
    last = None
    whole = len(softs) == len(formula.heads())  # every table depth: the model is a table's
    if relax and found.model is not None and whole:  # the last model: a table of the bound
        signed = np.asarray(found.model[: formula.num_vars], dtype=np.int64)
        last = np.zeros(formula.num_vars + 1, dtype=bool)
        last[signed[signed > 0]] = True
    cert = Certificate(record, cadical, files, model=last)
    return checked(cert, cnf, proof, check=check, drat_trim=drat_trim, record=True)


def lower_cnf_of(record: dict[str, Any], folder: Path) -> bytes:
    """The CNF of a lower-bound record made again from what it names (its variant, bound and
    depths; a cores record's groups from its cores file beside it), checked against the
    record's SHA-256 (InputError otherwise): how a certificate whose CNF was too large to ship
    is checked anywhere.

    >>> import tempfile
    >>> from minttt.formula.variants import Variant
    >>> folder = Path(tempfile.mkdtemp())
    >>> cert = build_cores_certificate(Variant.parse("second-lookup-entries@mnk:3,3,2"), folder)
    >>> write_lower_records(folder, [cert.record], {str(p): d for p, d in cert.files.items()})
    >>> drat.check(lower_cnf_of(cert.record, folder), drat.read_proof(
    ...     folder / cert.record["proof"])).valid
    True
    """
    variant = Variant.parse(str(record["variant"]))
    graph, formula = _arrays(variant)
    depths = record["depths"]
    if record.get("method") in ("disjoint cores", "relaxed cores"):
        listed = drat.read_bytes(folder / str(record["cores"]), text=True)
        if hashlib.sha256(listed).hexdigest() != record["cores_sha256"]:
            raise InputError(f"{folder / str(record['cores'])}: not the cores the record names")
        try:
            doc = json.loads(listed)
            if record["method"] == "disjoint cores":
                cnf, _, _ = cores_cnf(graph, formula, doc, depths)
            else:
                cnf, _, _ = relaxed_cnf(graph, formula, doc["log"], doc["bounded"], depths)
        except (KeyError, TypeError, ValueError) as exc:  # JSON of another shape
            raise InputError(f"{folder / str(record['cores'])}: not a cores file ({exc})") from None
    else:
        cnf, _, _ = lower_cnf(graph, formula, int(record["lower"]), depths)
    if hashlib.sha256(cnf).hexdigest() != record["cnf_sha256"]:
        raise InputError(f"{variant.name}: the CNF made again is not the one the record names")
    return cnf


def record_key(record: dict[str, Any]) -> tuple[str, tuple[int, ...]]:
    """What a lower-bound record is about: its variant and depths (one record each)."""
    return str(record["variant"]), tuple(record["depths"] or ())


def lower_index_text(
    out_dir: str | Path,
    records: list[dict[str, Any]],
    old: list[dict[str, Any]] | None = None,
) -> str:
    """``lower-bounds.json`` with ``records`` merged in (a newer record of the same variant and
    depths replaces the older, a higher bound any lower one), ordered by variant and depths;
    every record carried over is checked against its files first (``old``: the index's records,
    already read by :func:`load_lower`, which checks them)."""
    path = Path(out_dir) / LOWER_INDEX
    if old is None:
        old = load_lower(path) if path.exists() else []
    by = {record_key(r): r for r in old}
    for r in records:
        kept = by.get(record_key(r))
        if kept is None or kept["lower"] <= r["lower"]:
            by[record_key(r)] = r
    index = {
        "format": LOWER_FORMAT,
        "claim": "for each record: the CNF (the lookup formula, cut below the deepest depth "
        "counted, and, by its method: at most lower-1 table positions at those depths "
        "(cardinality, the default), at most lower-1 of lower disjoint groups of them hit "
        "(disjoint cores), or one of lower bounded literals false, each a core's position or "
        "its totalizer's first output (relaxed cores; the cores file holds the totalizers and "
        "the bounded literals)) is unsatisfiable (the DRAT proof), so every table of the "
        "variant has at least lower entries at those depths (depths null: in all); lower is "
        "the bound the record's cores file or CNF states (minttt.proof.lower.load_lower)",
        # the solver of a record that names none (most name their own: sat_solver)
        "sat_solver": SAT_SOLVER_NAME,
        "cardinality_encoding": CARD_ENCODING,
        "compression": f"xz (preset {XZ_PRESET}, CRC64)",
        "certificates": [by[k] for k in sorted(by)],
    }
    return json.dumps(index, indent=2) + "\n"


def unkept_files(records: Sequence[dict[str, Any]], text: str) -> set[str]:
    """The files ``records`` name (CNF, proof, cores) that the index ``text`` names no more: a
    bound replaced by a higher one, or a new one below the bound kept, leaves none behind.

    >>> old = {"variant": "v", "depths": None, "lower": 5, "proof": "v.lower-5.drat.xz"}
    >>> new = dict(old, lower=7, proof="v.lower-7.drat.xz")
    >>> unkept_files([old, new], json.dumps({"certificates": [new]}))
    {'v.lower-5.drat.xz'}
    """
    kept = {r.get(k) for r in json.loads(text)["certificates"] for k in LOWER_FILES}
    return {r[k] for r in records for k in LOWER_FILES if r.get(k) and r[k] not in kept}


def write_lower_records(
    out_dir: str | Path, records: list[dict[str, Any]], files: dict[str, bytes]
) -> None:
    """Write certificates' files (``name -> bytes``, into ``out_dir``) and their ``records``
    merged into ``lower-bounds.json``, at once; the files of the records the merged index does
    not keep (:func:`unkept_files`) are not written, or removed."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # runs of several variants may share a folder: the index is read, merged and written under
    # a lock of its own (waited for: a merge takes a moment)
    with open(out / f"{LOWER_INDEX}.lock", "a") as lock:
        portalocker.lock(lock, portalocker.LOCK_EX)  # released when the file is closed
        path = out / LOWER_INDEX
        old = load_lower(path) if path.exists() else []
        text = lower_index_text(out, records, old)
        gone = unkept_files([*old, *records], text)
        staged = {
            out / Path(name).name: data
            for name, data in files.items()
            if Path(name).name not in gone
        }
        staged[out / LOWER_INDEX] = text.encode("utf-8")
        write_many_atomic(staged)
        for name in gone:
            (out / name).unlink(missing_ok=True)


def load_lower(
    path: Path, *, only: tuple[str, tuple[int, ...]] | None = None, full: bool = False
) -> list[dict[str, Any]]:
    """The records of a ``lower-bounds.json`` (schema-checked), each checked against the files
    it names (InputError, one line): ``bound`` is ``lower - 1``; a file whose record names the
    SHA-256 of its bytes as shipped (``*_file_sha256``, the xz) is that file, read but not
    decompressed (the 4x4 k=4 parts' 200 MB in a second, where decompressing takes half a
    minute); a file whose record names none, or every file with ``full``, is decompressed and
    its text has the SHA-256 recorded (``*_sha256``), and its record gains the ``*_file_sha256``
    of the very bytes so checked, which the index keeps when it is next written. ``only`` (a
    :func:`record_key`): that part's records alone, and only their files read: a run of one
    part neither waits on nor trips over another part's files, which a run writing beside it
    may be replacing (the index itself is replaced atomically).

    A record's ``lower`` is never taken from the record: it must be the bound its evidence
    states (:func:`check_evidence`), or the record is refused. A file that is a release asset
    this installation has not fetched (:func:`minttt.assets.evidence`) is found in the fetch
    cache, or else its record is read as written (``minttt reproduce`` says how many)."""
    doc = load_json(path, LOWER_SCHEMA, what="lower-bound index")
    records = [r for r in doc["certificates"] if only is None or record_key(r) == only]
    for record in records:
        where = f"{path}, {record['variant']} at {record['depths'] or 'every depth'}"
        if record["bound"] != record["lower"] - 1:
            raise InputError(f"{where}: bound {record['bound']} is not {record['lower']} - 1")
        shipped: dict[str, tuple[bytes, str, bytes | None]] = {}
        fetched = True
        for field in LOWER_FILES:
            if record.get(field) is None:
                continue
            file = evidence(path.parent / str(record[field]))
            if file is None:  # an asset not fetched here: the record is read as written
                fetched = False
                continue
            shipped[field] = _shipped(file.parent, record, field, where, full)
        if fetched:
            check_evidence(record, shipped, where)
    return records


def _shipped(
    folder: Path, record: dict[str, Any], field: str, where: str, full: bool
) -> tuple[bytes, str, bytes | None]:
    """A record's ``field`` file checked against its SHA-256 (:func:`load_lower`): its bytes,
    their SHA-256 and its text where it was decompressed."""
    file = folder / str(record[field])
    raw = read_regular(file, max_bytes=drat.MAX_BYTES)
    shipped = hashlib.sha256(raw).hexdigest()
    named = record.get(f"{field}_file_sha256")
    if named is not None and shipped != named:
        raise InputError(f"{where}: {record[field]} is not the file the record names")
    data = None
    if named is None or full:
        data = _text(raw, record, field, where)
        record[f"{field}_file_sha256"] = shipped
    if named is None and f"{field}_bytes" in record:  # its text checked: these very bytes
        record[f"{field}_bytes"] = len(raw)
    return raw, shipped, data


def _text(raw: bytes, record: dict[str, Any], field: str, where: str) -> bytes:
    """A record's ``field`` file of bytes ``raw`` decompressed, its text the one recorded."""
    # at most what drat's readers take: MAX_BYTES, and no bomb
    most = min(drat.MAX_BYTES, drat.inflation_limit(len(raw)))
    data = inflate(raw, most, where=f"{where}: {record[field]}")
    if hashlib.sha256(data).hexdigest() != record[f"{field}_sha256"]:
        raise InputError(f"{where}: {record[field]} is not the file the record names")
    return data


def check_evidence(
    record: dict[str, Any], shipped: dict[str, tuple[bytes, str, bytes | None]], where: str
) -> None:
    """A lower-bound record against what its ``shipped`` files (field -> bytes, SHA-256, text
    if read) state, InputError in one line naming ``where`` otherwise (:mod:`.lower_evidence`):
    a cores record's bound and core sizes are its cores file's, a shipped CNF states the
    record's bound, variant and depths, every file is named for the record's variant, bound,
    depths and method (another part's file is not this one's), and a proof holds at least the
    lines its cores need. What no cheap read shows (that the proof refutes the CNF made again)
    is ``minttt recheck``'s."""
    method = str(record.get("method", "cardinality"))
    if method != "cardinality":
        _check_cores(record, shipped, where, method)
    if "cnf" in shipped:
        raw, _, text = shipped["cnf"]
        head = (text or b"")[: ev.HEAD_BYTES] if text is not None else _head(raw, "cnf", where)[0]
        try:
            lower, depths, variant = ev.cnf_claim(head)
        except InputError as exc:
            raise InputError(f"{where}: {record['cnf']}: {exc}") from None
        stated = (lower, depths, variant)
        if stated != (record["lower"], ev.depths_words(record["depths"]), record["variant"]):
            raise InputError(
                f"{where}: {record['cnf']} states {lower} entries {depths} of {variant}, "
                f"not the record's {record['lower']}"
            )
    for field, (raw, _, _) in shipped.items():
        name = ev.expected_name(record, field, int(record["lower"]))
        if record[field] != name:
            raise InputError(f"{where}: {record[field]} is not named {name}, as its record")
        size = record.get(f"{field}_bytes")
        if size is not None and size != len(raw):
            raise InputError(f"{where}: {record[field]} is {len(raw):,} bytes, not {size:,}")


def _head(raw: bytes, field: str, where: str) -> tuple[bytes, bool]:
    """The first bytes of a record's xz file (:func:`.lower_evidence.head_text`)."""
    try:
        return ev.head_text(raw)
    except InputError as exc:
        raise InputError(f"{where}: its {field}: {exc}") from None


def _check_cores(
    record: dict[str, Any],
    shipped: dict[str, tuple[bytes, str, bytes | None]],
    where: str,
    method: str,
) -> None:
    """:func:`check_evidence` of a cores record: its cores file's summary against the record,
    and its proof's size against the lines the cores need."""
    if "cores" not in shipped:
        raise InputError(f"{where}: a record by {method} names no cores file")
    raw, digest, text = shipped["cores"]

    def text_of() -> bytes:
        return text if text is not None else _text(raw, record, "cores", where)

    try:
        summary = ev.kept_summary(  # its text read (``full``): the summary made from it
            raw, digest, text_of, method, int(record["variables"]), fresh=text is not None
        )
    except InputError as exc:
        if str(exc).startswith(where):  # the file itself, unreadable: said so already
            raise
        raise InputError(f"{where}: {record['cores']}: {exc}") from None
    if summary["lower"] != record["lower"]:
        raise InputError(
            f"{where}: lower {record['lower']}, but its cores file bounds {summary['lower']}"
        )
    if record.get("core_sizes") != summary["core_sizes"]:
        raise InputError(f"{where}: its core sizes are not those of its cores file")
    if bool(record.get("exact")) != (method == "relaxed cores" and bool(record.get("complete"))):
        raise InputError(f"{where}: exact only where relaxed cores ran to their end")
    if "proof" in shipped:
        _check_proof_size(record, shipped["proof"], where, summary["proof_floor"])


def _check_proof_size(
    record: dict[str, Any], proof: tuple[bytes, str, bytes | None], where: str, floor: int
) -> None:
    """A cores record's proof: text (the searches write text), ending with the empty clause, and
    at least ``floor`` bytes (each core's clause and each group's unit come before it; a proof
    drat-trim trimmed, ``trimmed``, at least more than the empty clause)."""
    raw, _, text = proof
    head, whole = (text, True) if text is not None else _head(raw, "proof", where)
    if drat.is_binary(head[:64]):
        raise InputError(f"{where}: {record['proof']} is a binary proof; the searches write text")
    if whole and not (head == b"0\n" or head.endswith(b"\n0\n")):
        raise InputError(f"{where}: {record['proof']} does not end with the empty clause")
    size = len(head) if whole else ev.xz_text_size(raw)
    if size is None:
        size = len(_text(raw, record, "proof", where))
    least = 3 if record.get("trimmed") else floor
    if size < least:
        raise InputError(
            f"{where}: {record['proof']} holds {size:,} bytes, fewer than the {least:,} of the "
            "clauses its cores need"
        )


def checked_lower(path: Path, *, exact: bool = False) -> dict[tuple[str, tuple[int, ...]], int]:
    """``(variant, depths) -> lower`` of every record of ``path`` a checker checked
    (``checked_by``; with ``exact``, only those whose bound is the minimum there); none without
    the file."""
    if not path.is_file():
        return {}
    return {
        record_key(r): int(r["lower"])
        for r in load_lower(path)
        if r.get("checked_by") and (r.get("exact") or not exact)
    }


__all__ = [
    "LOWER_INDEX",
    "Carried",
    "Relaxed",
    "build_cores_certificate",
    "build_lower_certificate",
    "carried_from",
    "check_evidence",
    "checked_lower",
    "disjoint_cores",
    "load_lower",
    "lower_cnf_of",
    "lower_index_text",
    "lower_stem",
    "record_key",
    "relaxed_cores",
    "unkept_files",
    "write_lower_records",
]
