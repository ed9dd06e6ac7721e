"""The LP relaxation of an array formula as a lower bound (scipy's HiGHS, if scipy is installed).

Each clause ``l_1 OR .. OR l_k`` becomes ``sum(x_pos) - sum(x_neg) >= 1 - #neg`` with
``0 <= x <= 1``; minimising the objective's sum over this polytope bounds every table from below
(rounded up, less a tolerance). scipy is optional: :func:`lp_bound` returns ``None`` without it.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from minttt.formula.arrays import ArrayFormula


def lp_bound(formula: ArrayFormula, time_limit: float | None = None) -> dict[str, Any] | None:
    """``{"lower", "lp_value", "status", "seconds"}`` or ``None`` when scipy is missing."""
    try:
        from scipy.optimize import linprog
        from scipy.sparse import csr_matrix
    except ImportError:
        return None
    start = time.perf_counter()
    n = formula.num_vars
    b = formula.binary.astype(np.int64)  # rows: -e + p >= 0
    nb = len(b)
    lens = np.diff(formula.long_ptr)
    nl = len(lens)
    rows = np.concatenate([np.repeat(np.arange(nb), 2), nb + np.repeat(np.arange(nl), lens)])
    lits = np.concatenate([b.ravel(), formula.long_lits.astype(np.int64)])
    cols = np.abs(lits) - 1
    vals = np.sign(lits).astype(np.float64)
    negs = np.bincount(rows, weights=(lits < 0).astype(np.float64), minlength=nb + nl)
    a = csr_matrix((-vals, (rows, cols)), shape=(nb + nl, n))  # as A_ub x <= b_ub
    b_ub = -(1.0 - negs)
    lower = np.zeros(n)
    lower[formula.units.astype(np.int64) - 1] = 1.0
    c = np.zeros(n)
    c[formula.objective - 1] = 1.0
    options = {} if time_limit is None else {"time_limit": float(time_limit)}
    res = linprog(
        c,
        A_ub=a,
        b_ub=b_ub,
        bounds=np.stack([lower, np.ones(n)], axis=1),
        method="highs",
        options=options,
    )
    out: dict[str, Any] = {"status": res.message, "seconds": round(time.perf_counter() - start, 2)}
    if res.status == 0:
        out["lp_value"] = float(res.fun)
        out["lower"] = math.ceil(res.fun - 1e-6)
    else:
        out["lp_value"], out["lower"] = None, None
    return out


__all__ = ["lp_bound"]
