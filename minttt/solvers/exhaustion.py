"""Core exhaustion's time budget, for RC2 (:class:`minttt.solvers.arrays.ArrayRC2`) and for
relaxed cores (:func:`minttt.proof.lower.relaxed_cores`).

Core exhaustion assumes each new totalizer's outputs false alone: each refuted is a core of one,
and the call that ends it is satisfiable, a whole model that bounds nothing. Where outputs are
refuted (3x4 O, late in its search) it proves the minimum 2.4x to 4.7x sooner; where none is
(4x4 k=4: 80 tries, none refuted, 60% of a 90 s search) it costs most of the search. The
budget lets an exhaustion start only while the satisfiable calls so far have cost at most
``share`` of the search's time: where exhaustion never pays, the search loses about that share;
where it does, the early fruitless tries are cheap, and one skipped costs nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

#: the share of a search's time the satisfiable calls of core exhaustion may take
EXHAUST_SHARE = 0.2


@dataclass
class ExhaustionBudget:
    """How much of a search's time core exhaustion may spend on satisfiable calls.

    >>> budget = ExhaustionBudget(share=0.5, start=0.0)
    >>> budget.allows(now=1.0)
    True
    >>> budget.spent(0.8)
    >>> budget.allows(now=1.0), budget.allows(now=2.0)
    (False, True)
    >>> budget.tried, budget.skipped
    (2, 1)
    """

    share: float = EXHAUST_SHARE
    start: float = field(default_factory=time.perf_counter)
    wasted: float = 0.0  # seconds of satisfiable exhaustion calls
    tried: int = 0  # exhaustions started
    skipped: int = 0  # exhaustions the budget refused

    def allows(self, now: float | None = None) -> bool:
        """Whether an exhaustion may start now (counted as tried or skipped)."""
        elapsed = (time.perf_counter() if now is None else now) - self.start
        if self.wasted <= self.share * elapsed:
            self.tried += 1
            return True
        self.skipped += 1
        return False

    def spent(self, seconds: float) -> None:
        """A satisfiable exhaustion call took ``seconds``."""
        self.wasted += seconds


__all__ = ["EXHAUST_SHARE", "ExhaustionBudget"]
