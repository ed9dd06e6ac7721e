"""The catalogue's picture (``results/catalogue/catalogue.png``): one row per game, one column
per cell (X and O, optimal and never-lose), each cell the smallest table's entries, coloured by
how far it is settled (proven and certified, bounded, pending)."""

from __future__ import annotations

import io
from typing import Any

#: colours per status (the legend's words)
COLOURS = {
    "proven": ("#7fc97f", "proven, certified"),
    "bounded": ("#fdc086", "bounded: certified lower .. upper (*: RC2's bound only)"),
    "pending": ("#dddddd", "not run yet"),
}


def cell_text(cell: dict[str, Any], cells: dict[str, Any]) -> tuple[str, str]:
    """``(text, status)`` of one cell; a ``same`` cell shows the cell it equals."""
    if cell["status"] == "same":
        cell = cells[cell["same_as"]]
    status = cell["status"]
    if status == "proven":
        return f"{cell['upper']:,}", status
    if status == "bounded":
        if cell.get("lower_certified"):
            return f"{cell['lower']:,}..{cell['upper']:,}", status
        if cell.get("certified_lower") is not None:  # the certified bound, as REPORT.md's first
            return f"{cell['certified_lower']:,}..{cell['upper']:,}", status
        return f"{cell['lower']:,}*..{cell['upper']:,}", status
    return "", "pending"


def catalogue_plot(document: dict[str, Any]) -> bytes:
    """PNG of the results document (:func:`minttt.catalogue.run.catalogue_document`):
    deterministic bytes for the same document (no timestamp, no software version)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = list(document["games"].items())
    columns = ["X optimal", "X never-lose", "O optimal", "O never-lose"]
    fig, ax = plt.subplots(figsize=(8.5, 0.22 * len(games) + 1.4), dpi=100)
    for row, (name, game) in enumerate(games):
        value = game.get("value")
        label = name if value is None else f"{name}  ({'0' if value == 0 else f'{value:+d}'})"
        ax.text(-0.1, row, label, ha="right", va="center", fontsize=7, family="DejaVu Sans Mono")
        for col, key in enumerate(columns):
            text, status = cell_text(game["cells"][key], game["cells"])
            ax.add_patch(
                plt.Rectangle((col, row - 0.45), 0.96, 0.9, color=COLOURS[status][0], lw=0)
            )
            ax.text(col + 0.48, row, text, ha="center", va="center", fontsize=6.5)
    for col, key in enumerate(columns):
        ax.text(col + 0.48, -1, key, ha="center", va="center", fontsize=8, weight="bold")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c, _ in COLOURS.values()]
    ax.legend(
        handles,
        [w for _, w in COLOURS.values()],
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncol=3,
        fontsize=7,
        frameon=False,
    )
    ax.set_xlim(-2.2, len(columns))
    ax.set_ylim(len(games) - 0.5, -1.6)
    ax.axis("off")
    ax.set_title(
        "smallest lookup tables (entries) of the m,n,k games (value: +1 X wins)", fontsize=9
    )
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


__all__ = ["catalogue_plot", "cell_text"]
