"""Rewrite the certificates that ``minttt reproduce`` does not write in the current format.

``minttt reproduce`` rewrites ``results/proofs/`` (the 3x3 certificates) itself. The m,n,k ones
(``results/proofs/mnk/``, written by ``minttt certify --all``: CaDiCaL runs of up to 17 minutes)
and the raw ones (``results/proofs/raw/``, by ``scripts/raw_cross_check.py``: hours) are not
rerun when only the CNF's comment lines change. This script rebuilds each of their CNFs from the
encoder (:func:`minttt.proof.cnf.cnf_text`, :func:`~minttt.proof.cnf.array_cnf`) at the
minimum its record states and refuses to write one whose clauses differ in any way from the
shipped file's (or, for a CNF not shipped, whose clause count differs from the record's): the
DRAT proofs, checked against those very clauses, then stand for the new files unchanged. The
index records' CNF fields (bytes, SHA-256) and ``format`` are updated; every shipped proof is
checked again against its new CNF by ``minttt.drat``.

    python scripts/certificate_format.py            # rewrite, then check
    python scripts/certificate_format.py --dry-run  # say what would change

Exit 0 when every certificate is in the current format, 1 when a rebuilt CNF's clauses differ
from the shipped ones (nothing written), 2 for a bad argument.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import sys
from pathlib import Path

from minttt.fileio import write_bytes_atomic, write_text_atomic
from minttt.formula.arrays import encode_arrays
from minttt.formula.encode import encode
from minttt.formula.variants import Variant, uses_arrays
from minttt.game.arrays import build_array_graph
from minttt.game.graph import build_graph, graph_for
from minttt.proof import drat
from minttt.proof.certify import ARRAY_PIPELINE, compress
from minttt.proof.cnf import array_cnf, cnf_text
from minttt.proof.index import INDEX_FORMAT, xz_preset

ROOT = Path(__file__).resolve().parent.parent
PROOFS = ROOT / "results" / "proofs"


def rebuilt_cnf(variant: Variant, minimum: int, *, raw: bool = False) -> bytes:
    """The certificate CNF of ``variant`` at ``minimum - 1``, as the current code writes it."""
    if uses_arrays(variant) and not raw:
        graph = build_array_graph(variant.rules)
        cnf, _ = array_cnf(graph, encode_arrays(graph, variant), minimum)
        return cnf
    graph = build_graph(variant.rules, symmetric=False) if raw else graph_for(variant.rules)
    return cnf_text(encode(graph, variant), minimum).encode("ascii")


def _same_clauses(old: bytes, new: bytes) -> bool:
    return drat.parse_cnf(old) == drat.parse_cnf(new)


def migrate_index(folder: Path, dry_run: bool) -> list[str]:
    """Rewrite the CNFs of ``folder/index.json``'s records; the lines to print."""
    index_path = folder / "index.json"
    index = json.loads(index_path.read_text("utf-8"))
    said = []
    for record in index["certificates"]:
        variant = Variant.parse(record["variant"])
        new = rebuilt_cnf(variant, record["minimum"])
        if record["cnf"] is not None:
            old = drat.read_bytes(folder / record["cnf"], text=True)
            if not _same_clauses(old, new):
                raise SystemExit(f"{record['variant']}: the rebuilt CNF's clauses differ")
            data = compress(new, xz_preset(folder))
            record["cnf_bytes"] = len(data)
            if not dry_run:
                write_bytes_atomic(folder / record["cnf"], data)
        elif len(drat.parse_cnf(new)[1]) != record["clauses"]:
            raise SystemExit(f"{record['variant']}: the rebuilt CNF's clause count differs")
        record["cnf_bytes_uncompressed"] = len(new)
        if "pipeline" in record:
            record["pipeline"] = ARRAY_PIPELINE
        if "cnf_sha256" in record:
            record["cnf_sha256"] = hashlib.sha256(new).hexdigest()
        said.append(f"{folder.name}/{record['variant']}: {len(new):,} bytes")
    index["format"] = INDEX_FORMAT
    if not dry_run:
        write_text_atomic(index_path, json.dumps(index, indent=2) + "\n")
    return said


def migrate_raw(folder: Path, dry_run: bool) -> list[str]:
    """Rewrite the raw minima's CNFs (named in results/raw_cross_check.json)."""
    cross = json.loads((ROOT / "results" / "raw_cross_check.json").read_text("utf-8"))
    said = []
    for key, record in cross["calls"].items():
        if not key.startswith("drat:") or not record.get("confirmed"):
            continue
        name = key.split(":", 1)[1]
        path = folder / f"{name}.cnf.xz"
        if not path.is_file():
            continue
        new = rebuilt_cnf(Variant.parse(name), record["bound"] + 1, raw=True)
        if not _same_clauses(drat.read_bytes(path, text=True), new):
            raise SystemExit(f"raw {name}: the rebuilt CNF's clauses differ")
        if not dry_run:
            write_bytes_atomic(path, compress(new))
        said.append(f"raw/{name}: {len(new):,} bytes")
    return said


def check_shipped(folder: Path) -> list[str]:
    """Every shipped proof of ``folder`` checked against its (new) CNF by minttt.drat."""
    said = []
    for proof in sorted(folder.glob("*.drat.xz")):
        cnf = proof.with_name(proof.name.replace(".drat.xz", ".cnf.xz"))
        result = drat.check(drat.read_bytes(cnf, text=True), lzma.decompress(proof.read_bytes()))
        if not result.valid:
            raise SystemExit(f"{proof.name}: {result.message}")
        said.append(f"{folder.name}/{proof.name}: {result.message}")
    return said


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="say what would change")
    args = parser.parse_args(argv)
    lines = migrate_index(PROOFS / "mnk", args.dry_run)
    lines += migrate_raw(PROOFS / "raw", args.dry_run)
    if not args.dry_run:
        lines += check_shipped(PROOFS / "mnk") + check_shipped(PROOFS / "raw")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
