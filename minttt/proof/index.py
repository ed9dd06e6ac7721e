"""The certificate index (``index.json`` of a certificate folder): one record per certified
variant, merged and written with the files it names, read back and checked against them before a
record is kept.

The index's header says what every record claims and how the files were made: the proof solver
(:data:`minttt.proof.cubes.SAT_SOLVER_NAME`), PySAT's version, the cardinality encoding, the
compression.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from importlib.metadata import version
from pathlib import Path
from typing import Any

from minttt.assets import evidence
from minttt.errors import InputError
from minttt.fileio import read_regular, write_text_atomic
from minttt.formula.variants import Variant, certificate_variants
from minttt.proof import drat
from minttt.proof.cnf import CARD_ENCODING
from minttt.proof.cubes import SAT_SOLVER_NAME
from minttt.schema import load_json
from minttt.table.model import load_table
from minttt.vocabulary import Objective

INDEX = "index.json"
# format 2: every CNF comment line at most proof.cnf.MAX_COMMENT bytes (the bounded literals over
# several "c objective" lines); format 1 wrote them on one line, which lrat-check stops reading at
INDEX_FORMAT = "minttt-certificates/2"
MAX_SESSIONS = 1 << 26  # bytes of a certificate's session record
SESSIONS_FORMAT = "minttt-sessions/2"  # a cube-and-conquer certificate's session record (2:
# segments without deletions, the solver's options recorded)
INDEX_SCHEMA = "certificate-index.schema.json"  # in minttt/schemas/
#: the record of the second check (``scripts/second_check.py``): drat-trim and minttt.lrat on
#: every certificate, in ``results/proofs/``
SECOND_CHECK = "second-check.json"
SECOND_CHECKED = "drat-trim, its LRAT by minttt.lrat (second-check.json, proof SHA-256 matched)"
MNK_FOLDER = "mnk"  # the m,n,k certificates: minttt certify --all (minutes), not reproduce
XZ_PRESET = 6  # the xz preset of the long runs' files (m,n,k and lower-bound certificates)
#: the xz preset of the 3x3 certificates, which every ``reproduce`` writes again: about five
#: times faster to write than preset 6, about 20% larger (the proofs' SHA-256 are of their text)
QUICK_XZ_PRESET = 2


def xz_preset(folder: str | Path) -> int:
    """The xz preset of a certificate folder's files: :data:`XZ_PRESET` in the m,n,k folder,
    :data:`QUICK_XZ_PRESET` elsewhere (the folder's index names it)."""
    return XZ_PRESET if Path(folder).name == MNK_FOLDER else QUICK_XZ_PRESET


def load_index(path: Path) -> dict[str, Any]:
    """A certificate index read back: readable JSON that follows
    ``minttt/schemas/certificate-index.schema.json`` (InputError, one line, otherwise). Its
    records are checked against their files by :func:`check_record` before one is kept."""
    return dict(load_json(path, INDEX_SCHEMA, what="certificate index"))


def check_record(folder: Path, record: dict[str, Any]) -> None:
    """An index record read back, checked against the files it names before it is kept
    (InputError, one line): ``bound`` is ``minimum - 1``, the files exist, the shipped proof and
    CNF have the SHA-256 the record states, an entries table has ``minimum`` entries. A file that
    is a release asset not fetched here (:func:`minttt.assets.evidence`) is read from the fetch
    cache, or else not read (``minttt reproduce`` says how many)."""
    name = record.get("variant")
    where = f"{folder / INDEX}, {name}"
    try:
        variant = Variant.parse(str(name))
        minimum, bound = int(record["minimum"]), int(record["bound"])
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{where}: not a certificate record ({exc})") from None
    if minimum < 1 or bound != minimum - 1:
        raise InputError(f"{where}: bound {bound} is not minimum {minimum} minus 1")
    for field, key in (("proof", "proof_sha256"), ("cnf", "cnf_sha256")):
        if record.get(field) is None:
            continue
        found = evidence(folder / str(record[field]))
        if found is None:  # a release asset not fetched here: the record is read as written
            continue
        if not found.is_file():
            raise InputError(f"{where}: {record[field]} is not there")
        if key not in record:  # none recorded (a shipped CNF of the object formula)
            continue
        file = found
        data = drat.read_bytes(file, text=field == "cnf")
        if hashlib.sha256(data).hexdigest() != record[key]:
            raise InputError(f"{where}: {record[field]} is not the file the record names")
    if record.get("sessions") is not None:
        data = read_regular(folder / str(record["sessions"]), max_bytes=MAX_SESSIONS)
        if hashlib.sha256(data).hexdigest() != record.get("sessions_sha256"):
            raise InputError(f"{where}: {record['sessions']} is not the file the record names")
    table = load_table(folder / str(record.get("table")))
    if variant.objective is Objective.ENTRIES and table.size != minimum:
        raise InputError(f"{where}: its table has {table.size} entries, not {minimum}")


def checked_records(folder: Path, variants: Collection[str]) -> dict[str, dict[str, Any]]:
    """``variant -> record`` of the certificate index in ``folder`` for each of ``variants``
    that a checker checked (``checked_by``), each record first checked against its files by
    :func:`check_record` (InputError, one line): a claim that rests on a record rests on files
    that exist and match. None without the index."""
    path = folder / INDEX
    if not path.is_file():
        return {}
    out = {}
    for record in load_index(path)["certificates"]:
        if record.get("variant") in variants and record.get("checked_by"):
            check_record(folder, record)
            unsure = [f for f in ("proof", "cnf") if record.get(f) and f"{f}_sha256" not in record]
            if unsure:
                raise InputError(f"{path}, {record['variant']}: {unsure[0]} without its SHA-256")
            out[str(record["variant"])] = record
    return out


def second_checks(path: Path) -> dict[tuple[str, str], str]:
    """``(folder, variant) -> proof SHA-256`` of every proof the second check found verified by
    drat-trim with its LRAT checked by minttt.lrat (none without the file)."""
    if not path.is_file():
        return {}
    checks = load_json(path, None, what="second check")
    try:
        return {
            (str(c["folder"]), str(c["variant"])): str(c["proof_sha256"])
            for c in checks["certificates"]
            if c.get("verdict") == "VERIFIED" and c.get("lrat_lemmas") is not None
        }
    except (KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a second check ({exc})") from None


def attach_second_checks(
    records: list[dict[str, Any]], folder: str, checks: dict[tuple[str, str], str]
) -> None:
    """Name the second check as what checked each unchecked record (``checked_by`` null) whose
    proof is the one the second check verified (same SHA-256); the others stay unchecked."""
    for record in records:
        if record.get("checked_by") is not None:
            continue
        if checks.get((folder, record["variant"])) == record["proof_sha256"]:
            record["checked_by"] = SECOND_CHECKED


def write_index(out_dir: str | Path, records: list[dict[str, Any]]) -> Path:
    """Merge ``records`` into ``index.json`` (see :func:`index_text`)."""
    return write_text_atomic(Path(out_dir) / INDEX, index_text(out_dir, records))


#: the fields of a record that say how its proof was checked
CHECK_FIELDS = ("checked_by", "check_seconds", "lrat_seconds")


def kept_check(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """``new``, keeping ``old``'s check when both hold the same proof and the new record's check
    is weaker (none, or minttt's alone where drat-trim checked it too): writing a certificate
    again never downgrades what its index says of the same bytes.

    >>> old = {"proof_sha256": "a", "checked_by": "drat-trim; its LRAT by minttt.lrat"}
    >>> kept_check(old, {"proof_sha256": "a", "checked_by": None})["checked_by"]
    'drat-trim; its LRAT by minttt.lrat'
    >>> kept_check(old, {"proof_sha256": "b", "checked_by": None})["checked_by"] is None
    True
    """
    if (
        old is None
        or not old.get("checked_by")
        or old.get("proof_sha256") != new.get("proof_sha256")
    ):
        return new
    was, now = old["checked_by"], new.get("checked_by") or ""
    if now and ("drat-trim" not in was or "drat-trim" in now):
        return new
    return {**new, **{k: old[k] for k in CHECK_FIELDS if k in old}}


def index_text(out_dir: str | Path, records: list[dict[str, Any]]) -> str:
    """``index.json`` with ``records`` merged in (by variant; standard order first, then name)."""

    path = Path(out_dir) / INDEX
    old: list[dict[str, Any]] = []
    if path.exists():
        old = load_index(path)["certificates"]
    fresh = {r["variant"] for r in records}
    for record in old:  # a record carried over is checked against its files before it stays
        if record.get("variant") not in fresh:
            check_record(Path(out_dir), record)
    by = {r["variant"]: r for r in old}
    by.update({r["variant"]: kept_check(by.get(r["variant"]), r) for r in records})
    order = {v.name: i for i, v in enumerate(certificate_variants() + certificate_variants(True))}
    ordered = sorted(by.values(), key=lambda r: (order.get(r["variant"], len(order)), r["variant"]))
    index = {
        "format": INDEX_FORMAT,
        "claim": "for each variant: the CNF (hard clauses + at most minimum-1 objective literals) "
        "is unsatisfiable (the DRAT proof), and the table of size minimum passes minttt verify",
        "sat_solver": SAT_SOLVER_NAME,
        "python_sat": version("python-sat"),
        "cardinality_encoding": CARD_ENCODING,
        "compression": f"xz (preset {xz_preset(out_dir)}, CRC64)",
        "checker": "minttt check-proof CNF PROOF (minttt.drat: backward RUP/RAT, core first); "
        "drat-trim CNF PROOF checks the same files once decompressed. Every shipped proof is "
        "checked by tests/test_certify.py; the checker's seconds are in results/bench.json "
        "(proofs); a proof not shipped (too large) was checked there too",
        "certificates": ordered,
    }
    return json.dumps(index, indent=2) + "\n"  # as write_json_atomic writes it


__all__ = [
    "CHECK_FIELDS",
    "kept_check",
    "SECOND_CHECK",
    "SECOND_CHECKED",
    "attach_second_checks",
    "second_checks",
    "INDEX",
    "INDEX_FORMAT",
    "INDEX_SCHEMA",
    "MNK_FOLDER",
    "QUICK_XZ_PRESET",
    "XZ_PRESET",
    "check_record",
    "checked_records",
    "index_text",
    "xz_preset",
    "load_index",
    "write_index",
]
