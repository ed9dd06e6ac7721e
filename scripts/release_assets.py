"""Release chore: the certificates a release publishes as assets, and the manifest that ships.

    python scripts/release_assets.py --manifest-only   # rewrite results/assets.json
    python scripts/release_assets.py OUT               # the manifest, then OUT/<sha256>.<suffix>

Each compressed certificate of ``results/proofs/mnk/`` and ``results/catalogue/`` of 64 KiB or
more is an asset (:mod:`minttt.assets`), named by its SHA-256; two files of the same bytes are
one asset. Upload every file of OUT to the release of the version (``docs/release.md``). A host
that takes at most 1,000 assets a release refuses more: the script says so.

Exit 0 when written, 2 for bad arguments.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.assets import asset_name, read_manifest, write_manifest  # noqa: E402

#: what a GitHub release takes
MAX_ASSETS = 1000


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    results = ROOT / "results"
    write_manifest(results)
    entries = read_manifest(results)
    unique = {asset_name(e): e for e in entries}
    print(f"results/assets.json: {len(entries)} files, {len(unique)} assets")
    if len(unique) > MAX_ASSETS:
        print(f"warning: {len(unique)} assets: more than a release takes ({MAX_ASSETS})")
    if argv[0] == "--manifest-only":
        return 0
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for name, entry in sorted(unique.items()):
        shutil.copyfile(results / entry["path"], out / name)
    size = sum(e["bytes"] for e in unique.values())
    print(f"{out}: {len(unique)} assets, {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
