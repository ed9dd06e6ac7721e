"""The long runs' results that ``minttt reproduce`` reads but never recomputes, and where it finds
them.

The other-games study (``games_study.json``), the 3x4 and 4x4 bounds with their verified tables
(``games/``), the raw minima confirmed by Z3 and DRAT (``raw_cross_check.json``), the second check
of the certificates (``proofs/second-check.json``: drat-trim and minttt.lrat), the m,n,k
certificates (``proofs/mnk/``, whose index the bounds' evidence names) and the catalogue's run
(``catalogue/``) take minutes to hours; their files are committed in ``results/``.
``reproduce`` copies them into what it writes (checked on load, never recomputed) from the output
folder itself when they are there, else from the copy the package ships (a wheel carries them:
``setup.py`` copies them in at build time), else from the source checkout the package runs from.
So ``reproduce --out DIR`` writes the whole report wherever it runs.

This module imports nothing but the standard library: ``setup.py`` reads :data:`LONG_RUN_INPUTS`.

>>> "games/bounds.json" in LONG_RUN_INPUTS
True
"""

from __future__ import annotations

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


def shipped_folders() -> list[Path]:
    """Where this package may carry the long runs: its own copy, then its checkout's results."""
    here = Path(__file__).resolve().parent
    return [here / SHIPPED, here.parent.parent / "results"]


def carry_long_runs(source: Path, target: Path) -> list[Path]:
    """Copy the long runs' files into ``target``: from ``source`` when it holds any, else from the
    first of :func:`shipped_folders` that does. Returns the files copied (relative paths)."""
    for folder in (Path(source), *shipped_folders()):
        files = long_run_files(folder)
        if files:
            break
    else:
        return []
    for rel in files:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / rel, target / rel)
    return files


__all__ = [
    "LONG_RUN_INPUTS",
    "RAW_CROSS_CHECK",
    "SHIPPED",
    "carry_long_runs",
    "long_run_files",
    "shipped_folders",
]
