"""A HiGHS worker that never answers (tests/test_lp.py): a module of its own, so the spawned
process that runs it imports this and nothing heavier."""

from __future__ import annotations

import time


def stalls(*args: object) -> None:
    """Never looks at its clock (as HiGHS's presolve or root LP can, for minutes)."""
    time.sleep(120)
