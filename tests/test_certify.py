"""Certificates in results/proofs: the formula is the claim, the proof checks, the table verifies,
and a corrupted certificate is caught."""

from __future__ import annotations

import json
import lzma
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.formula.encode import encode
from minttt.formula.variants import Variant, certificate_variants
from minttt.proof import drat
from minttt.proof.certify import certify, file_stem
from minttt.proof.cnf import BOUND_DEPTH, bound_literals, cnf_text, objective_lines
from minttt.proof.index import write_index

ROOT = Path(__file__).resolve().parent.parent
PROOFS = ROOT / "results" / "proofs"
INDEX = json.loads((PROOFS / "index.json").read_text("utf-8"))
MNK = PROOFS / "mnk"
MNK_INDEX = json.loads((MNK / "index.json").read_text("utf-8"))
RECORDS = {r["variant"]: r for r in INDEX["certificates"]}
for _r in INDEX["certificates"]:
    _r["_dir"] = PROOFS
for _r in MNK_INDEX["certificates"]:
    _r["_dir"] = MNK
EVERY = INDEX["certificates"] + MNK_INDEX["certificates"]
SHIPPED = [r for r in EVERY if r["shipped"]]
SMALL = "first-center-lookup-positions"  # the corruption tests use this one
runner = CliRunner()


# The 3x3 and misère proofs up to 60 KB (17 of them, about 2 s of checking) are checked in the
# quick loop; the larger ones (up to 3.8 MB, about 20 s together) and the m,n,k proofs under
# -m slow, which the full run (.ci/run) selects too. tests/test_lrat.py draws the same line.
QUICK_PROOF_BYTES = 60_000


def _quick(record: dict) -> bool:
    return record["_dir"] != MNK and record["proof_bytes_uncompressed"] < QUICK_PROOF_BYTES


def _params(records: list[dict]) -> list:
    return [
        pytest.param(r, id=r["variant"], marks=() if _quick(r) else pytest.mark.slow)
        for r in records
    ]


def test_index_covers_every_reported_minimum():
    assert list(RECORDS) == [v.name for v in certificate_variants()]
    mnk = [r["variant"] for r in MNK_INDEX["certificates"]]
    assert mnk == [v.name for v in certificate_variants(mnk=True)]
    for r in EVERY:
        assert r["bound"] == r["minimum"] - 1 and r["table_verified"]
        for key in ("cnf", "proof", "table"):
            if r[key] is not None:
                assert (r["_dir"] / r[key]).stat().st_size == r[f"{key}_bytes"]
        assert (r["proof"] is not None) == r["shipped"]


@pytest.mark.parametrize("record", _params(SHIPPED))
def test_shipped_proof_checks(record: dict):
    result = drat.check_files(record["_dir"] / record["cnf"], record["_dir"] / record["proof"])
    assert result.valid, result.message
    assert result.lemmas == record["lemmas"] and result.deletions == record["deletions"]
    assert 0 < result.core_lemmas <= result.lemmas


_GRAPHS: dict = {}


def _graph(game: str):
    from minttt.game.graph import graph_for

    if game not in _GRAPHS:
        _GRAPHS[game] = graph_for(Variant.parse(f"second-tree-positions@{game}").rules)
    return _GRAPHS[game]


@pytest.mark.parametrize(
    "record",
    [
        pytest.param(r, id=r["variant"], marks=pytest.mark.slow if r["_dir"] == MNK else ())
        for r in EVERY
        if r["cnf"] is not None  # the 4x4 CNF is rebuilt to its hash: test_certify_arrays.py
    ],
)
def test_formula_rebuilds_byte_for_byte(record: dict):
    variant = Variant.parse(record["variant"])
    if "pipeline" in record:  # the array form's certificate formula
        from minttt.formula.arrays import encode_arrays
        from minttt.game.arrays import build_array_graph
        from minttt.proof.cnf import array_cnf

        graph = build_array_graph(variant.rules)
        data, _ = array_cnf(graph, encode_arrays(graph, variant), record["minimum"])
    else:
        data = cnf_text(encode(_graph(record["game"]), variant), record["minimum"]).encode()
    assert lzma.decompress((record["_dir"] / record["cnf"]).read_bytes()) == data


