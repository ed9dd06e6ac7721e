"""The documentation runs: every code block of the README and of ``docs/`` is checked, the API
reference covers every public name, every public name has a docstring, the command reference is
the CLI's own, the notebook executes and the site builds with ``--strict``.

Code blocks by tag: ``pycon`` runs as a doctest (a file's blocks in one namespace, from the
repository's root); ``python`` runs as a script; in ``bash`` every ``minttt ...`` line is parsed by
the real command line (command, options and their values: a renamed option fails here) and every
``python scripts/X.py`` must exist; ``text`` is output, not code.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tomllib
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
    api = "\n".join(p.read_text("utf-8") for p in (ROOT / "docs" / "api").glob("*.md"))
    documented = set(re.findall(r"^::: ([\w.]+)", api, re.M))
    for name in minttt.__all__:
        if name != "__version__":
            assert f"[`minttt.{name}`]" in api, f"minttt.{name} is not in docs/api/index.md"
    modules = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "minttt").rglob("*.py")
    }
    hidden = {m for m in modules if m.startswith("minttt.cli") or m == "minttt.__main__"}
    undocumented = sorted(modules - hidden - documented - {"minttt"})
    assert not undocumented, f"modules in no API page: {undocumented}"


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
    assert "## Unreleased" in (ROOT / "CHANGELOG.md").read_text("utf-8")


@pytest.mark.skipif(not _importable("nbclient"), reason="needs nbclient and ipykernel (dev extra)")
def test_the_notebook_executes_and_draws() -> None:
    import nbclient
    import nbformat

    nb = nbformat.read(ROOT / "docs" / "notebook.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", cwd=str(ROOT)).execute()
    kinds = {
        k for c in nb.cells if c.cell_type == "code" for o in c.outputs for k in o.get("data", {})
    }
    assert {"image/svg+xml", "text/html"} <= kinds


@pytest.mark.slow  # mkdocstrings over the whole package, about 10 s
@pytest.mark.skipif(not _importable("mkdocs"), reason="needs mkdocs (pip install -e '.[docs]')")
def test_the_site_builds_strict(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "api" / "index.html").is_file()
