"""The package as users get it: run in a venv where only the built wheel is installed, from a folder
outside the checkout (``.ci/run`` does, after ``python -m build``).

    python scripts/wheel_smoke.py CHECKOUT

Checks, each one line:
1. ``import minttt`` loads the installed wheel, not the checkout, and its package data is there
   (the JSON Schemas, the web page's assets);
2. ``minttt reproduce --out DIR`` rebuilds every result, byte for byte the committed ones;
3. ``minttt verify`` accepts a table it wrote and ``minttt web`` builds the page from the wheel's
   assets;
4. the README's API tour runs.

Exit 0 when all pass, 1 at the first failure (named), 2 for a bad checkout path.
"""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from minttt.report.reproduce import carry_long_runs


class SmokeFailure(Exception):
    """One check failed."""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``minttt ARGS``: the console script the wheel installed beside this interpreter."""
    command = [str(Path(sys.executable).parent / "minttt"), *args[1:]]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
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
    return (
        f"import minttt {minttt.__version__} from {where.parent}: {len(schemas)} schemas, "
        f"{len(assets)} web assets"
    )


def check_reproduce(checkout: Path, work: Path) -> str:
    out, encodings = work / "results", work / "encodings"
    committed = checkout / "results"
    carry_long_runs(committed, out)  # reproduce reads the committed long runs, never reruns them
    carried = {p.relative_to(out) for p in out.rglob("*") if p.is_file()}
    run("minttt", "reproduce", "--out", str(out), "--encodings", str(encodings))
    compared = 0
    for folder, reference in ((out, committed), (encodings, checkout / "encodings")):
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder)
            if not path.is_file() or rel in carried:
                continue
            ref = reference / rel
            if not ref.is_file():
                raise SmokeFailure(f"reproduce wrote {rel}, which is not committed")
            if ref.read_bytes() != path.read_bytes():
                raise SmokeFailure(f"reproduce from the wheel wrote {rel} unlike the committed one")
            compared += 1
    return f"minttt reproduce from the wheel: {compared} files, byte for byte the committed ones"


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