def test_depth_bound_keeps_exactly_the_shallow_objective_literals(monkeypatch):
    """A certificate of BOUND_DEPTH bounds a subset of the objective (so its UNSAT is stronger
    than the claim), named in the header with the reduction."""
    variant = Variant.parse("first-any-tree-positions")
    graph = _graph("3x3")
    formula = encode(graph, variant)
    assert bound_literals(formula) == list(formula.objective)
    monkeypatch.setitem(BOUND_DEPTH, variant.name, 6)
    depth = {v: graph.depth(h) for h, v in formula.parts[0].positions.items()}
    kept = bound_literals(formula)
    assert kept == [v for v in formula.objective if depth[v] <= 6]
    assert 0 < len(kept) < len(formula.objective)
    text = cnf_text(formula, 41)
    assert f"at most 40 of the {len(kept)} objective literals of positions at most 6 plies" in text
    assert "c reduction: a table with at most 40 positions has at most 40 positions" in text
    assert "\n".join(objective_lines(kept)) + "\n" in text


def test_the_4x4_tree_certificate_bounds_shallow_positions():
    (record,) = [r for r in EVERY if r["variant"] in BOUND_DEPTH]
    assert record["minimum"] == 106 and record["bounded"] == "positions at most 7 plies deep"
    assert record["checked_by"].startswith("drat-trim") and record["check_seconds"] > 0


@pytest.mark.parametrize("record", EVERY, ids=[r["variant"] for r in EVERY])
def test_table_has_the_minimum_and_verifies(record: dict):
    from minttt.table.model import load_table
    from minttt.table.verify import verify_table

    table = load_table(record["_dir"] / record["table"])
    assert table.provenance["size"] == record["minimum"]
    assert table.provenance["variant"] == record["variant"]
    if not record["game"].startswith("mnk"):
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
    # flip the first literal of one of the last lemmas the refutation needs (a flipped lemma can
    # still be valid, e.g. RAT on a pure literal, so look at the last few): the checker names it
    caught = []
    for i in sorted(result.core_steps, reverse=True)[:5]:
        bad = list(proof)
        words = bad[i].split()
        words[0] = str(-int(words[0])).encode()
        bad[i] = b" ".join(words) + b"\n"
        r = _invoke(tmp_path, cnf, bad)
        if r.exit_code == 1:
            assert f"(proof line {i + 1})" in r.output and "invalid proof: lemma" in r.output
            caught.append(i)
        else:
            assert r.exit_code == 0
    assert caught


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
    from minttt.game.graph import build_graph

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


@pytest.mark.parametrize("folder", ["", "mnk", "raw"])
def test_every_shipped_cnf_keeps_its_comment_lines_short(folder: str) -> None:
    """Format 2: no comment line over MAX_COMMENT bytes, so DIMACS readers with a line buffer
    (drat-trim's lrat-check reads 1,024 bytes) read every clause of a shipped CNF."""
    from minttt.proof.cnf import MAX_COMMENT

    cnfs = sorted((PROOFS / folder).glob("*.cnf.xz"))
    assert cnfs
    for path in cnfs:
        longest = max(
            len(line) for line in drat.read_bytes(path).splitlines() if line.startswith(b"c")
        )
        assert longest <= MAX_COMMENT, (path.name, longest)


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
@pytest.mark.parametrize("folder", ["", "mnk"])
def test_every_shipped_file_is_compressed_as_its_index_says(folder: str) -> None:
    """Each folder's index names its xz preset (reproduce's 3x3 certificates 2, the m,n,k ones
    6), and every file it ships is exactly what that preset writes from the file's content."""
    from minttt.proof.certify import compress
    from minttt.proof.index import xz_preset

    preset = xz_preset(PROOFS / folder)
    index = json.loads((PROOFS / folder / "index.json").read_text("utf-8"))
    assert index["compression"] == f"xz (preset {preset}, CRC64)"
    files = [
        PROOFS / folder / r[k] for r in index["certificates"] for k in ("cnf", "proof") if r[k]
    ]
    small = sorted(files, key=lambda p: p.stat().st_size)[: 2 if folder else None]
    assert small
    for path in small:
        data = path.read_bytes()
        assert compress(lzma.decompress(data), preset) == data, path.name
    assert preset == (6 if folder == "mnk" else 2)


