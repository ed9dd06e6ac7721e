"""The README is a front page that runs: its tour works, its quick start is the two commands, and
the front door lists the data line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
REPOSITORY = PROJECT["urls"]["Source"]


def test_quick_start_is_two_commands_install_then_test() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"## Quick start\n\n```bash\n(.*?)```", text, flags=re.S)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert commands == [
        'pip install -e ".[dev]" -c requirements/lock.txt && minttt reproduce',
        "python -m pytest",
    ]


def test_the_readme_is_a_front_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 90  # scripts/check_site.py README_LINES
    for page in (
        "docs/guides/agents.md",
        "docs/guides/certificates.md",
        "docs/reference/commands.md",
    ):
        assert f"({REPOSITORY}/blob/main/{page})" in "\n".join(lines)


def test_every_readme_link_works_on_a_package_page() -> None:
    """A package index shows the README away from the repository: every link is absolute, and
    each into the repository names a file or folder that exists."""
    links = re.findall(r"\]\(([^)\s]+)\)", README.read_text(encoding="utf-8"))
    assert links
    for link in links:
        assert link.startswith(("https://", "#")), f"relative, broken on a package page: {link}"
        inside = re.match(rf"{re.escape(REPOSITORY)}/(?:blob|tree)/main/(.+)", link)
        if inside:
            assert (ROOT / inside[1]).exists(), f"{link}: no {inside[1]} in the repository"


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
