"""Test-session setup shared by every test file.

Each test process (each pytest-xdist worker) compiles numba's kernels (``cache=True``: the DRAT
checker's) into a cache folder of its own, so no two workers write one cache at once. (The
segmentation fault CI met in ``drat_kernel.prepare`` on 2026-11-28, first blamed on a shared
cold cache, was a read past an array's end: see ``test_drat_compiled.py``.)
"""

from __future__ import annotations

import os
import tempfile

# one folder per worker name (gw0, gw1, ..., main for a run without workers): never shared by two
# workers of a run, and kept from run to run, so the kernels compile once, not on every run
_worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
os.environ["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), f"minttt-numba-{_worker}")
