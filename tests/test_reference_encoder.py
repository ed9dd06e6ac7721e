"""The reference encoder (:mod:`minttt.trust.encoder`) makes every shipped CNF again, byte for
byte from its ``p cnf`` line on: the 42 3x3 certificates, the m,n,k certificates and lower-bound
parts whose CNF ships, and (slow) a sampled 4x4 k=4 part, whose CNF does not ship, by digest
against the pipeline's. Its game graph is the pipeline's, and its relaxation refuses a log that
would not bound a table."""

from __future__ import annotations

import hashlib
import json
import lzma
from pathlib import Path

import numpy as np
import pytest

from minttt.errors import InputError
from minttt.trust.encoder import (
    VariantSpec,
    certificate_cnf,
    cnf_body,
    level_formula,
    relaxation,
    relaxed_cnf,
)
from minttt.trust.game import Game, build_graph

PROOFS = Path(__file__).resolve().parent.parent / "results" / "proofs"
MNK = PROOFS / "mnk"
#: uncompressed CNF bytes past which a shipped certificate's comparison is in the slow set
QUICK_BYTES = 4_000_000


def _records(path: Path) -> list[dict]:
    return json.loads(path.read_text("utf-8"))["certificates"]


def _form(record: dict) -> str:
    return "level" if str(record.get("pipeline", "")).startswith("array") else "walk"


def _shipped(folder: Path, name: str) -> bytes:
    return cnf_body(lzma.decompress((folder / name).read_bytes()))


def _params(folder: Path, index: str) -> list:
    out = []
    for r in _records(folder / index):
        if not r.get("cnf") or not (folder / r["cnf"]).is_file():
            continue
        big = r.get("cnf_bytes_uncompressed") or 0
        size = (folder / r["cnf"]).stat().st_size * 10 if "cnf_bytes_uncompressed" not in r else big
        marks = [pytest.mark.slow] if size > QUICK_BYTES else []
        out.append(
            pytest.param(r, id=r["variant"] + ("" if "minimum" in r else "-lower"), marks=marks)
        )
    return out


@pytest.mark.parametrize("record", _params(PROOFS, "index.json") + _params(MNK, "index.json"))
def test_every_shipped_certificate_cnf_is_the_reference_one(record: dict) -> None:
    folder = PROOFS if "@mnk" not in record["variant"] else MNK
    cnf = certificate_cnf(
        VariantSpec.parse(record["variant"]), record["minimum"], form=_form(record)
    )
    assert (cnf.nvars, len(cnf)) == (record["variables"], record["clauses"])
    assert cnf.text() == _shipped(folder, record["cnf"])


@pytest.mark.parametrize("record", _params(MNK, "lower-bounds.json"))
def test_every_shipped_lower_bound_cnf_is_the_reference_one(record: dict) -> None:
    doc = json.loads(lzma.decompress((MNK / record["cores"]).read_bytes()))
    cnf = relaxed_cnf(
        VariantSpec.parse(record["variant"]), doc["log"], doc["bounded"], record["depths"]
    )
    assert len(doc["bounded"]) == record["lower"]
    assert cnf.text() == _shipped(MNK, record["cnf"])


