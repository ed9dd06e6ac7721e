"""Hostile lower-bound records (issue 71): a record's bound is the one its shipped evidence
states, never its ``lower`` field. Raised bounds, bounds set to a table's size, proofs swapped
between parts or replaced by the empty clause, cut cores logs: each is refused on read in one
line (InputError; ``minttt scale`` exits 2), with every SHA-256 redone so that only the
evidence can tell. And ``scale --cores --relax`` takes no record marked ``complete`` at its word:
it goes on from it, as from any record, and the proof checked says what stands."""

from __future__ import annotations

import hashlib
import json
import lzma
from pathlib import Path
from typing import Any

import pytest

from minttt.bounds.levels import table_depths
from minttt.errors import InputError
from minttt.formula.arrays import encode_arrays
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.proof import lower
from minttt.proof.certify import compress
from minttt.proof.cnf import level_literals
from minttt.proof.lower import (
    LOWER_INDEX,
    build_cores_certificate,
    load_lower,
    lower_stem,
    write_lower_records,
)

O_NAME, X_NAME = "second-lookup-entries", "first-any-lookup-entries"  # 3x3: minima 72 and 22


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Summaries of cores files are kept in a cache folder of the test's own."""
    monkeypatch.setenv("MINTTT_CACHE", str(tmp_path / "cache"))


def _stop_after(monkeypatch: pytest.MonkeyPatch, calls: int) -> None:
    """The search's time runs out at its ``calls + 1``-th look for a core."""
    real, count = lower._next_core, [0]

    def next_core(solver, free, deadline):  # type: ignore[no-untyped-def]
        count[0] += 1
        return None if count[0] > calls else real(solver, free, deadline)

    monkeypatch.setattr(lower, "_next_core", next_core)


def _write(folder: Path, monkeypatch: pytest.MonkeyPatch, name: str, calls: int | None) -> None:
    """A relaxed-cores record of ``name`` (3x3), stopped after ``calls`` cores (None: run to
    its end), written into ``folder``'s index."""
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    depths = [int(d) for d in table_depths(graph, formula)]  # as scale's records have them
    with monkeypatch.context() as m:
        if calls is not None:
            _stop_after(m, calls)
        cert = build_cores_certificate(
            variant, folder, graph=graph, formula=formula, depths=depths, relax=True
        )
    write_lower_records(folder, [cert.record], {str(p): d for p, d in cert.files.items()})


@pytest.fixture(name="folder")
def _folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two parts' records, as ``proofs/mnk`` ships them: relaxed cores, stopped, no CNF."""
    folder = tmp_path / "certs"
    _write(folder, monkeypatch, O_NAME, 40)
    _write(folder, monkeypatch, X_NAME, 8)
    doc = _index(folder)
    for r in doc["certificates"]:  # the 4x4 parts ship no CNF: the cores log is the evidence
        (folder / r["cnf"]).unlink()
        r["cnf"] = None
        for key in ("cnf_bytes", "cnf_file_sha256"):
            r.pop(key, None)
    _save(folder, doc)
    assert len(load_lower(folder / LOWER_INDEX)) == 2
    return folder


def _index(folder: Path) -> dict[str, Any]:
    return json.loads((folder / LOWER_INDEX).read_text())


def _save(folder: Path, doc: dict[str, Any]) -> None:
    (folder / LOWER_INDEX).write_text(json.dumps(doc, indent=2) + "\n")


def _record(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in doc["certificates"] if r["variant"] == name)


def _ship(
    folder: Path, record: dict[str, Any], field: str, text: bytes, *, raw: bytes | None = None
) -> None:
    """``record``'s ``field`` file made of ``text`` (or of the bytes ``raw``), every SHA-256
    and size of the record redone to match."""
    packed = compress(text) if raw is None else raw
    (folder / record[field]).write_bytes(packed)
    record[f"{field}_sha256"] = hashlib.sha256(text).hexdigest()
    record[f"{field}_file_sha256"] = hashlib.sha256(packed).hexdigest()
    if f"{field}_bytes" in record:
        record[f"{field}_bytes"] = len(packed)


def _rename(folder: Path, record: dict[str, Any], new_lower: int) -> None:
    """``record``'s files renamed for the bound ``new_lower``, as a forger would."""
    stem = lower_stem(Variant.parse(record["variant"]), new_lower, record["depths"])
    for field, ext in (("proof", "drat"), ("cores", "json"), ("cnf", "cnf")):
        if record.get(field):
            name = f"{stem}.relaxed.{ext}.xz"
            (folder / record[field]).rename(folder / name)
            record[field] = name


