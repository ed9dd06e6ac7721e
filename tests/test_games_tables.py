"""The 3x4 and 4x4 upper bounds of results/games/bounds.json: each a table that passes the
exhaustive verifier (reproduce verifies those up to VERIFY_ON_LOAD entries itself), and a bounds
file that lies is refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from minttt.errors import InputError
from minttt.report.bounds import VERIFY_ON_LOAD, load_bounds
from minttt.table.model import load_table
from minttt.table.verify import verify_table

GAMES = Path(__file__).resolve().parent.parent / "results" / "games"
BOUNDS = json.loads((GAMES / "bounds.json").read_text("utf-8"))
LARGE = [n for n, r in BOUNDS["variants"].items() if r["upper"] > VERIFY_ON_LOAD]


@pytest.mark.slow  # verifies the tables up to VERIFY_ON_LOAD entries (reproduce does too)
def test_the_committed_bounds_pass_their_check_on_load() -> None:
    assert load_bounds(GAMES / "bounds.json")["variants"].keys() == BOUNDS["variants"].keys()


@pytest.mark.slow  # up to about 32 s of CPU each (less in a process that verified the other)
@pytest.mark.parametrize("name", LARGE)
def test_every_large_upper_bound_is_a_verified_table(name: str) -> None:
    table = load_table(GAMES / BOUNDS["variants"][name]["table"])
    report = verify_table(table)
    assert report.ok and report.losses == 0 and table.size == BOUNDS["variants"][name]["upper"]


#: a lower bound named as RC2's (no certificate to check in a copy without the index)
RC2 = {"lower_by": {"method": "rc2", "evidence": "a checkpoint's run"}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"lower": 200, "upper": 193}, "not 0 <= lower <= upper"),
        ({"optimal": True, "lower": 100}, "optimal is True, its bounds 100 .. 189"),
        ({"upper": 17, "lower": 0, "optimal": False}, "189 entries, not the 17 recorded"),
        ({"table": "first-any-lookup-entries_mnk343.table.json"}, "not of second-lookup"),
    ],
)
def test_a_bounds_file_that_lies_is_refused(tmp_path: Path, change: dict, message: str) -> None:
    for path in GAMES.glob("*mnk343*"):
        shutil.copy(path, tmp_path / path.name)
    doc = {"variants": {"second-lookup-entries@mnk:3,4,3": {
        **BOUNDS["variants"]["second-lookup-entries@mnk:3,4,3"], **RC2, **change}}}  # fmt: skip
    (tmp_path / "bounds.json").write_text(json.dumps(doc))
    with pytest.raises(InputError, match=message):
        load_bounds(tmp_path / "bounds.json")


def test_a_cut_table_behind_the_bounds_is_refused(tmp_path: Path) -> None:
    name = "second-lookup-entries@mnk:3,4,3"
    record = BOUNDS["variants"][name]
    table = json.loads((GAMES / record["table"]).read_text("utf-8"))
    table["entries"], table["size"] = table["entries"][:17], 17
    (tmp_path / record["table"]).write_text(json.dumps(table))
    doc = {"variants": {name: {**record, **RC2, "lower": 17, "upper": 17}}}
    (tmp_path / "bounds.json").write_text(json.dumps(doc))
    with pytest.raises(InputError, match="fails minttt verify"):
        load_bounds(tmp_path / "bounds.json")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"lower_bound": 999}, "above the size"),
        ({"optimal": True, "lower_bound": 1}, "not proven by both families"),
    ],
)
def test_a_study_that_lies_is_refused(tmp_path: Path, change: dict, message: str) -> None:
    from minttt.report.other_games import check_study

    study = json.loads((GAMES.parent / "games_study.json").read_text("utf-8"))
    study["games"][0]["variants"][0].update(change)
    (tmp_path / "study.json").write_text(json.dumps(study))
    with pytest.raises(InputError, match=message):
        check_study(tmp_path / "study.json")


def test_a_study_with_a_wrong_count_is_refused(tmp_path: Path) -> None:
    from minttt.report.other_games import check_study

    study = json.loads((GAMES.parent / "games_study.json").read_text("utf-8"))
    study["games"][0]["positions"] += 1
    (tmp_path / "study.json").write_text(json.dumps(study))
    with pytest.raises(InputError, match="positions"):
        check_study(tmp_path / "study.json")


def test_the_report_names_the_method_behind_each_upper_bound() -> None:
    """bounds.json keeps each variant's history; the report's "by" column is the method whose
    verified table first reached the upper bound."""
    from minttt.report.bounds import scale_markdown

    lines = scale_markdown(BOUNDS)
    for name, record in BOUNDS["variants"].items():
        events = [e for _s, _lo, up, e in record["history"] if up == record["upper"]]
        method = next(e for e in events if e.endswith(" table, verified"))
        method = method.removesuffix(" table, verified").replace("rc2", "RC2")
        role = "first (X)" if name.startswith("first") else "second (O)"
        game = {"mnk:3,4,3": "3x4 k=3", "mnk:4,4,3": "4x4 k=3", "mnk:4,4,4": "4x4 k=4"}[
            name.split("@")[1]
        ]
        row = next(line for line in lines if line.startswith(f"| {game} | {role} |"))
        assert f"| {record['upper']} | {method} |" in row


@pytest.mark.parametrize("page", ["README.md", "docs/index.md", "docs/guides/frontier.md"])
def test_the_pages_state_the_current_4x4_k4_bounds(page: str) -> None:
    """The figures people read are the committed ones (lower: the best of RC2, the per-level
    minima and the decomposition by opening): the README states them, the site's pages take them
    from ``bounds.json`` (``{{ x444 }}``, filled by docs/conf.py)."""
    import importlib.util

    root = GAMES.parent.parent
    text = (root / page).read_text("utf-8")
    conf = None
    if page != "README.md":
        pytest.importorskip("sphinx")  # docs/conf.py imports it (the docs extra)
        spec = importlib.util.spec_from_file_location("docs_conf", root / "docs" / "conf.py")
        assert spec and spec.loader
        conf = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(conf)
    split = {d["variant"]: d["lower"] for d in BOUNDS.get("opening_decomposition", [])}
    for role, name in (
        ("X", "first-any-lookup-entries@mnk:4,4,4"),
        ("O", "second-lookup-entries@mnk:4,4,4"),
    ):
        record = BOUNDS["variants"][name]
        lower, upper = max(record["lower"], split.get(name, 0)), record["upper"]
        if page == "README.md":
            assert f"{role} {lower}..{upper:,}" in text, f"{page}: {role} {lower}..{upper:,}"
        else:
            key = f"{role.lower()}444"
            assert f"{{{{ {key} }}}}" in text, f"{page}: no {{{{ {key} }}}}"
            assert conf is not None and conf.myst_substitutions[key] == f"{lower} .. {upper:,}"
