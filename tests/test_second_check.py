"""The second check (scripts/second_check.py): drat-trim's verdicts, and minttt.lrat's on
drat-trim's LRAT, cover every certificate, with the proof hashes of the indexes; the script
reports a rejected proof as a defect."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROOFS = ROOT / "results" / "proofs"
SECOND = json.loads((PROOFS / "second-check.json").read_text("utf-8"))
SUMMARY = "c 7 of 20 clauses in core\nc 3 of 11 lemmas in core using 40 resolution steps"


def _script():
    spec = importlib.util.spec_from_file_location("second_check", ROOT / "scripts/second_check.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["second_check"] = module
    spec.loader.exec_module(module)
    return module


second_check = _script()


def _fake(tmp_path: Path, verdict: str) -> Path:
    """A stand-in drat-trim: checks that both files are there, prints ``verdict`` and writes an
    empty LRAT file where ``-L`` asks."""
    script = tmp_path / "drat-trim"
    script.write_text(
        f"#!/bin/sh\ntest -s \"$1\" && test -s \"$2\" && printf '%s\\n' '{SUMMARY}' 's {verdict}'\n"
        'test "$5" = -L && : > "$6"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def _checked_by_certify() -> set[str]:
    """Keys of index records whose certify run itself checked the proof with drat-trim and its
    LRAT with minttt.lrat (``certify --drat-trim``): the two checks this script runs."""
    out = set()
    for folder in ("", "mnk"):
        index = json.loads((PROOFS / folder / "index.json").read_text("utf-8"))
        for r in index["certificates"]:
            by = r.get("checked_by") or ""
            if (
                by.startswith("drat-trim")
                and "minttt.lrat" in by
                and r.get("lrat_seconds", -1) >= 0
            ):
                out.add(f"proofs/{folder}".rstrip("/") + f"/{r['variant']}")
    return out


def test_every_certificate_was_verified_by_drat_trim():
    """In step with the indexes: a new or changed proof must be checked again (here, or by the
    certify run that made it, with drat-trim and minttt.lrat)."""
    done = {f"{r['folder']}/{r['variant']}": r for r in SECOND["certificates"]}
    assert {r["verdict"] for r in done.values()} <= {"VERIFIED", "AUDITED"}
    verified = {k for k, r in done.items() if r["verdict"] == "VERIFIED"}
    at_birth = _checked_by_certify() - verified
    jobs = [j for j in second_check.jobs() if second_check._key(j) not in at_birth]
    assert len(jobs) == len(verified) > 60
    proofs = {second_check._key(j): j.proof_sha256 for j in second_check.jobs()}
    for key, record in done.items():  # a sample replayed adds to a whole check made at birth
        if record["verdict"] == "AUDITED":
            assert key in at_birth and record["proof_sha256"] == proofs[key], key
            assert record["audit"]["valid"], key
            assert all(s["matched"] == s["cubes"] > 0 for s in record["audit"]["replayed"])
    for job in jobs:
        record = done[second_check._key(job)]
        assert record["proof_sha256"] == job.proof_sha256, job.variant
        assert record["verdict"] == "VERIFIED"
        assert 0 < record["core_lemmas"] <= record["lemmas"]
        assert record["lrat_lemmas"] > 0 and record["lrat_seconds"] >= 0  # minttt.lrat: valid
        assert record["regenerated"] == (job.proof is None)
    assert "commit" in SECOND["drat_trim"]
    indexes = [PROOFS / "index.json", PROOFS / "mnk" / "index.json"]
    for record in (r for p in indexes for r in json.loads(p.read_text("utf-8"))["certificates"]):
        key = ("proofs/mnk/" if record["game"].startswith("mnk") else "proofs/") + record["variant"]
        assert key in done or key in at_birth, key


def _stub_lrat(monkeypatch) -> None:
    """minttt.lrat's verdict on the stand-in's (empty) LRAT file, stubbed as valid: the real
    check is tested in test_lrat.py and, with a real drat-trim, below."""
    from minttt.proof import drat_trim

    def valid(cnf: bytes, lrat_path: Path) -> dict:
        assert cnf.startswith((b"c", b"p")) and lrat_path.is_file()
        return {"lrat_checker": "stub", "lrat_lemmas": 3, "lrat_bytes": 0, "lrat_seconds": 0.0}

    monkeypatch.setattr(drat_trim, "lrat_check", valid)


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_the_script_records_a_verdict_and_reports_a_rejection(tmp_path: Path, capsys, monkeypatch):
    out = tmp_path / "second.json"
    name = "first-center-lookup-positions"
    args = [name, "--out", str(out)]
    assert second_check.main([*args, "--drat-trim", str(_fake(tmp_path, "VERIFIED"))]) == 1
    assert "fails minttt's check" in capsys.readouterr().err  # the empty LRAT file
    assert not out.exists()
    _stub_lrat(monkeypatch)
    assert second_check.main([*args, "--drat-trim", str(_fake(tmp_path, "VERIFIED"))]) == 0
    records = json.loads(out.read_text("utf-8"))["certificates"]
    assert {r["variant"] for r in records} == {name}  # the 3x3 one and the raw one
    assert {r["folder"] for r in records} == {"proofs", "proofs/raw"}
    assert all(r["core_clauses"] == 7 and r["lemmas"] == 11 for r in records)
    assert all(r["lrat_lemmas"] == 3 for r in records)
    out.unlink()
    assert second_check.main([*args, "--drat-trim", str(_fake(tmp_path, "NOT VERIFIED"))]) == 1
    assert "did not verify" in capsys.readouterr().err
    assert not out.exists()


REAL_DRAT_TRIM = os.environ.get("MINTTT_DRAT_TRIM") or shutil.which("drat-trim")


@pytest.mark.skipif(
    REAL_DRAT_TRIM is None,
    reason="no drat-trim binary (set MINTTT_DRAT_TRIM or put drat-trim on PATH)",
)
def test_the_script_with_real_drat_trim_and_minttt_lrat(tmp_path: Path):
    out = tmp_path / "second.json"
    args = ["first-center-lookup-positions", "--out", str(out), "--drat-trim", REAL_DRAT_TRIM]
    assert second_check.main(args) == 0
    records = json.loads(out.read_text("utf-8"))["certificates"]
    assert len(records) == 2 and all(0 < r["lrat_lemmas"] <= r["lemmas"] for r in records)


def test_the_script_rejects_a_missing_binary(tmp_path: Path):
    assert second_check.main(["--drat-trim", str(tmp_path / "nope")]) == 2


def test_a_prefix_is_a_positive_count_of_an_audit(tmp_path: Path, capsys) -> None:
    binary = _fake(tmp_path, "VERIFIED")
    for args in (["--prefix", "5"], ["--audit", "1", "--prefix", "0"]):
        assert second_check.main(["x", "--drat-trim", str(binary), *args]) == 2
        assert "--prefix" in capsys.readouterr().err


@pytest.mark.slow
def test_a_proof_not_shipped_is_regenerated_to_its_hash(tmp_path: Path, monkeypatch):
    _stub_lrat(monkeypatch)
    out = tmp_path / "second.json"
    name = "first-any-lookup-entries@mnk:3,4,3"
    assert (
        second_check.main(
            [name, "--out", str(out), "--drat-trim", str(_fake(tmp_path, "VERIFIED"))]
        )
        == 0
    )
    (record,) = json.loads(out.read_text("utf-8"))["certificates"]
    assert record["regenerated"] and record["folder"] == "proofs/mnk"
