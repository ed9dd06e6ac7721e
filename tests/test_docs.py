"""The documentation runs: every code block of the README and of ``docs/`` is checked, the API
reference covers every public name, every public name has a docstring, the command reference is
the CLI's own, the notebook executes, the site builds strict and reads clean (no reST shown as
text, no broken link), and the package metadata is ready for an index.

Code blocks by tag: ``pycon`` runs as a doctest (a file's blocks in one namespace, from the
repository's root); ``python`` runs as a script; in ``bash`` every ``minttt ...`` line is parsed by
the real command line (command, options and their values: a renamed option fails here) and every
``python scripts/X.py`` must exist; ``text`` is output, not code.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import re
import shlex
import subprocess
import sys
import tomllib
import zlib
from pathlib import Path

import pytest
import typer

import minttt
from minttt.cli import build_app
from minttt.cli.reference import commands_markdown

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
OPTIONAL = ("pyspiel", "open_spiel", "pettingzoo")


def blocks(page: Path, tag: str) -> list[str]:
    return [body for kind, body in FENCE.findall(page.read_text("utf-8")) if kind == tag]


def test_every_fence_has_a_known_tag() -> None:
    for page in PAGES:
        tags = {kind for kind, _ in FENCE.findall(page.read_text("utf-8"))}
        assert tags <= {"pycon", "python", "bash", "text", "json"}, (page.name, tags)


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "pycon")], ids=lambda p: p.name)
def test_pycon_blocks_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict = {}
    for i, block in enumerate(blocks(page, "pycon")):
        test = parser.get_doctest(block, globs, f"{page.name} block {i + 1}", str(page), 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "python")], ids=lambda p: p.name)
def test_python_blocks_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for block in blocks(page, "python"):
        missing = [m for m in OPTIONAL if re.search(rf"\b{m}\b", block) and not _importable(m)]
        if missing:
            pytest.skip(f"needs {missing[0]} (pip install -e '.[openspiel,pettingzoo]')")
        exec(compile(block, f"{page.name}:python", "exec"), {"__name__": "docs_example"})


def _importable(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


SYNOPSIS = re.compile(r"\[|\b[A-Z][A-Z0-9_.]*[A-Z]\b|\w\|\w| \| ")  # [opt], FILE, a|b, x | y


def _commands(page: Path) -> list[tuple[str, list[str]]]:
    """Every shell command line of the page's bash blocks, ``(line, words)``: comments and
    redirections dropped, a synopsis (``[--opt]``, ``FILE``, ``a|b``) kept whole."""
    out = []
    for block in blocks(page, "bash"):
        joined = re.sub(r"\\\n\s*", " ", block)
        joined = re.sub(r"\n\s+(?=\[)", " ", joined)  # a synopsis continued on indented lines
        for line in joined.splitlines():
            line = line.split(" #", 1)[0].strip()
            if SYNOPSIS.search(line):
                out.append((line, line.split()))
                continue
            for part in re.split(r"&&|\|", line):
                words = shlex.split(part, comments=True)
                cut = next((i for i, w in enumerate(words) if w[:1] in "<>" or w[:2] == "2>"), None)
                if words[:cut]:
                    out.append((line, words[:cut]))
    return out


def _options(args: list[str]) -> set[str]:
    """Every flag of the command (or subcommand) named by ``args``."""
    command: object = typer.main.get_command(build_app())
    for word in args:
        sub = getattr(command, "commands", {}).get(word)
        if sub is None:
            break
        command = sub
    params = getattr(command, "params", [])
    return {flag for p in params for flag in [*p.opts, *p.secondary_opts]} | {"--help"}


def _parse_cli(args: list[str]) -> None:
    """Parse ``minttt ARGS`` as the command line would, without running it."""
    group = typer.main.get_command(build_app())
    ctx = group.make_context("minttt", list(args), resilient_parsing=False)
    command: object = group
    while rest := [*getattr(ctx, "_protected_args", ()), *ctx.args]:
        sub = command.get_command(ctx, rest[0])  # type: ignore[attr-defined]
        assert sub is not None, f"no command {rest[0]!r}"
        ctx = sub.make_context(rest[0], rest[1:], parent=ctx, resilient_parsing=False)
        command = sub
        if not hasattr(sub, "get_command"):
            break


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "bash")], ids=lambda p: p.name)
def test_bash_blocks_name_real_commands_and_options(page: Path) -> None:
    for line, words in _commands(page):
        if words[0] == "minttt" and SYNOPSIS.search(line):  # a synopsis: its flags must exist
            unknown = set(re.findall(r"--[a-z][a-z0-9-]*", line)) - _options(words[1:3])
            assert not unknown, f"{page.name}: `{line}`: no option {sorted(unknown)}"
        elif words[0] == "minttt":
            try:
                _parse_cli(words[1:])
            except Exception as exc:  # click's usage errors: a renamed option, a bad value
                raise AssertionError(f"{page.name}: `{line}`: {exc}") from None
        elif words[0] == "python" and len(words) > 1 and words[1].startswith("scripts/"):
            assert (ROOT / words[1]).is_file(), f"{page.name}: no {words[1]}"


def test_the_api_reference_covers_every_public_name_and_module() -> None:
    """Every name of ``minttt.__all__`` is in the front door's table (that every module has a
    page of its own: tests/test_api_docs.py)."""
    api = "\n".join(p.read_text("utf-8") for p in (ROOT / "docs" / "api").glob("*.rst"))
    for name in minttt.__all__:
        if name != "__version__":
            assert f":py:obj:`minttt.{name} <" in api, f"minttt.{name} is not in docs/api/index.rst"


def test_every_public_name_has_a_docstring() -> None:
    missing = []
    for path in sorted((ROOT / "minttt").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        public = None
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) == "__all__" for t in node.targets
            ):
                public = set(ast.literal_eval(node.value))
        missing += _undocumented(tree.body, public, path, "")
    assert not missing, missing


def _undocumented(body: list[ast.stmt], public: set[str] | None, path: Path, prefix: str) -> list:
    out = []
    for node in body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if node.name.startswith("_") or (
            not prefix and public is not None and node.name not in public
        ):
            continue
        if ast.get_docstring(node) is None:
            out.append(f"{path.relative_to(ROOT)}:{node.lineno} {prefix}{node.name}")
        if isinstance(node, ast.ClassDef):
            out += _undocumented(node.body, public, path, f"{prefix}{node.name}.")
    return out


def test_the_command_reference_is_the_clis_own() -> None:
    page = (ROOT / "docs" / "reference" / "commands.md").read_text("utf-8")
    assert page == commands_markdown(), "run python scripts/docs_reference.py"


def test_license_citation_changelog_and_one_version() -> None:
    assert "MIT License" in (ROOT / "LICENSE").read_text("utf-8")
    citation = (ROOT / "CITATION.cff").read_text("utf-8")
    assert f'version: "{minttt.__version__}"' in citation
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert "\n## [Unreleased]\n" in changelog  # Keep a Changelog
    assert f"\n## [{minttt.__version__}] - " in changelog, "each release has its changelog section"
    assert f'repository-code: "{project["urls"]["Source"]}"' in citation


def test_the_package_is_ready_for_an_index() -> None:
    """SPDX license, classifiers, URLs, authors, keywords, py.typed shipped, and ranges (no exact
    pins: exact versions are the lock's)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    project = pyproject["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert project["authors"] and project["keywords"] and project["urls"]
    assert "Typing :: Typed" in project["classifiers"]
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["minttt"]
    assert (ROOT / "minttt" / "py.typed").is_file()
    requirements = [*project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        requirements += extra
    pinned = [r for r in requirements if "==" in r.split(";", 1)[0]]  # not a marker's ==
    assert not pinned, "exact versions belong in the lock"


def test_the_intersphinx_inventories_are_the_scripts_own() -> None:
    """docs/_inventories is what scripts/docs_inventories.py writes (rerun it after a change)."""
    written = _script("docs_inventories").inventories()
    committed = {p.name: p.read_bytes() for p in (ROOT / "docs" / "_inventories").glob("*.inv")}
    assert committed == written, "run python scripts/docs_inventories.py"
    assert b"pathlib.Path py:class 1 library/pathlib.html#$" in _inflate(written["python.inv"])


def _inflate(inventory: bytes) -> bytes:
    return zlib.decompress(inventory.split(b"\n", 4)[4])


def _script(name: str):  # noqa: ANN202 - a module of scripts/
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not _importable("nbclient"), reason="needs nbclient and ipykernel (dev extra)")
def test_the_notebook_executes_draws_and_stores_what_it_draws() -> None:
    """The site shows the notebook's stored outputs: they must be what it draws when run."""
    import nbformat

    nb = _script("docs_notebook").executed()
    kinds = {
        k for c in nb.cells if c.cell_type == "code" for o in c.outputs for k in o.get("data", {})
    }
    assert {"image/svg+xml", "text/html"} <= kinds
    stored = nbformat.read(ROOT / "docs" / "notebook.ipynb", as_version=4)
    assert [c.get("outputs") for c in stored.cells] == [c.get("outputs") for c in nb.cells], (
        "run python scripts/docs_notebook.py"
    )


def _check_site():  # noqa: ANN202 - the module scripts/check_site.py
    return _script("check_site")


def test_the_site_check_finds_literal_markup_and_broken_links(tmp_path: Path) -> None:
    """scripts/check_site.py on a small site of its own: each kind of defect is found, and a
    clean page passes."""
    (tmp_path / "api").mkdir()
    (tmp_path / "index.html").write_text(
        '<h1 id="top">minttt</h1><a href="api/game.html#minttt.Board">Board</a>'
        '<a href="#top">top</a><a href="https://docs.python.org/3/">Python</a>'
        "<pre>x = ``code in a block is code``</pre>"
    )
    (tmp_path / "api" / "game.html").write_text('<dt id="minttt.Board">Board</dt>')
    check = _check_site()
    assert check.check_site(tmp_path) == []
    (tmp_path / "api" / "game.html").write_text(
        '<dt id="x">:class:`Board`</dt><a href="../missing.html">m</a>'
    )
    (tmp_path / "guide.html").write_text("<p>run ``minttt verify``</p>")
    problems = check.check_site(tmp_path)
    assert any("missing anchor api/game.html#minttt.Board" in p for p in problems)
    assert any("missing file ../missing.html" in p for p in problems)
    assert any(p.startswith("api/game.html: reST shown as text") for p in problems)
    assert any(p.startswith("guide.html: reST shown as text") for p in problems)
    assert check.main([str(tmp_path / "api")]) == 2
    assert check.main([str(tmp_path)]) == 1


@pytest.mark.slow  # autodoc over the whole package, about 40 s
@pytest.mark.skipif(not _importable("sphinx"), reason="needs Sphinx (pip install -e '.[docs]')")
def test_the_site_builds_strict_and_reads_clean(tmp_path: Path) -> None:
    """The strict build (-W -n), then what a reader meets: no reST as text, no broken internal
    link, the notebook with its pictures, source links, the version, the changelog."""
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-W", "-n", "-b", "html", "docs", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert _check_site().check_site(tmp_path) == []
    notebook = (tmp_path / "notebook.html").read_text("utf-8")
    assert "win 97.92%" in notebook and "cell_output" in notebook  # its stored outputs
    game = (tmp_path / "api" / "generated" / "minttt.game.rules.html").read_text("utf-8")
    assert "viewcode-link" in game and 'id="minttt.game.rules.Board"' in game
    assert minttt.__version__ in (tmp_path / "index.html").read_text("utf-8")
    assert "Unreleased" in (tmp_path / "changelog.html").read_text("utf-8")
    assert list((tmp_path / "_images").glob("*.svg")), "the guides show the library's pictures"


@pytest.mark.slow
def test_the_tests_benchmark_measured_about_todays_suite() -> None:
    """The tests benchmark is not stale: it passed within a tenth of the tests the README's
    command collects today (more, and the quoted times no longer say what a newcomer waits)."""
    import json

    passed = json.loads((ROOT / "results" / "bench.json").read_text())["tests"]["readme"]["passed"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    collected = int(re.search(r"(\d+)(?:/\d+)? tests? collected", done.stdout)[1])
    assert abs(collected - passed) <= collected / 10, (collected, passed)
