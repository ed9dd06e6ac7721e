"""The package as users get it: run in a venv where only the built wheel is installed, from a folder
outside the checkout (``.ci/run`` does, after ``python -m build``).

    python scripts/wheel_smoke.py CHECKOUT [--fetch]

Checks, each one line:
1. ``import minttt`` loads the installed wheel, not the checkout, and its package data is there
   (the JSON Schemas, the web page's assets, the long runs' small results) but no release asset;
2. with ``--fetch``, ``minttt fetch --all --from CHECKOUT/results`` fills a new cache folder
   (``MINTTT_CACHE``) with every asset, each checked by its SHA-256;
3. ``minttt reproduce --out DIR``, run from another folder, writes only under DIR and rebuilds
   every result, byte for byte the committed ones (the long runs' results come with the wheel,
   the certificates from the cache); without ``--fetch`` it says in one line which certificates
   it did not check; everything its REPORT.md points to is there: files, ``minttt`` commands,
   modules;
4. ``minttt check-proof NAME`` fetches a certificate the wheel lacks on demand (from
   ``MINTTT_ASSETS``, the checkout's results) and checks it; ``minttt verify`` accepts a table
   reproduce wrote and ``minttt web`` builds the page from the wheel's assets;
5. the README's API tour runs.

Exit 0 when all pass, 1 at the first failure (named), 2 for a bad checkout path.
"""

from __future__ import annotations

import doctest
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path


class SmokeFailure(Exception):
    """One check failed."""


#: the environment of every command: a cache folder of this run's own, set by main()
ENV: dict[str, str] = dict(os.environ)


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``minttt ARGS``: the console script the wheel installed beside this interpreter."""
    command = [str(Path(sys.executable).parent / "minttt"), *args[1:]]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=cwd, env=ENV)
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
    manifest = json.loads((long_runs / "assets.json").read_text("utf-8"))["assets"]
    carried = [e["path"] for e in manifest if (long_runs / e["path"]).is_file()]
    if carried:
        raise SmokeFailure(f"the wheel carries a release asset: {carried[0]}")
    return (
        f"import minttt {minttt.__version__} from {where.parent}: {len(schemas)} schemas, "
        f"{len(assets)} web assets"
    )


def check_fetch(checkout: Path) -> str:
    """``minttt fetch --all --from CHECKOUT/results`` into the run's own cache."""
    done = run("minttt", "fetch", "--all", "--from", str(checkout / "results"))
    cache = Path(ENV["MINTTT_CACHE"])
    files = [p for p in cache.rglob("*") if p.is_file()]
    return f"{done.stdout.strip()} ({len(files)} files in the cache)"


def check_reproduce(checkout: Path, work: Path, fetched: bool) -> str:
    """``minttt reproduce --out DIR``, run from another folder, writes only under DIR, and every
    file it writes is byte for byte the committed one (results/, encodings/ as DIR/encodings)."""
    here, out = work / "elsewhere", work / "results"
    here.mkdir()
    done = run("minttt", "reproduce", "--out", str(out), cwd=here)
    note = [line for line in done.stderr.splitlines() if "were not checked" in line]
    if fetched == bool(note):
        said = "says some certificates were not checked" if note else "says nothing of them"
        raise SmokeFailure(f"reproduce {said}, with the assets {'' if fetched else 'not '}fetched")
    outside = sorted({p.name for p in work.iterdir()} - {"elsewhere", "results", "cache"})
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
    kind = "with every certificate fetched" if fetched else "without the certificates"
    return f"minttt reproduce --out from the wheel, {kind}: {compared} files, byte for byte"


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


def check_proof_on_demand(checkout: Path) -> str:
    """``minttt check-proof NAME`` for the smallest certificate whose proof is an asset, fetched
    on demand from ``MINTTT_ASSETS`` into the cache."""
    from minttt import assets
    from minttt.cli.fetch import shipped_results

    results = shipped_results()
    entries = {e["path"]: e for e in assets.read_manifest(results)}
    named = [
        (entries[files["proof"]]["bytes"], variant)
        for variant, records in assets._index_records(results).items()
        for files in records
        if files.get("proof") in entries and "cnf" in files
    ]
    _, variant = min(named)
    env = {**ENV, "MINTTT_ASSETS": str(checkout / "results")}
    command = [str(Path(sys.executable).parent / "minttt"), "check-proof", variant]
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise SmokeFailure(f"check-proof {variant} exited {done.returncode}: {done.stderr[-300:]}")
    return (
        f"minttt check-proof {variant} (its proof from the cache or fetched): {done.stdout.strip()}"
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
    if argv[1:] not in ([], ["--fetch"]) or not (Path(argv[0]) / "pyproject.toml").is_file():
        print("usage: python scripts/wheel_smoke.py CHECKOUT [--fetch]", file=sys.stderr)
        return 2
    fetched = argv[1:] == ["--fetch"]
    checkout = Path(argv[0]).resolve()
    with tempfile.TemporaryDirectory(prefix="minttt-wheel-") as tmp:
        work = Path(tmp)
        ENV["MINTTT_CACHE"] = str(work / "cache")
        ENV.pop("MINTTT_ASSETS", None)
        checks = (
            lambda: check_installed(checkout),
            *((lambda: check_fetch(checkout),) if fetched else ()),
            lambda: check_reproduce(checkout, work, fetched),
            lambda: check_proof_on_demand(checkout),
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
