"""The pages a newcomer reads: a README of at most 90 lines with the quick start on its first
screen, sentences of at most 60 words, no 4x4 bound that ``results/games/bounds.json`` does not
hold, examples that pass plain ``python -m doctest``, and a quick start that says what CI runs.

The checks of the page sources are ``scripts/check_site.py``'s (:func:`check_pages`), so CI's site
check and these tests fail on the same pages.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = sorted((ROOT / "docs" / "guides").glob("*.md"))
DOCTESTED = [README, ROOT / "docs" / "tour.md", *GUIDES]
CI_TESTS = 'python -m pytest -m "slow or not slow" -n auto'


def _script(name: str):  # noqa: ANN202 - a module of scripts/
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _script("check_site")


def test_the_page_sources_read_clean() -> None:
    """README length, sentence length and hand-copied bounds, as CI's site check reads them."""
    assert CHECK.check_pages(ROOT) == []


def test_the_quick_start_is_on_the_first_screen() -> None:
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= CHECK.README_LINES
    start = next(i for i, line in enumerate(lines) if line.startswith("pip install"))
    assert start < 25, f"the quick start begins on line {start + 1}"


def test_a_stale_4x4_bound_is_found(tmp_path: Path) -> None:
    """The bound check on a checkout of its own: a range or an "at least" that bounds.json
    holds passes, one it does not hold is named, and a range away from 4x4 is no bound of it."""
    (tmp_path / "results" / "games").mkdir(parents=True)
    record = {"lower": 460, "upper": 1287}
    (tmp_path / "results" / "games" / "bounds.json").write_text(
        json.dumps({"variants": {"first-any-lookup-entries@mnk:4,4,4": record}})
    )
    page = tmp_path / "page.md"
    page.write_text("4x4 with four in a row: X 460..1,287, at least 460.\n\n2x8 k=7: 15 .. 292.\n")
    assert CHECK.stale_bounds(tmp_path, page) == []
    page.write_text("On 4x4 k=4, X: 445..1,287; O at least 230.\n")
    problems = CHECK.stale_bounds(tmp_path, page)
    assert problems == [
        "page.md: a 4x4 bound 445..1,287 that bounds.json does not hold",
        "page.md: a 4x4 bound 'at least 230' bounds.json does not hold",
    ]


def test_the_readme_states_the_frontier_as_bounds_json_holds_it() -> None:
    """The README is read off the site, where no substitution runs: its 4x4 k=4 bounds are
    typed, and they must be the file's."""
    variants = json.loads((ROOT / "results" / "games" / "bounds.json").read_text("utf-8"))
    text = " ".join(README.read_text("utf-8").split())
    for name, role in (("first-any-lookup-entries", "X"), ("second-lookup-entries", "O")):
        record = variants["variants"][f"{name}@mnk:4,4,4"]
        assert f"{role} {record['lower']:,}..{record['upper']:,}" in text


def test_a_long_sentence_is_found() -> None:
    text = "Short one. " + " ".join(["word"] * 61) + ".\n- a list item\n- and another\n"
    assert [len(s.split()) for s in CHECK.sentences(text)] == [2, 61, 3, 2]


@pytest.mark.parametrize(
    "page", [p for p in DOCTESTED if ">>>" in p.read_text("utf-8")], ids=lambda p: p.name
)
def test_examples_pass_plain_doctest(page: Path) -> None:
    """``python -m doctest FILE`` from the checkout, as a reader runs it (no option flags, the
    whole file one test): a closing fence right after an output would be read as output."""
    done = subprocess.run(
        [sys.executable, "-m", "doctest", str(page.relative_to(ROOT))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.parametrize("page", [README, ROOT / "docs" / "index.md", ROOT / "docs" / "install.md"])
def test_the_quick_start_says_what_ci_runs(page: Path) -> None:
    """``python -m pytest`` runs the quick set (``pyproject.toml`` leaves out ``slow``); the page
    says so and quotes CI's own command, and states no time."""
    text = " ".join(page.read_text("utf-8").split())
    assert "addopts = \"--doctest-modules -m 'not slow'\"" in (ROOT / "pyproject.toml").read_text()
    assert CI_TESTS in (ROOT / ".ci" / "run").read_text("utf-8")
    assert CI_TESTS in text
    assert re.search(r"quick set|not marked .?slow", text)
    quick = text[text.index("python -m pytest") :][:600]
    assert not re.search(r"\d+(\.\d+)? ?(s|min|minutes|seconds)\b", quick), quick


def test_the_changelog_is_read_by_people() -> None:
    """Keep a Changelog: an Unreleased section and dated releases, each with Added / Changed /
    Fixed lists of one line a change; no run diary."""
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    releases = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.M)
    assert releases[0] == ("Unreleased", "")
    assert all(date for _, date in releases[1:]) and len(releases) > 1
    assert set(re.findall(r"^### (.+)$", text, re.M)) <= {
        "Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"
    }  # fmt: skip
    items = [line for line in text.splitlines() if line.startswith("- ")]
    assert items and all(len(line) <= 110 for line in items)
    assert not [line for line in text.splitlines() if line.startswith("  ")], "one line a change"


def test_the_frontier_guide_teaches_tasks() -> None:
    page = ROOT / "docs" / "guides" / "frontier.md"
    assert len(page.read_text("utf-8").splitlines()) <= 300


@pytest.mark.skipif(
    importlib.util.find_spec("sphinx") is None, reason="needs Sphinx (pip install -e '.[docs]')"
)
def test_every_substitution_a_page_uses_is_filled_from_bounds_json() -> None:
    """``{{ name }}`` on a page is one of the figures ``docs/conf.py`` reads from bounds.json."""
    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    figures = conf.myst_substitutions
    variants = json.loads((ROOT / "results" / "games" / "bounds.json").read_text("utf-8"))
    x = variants["variants"]["first-any-lookup-entries@mnk:4,4,4"]
    assert figures["x444_lower"] == f"{x['lower']:,}"
    used = {
        name
        for page in (ROOT / "docs").rglob("*.md")
        for name in re.findall(r"\{\{ *(\w+) *\}\}", page.read_text("utf-8"))
    }
    assert used and used <= set(figures), sorted(used - set(figures))
