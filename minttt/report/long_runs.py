"""The long runs' results that ``minttt reproduce`` reads but never recomputes, and where it finds
them.

The other-games study (``games_study.json``), the 3x4 and 4x4 bounds with their verified tables
(``games/``), the raw minima confirmed by Z3 and DRAT (``raw_cross_check.json``), the second check
of the certificates (``proofs/second-check.json``: drat-trim and minttt.lrat), the m,n,k
certificates (``proofs/mnk/``, whose index the bounds' evidence names) and the catalogue's run
(``catalogue/``) take minutes to hours; their files are committed in ``results/``.
``reproduce`` copies them into what it writes (checked on load, never recomputed) from the output
folder itself when they are there, else from the copy the package ships (``setup.py`` copies
them in at build time), else from the source checkout the package runs from. A wheel carries all
but the large compressed certificates that ``assets.json`` lists (:mod:`minttt.assets`): those
come from the checkout or from the cache that ``minttt fetch`` fills.

At import this module loads nothing but the standard library: ``setup.py`` runs it for
:func:`shipped_files`.

>>> "games/bounds.json" in LONG_RUN_INPUTS
True
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

RAW_CROSS_CHECK = "raw_cross_check.json"
#: the long runs' files, relative to the results folder (``*`` matches within one folder)
LONG_RUN_INPUTS = (
    "games_study.json",
    "games/bounds.json",
    "games/bounds.png",
    "games/*.table.json",
    RAW_CROSS_CHECK,
    "proofs/second-check.json",
    # the certificates that are release assets, each with its SHA-256 (minttt.assets)
    "assets.json",
    # the m,n,k certificates whose index the bounds' evidence names (the index is checked against
    # the files it names: their SHA-256)
    "proofs/mnk/*",
    # minttt catalogue's run (its state, certificates and tables): reproduce checks it and solves
    # its quick games again
    "catalogue/*",
)
#: never carried: a run store's lock files
SKIPPED = (".lock",)
#: where a built package carries them (inside ``minttt/report/``)
SHIPPED = "long_run_results"


def long_run_files(folder: Path) -> list[Path]:
    """The long runs' files present in ``folder``, relative to it, sorted."""
    found = {p.relative_to(folder) for pattern in LONG_RUN_INPUTS for p in folder.glob(pattern)}
    return sorted(p for p in found if (folder / p).is_file() and not p.name.endswith(SKIPPED))


def fetched_files(folder: Path) -> set[Path]:
    """The assets that ``folder``'s ``assets.json`` lists (relative paths): fetched by ``minttt
    fetch``, never packed in."""
    manifest = folder / "assets.json"
    if not manifest.is_file():
        return set()
    return {Path(e["path"]) for e in json.loads(manifest.read_text("utf-8")).get("assets", [])}


def shipped_files(folder: Path) -> list[Path]:
    """The long runs' files that a package carries: all but :func:`fetched_files`."""
    fetched = fetched_files(folder)
    return [rel for rel in long_run_files(folder) if rel not in fetched]


def shipped_folders() -> list[Path]:
    """Where this package may carry the long runs: its own copy, then its checkout's results."""
    here = Path(__file__).resolve().parent
    return [here / SHIPPED, here.parent.parent / "results"]


def carry_long_runs(source: Path, target: Path) -> list[Path]:
    """Copy the long runs' files into ``target``: from ``source`` when it holds any, else from the
    first of :func:`shipped_folders` that does; an asset that folder lacks comes from the fetch
    cache when it is there. Returns the files copied (relative paths)."""
    for folder in (Path(source), *shipped_folders()):
        files = long_run_files(folder)
        if files:
            break
    else:
        return []
    for rel in files:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / rel, target / rel)
    return files + _carry_fetched(folder, target, set(files))


def _carry_fetched(folder: Path, target: Path, have: set[Path]) -> list[Path]:
    """The assets of ``folder``'s manifest that it lacks, copied from the fetch cache."""
    if not (folder / "assets.json").is_file():
        return []
    from minttt.assets import locate, read_manifest

    copied = []
    for entry in read_manifest(folder):
        rel = Path(entry["path"])
        found = None if rel in have else locate(entry)
        if found is not None:
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(found, target / rel)
            copied.append(rel)
    return copied


__all__ = [
    "LONG_RUN_INPUTS",
    "RAW_CROSS_CHECK",
    "SHIPPED",
    "carry_long_runs",
    "fetched_files",
    "long_run_files",
    "shipped_files",
    "shipped_folders",
]
