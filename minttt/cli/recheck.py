"""``minttt recheck``: check a shipped certificate again from scratch. Its CNF is made again by the
reference encoder (:mod:`minttt.trust.encoder`, which shares no code with the pipeline that made
it), a shipped CNF must be that very formula, and the proof is checked against it by minttt's
DRAT checker (:mod:`minttt.proof.drat`; drat-trim too with ``--drat-trim``).

A record is a certificate of a minimum (an ``index.json``) or a lower-bound part (a
``lower-bounds.json``), found in the folder ``--in`` or one folder below it; its claim is read
from its evidence (a lower bound is the number of bounded literals of its cores file), and a
record whose numbers disagree with it fails. The results go to ``recheck.json`` (``--out``),
written after each record: a record already rechecked with files of the same SHA-256 is not
checked again, and Ctrl-C keeps what is done.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minttt.cli.common import (
    cluster_options,
    console,
    counted_progress,
    err_console,
    guarded,
    path_option,
    plain,
    print_json,
    say_wrote,
)
from minttt.cli.spec import Group, argument, option
from minttt.errors import DefectError, InputError
from minttt.fileio import write_json_atomic

FORMAT = "minttt-recheck/1"
RESULTS = "recheck.json"
INDEXES = ("index.json", "lower-bounds.json")
FILES = ("cnf", "proof", "cores")
CHECKER = "minttt.proof.drat (backward RUP/RAT) against the reference encoder's CNF"
CLAIM = (
    "for each record: the CNF made again by minttt.trust.encoder (no code shared with the "
    "pipeline's encoder) is the shipped one when one ships, and the shipped DRAT proof refutes "
    "it, so the record's bound holds; checked in the run the record names (minttt version)"
)
DONE = ("checked", "failed", "no proof shipped")
WORKERS, SCHEDULER = cluster_options(" (--all)")


def shipped_file(folder: Path, name: str) -> Path:
    """A record's file: in ``folder``, or a release asset's fetched copy (minttt.assets)."""
    from minttt.assets import evidence

    found = evidence(folder / name)
    return folder / name if found is None else found


def find_records(folder: Path) -> dict[str, tuple[Path, dict[str, Any]]]:
    """Every record of the indexes in ``folder`` and its sub-folders, by key
    (``index path:name``; a lower-bound part's name is its proof's stem)."""
    out: dict[str, tuple[Path, dict[str, Any]]] = {}
    paths = [p for name in INDEXES for p in (folder / name, *sorted(folder.glob(f"*/{name}")))]
    for path in paths:
        if not path.is_file():
            continue
        try:
            records = json.loads(path.read_bytes())["certificates"]
            assert isinstance(records, list)
        except (ValueError, KeyError, TypeError, AssertionError):
            raise InputError(f"{path}: not a certificate index") from None
        where = path.relative_to(folder).as_posix()
        for r in records:
            if not isinstance(r, dict) or not isinstance(r.get("variant"), str):
                raise InputError(f"{path}: a record without a variant")
            name = r["variant"] if "minimum" in r else _stem(r)
            out[f"{where}:{name}"] = (path, r)
    return out


def _stem(record: dict[str, Any]) -> str:
    proof = record.get("proof") or record.get("cores") or record["variant"]
    return str(proof).split(".relaxed.")[0].removesuffix(".drat.xz")


def select(records: dict[str, Any], names: list[str], every: bool) -> list[str]:
    """The keys to recheck: every one, or each ``name`` (a key, a variant, a part's stem)."""
    if every == bool(names):
        raise InputError("give record NAMEs or --all (not both)")
    if every:
        return list(records)
    keys = []
    for name in names:
        hits = [k for k in records if name in (k, k.partition(":")[2])]
        if len(hits) != 1:
            what = "no record" if not hits else f"{len(hits)} records"
            raise InputError(f"{name}: {what} of that name (a variant or a part's file stem)")
        keys += hits
    return keys


def file_shas(folder: Path, record: dict[str, Any]) -> dict[str, str]:
    """SHA-256 of the bytes of each file the record names that exists."""
    out = {}
    for field in FILES:
        name = record.get(field)
        if name and shipped_file(folder, str(name)).is_file():
            out[field] = hashlib.sha256(shipped_file(folder, str(name)).read_bytes()).hexdigest()
    return out


def _claimed_cnf(folder: Path, record: dict[str, Any]) -> tuple[Any, int, str]:
    """The reference CNF of a record, the bound its evidence makes, and what that bound is."""
    from minttt.proof import drat
    from minttt.trust.encoder import VariantSpec, certificate_cnf, relaxed_cnf

    variant = VariantSpec.parse(str(record["variant"]))
    if "minimum" in record:
        minimum = int(record["minimum"])
        if record.get("bound") != minimum - 1:
            raise DefectError(f"bound {record.get('bound')} is not minimum {minimum} - 1")
        form = "level" if str(record.get("pipeline", "")).startswith("array") else "walk"
        return certificate_cnf(variant, minimum, form=form), minimum, "minimum"
    if record.get("method") != "relaxed cores":
        raise InputError(f"{record['variant']}: only relaxed-cores parts are rechecked")
    cores = shipped_file(folder, str(record["cores"]))
    text = drat.read_bytes(cores, text=True)
    if hashlib.sha256(text).hexdigest() != record.get("cores_sha256"):
        raise DefectError(f"{cores.name} is not the cores file the record names")
    doc = json.loads(text)
    lower = len(doc["bounded"])
    if (record.get("lower"), record.get("bound")) != (lower, lower - 1):
        raise DefectError(
            f"the record says lower {record.get('lower')}, its cores file bounds {lower}"
        )
    return relaxed_cnf(variant, doc["log"], doc["bounded"], record["depths"]), lower, "lower"


def recheck_record(folder: str, record: dict[str, Any], drat_trim: str | None) -> dict[str, Any]:
    """Recheck one record (of the index in ``folder``): its result entry."""
    from minttt.proof import drat

    start = time.monotonic()
    where = Path(folder)
    entry: dict[str, Any] = {"variant": record["variant"], "files": file_shas(where, record)}
    if not record.get("proof") and not record.get("cnf"):
        return {**entry, "result": "no proof shipped", "message": "nothing to check here"}
    try:
        cnf, bound, what = _claimed_cnf(where, record)
        entry.update({what: bound, "variables": cnf.nvars, "clauses": len(cnf)})
        text = cnf.text()
        entry["cnf_sha256"] = hashlib.sha256(text).hexdigest()
        if record.get("cnf"):
            from minttt.trust.encoder import cnf_body

            shipped = cnf_body(drat.read_bytes(shipped_file(where, str(record["cnf"])), text=True))
            if shipped != text:
                raise DefectError("the shipped CNF is not the one the reference encoder makes")
        if not record.get("proof"):
            message = "its shipped CNF is the reference encoder's; no proof ships to check"
            return {**entry, "result": "no proof shipped", "message": message}
        proof = drat.read_proof(shipped_file(where, str(record["proof"])))
        if hashlib.sha256(proof).hexdigest() != record.get("proof_sha256"):
            raise DefectError("the proof is not the one the record names")
        result = drat.check(text, proof)
        entry.update(lemmas=result.lemmas, core_lemmas=result.core_lemmas, engine=result.engine)
        if not result.valid:
            raise DefectError(f"minttt.drat: {result.message}")
        if drat_trim:
            from minttt.proof.drat_trim import DRAT_TRIM_LIMIT, drat_trim_check

            verdict = drat_trim_check(Path(drat_trim), text, proof, DRAT_TRIM_LIMIT)
            entry["drat_trim"] = {k: verdict[k] for k in ("verified", "seconds") if k in verdict}
        claim = "no table below" if what == "minimum" else "every table has at least"
        entry.update(result="checked", message=f"the proof refutes its CNF: {claim} {bound}")
    except DefectError as exc:
        entry.update(result="failed", message=str(exc).splitlines()[0])
    except InputError as exc:  # an unreadable file: this record fails, the others go on
        entry.update(result="failed", message=str(exc).splitlines()[0])
    entry["seconds"] = round(time.monotonic() - start, 1)
    return entry


def _load_results(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        doc = json.loads(path.read_bytes())
        assert doc["format"] == FORMAT and isinstance(doc["records"], dict)
    except (ValueError, KeyError, TypeError, AssertionError):
        raise InputError(f"{plain(path)}: not a recheck results file ({FORMAT})") from None
    return dict(doc["records"])


def _save(path: Path, results: dict[str, Any]) -> None:
    from minttt.version import __version__

    doc = {
        "format": FORMAT,
        "claim": CLAIM,
        "checker": CHECKER,
        "minttt": __version__,
        "records": dict(sorted(results.items())),
    }
    write_json_atomic(path, doc)


def _run(
    tasks: dict[str, tuple[str, dict[str, Any], str | None]],
    on_result: Callable[[str, dict[str, Any]], None],
    cluster: tuple[int, str | None] | None,
) -> None:
    """Each task's recheck, in this process (no ``cluster``, or one task) or on Dask
    (``(workers, scheduler)``)."""
    if cluster is None or len(tasks) <= 1:
        for key, args in tasks.items():
            on_result(key, recheck_record(*args))
        return
    from minttt.cluster import DaskCluster, fan_out

    with DaskCluster(*cluster) as client:
        fan_out(client, recheck_record, tasks, on_result)


def recheck_command(
    names: list[str] = argument(
        [], metavar="NAME", help="Records: a variant, a part's file stem, or INDEX:NAME."
    ),
    every: bool = option(False, "--all", help="Every record of every index in --in."),
    folder: Path = path_option(
        None,
        "--in",
        help="The certificates' folder (its indexes; default: the ones this package ships).",
        metavar="FOLDER",
    ),
    out: Path = path_option(
        Path(RESULTS), "--out", help="The results file (default: recheck.json here)."
    ),
    drat_trim: Path = path_option(None, "--drat-trim", help="Check with this drat-trim too."),
    again: bool = option(False, "--again", help="Recheck records already rechecked."),
    json_out: bool = option(False, "--json", help="Print the results as JSON."),
    workers: int = WORKERS,
    scheduler: str = SCHEDULER,
) -> None:
    """Make certificates' CNFs again by the reference encoder and check their proofs.

    \f
    Raises
    ------
    InputError
        Bad input (an unknown NAME, an unreadable index): one line, exit 2.
    DefectError
        A record fails its recheck: exit 1, the results written.
    """
    if drat_trim is not None and not drat_trim.is_file():
        raise InputError(f"--drat-trim {plain(drat_trim)}: no such program")
    from minttt.assets import fetch_missing

    if folder is None:
        from minttt.cli.fetch import shipped_results

        folder = shipped_results() / "proofs"
    records = find_records(folder)
    keys = select(records, names, every)
    path = out
    results = _load_results(path)
    trim = str(drat_trim) if drat_trim else None
    tasks = {}
    for key in keys:
        index, record = records[key]
        old = results.get(key) or {}
        same = old.get("files") == file_shas(index.parent, record)
        if again or not same or old.get("result") not in DONE or (trim and "drat_trim" not in old):
            tasks[key] = (str(index.parent), record, trim)
            fetch_missing(str(record["variant"]), folder.parent)  # a wheel's: fetched now
    quiet = json_out or not err_console.is_terminal  # a log gets no blank line of a bar
    progress = counted_progress(transient=True, stderr=True, disable=quiet)

    def arrived(key: str, entry: dict[str, Any]) -> None:
        results[key] = entry
        _save(path, results)
        progress.advance(job)

    with progress:
        job = progress.add_task(f"recheck ({len(keys) - len(tasks)} done before)", total=len(tasks))
        _run(tasks, arrived, (workers, scheduler) if every else None)
    mine = {k: results[k] for k in keys}
    if json_out:
        print_json(mine)
    else:
        for key, entry in mine.items():
            before = " (rechecked before)" if key not in tasks else ""
            line = f"{entry['result']}{before}  {key}: {entry.get('message', '')}"
            console.print(line, soft_wrap=True)
    if tasks:
        say_wrote(path, json_out=json_out)
    failed = [k for k, e in mine.items() if e["result"] == "failed"]
    if failed:
        first = mine[failed[0]]["message"]
        raise DefectError(f"{len(failed)} of {len(keys)} records fail: {failed[0]}: {first}")


def register(app: Group) -> None:
    """Add ``recheck`` to ``app``."""
    app.command("recheck")(guarded(recheck_command))


__all__ = ["find_records", "recheck_command", "recheck_record", "register", "select"]
