"""REPORT.md's prose is written from the figures: rebuilt from the committed ``summary.json`` it is
the committed REPORT.md, and a changed figure changes the prose (no figure is typed by hand)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from minttt.evolve.situations import HochmuthConfig
from minttt.report import sections
from minttt.report.enumeration import source_tables_markdown
from minttt.report.joint import joint_markdown
from minttt.report.minima import beyond_report_markdown
from minttt.report.sources import GAMES_000, JOINT_MERGED_003, SOURCE_003

RESULTS = Path(__file__).resolve().parent.parent / "results"


@pytest.fixture(scope="module")
def summary() -> dict[str, Any]:
    return json.loads((RESULTS / "summary.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def report() -> str:
    return (RESULTS / "REPORT.md").read_text("utf-8")


def _sections(s: dict[str, Any]) -> dict[str, str]:
    """Every section that is a function of ``summary.json`` alone."""
    parts = {
        "counts": sections.counts_markdown(s["counts"]),
        "tables": sections.tables_markdown(s["tables"], SOURCE_003),
        "raw": sections.raw_tables_markdown(s["tables_raw"], s["counts"]["hashed"]["positions"]),
        "verification": sections.verification_markdown(s["verification"]),
        "evolution": sections.evolution_markdown(s["evolution"], HochmuthConfig()),
        "certificates": sections.certificates_markdown(s["certificates"]),
    }
    text = {k: "\n".join(v) for k, v in parts.items()}
    text["beyond"] = beyond_report_markdown(s["beyond"])
    return text


def _record(s: dict[str, Any], variant: str) -> dict[str, Any]:
    return next(r for r in s["beyond"]["optimal"] if r["variant"] == variant)


def test_committed_report_is_written_from_the_committed_summary(summary, report):
    assert report.startswith("\n".join(sections.report_head()))
    for name, text in _sections(summary).items():
        assert text.strip() in report, f"the {name} section differs from REPORT.md"


@pytest.mark.parametrize(
    ("change", "section", "gone", "new"),
    [
        (lambda s: s["counts"]["full_tree"].update(nodes=549_947), "counts", None, "549,947 | ✗"),
        (
            lambda s: s["counts"]["situations_827"].update(decision_positions=600),
            "counts",
            "asked about the 627",
            "asked about the 600",
        ),
        (
            lambda s: s["counts"].update(games_up_to_symmetry=GAMES_000),
            "counts",
            "not reproduced",
            f"{GAMES_000:,} games is reproduced",
        ),
        (
            lambda s: s["counts"]["symmetric"].update(positions=766),
            "counts",
            "all 765 and",
            "all 766 and",
        ),
        (lambda s: s["tables"][0].update(optimal=False), "tables", "Every minimum", "17 of 18"),
        (
            lambda s: s["counts"]["hashed"].update(positions=5_000),
            "raw",
            "5,478 raw",
            "5,000 raw",
        ),
        (
            lambda s: s["verification"].update({"second-tree-positions": False}),
            "verification",
            "All 18",
            "17 of 18",
        ),
        (
            lambda s: s["evolution"]["source_000"]["population_500"].update(generation=300),
            "evolution",
            "generation 373",
            "generation 300",
        ),
        (
            lambda s: s["evolution"].update(proven_minimum=90),
            "evolution",
            "and as O is 93",
            "and as O is 90",
        ),
        (
            lambda s: s["beyond"]["joint_tree"].update(size=150, lookups=90),
            "beyond",
            "10 fewer than the merge",
            "18 fewer than the merge",
        ),
        (
            lambda s: _record(s, "first-center-lookup-entries")["worst_odds"]["X"].update(
                win_percent=99.0
            ),
            "beyond",
            "lie inside both ranges",
            "fall outside these ranges",
        ),
    ],
)
def test_a_changed_figure_changes_the_prose(summary, change, section, gone, new):
    before = _sections(summary)[section]
    fake = copy.deepcopy(summary)
    change(fake)
    after = _sections(fake)[section]
    assert after != before
    assert new in after and new not in before
    if gone is not None:
        assert gone in before and gone not in after


def test_joint_claims_follow_the_figures():
    j = {
        "size": 220,
        "optimal": False,
        "proof": {"proven": False},
        "x_part_alone": 41,
        "o_part_alone": 127,
        "source_merged": JOINT_MERGED_003,
        "source_direct": 212,
        "never_lose_size": 190,
        "table": "t.json",
        "lookups": 120,
    }
    text = "\n".join(joint_markdown(j, verified=False))
    assert "**220 positions** ✗ (not proven minimal)" in text
    assert f"{220 - JOINT_MERGED_003} more than the merge" in text
    assert "was not a minimum" not in text and "fails the verifier" in text
    j.update(size=158, optimal=True, proof={"proven": True})
    text = "\n".join(joint_markdown(j, verified=True))
    assert "UNSAT at 157" in text and "212 was not a minimum" in text


def test_source_tables_need_both_tiny_tables():
    assert source_tables_markdown([]) == []


def test_situations_note_is_written_from_the_counts():
    from minttt.game.counts import situations_827

    s = situations_827()
    assert s["reproduced"]
    assert s["note"].startswith(
        f"{s['value']} = {s['decision_positions']} positions where a move is really asked for "
        f"+ {s['with_a_line']} boards"
    )
