"""``results/`` and ``encodings/`` are committed and must match what the code produces.

This runs the whole ``minttt reproduce`` into a temporary folder (it really calls the solvers,
the verifier, the renderer...) and compares every file. When it fails: run ``minttt reproduce`` and
commit ``results/`` and ``encodings/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from freshness import explain

from minttt.report.reproduce import carry_long_runs, reproduce

pytestmark = pytest.mark.slow  # reruns the whole of minttt reproduce

ROOT = Path(__file__).resolve().parent.parent
# Written by scripts/bench.py, the long study script, scripts/bytes.py (needs avr-gcc) and
# scripts/raw_cross_check.py (long) and scripts/second_check.py (needs drat-trim), not by reproduce.
NOT_FROM_REPRODUCE = {
    "bench.json",
    "games_study.json",
    "bytes.json",
    "raw_cross_check.json",
    "second-check.json",
}
# Written by minttt certify --all (minutes) and scripts/scale_games.py (long 4x4 runs), not by
# reproduce: the m,n,k certificates and the resumable bounds of the array pipeline; and the raw
# minima's certificates (scripts/raw_cross_check.py).
NOT_FROM_REPRODUCE_DIRS = ("proofs/mnk/", "games/", "proofs/raw/")


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and p.name not in NOT_FROM_REPRODUCE
        and not str(p.relative_to(folder)).startswith(NOT_FROM_REPRODUCE_DIRS)
    }


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("results")
    enc = tmp_path_factory.mktemp("encodings")
    carry_long_runs(ROOT / "results", out)  # reproduce reads the long runs, never reruns them
    reproduce(out, enc)
    return out, enc


@pytest.mark.parametrize("which", ["results", "encodings"])
def test_committed_outputs_match_a_fresh_reproduce(fresh: tuple[Path, Path], which: str) -> None:
    produced = _files(fresh[0] if which == "results" else fresh[1])
    committed = _files(ROOT / which)
    missing = sorted(set(produced) - set(committed))
    stale = sorted(set(committed) - set(produced))
    changed = sorted(k for k in set(produced) & set(committed) if produced[k] != committed[k])
    assert not missing, (
        f"{which}/ lacks files reproduce writes (run minttt reproduce): {missing[:10]}"
    )
    assert not stale, f"{which}/ holds files reproduce no longer writes: {stale[:10]}"
    versions = [explain(f"{which}/{k}", committed[k], produced[k]) for k in changed]
    assert not any(versions), "\n".join(v for v in versions if v)
    assert not changed, f"{which}/ is stale (run minttt reproduce and commit): {changed[:10]}"


def test_summary_and_report_exist(fresh: tuple[Path, Path]) -> None:
    out = fresh[0]
    assert (out / "summary.json").stat().st_size > 0
    report = (out / "REPORT.md").read_text()
    assert "549,946" in report and "| 41 |" in report