def test_the_indexes_state_the_current_format() -> None:
    from minttt.proof.index import INDEX_FORMAT

    assert INDEX["format"] == MNK_INDEX["format"] == INDEX_FORMAT == "minttt-certificates/2"


def _greedy_table(name: str):
    """A perfect table of ``name`` from the greedy pass: larger than the minimum."""
    from minttt.bounds.greedy import greedy_table, tree_cost
    from minttt.formula.arrays import encode_arrays, table_edge_mask
    from minttt.game.arrays import build_array_graph
    from minttt.solvers.arrays import array_table

    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    chosen = greedy_table(graph, allowed, side, tree_cost(graph, allowed, side))
    return array_table(graph, encode_arrays(graph, variant), chosen, {"variant": name})


def test_certify_takes_the_minimum_from_a_given_table(tmp_path: Path):
    """--table: k is the table's size and no solver runs for it; the certificate (the table
    and the refutation at k-1, checked) proves k, and the record says where k came from."""
    table = ROOT / "results" / "tables" / "second-lookup-entries.json"
    out = tmp_path / "proofs"
    r = runner.invoke(
        app,
        ["certify", "second-lookup-entries", "--table", str(table), "--out", str(out), "--json"],
    )
    assert r.exit_code == 0, r.output
    (record,) = json.loads(r.output)
    assert record["minimum"] == 72 and record["bound"] == 71 and record["check"]["valid"]
    assert record["minimum_from"] == "table"
    index = json.loads((out / "index.json").read_text())
    assert index["certificates"][0]["minimum_from"] == "table"
    from minttt.table.model import load_table

    shipped = load_table(out / index["certificates"][0]["table"])  # its size, now proven minimal
    given = load_table(table)
    assert shipped.entries == given.entries and shipped.size == 72
    assert shipped.provenance["optimal"] and shipped.provenance["lower_bound"] == 72
    assert shipped.provenance["found_by"] == given.provenance


def test_certify_refuses_a_table_that_is_not_the_minimum(tmp_path: Path):
    """A larger table than the minimum: the bound one below it is satisfiable, a defect found
    (exit 1, one line), and nothing is written."""
    from minttt.table.model import save_table

    name = "first-corner-lookup-entries"
    minimum = RECORDS[name]["minimum"]
    table = _greedy_table(name)
    assert table.size > minimum
    path = tmp_path / "greedy.json"
    save_table(table, path)
    out = tmp_path / "proofs"
    r = runner.invoke(app, ["certify", name, "--table", str(path), "--out", str(out)])
    assert r.exit_code == 1 and "satisfiable" in r.output
    assert not (out / "index.json").exists()


@pytest.mark.parametrize(
    "args, says",
    [
        (["second-lookup-entries", "--table", "{x}"], "not of second-lookup-entries"),
        (["second-lookup-entries", "--table", "{broken}"], "fails minttt verify"),
        (["second-lookup-entries", "--table", "{missing}"], "no such file"),
        (["second-lookup-positions", "--table", "{o}"], "lookup-entries variants only"),
        (["--all", "--table", "{o}"], "one VARIANT"),
        (["second-lookup-entries", "first-any-lookup-entries", "--table", "{o}"], "one VARIANT"),
    ],
)
def test_certify_table_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str], says: str):
    from minttt.table.model import load_table, save_table

    tables = ROOT / "results" / "tables"
    o = load_table(tables / "second-lookup-entries.json")
    broken = tmp_path / "broken.json"
    save_table(replace(o, entries=o.entries[1:]), broken)
    paths = {
        "x": str(tables / "first-any-lookup-entries.json"),
        "o": str(tables / "second-lookup-entries.json"),
        "broken": str(broken),
        "missing": str(tmp_path / "nope.json"),
    }
    argv = [a.format(**paths) for a in args]
    r = runner.invoke(app, ["certify", *argv, "--out", str(tmp_path / "p")])
    assert r.exit_code == 2 and says in r.output
    assert len(r.output.strip().splitlines()) == 1