def _refused(folder: Path, match: str) -> None:
    with pytest.raises(InputError, match=match) as caught:
        load_lower(folder / LOWER_INDEX)
    assert "\n" not in str(caught.value)


def _cores(folder: Path, record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(lzma.decompress((folder / record["cores"]).read_bytes()))


def test_a_raised_bound_is_refused(folder: Path) -> None:
    doc = _index(folder)
    r = _record(doc, O_NAME)
    r["lower"] += 10
    r["bound"] += 10
    _save(folder, doc)
    _refused(folder, "lower 50, but its cores file bounds 40")
    _rename(folder, r, r["lower"])  # its files named for the bound, its core sizes made up
    r["core_sizes"] += [1] * 10
    _save(folder, doc)
    _refused(folder, "lower 50, but its cores file bounds 40")


def test_a_bound_set_to_the_tables_size_is_refused(folder: Path) -> None:
    doc = _index(folder)
    r = _record(doc, X_NAME)
    size = 1287  # every X part at the table's size, as the hostile round did on 4x4 k=4
    r["lower"], r["bound"] = size, size - 1
    r["core_sizes"] += [1] * (size - len(r["core_sizes"]))
    _rename(folder, r, size)
    _save(folder, doc)
    _refused(folder, f"lower {size}, but its cores file bounds")


def test_proofs_swapped_between_parts_are_refused(folder: Path) -> None:
    doc = _index(folder)
    o, x = _record(doc, O_NAME), _record(doc, X_NAME)
    for key in ("proof", "proof_sha256", "proof_file_sha256", "proof_bytes"):
        o[key], x[key] = x[key], o[key]
    _save(folder, doc)
    _refused(folder, "is not named")


def test_a_proof_of_the_empty_clause_is_refused(folder: Path) -> None:
    doc = _index(folder)
    r = _record(doc, O_NAME)
    _ship(folder, r, "proof", b"0\n")
    _save(folder, doc)
    _refused(folder, "fewer than the .* of the clauses its cores need")
    r["lemmas"] = 1
    _ship(folder, r, "proof", b"1 0\n0\n")
    _save(folder, doc)
    _refused(folder, "fewer than")


def test_a_cut_cores_log_is_refused(folder: Path) -> None:
    doc = _index(folder)
    r = _record(doc, O_NAME)
    text = lzma.decompress((folder / r["cores"]).read_bytes())
    _ship(folder, r, "cores", text[: len(text) // 2])  # cut in the middle of its log
    _save(folder, doc)
    _refused(folder, "not JSON")
    listed = json.loads(text)
    cut = {"log": listed["log"], "bounded": listed["bounded"][:-3]}  # its last cores cut
    _ship(folder, r, "cores", json.dumps(cut).encode())
    _save(folder, doc)
    _refused(folder, "cores file bounds 37")
    packed = compress(text)  # the xz file itself cut, its SHA-256 redone
    _ship(folder, r, "cores", text, raw=packed[: len(packed) - 40])
    _save(folder, doc)
    _refused(folder, "truncated")


def test_core_sizes_and_exact_must_be_the_logs(folder: Path) -> None:
    doc = _index(folder)
    r = _record(doc, O_NAME)
    sizes = r["core_sizes"]
    r["core_sizes"] = [2] * len(sizes)
    _save(folder, doc)
    _refused(folder, "core sizes are not those of its cores file")
    r["core_sizes"], r["exact"] = sizes, True
    _save(folder, doc)
    _refused(folder, "exact only where relaxed cores ran to their end")


def test_a_shipped_cnf_states_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the CNF ships (the catalogue's records), its first lines state the bound and the
    variant: a record of another bound or variant than its CNF's is refused."""
    folder = tmp_path / "certs"
    _write(folder, monkeypatch, O_NAME, 30)
    doc = _index(folder)
    r = _record(doc, O_NAME)
    cnf = lzma.decompress((folder / r["cnf"]).read_bytes())
    _ship(folder, r, "cnf", cnf.replace(b"at least 30 entries", b"at least 31 entries", 1))
    _save(folder, doc)
    _refused(folder, "states 31 entries")


def _scale(certs: Path, ckpt: Path) -> list[str]:
    return [
        "scale", "--game", "mnk:3,3,3", "--role", "second", "--checkpoint", str(ckpt),
        "--cores", "60", "--relax", "--certificates", str(certs),
    ]  # fmt: skip


def test_scale_refuses_a_raised_record_in_one_line(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from minttt.cli import run as cli_run

    doc = _index(folder)
    r = _record(doc, O_NAME)
    r["lower"], r["bound"] = r["lower"] + 5, r["bound"] + 5
    r["core_sizes"] += [1] * 5
    _rename(folder, r, r["lower"])
    _save(folder, doc)
    capsys.readouterr()
    assert cli_run(_scale(folder, tmp_path / "o.json")) == 2
    err = capsys.readouterr().err.splitlines()
    assert "its cores file bounds 40" in err[-1]  # one line, after the run's progress
    assert sum("bounds 40" in line for line in err) == 1


def test_a_record_marked_complete_below_the_minimum_is_gone_on_from(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """40 cores of 3x3 O marked run to their end: scale does not take 40 as the minimum (72);
    it goes on from them to 72."""
    from minttt.cli import run as cli_run

    doc = _index(folder)
    r = _record(doc, O_NAME)
    r["complete"] = r["exact"] = True
    _save(folder, doc)
    ckpt = tmp_path / "o.json"
    assert cli_run(_scale(folder, ckpt)) == 0
    assert "going on from 40 relaxed cores" in capsys.readouterr().err
    record = _record(_index(folder), O_NAME)
    assert record["lower"] == 72 and record["complete"] and record["runs"] == 2
    assert json.loads(ckpt.read_text())["lower"] == 72


def test_a_record_marked_complete_above_the_minimum_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """3x3 O's 72, run to its end, forged into 80 (eight positions no core holds counted as
    cores of one, its files renamed, every SHA-256 redone, its CNF dropped): it reads as a
    record, but scale goes on from it and the proof checked refuses it; 80 is never claimed."""
    from minttt.cli import run as cli_run

    folder = tmp_path / "certs"
    _write(folder, monkeypatch, O_NAME, None)
    doc = _index(folder)
    r = _record(doc, O_NAME)
    assert r["lower"] == 72 and r["complete"]
    variant = Variant.parse(r["variant"])
    graph = build_array_graph(variant.rules)
    _, softs = level_literals(graph, encode_arrays(graph, variant), r["depths"])
    listed = _cores(folder, r)
    held = {x for op in listed["log"] if op[0] == "new" for x in op[2:]} | set(listed["bounded"])
    free = [int(p) for p in softs if int(p) not in held][:8]
    listed["bounded"] += free
    (folder / r["cnf"]).unlink()
    r["cnf"] = None
    for key in ("cnf_bytes", "cnf_file_sha256"):
        r.pop(key, None)
    r["lower"], r["bound"], r["core_sizes"] = 80, 79, [*r["core_sizes"], *[1] * 8]
    _rename(folder, r, 80)
    _ship(folder, r, "cores", json.dumps(listed, separators=(",", ":")).encode() + b"\n")
    _save(folder, doc)
    assert [x["lower"] for x in load_lower(folder / LOWER_INDEX)] == [80]  # reads as a record
    ckpt = tmp_path / "o.json"
    capsys.readouterr()
    assert cli_run(_scale(folder, ckpt)) == 1
    err = capsys.readouterr().err.splitlines()
    assert "the minimum, certified" not in " ".join(err)
    assert [x["lower"] for x in load_lower(folder / LOWER_INDEX)] == [80]  # not written over
    assert not ckpt.exists() or json.loads(ckpt.read_text())["lower"] < 80


@pytest.mark.parametrize("name", [O_NAME, X_NAME])
def test_the_cores_file_is_read_as_the_search_made_it(tmp_path: Path, name: str) -> None:
    """The bound and core sizes read from a cores file, its totalizers numbered without being
    built, are the search's own (a search run to its end, with core exhaustion: its log grows
    totalizers too), and the proof holds at least the bytes its cores need."""
    from minttt.proof import lower_evidence as ev
    from minttt.proof.totalizer import replay

    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    cert = build_cores_certificate(
        variant, tmp_path, graph=graph, formula=formula, relax=True, exhaust=True
    )
    r = cert.record
    text = lzma.decompress(cert.files[tmp_path / r["cores"]])
    listed = json.loads(text)
    assert any(op[0] == "grow" for op in listed["log"])
    top = level_literals(graph, formula, None)[0].num_vars
    tot, _ = replay(listed["log"], top)
    assert ev._roots(listed["log"], top) == ([tot.outputs(i) for i in range(len(tot))], tot.top)
    summary = ev.cores_summary(text, "relaxed cores", r["variables"])
    assert (summary["lower"], summary["core_sizes"]) == (r["lower"], r["core_sizes"])
    proof = lzma.decompress(cert.files[tmp_path / r["proof"]])
    assert summary["proof_floor"] <= len(proof)
    assert ev.xz_text_size(cert.files[tmp_path / r["proof"]]) == len(proof)
