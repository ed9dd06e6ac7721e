"""Fitness curves (best and mean per generation) as a PNG, like 000's figures 6-8.

The bytes are deterministic: the Agg backend, no timestamp and no software tag in the metadata.
"""

from __future__ import annotations

import io
from pathlib import Path

from minttt.errors import InputError
from minttt.evolve.state import EvolutionState
from minttt.fileio import write_bytes_atomic


def plot_bytes(state: EvolutionState) -> bytes:
    """The PNG of ``state.history``: best and mean fitness per generation (cornell: scores, and
    the best organism's fraction of opponent lines not lost)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    history = state.history
    gens = list(range(len(history["best"])))
    cfg = state.config
    cornell = state.recipe == "cornell"
    fig = Figure(figsize=(7.5, 6.0 if cornell else 4.2), dpi=100)
    axes = fig.subplots(2, 1, sharex=True) if cornell else [fig.subplots()]
    top = axes[0]
    top.plot(gens, history["best"], color="#1f5fa8", linewidth=1.4, label="best of generation")
    top.plot(gens, history["mean"], color="#d08020", linewidth=1.0, label="mean of generation")
    if cornell:
        top.set_ylabel("round-robin score (-1 per loss)")
        title = f"cornell (002): population {cfg['population']}, mutation {cfg['p_mutate']}"
        low = axes[1]
        low.plot(gens, history["best_not_lost"], color="#2a8a3a", linewidth=1.2)
        low.set_ylabel("best: lines not lost")
        low.set_xlabel("generation")
        low.grid(True, alpha=0.3)
    else:
        measure = (
            "points (000 table 1)" if cfg["fitness"] == "points" else "fraction of games not lost"
        )
        top.set_ylabel(measure)
        top.set_xlabel("generation")
        title = (
            f"hochmuth (000): population {cfg['population']}, {cfg['genes']} genes, "
            f"crossover {cfg['p_crossover']}, mutation {cfg['p_mutate']}"
        )
        if state.perfect_generation is not None:
            top.axvline(state.perfect_generation, color="#888888", linestyle=":", linewidth=1.0)
            title += f"\nperfect strategy at generation {state.perfect_generation}"
    top.set_title(title, fontsize=9)
    top.grid(True, alpha=0.3)
    top.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def save_plot(state: EvolutionState, path: str | Path) -> Path:
    """Write the fitness curves to ``path`` atomically."""
    if not state.history.get("best"):
        raise InputError("no generation was evaluated, so there is nothing to plot")
    return write_bytes_atomic(path, plot_bytes(state))


__all__ = [
    "plot_bytes",
    "save_plot",
]
