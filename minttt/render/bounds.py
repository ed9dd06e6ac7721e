"""The bounds-over-time plot of long runs (``results/games/bounds.png``): each variant's proven
lower bound (RC2's cores, per-level minima, certificates) and verified upper bound over the
seconds of all its runs."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any


def bounds_plot(histories: Mapping[str, list[list[Any]]]) -> bytes:
    """PNG: lower and upper bounds over (cumulative) seconds, one colour per variant, log y;
    ``histories`` maps a variant's name to its checkpoint history ``[seconds, lower, upper,
    event]``."""

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    for i, (name, hist) in enumerate(sorted(histories.items())):
        if not hist:
            continue
        colour = f"C{i % 10}"
        ts = [h[0] for h in hist]
        ax.step(ts, [max(h[1], 1) for h in hist], where="post", color=colour, label=f"{name} lower")
        ups = [(h[0], h[2]) for h in hist if h[2] is not None]
        if ups:
            ax.step(*zip(*ups, strict=True), where="post", color=colour, ls="--", label="upper")
    ax.set_yscale("log")
    ax.set_xlabel("seconds (all runs)")
    ax.set_ylabel("entries")
    ax.set_title("bounds over time: lower = proven bounds, upper = verified tables")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


__all__ = ["bounds_plot"]