@pytest.mark.slow
def test_a_sampled_4x4_k4_part_is_the_pipelines_by_digest() -> None:
    """No 4x4 k=4 part's CNF ships (8.9 million clauses): the pipeline makes it again, checked
    against the SHA-256 its record names, and the reference's text has the same digest."""
    from minttt.proof.lower import lower_cnf_of

    parts = [r for r in _records(MNK / "lower-bounds.json") if "4,4,4" in r["variant"]]
    record = parts[len(parts) // 2]
    theirs = hashlib.sha256(cnf_body(lower_cnf_of(record, MNK))).hexdigest()
    doc = json.loads(lzma.decompress((MNK / record["cores"]).read_bytes()))
    cnf = relaxed_cnf(
        VariantSpec.parse(record["variant"]), doc["log"], doc["bounded"], record["depths"]
    )
    assert (cnf.nvars, len(cnf)) == (record["variables"], record["clauses"])
    assert hashlib.sha256(cnf.text()).hexdigest() == theirs


@pytest.mark.parametrize("name", ["3x3", "3x3-misere", "mnk:3,4,3", "mnk:3,3,2"])
def test_the_graph_is_the_pipelines(name: str) -> None:
    from minttt.game.arrays import build_array_graph
    from minttt.game.rules import Rules

    mine, theirs = build_graph(Game.from_name(name)), build_array_graph(Rules.from_name(name))
    for field in ("hash", "level", "ptr", "move", "child", "value", "terminal"):
        assert np.array_equal(getattr(mine, field), getattr(theirs, field)), field
    for criterion in ("optimal", "never-lose"):
        assert np.array_equal(mine.allowed(criterion), theirs.allowed_mask(criterion))


@pytest.mark.parametrize(
    "name",
    [
        "second-4:0-lookup-entries",
        "first-4+0:1-lookup-entries",
        "first-0-lookup-entries-never-lose",
        "second-lookup-positions@mnk:3,3,2",
    ],
)
def test_the_level_form_is_the_array_pipelines_with_fixed_replies(name: str) -> None:
    from minttt.formula.arrays import encode_arrays
    from minttt.formula.variants import Variant as PipelineVariant
    from minttt.game.arrays import build_array_graph

    variant = PipelineVariant.parse(name)
    theirs = encode_arrays(build_array_graph(variant.rules), variant)
    body = b"".join(theirs.clauses().dimacs())
    head = f"p cnf {theirs.num_vars} {theirs.num_clauses}\n".encode()
    game = Game.from_name(variant.game)
    mine = level_formula(build_graph(game), VariantSpec.parse(name)).cnf()
    assert mine.text() == head + body


def test_a_fixed_reply_must_be_an_allowed_move() -> None:
    graph = build_graph(Game.from_name("3x3"))
    with pytest.raises(InputError, match="not an allowed move"):
        level_formula(graph, VariantSpec.parse("second-4:1-lookup-entries"))  # a corner draws


def test_the_relaxation_refuses_a_log_that_counts_a_position_twice() -> None:
    top, clauses = relaxation([["new", 1, 1, 2]], [3], {1, 2}, top=2)
    assert (top, clauses) == (3, [[-2, 3], [-1, 3]])
    with pytest.raises(InputError, match="one totalizer at most"):
        relaxation([["new", 1, 1, 2], ["new", 1, 2, 5]], [3], {1, 2, 5}, top=5)
    with pytest.raises(InputError, match="not be a totalizer's input"):
        relaxation([["new", 1, 1, 2]], [1], {1, 2}, top=2)
    with pytest.raises(InputError, match="table positions"):
        relaxation([["new", 1, 1, 9]], [1], {1, 2}, top=9)
    with pytest.raises(InputError, match="not a totalizer operation"):
        relaxation([["new", 1, 1, True]], [1], {1, 2}, top=2)


def test_the_totalizers_are_the_pipelines() -> None:
    from minttt.proof.totalizer import replay

    log = [["new", 2, 1, 2, 3, 4, 5], ["new", 1, 6, 7, 8], ["grow", 0, 4]]
    tot, theirs = replay(log, top=8)
    top, mine = relaxation(log, tot.outputs(0), set(range(1, 9)), top=8)
    assert mine == theirs and top == tot.top


def test_a_variant_outside_the_vocabulary_is_one_line() -> None:
    for bad in ("third-lookup-entries", "first-center-tree-entries", "second-4-0-lookup-entries"):
        with pytest.raises(InputError):
            VariantSpec.parse(bad)
    assert VariantSpec.parse("first-lookup-entries@mnk:4,4,4").opening == "center"
    assert VariantSpec.parse("second-5:10+0:5-lookup-entries@mnk:4,4,4").replies() == [
        (5, 10),
        (0, 5),
    ]
