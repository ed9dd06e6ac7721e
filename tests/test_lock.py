"""The lock pins what pyproject.toml declares, and a version-only difference explains itself."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

from freshness import explain

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from check_lock import normalise, read_pins  # noqa: E402

LOCK = ROOT / "requirements" / "lock.txt"


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    specs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        specs += extra
    names = set()
    for spec in specs:
        name = spec.split(";")[0]
        for stop in "<>=!~[ ":
            name = name.split(stop)[0]
        names.add(normalise(name))
    return names


def test_the_lock_pins_every_declared_dependency_and_extra() -> None:
    pins = read_pins(LOCK.read_text("utf-8"))
    assert "python-sat" in pins and "z3-solver" in pins and "pytest" in pins
    missing = sorted(_declared() - set(pins))
    assert not missing, f"pyproject.toml declares {missing}, the lock pins none: refresh the lock"


def test_the_lock_pins_the_solver_versions_the_committed_results_record() -> None:
    pins = read_pins(LOCK.read_text("utf-8"))
    index = json.loads((ROOT / "results" / "proofs" / "index.json").read_text("utf-8"))
    assert pins["python-sat"] == {index["python_sat"]}


def test_read_pins_takes_a_project_pinned_under_two_markers() -> None:
    text = (
        "numpy==2.4.6 ; python_full_version < '3.12'\n"
        "numpy==2.5.5 ; python_full_version >= '3.12'\n"
        "    # via x\n"
        "Python_SAT==1.9.dev17\n"
    )
    assert read_pins(text) == {"numpy": {"2.4.6", "2.5.5"}, "python-sat": {"1.9.dev17"}}


def test_a_version_only_change_of_the_index_names_the_tool_and_both_versions() -> None:
    committed = (ROOT / "results" / "proofs" / "index.json").read_bytes()
    recorded = json.loads(committed)["python_sat"]
    line = f'"python_sat": "{recorded}"'.encode()
    produced = committed.replace(line, b'"python_sat": "9.9.dev99"')
    message = explain("results/proofs/index.json", committed, produced)
    assert message is not None
    assert f"python_sat {recorded} committed, 9.9.dev99 installed" in message
    assert "requirements/lock.txt" in message


def test_a_real_change_is_not_explained_away() -> None:
    committed = (ROOT / "results" / "tables.json").read_bytes()
    produced = committed.replace(b"22", b"23", 1)
    assert produced != committed
    assert explain("results/tables.json", committed, produced) is None
