"""Certificates in results/proofs: the formula is the claim, the proof checks, the table verifies,
and a corrupted certificate is caught."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt import drat
from minttt.certify import (
    certificate_variants,
    certify,
    cnf_text,
    file_stem,
    write_index,
)
from minttt.cli import app
from minttt.encode import Variant, encode

ROOT = Path(__file__).resolve().parent.parent
PROOFS = ROOT / "results" / "proofs"
INDEX = json.loads((PROOFS / "index.json").read_text("utf-8"))
RECORDS = {r["variant"]: r for r in INDEX["certificates"]}
SHIPPED = [r for r in INDEX["certificates"] if r["shipped"]]
SMALL = "first-center-lookup-positions"  # the corruption tests use this one
runner = CliRunner()


def _quick(record: dict) -> bool:
    """Checked in the quick loop: the 3x3 certificates (misère second player's are larger)."""
    return record["game"] == "3x3" or record["proof_bytes_uncompressed"] < 400_000


def _params(records: list[dict]) -> list:
    return [
        pytest.param(r, id=r["variant"], marks=() if _quick(r) else pytest.mark.slow)
        for r in records
    ]


def test_index_covers_every_reported_minimum():
    names = [v.name for v in certificate_variants()]
    assert list(RECORDS) == names
    for r in INDEX["certificates"]:
        assert r["bound"] == r["minimum"] - 1 and r["table_verified"]
        for key in ("cnf", "proof", "table"):
            if r[key] is not None:
                assert (PROOFS / r[key]).stat().st_size == r[f"{key}_bytes"]
        assert (r["proof"] is not None) == r["shipped"]


@pytest.mark.parametrize("record", _params(SHIPPED))
def test_shipped_proof_checks(record: dict):
    result = drat.check_files(PROOFS / record["cnf"], PROOFS / record["proof"])
    assert result.valid, result.message
    assert result.lemmas == record["lemmas"] and result.deletions == record["deletions"]
    assert 0 < result.core_lemmas <= result.lemmas


@pytest.fixture(scope="module")
def graphs() -> dict:
    from minttt.study import graph_for

    return {g: graph_for(Variant.parse(r["variant"]).rules) for g, r in _by_game().items()}


def _by_game() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for r in SHIPPED:
        out.setdefault(r["game"], r)
    return out


@pytest.mark.parametrize("record", SHIPPED, ids=[r["variant"] for r in SHIPPED])
def test_formula_rebuilds_byte_for_byte(record: dict, graphs: dict):
    variant = Variant.parse(record["variant"])
    text = cnf_text(encode(graphs[record["game"]], variant), record["minimum"])
    assert lzma.decompress((PROOFS / record["cnf"]).read_bytes()) == text.encode("ascii")


@pytest.mark.parametrize("record", SHIPPED, ids=[r["variant"] for r in SHIPPED])
def test_table_has_the_minimum_and_verifies(record: dict):
    from minttt.table import load_table
    from minttt.verify import verify_table

    table = load_table(PROOFS / record["table"])
    assert table.provenance["size"] == record["minimum"]
    assert table.provenance["variant"] == record["variant"]
    if record["game"] == "3x3":
        assert verify_table(table).ok


def test_verify_command_on_a_certificate_table():
    r = runner.invoke(app, ["verify", str(PROOFS / RECORDS[SMALL]["table"])])
    assert r.exit_code == 0, r.output


# ------------------------------------------------------------------------------ corruption


def _small() -> tuple[bytes, list[bytes]]:
    rec = RECORDS[SMALL]
    cnf = lzma.decompress((PROOFS / rec["cnf"]).read_bytes())
    proof = lzma.decompress((PROOFS / rec["proof"]).read_bytes()).splitlines(keepends=True)
    return cnf, proof


def _invoke(tmp_path: Path, cnf: bytes, proof: list[bytes]):
    (tmp_path / "f.cnf").write_bytes(cnf)
    (tmp_path / "p.drat").write_bytes(b"".join(proof))
    return runner.invoke(app, ["check-proof", str(tmp_path / "f.cnf"), str(tmp_path / "p.drat")])


def _added(proof: list[bytes]) -> list[int]:
    return [i for i, line in enumerate(proof) if not line.startswith(b"d") and line.strip() != b"0"]


def test_shipped_small_certificate_passes_the_cli(tmp_path: Path):
    rec = RECORDS[SMALL]
    r = runner.invoke(app, ["check-proof", str(PROOFS / rec["cnf"]), str(PROOFS / rec["proof"])])
    assert r.exit_code == 0 and "valid" in r.output


def test_flipped_literal_is_caught(tmp_path: Path):
    cnf, proof = _small()
    result = drat.check(cnf, b"".join(proof))
    assert result.valid
    # flip the first literal of the last lemma before the empty clause
    i = _added(proof)[-1]
    words = proof[i].split()
    words[0] = str(-int(words[0])).encode()
    proof[i] = b" ".join(words) + b"\n"
    r = _invoke(tmp_path, cnf, proof)
    assert r.exit_code == 1 and "invalid proof: lemma" in r.output


def test_dropped_lemmas_are_caught(tmp_path: Path):
    cnf, proof = _small()
    added = _added(proof)
    dropped = set(added[len(added) // 2 :])
    r = _invoke(tmp_path, cnf, [line for i, line in enumerate(proof) if i not in dropped])
    assert r.exit_code == 1 and "invalid proof: lemma" in r.output


def test_dropped_empty_clause_is_caught(tmp_path: Path):
    cnf, proof = _small()
    r = _invoke(tmp_path, cnf, [line for line in proof if line.strip() != b"0"])
    assert r.exit_code == 1 and "never adds the empty clause" in r.output


def test_removed_formula_clause_is_caught(tmp_path: Path):
    cnf, proof = _small()
    result = drat.check(cnf, b"".join(proof))
    lines = cnf.splitlines(keepends=True)
    body = [i for i, line in enumerate(lines) if line[:1] not in (b"c", b"p")]
    victim = body[result.core_formula[-1]]
    header = next(i for i, line in enumerate(lines) if line.startswith(b"p cnf"))
    nvars, nclauses = lines[header].split()[2:]
    lines[header] = b"p cnf %s %d\n" % (nvars, int(nclauses) - 1)
    del lines[victim]
    r = _invoke(tmp_path, b"".join(lines), proof)
    assert r.exit_code == 1 and "invalid proof: lemma" in r.output


# ------------------------------------------------------------------------------ writing


def test_certify_writes_a_checked_certificate(tmp_path: Path):
    from minttt.graph import build_graph

    variant = Variant.parse(SMALL)
    cert = certify(variant, tmp_path, graph=build_graph())
    rec = cert.record
    assert rec["minimum"] == 22 and cert.check.valid and rec["table_verified"]
    shipped = RECORDS[SMALL]
    for key in ("cnf", "proof", "table"):  # deterministic: the same bytes as shipped
        assert (tmp_path / rec[key]).read_bytes() == (PROOFS / shipped[key]).read_bytes()
    write_index(tmp_path, [rec])
    index = json.loads((tmp_path / "index.json").read_text())
    assert [r["variant"] for r in index["certificates"]] == [SMALL]
    assert file_stem(Variant.parse("first-any-tree-positions@mnk:3,4,3")) == (
        "first-any-tree-positions@mnk-3-4-3"
    )


def test_certify_cli_input_errors(tmp_path: Path):
    r = runner.invoke(app, ["certify"])
    assert r.exit_code == 2 and "exactly one" in r.output
    r = runner.invoke(app, ["certify", "first-middle-lookup-positions", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "opening" in r.output
