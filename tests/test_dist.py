"""``scripts/check_dist.py``: what CI holds the built sdist and wheels to, tried on small made-up
wheels: a plain linux tag, a release asset packed in, a file docs/release.md does not explain,
and a file above 20 MB are each refused; a wheel as release.md describes it passes."""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("check_dist", ROOT / "scripts" / "check_dist.py")
assert spec and spec.loader
check_dist = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_dist)

ROWS = check_dist.release_rows((ROOT / "docs" / "release.md").read_text("utf-8"))
ASSETS = {e["path"] for e in json.loads((ROOT / "results" / "assets.json").read_text())["assets"]}
GOOD = [
    "minttt/__init__.py",
    "minttt/proof/drat.py",
    "minttt/schemas/table.schema.json",
    "minttt/web/assets/index.html",
    "minttt/report/long_run_results/games/bounds.json",
    "minttt-0.1.0.dist-info/METADATA",
]


def _wheel(folder: Path, tag: str, names: list[str]) -> Path:
    path = folder / f"minttt-0.1.0-{tag}.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name in names:
            wheel.writestr(name, b"x")
    return path


def test_release_md_lists_what_a_wheel_holds() -> None:
    assert "minttt/**/*.py" in ROWS and "minttt/report/long_run_results/**/*" in ROWS


def test_a_wheel_as_described_passes(tmp_path: Path) -> None:
    for tag in ("py3-none-any", "cp311-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64"):
        line = check_dist.check_wheel(_wheel(tmp_path, tag, GOOD), ASSETS, ROWS)
        assert f"{len(GOOD)} files" in line


@pytest.mark.parametrize(
    ("tag", "names", "refusal"),
    [
        ("cp311-cp311-linux_x86_64", GOOD, "not one an index accepts"),
        ("py3-none-any", [*GOOD, "minttt/report/long_run_results/" + min(ASSETS)], "release asset"),
        ("py3-none-any", [*GOOD, "minttt/notes.txt"], "does not say what"),
    ],
)
def test_a_wheel_an_index_would_refuse_fails(
    tmp_path: Path, tag: str, names: list[str], refusal: str
) -> None:
    with pytest.raises(check_dist.DistFailure, match=refusal):
        check_dist.check_wheel(_wheel(tmp_path, tag, names), ASSETS, ROWS)


def test_a_file_above_20_mb_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = _wheel(tmp_path, "py3-none-any", GOOD)
    with open(big, "ab") as handle:
        handle.truncate(check_dist.MAX_BYTES + 1)
    assert check_dist.main([str(tmp_path)]) == 1
    assert "above 20 MB" in capsys.readouterr().err
    assert check_dist.main([str(tmp_path / "nothing")]) == 2
