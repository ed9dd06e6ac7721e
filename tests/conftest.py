"""Test-session setup shared by every test file.

Each test process (each pytest-xdist worker) compiles numba's kernels (``cache=True``: the DRAT
checker's) into a cache folder of its own: two workers writing one cache at once, on a cold
start such as CI's, crashed one of them in the kernel's first call (a segmentation fault in
``drat_kernel.prepare`` on 2026-11-28, where the same check passed with a warm cache).
"""

from __future__ import annotations

import os
import tempfile

os.environ["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), f"minttt-numba-{os.getpid()}")
