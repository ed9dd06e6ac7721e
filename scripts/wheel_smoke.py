"""The package as users get it: run in a venv where only the built wheel is installed, from a folder
outside the checkout (``.ci/run`` does, after ``python -m build``).

    python scripts/wheel_smoke.py CHECKOUT

Checks, each one line:
1. ``import minttt`` loads the installed wheel, not the checkout, and its package data is there
   (the JSON Schemas, the web page's assets);
2. ``minttt reproduce --out DIR``, run from another folder, writes only under DIR and rebuilds
   every result, byte for byte the committed ones (the long runs' results come with the wheel);
   everything its REPORT.md points to is there: files, ``minttt`` commands, modules;
3. ``minttt verify`` accepts a table it wrote and ``minttt web`` builds the page from the wheel's
   assets;
4. the README's API tour runs.

Exit 0 when all pass, 1 at the first failure (named), 2 for a bad checkout path.
"""

from __future__ import annotations

import doctest
import importlib
import re
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path


class SmokeFailure(Exception):
    """One check failed."""


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``minttt ARGS``: the console script the wheel installed beside this interpreter."""
    command = [str(Path(sys.executable).parent / "minttt"), *args[1:]]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=cwd)
    if done.returncode != 0:
        said = done.stderr.strip()[-400:]
        raise SmokeFailure(f"{' '.join(args)} exited {done.returncode}: {said}")
    return done


def check_installed(checkout: Path) -> str:
    import minttt

    where = Path(minttt.__file__).resolve()
    if where.is_relative_to(checkout):
        raise SmokeFailure(f"minttt was imported from the checkout ({where}), not the wheel")
    package = resources.files("minttt")
    schemas = sorted(p.name for p in (package / "schemas").iterdir() if p.name.endswith(".json"))
    assets = sorted(p.name for p in (package / "web" / "assets").iterdir())
    if not schemas or "table.schema.json" not in schemas:
        raise SmokeFailure(f"the wheel carries no table schema (schemas: {schemas})")
    if not assets:
        raise SmokeFailure("the wheel carries no web assets")
    long_runs = package / "report" / "long_run_results"
    if not (long_runs / "games_study.json").is_file() or not (long_runs / "games").is_dir():
        raise SmokeFailure("the wheel carries no long-run results for reproduce to read")
    return (
        f"import minttt {minttt.__version__} from {where.parent}: {len(schemas)} schemas, "
        f"{len(assets)} web assets"
    )


def check_reproduce(checkout: Path, work: Path) -> str:
    """``minttt reproduce --out DIR``, run from another folder, writes only under DIR, and every
    file it writes is byte for byte the committed one (results/, encodings/ as DIR/encodings)."""
    here, out = work / "elsewhere", work / "results"
    here.mkdir()
    run("minttt", "reproduce", "--out", str(out), cwd=here)
    outside = sorted({p.name for p in work.iterdir()} - {"elsewhere", "results"})
    if outside or any(here.iterdir()):
        raise SmokeFailure(f"reproduce --out wrote outside its folder: {outside or '(cwd)'}")
    compared = 0
    for path in sorted(out.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(out)
        parts = rel.parts
        ref = checkout / "encodings" / Path(*parts[1:]) if parts[0] == "encodings" else None
        ref = ref or checkout / "results" / rel
        if not ref.is_file():
            raise SmokeFailure(f"reproduce wrote {rel}, which is not committed")
        if ref.read_bytes() != path.read_bytes():
            raise SmokeFailure(f"reproduce from the wheel wrote {rel} unlike the committed one")
        compared += 1
    return f"minttt reproduce --out from the wheel: {compared} files, byte for byte the committed"


#: a word of REPORT.md in backticks that names a file or a folder (under the results folder)
PATH_WORD = re.compile(r"[\w.*-]+(?:/[\w.*-]*)*")
PATH_SUFFIX = re.compile(r"/|\.(?:json|png|svg|dot|md|py|xz|wcnf|smt2|html)$")


def _front_door(dotted: str) -> object:
    """``minttt.drat``: what that name is, through the package's front door (PEP 562)."""
    first, *rest = dotted.split(".")
    found: object = importlib.import_module(first)
    for name in rest:
        try:
            found = getattr(found, name)
        except AttributeError:
            raise SmokeFailure(f"REPORT.md names {dotted}, which the wheel lacks") from None
    return found


def check_report_pointers(work: Path) -> str:
    """Everything REPORT.md points to ships: each file or folder it names is in the results
    folder, each ``minttt`` command exists, each ``minttt.*`` module imports."""
    out = work / "results"
    text = (out / "REPORT.md").read_text("utf-8")
    words = set(re.findall(r"`([^`]+)`", text)) | set(re.findall(r"\]\(([^)]+)\)", text))
    files = commands = modules = 0
    for word in sorted(words):
        if re.fullmatch(r"minttt(?:\.\w+)+", word):
            _front_door(word)
            modules += 1
        elif word.startswith("minttt "):
            run("minttt", word.split()[1], "--help")
            commands += 1
        elif PATH_WORD.fullmatch(word) and PATH_SUFFIX.search(word):
            where = word.rstrip("/")
            if not list(out.glob(where)) and ("/" in where or not list(out.rglob(where))):
                raise SmokeFailure(f"REPORT.md points to {word}, which reproduce did not write")
            files += 1
    return (
        f"REPORT.md ({len(text.splitlines())} lines) points to {files} files and folders, "
        f"{commands} commands and {modules} modules, all shipped"
    )


def check_table_commands(work: Path) -> str:
    table = work / "results" / "tables" / "both-center-lookup-entries.json"
    run("minttt", "verify", str(table))
    site = work / "site"
    run("minttt", "web", "--table", str(table), "--out", str(site))
    if not (site / "index.html").is_file():
        raise SmokeFailure("minttt web wrote no index.html")
    pages = len(list(site.iterdir()))
    return f"minttt verify and minttt web on {table.name}: exit 0, {pages} page files"


def check_tour(checkout: Path) -> str:
    text = (checkout / "README.md").read_text("utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"README tour block {i + 1}", "README.md", 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    result = runner.summarize(verbose=False)
    if result.failed or not result.attempted:
        raise SmokeFailure(f"README tour: {result.failed} of {result.attempted} examples failed")
    return f"README tour: {result.attempted} examples in {len(blocks)} blocks"


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not (Path(argv[0]) / "pyproject.toml").is_file():
        print("usage: python scripts/wheel_smoke.py CHECKOUT", file=sys.stderr)
        return 2
    checkout = Path(argv[0]).resolve()
    with tempfile.TemporaryDirectory(prefix="minttt-wheel-") as tmp:
        work = Path(tmp)
        checks = (
            lambda: check_installed(checkout),
            lambda: check_reproduce(checkout, work),
            lambda: check_report_pointers(work),
            lambda: check_table_commands(work),
            lambda: check_tour(checkout),
        )
        try:
            for check in checks:
                print(f"wheel: {check()}", flush=True)
        except SmokeFailure as exc:
            print(f"wheel: FAILED: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
