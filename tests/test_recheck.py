"""``minttt recheck``: a shipped certificate's CNF made again by the reference encoder and its
proof checked against it; a tampered proof, a record whose bound its evidence does not make, or
an unknown name, each with its exit code; the results file, resumed."""

from __future__ import annotations

import hashlib
import json
import lzma
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt.cli import app

PROOFS = Path(__file__).resolve().parent.parent / "results" / "proofs"
SMALL = ("first-center-tree-positions", "second-lookup-entries")
LOWER = "first-any-lookup-entries@mnk-3-4-3.lower-46.depths-0-2-4-6-8-10"

runner = CliRunner()


def invoke(*args: str):
    """``minttt recheck ARGS``, its results beside the ``--in`` folder's indexes."""
    folder = args[args.index("--in") + 1] if "--in" in args else "."
    return runner.invoke(app, ["recheck", *args, "--out", str(Path(folder) / "recheck.json")])


def _copy(source: Path, target: Path, index: str, keep: set[str]) -> Path:
    """``index`` of ``source`` with the records ``keep`` names alone, and their files."""
    target.mkdir(parents=True, exist_ok=True)
    doc = json.loads((source / index).read_text("utf-8"))
    doc["certificates"] = [
        r
        for r in doc["certificates"]
        if r["variant"] in keep or (r.get("proof") or "").startswith(tuple(k + "." for k in keep))
    ]
    for r in doc["certificates"]:
        for field in ("cnf", "proof", "cores"):
            if r.get(field):
                shutil.copy(source / r[field], target / r[field])
    (target / index).write_text(json.dumps(doc, indent=1), "utf-8")
    return target


@pytest.fixture
def proofs(tmp_path: Path) -> Path:
    folder = _copy(PROOFS, tmp_path / "proofs", "index.json", set(SMALL))
    _copy(PROOFS / "mnk", folder / "mnk", "lower-bounds.json", {LOWER})
    return folder


def _edit(path: Path, name: str, **changes: object) -> None:
    doc = json.loads(path.read_text("utf-8"))
    for r in doc["certificates"]:
        if name in (r["variant"], r.get("proof")):
            r.update(changes)
    path.write_text(json.dumps(doc), "utf-8")


def _results(folder: Path) -> dict:
    return json.loads((folder / "recheck.json").read_text("utf-8"))["records"]


def test_a_shipped_certificate_rechecks_and_is_not_checked_twice(proofs: Path) -> None:
    r = invoke("second-lookup-entries", "--in", str(proofs))
    assert r.exit_code == 0, r.output
    entry = _results(proofs)["index.json:second-lookup-entries"]
    assert entry["result"] == "checked" and entry["minimum"] == 72
    assert (
        entry["files"]["proof"]
        == hashlib.sha256((proofs / "second-lookup-entries.drat.xz").read_bytes()).hexdigest()
    )
    again = invoke("second-lookup-entries", "--in", str(proofs))
    assert again.exit_code == 0 and "rechecked before" in again.stdout


def test_a_lower_bound_part_rechecks_by_its_cores_file(proofs: Path) -> None:
    r = invoke(LOWER, "--in", str(proofs), "--json")
    assert r.exit_code == 0, r.output
    entry = json.loads(r.stdout)[f"mnk/lower-bounds.json:{LOWER}"]
    assert (entry["result"], entry["lower"]) == ("checked", 46)


def test_a_raised_lower_bound_is_a_defect(proofs: Path) -> None:
    _edit(
        proofs / "mnk" / "lower-bounds.json",
        "first-any-lookup-entries@mnk:3,4,3",
        lower=47,
        bound=46,
    )
    r = invoke(LOWER, "--in", str(proofs))
    assert r.exit_code == 1, r.output
    assert (
        "its cores file bounds 46" in _results(proofs)[f"mnk/lower-bounds.json:{LOWER}"]["message"]
    )


def test_a_tampered_proof_fails_with_exit_1(proofs: Path) -> None:
    """The proof becomes the empty clause alone, its SHA-256 redone in the record: the record
    names it, and the DRAT check refutes it."""
    fake = b"0\n"
    (proofs / "second-lookup-entries.drat.xz").write_bytes(lzma.compress(fake))
    _edit(
        proofs / "index.json",
        "second-lookup-entries",
        proof_sha256=hashlib.sha256(fake).hexdigest(),
    )
    r = invoke("second-lookup-entries", "--in", str(proofs))
    assert r.exit_code == 1, r.output
    assert r.stderr.count("\n") == 1 and "1 of 1 records fail" in r.stderr
    entry = _results(proofs)["index.json:second-lookup-entries"]
    assert entry["result"] == "failed" and "minttt.drat" in entry["message"]


def test_another_records_proof_is_not_the_one_named(proofs: Path) -> None:
    shutil.copy(
        proofs / "first-center-tree-positions.drat.xz", proofs / "second-lookup-entries.drat.xz"
    )
    r = invoke("second-lookup-entries", "--in", str(proofs))
    assert r.exit_code == 1
    assert (
        "not the one the record names"
        in _results(proofs)["index.json:second-lookup-entries"]["message"]
    )


def test_an_unknown_name_is_one_line_exit_2(proofs: Path) -> None:
    r = invoke("first-nowhere-lookup-entries", "--in", str(proofs))
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "no record" in lines[0]
    both = invoke("second-lookup-entries", "--all", "--in", str(proofs))
    assert both.exit_code == 2 and len(both.stderr.strip().splitlines()) == 1


def test_all_on_a_dask_cluster_rechecks_every_record(proofs: Path) -> None:
    r = invoke("--all", "--in", str(proofs), "--workers", "1")
    assert r.exit_code == 0, r.output
    results = _results(proofs)
    assert set(results) == {
        *(f"index.json:{name}" for name in SMALL),
        f"mnk/lower-bounds.json:{LOWER}",
    }
    assert {e["result"] for e in results.values()} == {"checked"}


def test_a_shipped_cnf_that_is_not_the_reference_ones_is_a_defect(proofs: Path) -> None:
    """One clause of the shipped CNF dropped (its count kept right): the proof may still
    refute it, but it is not the formula the record claims."""
    path = proofs / "second-lookup-entries.cnf.xz"
    lines = lzma.decompress(path.read_bytes()).split(b"\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(b"p cnf"))
    head = lines[at].split()
    lines[at] = b" ".join([*head[:3], str(int(head[3]) - 1).encode()])
    del lines[at + 1]
    path.write_bytes(lzma.compress(b"\n".join(lines)))
    r = invoke("second-lookup-entries", "--in", str(proofs))
    assert r.exit_code == 1
    entry = _results(proofs)["index.json:second-lookup-entries"]
    assert "not the one the reference encoder makes" in entry["message"]


def test_a_record_without_a_proof_has_its_cnf_compared(proofs: Path) -> None:
    _edit(proofs / "index.json", "second-lookup-entries", proof=None)
    r = invoke("second-lookup-entries", "--in", str(proofs))
    assert r.exit_code == 0, r.output
    entry = _results(proofs)["index.json:second-lookup-entries"]
    assert entry["result"] == "no proof shipped" and "CNF is the reference" in entry["message"]
