"""An independent LRAT proof checker: DIMACS CNF + LRAT proof (text) in, verdict out.

LRAT is DRAT with hints: each lemma names the clauses that, in order, become unit under the
negation of the lemma and end in a conflict, so checking it needs no search (one pass, linear in
the hints). It is how proofs of hundreds of MB are checked: a DRAT proof is turned into LRAT by
``drat-trim CNF PROOF -L out.lrat`` (which keeps only the lemmas the refutation needs), and this
module checks the result. The hints only say where to look: a wrong hint fails the check, so
trusting the LRAT check does not mean trusting drat-trim.

Like :mod:`minttt.drat` it imports no solver and nothing of minttt but the CNF reader and the
verdict type of :mod:`minttt.drat`. The same check runs compiled where the package was built
with a C compiler (``minttt.proof.kernels``, C): it checks the common proof, every lemma
RUP on its positive hints, and gives any other (RAT, a failure, an unusual line) back to this
reference, which checks the whole proof again and says what is wrong. So a verdict is always
this reference's; ``result.engine`` says which ran.

Lines are ``ID LITS 0 HINTS 0`` (a lemma) or ``ID d IDS 0``
(deletions; an unknown id is ignored, which is sound). Formula clauses have ids 1..m in file order;
lemma ids must increase. A positive hint is a clause that must be unit (or falsified, the
conflict). A lemma that is not RUP may be RAT on its first literal p: after its positive hints come
groups ``-D h1 h2 ...``, one for each live clause D containing -p whose resolvent with the lemma is
not already satisfied; the group's hints refute that resolvent. The proof is valid when it adds the
empty clause.

>>> cnf = b"p cnf 2 4\\n1 2 0\\n-1 2 0\\n1 -2 0\\n-1 -2 0\\n"
>>> check(cnf, b"5 2 0 1 2 0\\n6 0 5 3 4 0\\n").valid
True
>>> r = check(cnf, b"5 2 0 3 0\\n")
>>> r.valid, r.message
(False, 'lemma 1 (id 5, line 1): hint 3 is satisfied, not unit')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from types import ModuleType
from typing import TYPE_CHECKING

from minttt.errors import InputError
from minttt.proof.drat import (
    MAX_STREAM,
    CheckResult,
    ProofFormatError,
    Step,
    parse_cnf,
    read_bytes,
    read_chunks,
    read_lines,
)

if TYPE_CHECKING:  # annotations only: the checker starts in a few milliseconds (no pathlib)
    from pathlib import Path

#: the longest LRAT line read: drat-trim deletes every clause the refutation does not need in
#: one line, which for a formula of millions of clauses runs to tens of MB
MAX_LINE = 1 << 30
_CONFLICT = ""  # what _propagate returns on a conflict (else the reason it failed)
_NO_CONFLICT = "the hints end without a conflict"


def check(cnf: bytes, proof: bytes, *, compiled: bool | None = None) -> CheckResult:
    """Check an LRAT ``proof`` (text bytes) of the DIMACS ``cnf`` (bytes).

    ``compiled``: ``None`` (the default) runs the compiled check where it was built, ``True``
    requires it (:class:`~minttt.errors.InputError` without), ``False`` runs only the reference.
    """
    kernel = _kernel(compiled)
    if kernel is not None:
        result = _check_compiled(kernel, cnf, iter((proof,)), None)
        if result is not None:
            return result
    _, clauses = parse_cnf(cnf)
    return check_lines(clauses, proof.split(b"\n"))


def check_files(
    cnf: str | Path,
    proof: str | Path,
    progress: Callable[[str, int, int], None] | None = None,
    *,
    compiled: bool | None = None,
) -> CheckResult:
    """Check files (plain, .xz or .gz); the proof is read as a stream (LRAT files run to GB).

    ``progress("lines", done, 0)`` is called every 65,536 lines (the total is not known ahead),
    or after each piece read (the compiled check). ``compiled`` as for :func:`check`.
    """
    return check_file(read_bytes(cnf, text=True), proof, progress, compiled=compiled)


def check_file(
    cnf: bytes,
    proof: str | Path,
    progress: Callable[[str, int, int], None] | None = None,
    *,
    compiled: bool | None = None,
) -> CheckResult:
    """:func:`check_files` with the CNF given as its DIMACS bytes (a formula held in memory,
    checked against the proof file another tool wrote: drat-trim's LRAT)."""
    kernel = _kernel(compiled)
    if kernel is not None:
        chunks = read_chunks(proof, text=True, limit=MAX_STREAM)
        result = _check_compiled(kernel, cnf, chunks, progress)
        if result is not None:
            return result
    _, clauses = parse_cnf(cnf)
    lines: Iterable[bytes] = read_lines(proof, MAX_LINE)
    if progress is not None:
        lines = _counted(lines, progress)
    return check_lines(clauses, lines)


def _counted(lines: Iterable[bytes], progress: Callable[[str, int, int], None]) -> Iterator[bytes]:
    for number, line in enumerate(lines):
        if number % 65536 == 0:
            progress("lines", number, 0)
        yield line


def check_lines(clauses: list[tuple[int, ...]], lines: Iterable[bytes]) -> CheckResult:
    """Check LRAT ``lines`` against the formula ``clauses`` (ids 1..m), up to the empty clause.

    Each lemma is first checked by :func:`_rup` (the common case: its hints, all positive,
    propagate to a conflict); any other (RAT, a failure) is judged again by
    ``_Checker.implied``, which names what is wrong."""
    checker = _Checker(clauses)
    result, db, used = checker.result, checker.db, checker.used
    pop, last = db.pop, len(clauses)
    for number, raw in enumerate(lines, start=1):
        words = raw.split()
        if not words or words[0][:1] == b"c":
            continue
        if b"+" in raw or b"_" in raw:  # int() reads them; an LRAT number is -?[0-9]+
            raise ProofFormatError(f"LRAT line {number}: not numbers: {_show(words)}")
        if len(words) > 1 and words[1] == b"d":
            for cid in _deletions(words, number):
                pop(cid, None)
                result.deletions += 1
            continue
        cid, lits, hints = _lemma(words, number)
        result.lemmas += 1
        if cid <= last:
            why = f"its id is not above the previous id {last}"
            return _fail(result, Step(0, lits, number), cid, why)
        conflict = _rup(db, lits, hints)
        if conflict:
            used.update(hints[:conflict])
        else:
            why = checker.implied(lits, hints)
            if why:
                return _fail(result, Step(0, lits, number), cid, why)
        db[cid] = lits
        last = cid
        if not lits:
            return _valid(result, sorted(i - 1 for i in used if i <= checker.formula))
    result.message = _NO_EMPTY
    return result


_NO_EMPTY = "the proof never adds the empty clause"


def _valid(result: CheckResult, core_formula: list[int]) -> CheckResult:
    """``result`` made valid: the empty clause is added, ``core_formula`` (0-based) used."""
    result.valid = True
    result.core_lemmas = result.lemmas
    result.core_formula = core_formula
    result.core_clauses = len(core_formula)
    result.message = f"valid: {result.lemmas} lemmas checked" + (
        f" ({result.rat_lemmas} by RAT)" if result.rat_lemmas else ""
    )
    return result


def _kernel(compiled: bool | None) -> ModuleType | None:
    """The compiled checker, if ``compiled`` asks for it and the package was built with it."""
    if compiled is False:
        return None
    try:
        from minttt.proof import kernels
    except ImportError:
        if compiled:
            raise InputError(
                "the compiled LRAT checker was not built (it needs a C compiler when minttt is "
                "installed); run the reference instead"
            ) from None
        return None
    return kernels


#: what ``kernels.lrat_feed`` returns: going on, valid, give the proof back to the reference (and
#: 3: the proof ended without the empty clause)
_GOING, _VALID, _DEFER = 0, 1, 2


def _check_compiled(
    kernel: ModuleType,
    cnf: bytes,
    chunks: Iterable[bytes],
    progress: Callable[[str, int, int], None] | None,
) -> CheckResult | None:
    """The compiled check of the proof's ``chunks`` against the DIMACS text ``cnf``; ``None``
    where it gives the proof back to the reference (a RAT lemma, any failure or unusual line:
    the reference judges it). A CNF the kernel does not read in one sweep (see
    ``kernels.lrat_from_cnf``) is read by :func:`~minttt.proof.drat.parse_cnf`, which raises
    where it is wrong, as the reference would."""
    from array import array

    status = _GOING
    if progress is not None:
        progress("lines", 0, 0)
    try:
        state = kernel.lrat_from_cnf(cnf, MAX_LINE)
        if state is None:
            _, clauses = parse_cnf(cnf)
            try:
                formula = array("i", chain.from_iterable((*c, 0) for c in clauses))
            except OverflowError:  # a literal past 32 bits: the reference's
                return None
            state = kernel.lrat_new(formula, len(clauses), MAX_LINE)
        for chunk in chunks:
            status, lines = kernel.lrat_feed(state, chunk, False)
            if progress is not None:
                progress("lines", lines, 0)
            if status != _GOING:
                break
        if status == _GOING:
            status, _ = kernel.lrat_feed(state, b"", True)
    except MemoryError:  # the kernel's arrays did not fit: the reference checks it, or says why
        return None
    if status == _DEFER:
        return None
    lemmas, deletions, used = kernel.lrat_stats(state)
    result = CheckResult(False, _NO_EMPTY, lemmas=lemmas, deletions=deletions)
    result.engine = "compiled"
    return _valid(result, array("i", used).tolist()) if status == _VALID else result


def _rup(db: dict[int, tuple[int, ...]], lits: tuple[int, ...], hints: list[int]) -> int:
    """The fast path of ``_Checker.implied``: with ``lits`` false, each hint clause in turn
    has every literal false but one, which becomes true, until one has all false (the conflict).
    The number of hints up to the conflict; 0 when the lemma is a tautology or that fails in any
    way (a negative hint, a clause not live, satisfied or not unit, no conflict)."""
    false = set(lits)
    if not false.isdisjoint([-x for x in lits]):
        return 0  # a tautology: judged by _Checker.implied
    add, count = false.add, 0
    try:
        for h in hints:
            count += 1
            unit = 0
            for x in db[h]:
                if x not in false:
                    if unit or -x in false:
                        return 0  # a second literal not false, or a true one
                    unit = x
            if not unit:
                return count  # every literal false: the conflict
            add(-unit)
    except KeyError:  # not a live clause
        return 0
    return 0


class _Checker:
    """The live clauses by id, and the formula clauses the hints have used."""

    def __init__(self, clauses: list[tuple[int, ...]]) -> None:
        self.db: dict[int, tuple[int, ...]] = {i: c for i, c in enumerate(clauses, start=1)}
        self.formula = len(clauses)
        self.used: set[int] = set()  # the ids of the hints used (formula clauses: 1..formula)
        self.result = CheckResult(False, "")

    def implied(self, lits: tuple[int, ...], hints: list[int]) -> str:
        """Why the lemma ``lits`` does not follow with ``hints`` ("" when it does)."""
        true = {-lit for lit in lits}
        if not true.isdisjoint(lits):
            return ""  # a tautology follows from anything
        rup = hints if not hints or min(hints) > 0 else hints[: _first_negative(hints)]
        why = self.propagate(true, rup)
        if why == _CONFLICT:
            return ""
        if why != _NO_CONFLICT:
            return why  # a hint that is not unit or not live: no RAT check repairs that
        if not lits:
            return why
        rat_why = self.rat(lits[0], true, hints[len(rup) :])
        if not rat_why:
            self.result.rat_lemmas += 1
            return ""
        return rat_why if len(rup) < len(hints) else f"{why}, and it is not RAT ({rat_why})"

    def propagate(self, true: set[int], hints: list[int]) -> str:
        """Make each hint clause unit under ``true`` (adding its literal) until one is falsified.

        The hints it used (up to the conflict) join :attr:`used`."""
        get = self.db.get
        for i, h in enumerate(hints):
            clause = get(h)
            if clause is None:
                return f"hint {h} is not a live clause"
            unit = 0
            free = 0
            for lit in clause:
                if lit in true:
                    return f"hint {h} is satisfied, not unit"
                if -lit not in true:
                    unit = lit
                    free += 1
            if free == 0:
                self.used.update(hints[: i + 1])
                return _CONFLICT
            if free > 1:
                return f"hint {h} is not unit ({free} literals unassigned)"
            true.add(unit)
        self.used.update(hints)
        return _NO_CONFLICT

    def rat(self, pivot: int, true: set[int], groups: list[int]) -> str:
        """RAT on ``pivot``: every live clause with -pivot gives a resolvent its group refutes."""
        by_clause: dict[int, list[int]] = {}
        current: list[int] | None = None
        for h in groups:
            if h < 0:
                current = by_clause.setdefault(-h, [])
            elif current is not None:
                current.append(h)
        for cid, clause in self.db.items():
            if -pivot not in clause:
                continue
            rest = [lit for lit in clause if lit != -pivot]
            if any(lit in true or -lit in rest for lit in rest):
                continue  # the resolvent is already satisfied (or a tautology): nothing to refute
            if cid not in by_clause:
                return f"RAT on {pivot}: no hints for clause {cid}"
            why = self.propagate(true | {-lit for lit in rest}, by_clause[cid])
            if why != _CONFLICT:
                return f"RAT on {pivot}, clause {cid}: {why}"
        return ""


def _ints(words: list[bytes], number: int) -> list[int]:
    """The numbers ``words`` are (:func:`check_lines` has refused the ``+1`` and ``1_0`` that
    ``int()`` reads)."""
    try:
        return list(map(int, words))
    except ValueError:
        raise ProofFormatError(f"LRAT line {number}: not numbers: {_show(words)}") from None


def _show(words: list[bytes]) -> str:
    text = b" ".join(words).decode("utf-8", "replace")
    return repr(text if len(text) <= 40 else text[:40] + "...")


def _deletions(words: list[bytes], number: int) -> list[int]:
    """The ids of an ``ID d IDS 0`` line."""
    _ints(words[:1], number)
    ids = _ints(words[2:], number)
    if not ids or ids[-1] != 0 or 0 in ids[:-1] or min(ids[:-1], default=1) < 0:
        raise ProofFormatError(f"LRAT line {number}: bad deletion {_show(words)}")
    return ids[:-1]


def _lemma(words: list[bytes], number: int) -> tuple[int, tuple[int, ...], list[int]]:
    """``(id, literals, hints)`` of an ``ID LITS 0 HINTS 0`` line."""
    nums = _ints(words, number)
    if nums[0] > 0 and nums[-1] == 0:  # then 0 is found, and 2 numbers at least
        zero = nums.index(0, 1)
        hints = nums[zero + 1 : -1]
        if zero < len(nums) - 1 and 0 not in hints:
            return nums[0], tuple(nums[1:zero]), hints
    raise ProofFormatError(f"LRAT line {number}: not 'ID LITERALS 0 HINTS 0': {_show(words)}")


def _fail(result: CheckResult, step: Step, cid: int, why: str) -> CheckResult:
    result.failed, result.failed_index = step, result.lemmas
    result.message = f"lemma {result.lemmas} (id {cid}, line {step.line}): {why}"
    return result


def _first_negative(hints: list[int]) -> int:
    for i, h in enumerate(hints):
        if h < 0:
            return i
    return len(hints)


__all__ = ["check", "check_file", "check_files", "check_lines"]
