"""docs/DESIGN.md is a map that checks itself: every module of the package is named in it by its
path (and every path it names exists), and its layer list is the one tests/test_layers.py
enforces."""

from __future__ import annotations

import re
from pathlib import Path

from import_graph import LAYERS

ROOT = Path(__file__).resolve().parent.parent
DESIGN = (ROOT / "docs" / "DESIGN.md").read_text("utf-8")


def test_every_module_is_on_the_map_and_every_path_on_it_exists() -> None:
    named = set(re.findall(r"`(minttt/[\w/]+\.py)`", DESIGN))
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "minttt").rglob("*.py")}
    assert not modules - named, f"modules the design does not name: {sorted(modules - named)}"
    assert not named - modules, (
        f"paths the design names that do not exist: {sorted(named - modules)}"
    )
    for path in re.findall(r"`((?:minttt|tests|scripts|docs)/[\w/.-]+)`", DESIGN):
        assert (ROOT / path).exists(), f"docs/DESIGN.md names {path}, which does not exist"


def test_the_layer_list_is_the_one_the_tests_enforce() -> None:
    block = re.search(r"```text\nlayers:\n(.*?)```", DESIGN, re.S)
    assert block is not None, "docs/DESIGN.md has no layers block"
    rows = [line.split() for line in block.group(1).strip().splitlines()]
    assert [int(row[0]) for row in rows] == list(range(1, len(rows) + 1))
    assert tuple(frozenset(row[1:]) for row in rows) == LAYERS
