"""Release chore: the built sdist and wheels are what a package index accepts.

    python scripts/check_dist.py DIST

Checks, each one line:
1. every file is at most 20 MB (an index refuses files above 100 MB by default; a user should not
   download the certificates to get the code);
2. every wheel's tag is one an index accepts: ``py3-none-any`` (pure Python) or a ``manylinux`` /
   ``musllinux`` platform tag (auditwheel's repair), never a plain ``linux_x86_64``;
3. no wheel or sdist carries a release asset (a file that ``results/assets.json`` lists), and
   each wheel holds what ``docs/release.md`` says a wheel holds (its table "What a package holds").

Exit 0 when all pass, 1 at the first failure (named), 2 for a bad folder.
"""

from __future__ import annotations

import json
import re
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_BYTES = 20_000_000
#: one platform tag an index accepts (a wheel's platform is a dot-separated list of them)
ACCEPTED_PLATFORM = re.compile(r"any|(manylinux|musllinux)_\d+_\d+_\w+|manylinux(1|2010|2014)_\w+")
#: docs/release.md's rows: | `pattern` | what it is |  (the wheel's contents, by glob)
ROW = re.compile(r"^\| `([^`]+)` \|")


class DistFailure(Exception):
    """One check failed."""


def wheel_tags(name: str) -> tuple[str, str, str]:
    """(python, abi, platform) of a wheel file name.

    >>> wheel_tags("minttt-0.1.0-cp311-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl")
    ('cp311', 'abi3', 'manylinux_2_17_x86_64.manylinux2014_x86_64')
    """
    parts = name.removesuffix(".whl").split("-")
    return parts[-3], parts[-2], parts[-1]


def release_rows(text: str) -> list[str]:
    """The glob patterns of docs/release.md's table of what a wheel holds."""
    section = text.split("## What a package holds", 1)[-1]
    return [m[1] for line in section.splitlines() if (m := ROW.match(line))]


def _glob_match(path: str, pattern: str) -> bool:
    regex = re.escape(pattern).replace(r"\*\*/", "(?:.*/)?").replace(r"\*", "[^/]*")
    return re.fullmatch(regex, path) is not None


def check_wheel(path: Path, assets: set[str], rows: list[str]) -> str:
    python, abi, platform = wheel_tags(path.name)
    if not all(ACCEPTED_PLATFORM.fullmatch(tag) for tag in platform.split(".")):
        raise DistFailure(f"{path.name}: platform tag {platform!r} is not one an index accepts")
    with zipfile.ZipFile(path) as wheel:
        names = [n for n in wheel.namelist() if not n.endswith("/")]
    carried = [n for n in names if n.split("long_run_results/", 1)[-1] in assets]
    if carried:
        raise DistFailure(f"{path.name} carries release assets, e.g. {carried[0]}")
    unexplained = [n for n in names if not any(_glob_match(n, row) for row in rows)]
    if unexplained:
        raise DistFailure(f"{path.name}: docs/release.md does not say what {unexplained[0]} is")
    return f"{path.name}: {python}-{abi}-{platform}, {len(names)} files, {_mb(path)}"


def check_sdist(path: Path, assets: set[str]) -> str:
    with tarfile.open(path) as sdist:
        names = [m.name.split("/", 1)[-1] for m in sdist.getmembers() if m.isfile()]
    carried = [n for n in names if n.removeprefix("results/") in assets]
    if carried:
        raise DistFailure(f"{path.name} carries release assets, e.g. {carried[0]}")
    return f"{path.name}: {len(names)} files, {_mb(path)}"


def _mb(path: Path) -> str:
    return f"{path.stat().st_size / 1e6:.1f} MB"


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python scripts/check_dist.py DIST", file=sys.stderr)
        return 2
    dist = Path(argv[0])
    manifest = json.loads((ROOT / "results" / "assets.json").read_text("utf-8"))
    assets = {e["path"] for e in manifest["assets"]}
    rows = release_rows((ROOT / "docs" / "release.md").read_text("utf-8"))
    files = sorted(dist.glob("*.whl")) + sorted(dist.glob("*.tar.gz"))
    try:
        if not files:
            raise DistFailure(f"{dist}: no wheel or sdist")
        for path in files:
            if path.stat().st_size > MAX_BYTES:
                raise DistFailure(f"{path.name}: {_mb(path)}, above {MAX_BYTES / 1e6:.0f} MB")
            check = check_wheel(path, assets, rows) if path.suffix == ".whl" else None
            print(f"dist: {check or check_sdist(path, assets)}", flush=True)
    except DistFailure as exc:
        print(f"dist: FAILED: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
