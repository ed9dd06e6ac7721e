"""``minttt certify`` touches no committed file: it writes into ``certificates/`` of the current
folder unless ``--out`` names one, and writing a certificate again never downgrades what its index
says of the same proof."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from minttt.proof.index import INDEX, index_text

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "results" / "proofs" / INDEX


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_certify_writes_a_new_folder_of_the_current_directory(tmp_path: Path) -> None:
    before = _digest(COMMITTED)
    done = subprocess.run(
        [sys.executable, "-m", "minttt", "certify", "first-center-lookup-entries", "--no-check"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    index = json.loads((tmp_path / "certificates" / INDEX).read_text())
    assert [r["variant"] for r in index["certificates"]] == ["first-center-lookup-entries"]
    assert index["certificates"][0]["checked_by"] is None  # --no-check says so
    assert _digest(COMMITTED) == before


def test_a_rewritten_record_keeps_the_stronger_check_of_the_same_proof(tmp_path: Path) -> None:
    committed = json.loads(COMMITTED.read_text())["certificates"]
    old = next(r for r in committed if r["variant"] == "first-center-lookup-entries")
    assert "drat-trim" in old["checked_by"]
    folder = tmp_path / "proofs"
    folder.mkdir()
    for field in ("cnf", "proof", "table"):
        (folder / old[field]).write_bytes((COMMITTED.parent / old[field]).read_bytes())
    (folder / INDEX).write_text(
        json.dumps({**json.loads(COMMITTED.read_text()), "certificates": [old]})
    )
    weaker = {**old, "checked_by": "minttt check-proof (minttt.drat)"}
    kept = json.loads(index_text(folder, [weaker]))["certificates"][0]
    assert kept["checked_by"] == old["checked_by"]
    other = {**weaker, "proof_sha256": "0" * 64}  # another proof: its own check stands
    assert (
        json.loads(index_text(folder, [other]))["certificates"][0]["checked_by"]
        == (weaker["checked_by"])
    )
