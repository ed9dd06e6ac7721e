"""The README's API tour runs: every ``pycon`` block, in order, in one namespace."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def tour_blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    return re.findall(r"```pycon\n(.*?)```", text, flags=re.S)


def test_readme_tour_runs():
    blocks = tour_blocks()
    assert len(blocks) >= 7  # rules, graph, formula, solution, table, verify, render/export
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"README tour block {i + 1}", str(README), 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    result = runner.summarize(verbose=False)
    assert result.attempted > 20 and result.failed == 0


def test_front_door_lists_the_data_line():
    import minttt

    for name in (
        "Board", "Rules", "build_graph", "Variant", "encode", "solve", "Table", "load_table",
        "save_table", "verify_table", "exact_odds", "tournament", "Role", "Criterion",
        "Objective", "Encoding",
    ):  # fmt: skip
        assert name in minttt.__all__ and getattr(minttt, name) is not None
    assert callable(minttt.solve) and callable(minttt.encode)


def test_front_door_all_matches_its_table():
    import minttt

    assert sorted(minttt.__all__) == sorted([*minttt._EXPORTS, "__version__"])
