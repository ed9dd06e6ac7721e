"""minttt: the smallest lookup tables that play perfect tic-tac-toe, found, proven and shipped.

The library in a few names, along its data line: rules -> game graph -> formula -> solution ->
table -> verify / odds / play / render / export.

>>> import minttt
>>> graph = minttt.build_graph()                        # the 765 canonical positions of 3x3
>>> variant = minttt.Variant("first", "center", "lookup", "entries")
>>> solution = minttt.solve(minttt.encode(graph, variant))
>>> solution.size, solution.optimal                      # 003's 22 lookups, proven minimal
(22, True)
>>> table = minttt.make_table(graph, solution)
>>> minttt.verify_table(table).ok                        # exhaustive: never loses
True
>>> table.move(minttt.Board.parse("o...x...."))         # O took a corner: X answers at cell 1
1

A minimum's certificate (``minttt.certify(variant, folder)``: the CNF "a table of size k-1
exists", CaDiCaL's DRAT proof that it does not, the size-k table) is checked by
``minttt.drat.check(cnf, proof)``, a checker that shares no code with the solvers; with
``lrat=True`` it also returns the refutation as LRAT, which ``minttt.lrat.check`` checks.

Every name is imported on first use, so ``import minttt`` itself is quick; the modules behind the
names are listed in ``docs/DESIGN.md`` (``minttt.game``, ``minttt.formula``, ``minttt.solvers``,
``minttt.table``, ``minttt.play``, ``minttt.render``, ``minttt.report``, ...).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from minttt.version import __version__

# name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # rules and the game graph
    "Board": "minttt.game.rules",
    "Rules": "minttt.game.rules",
    "TIC_TAC_TOE": "minttt.game.rules",
    "Graph": "minttt.game.graph",
    "build_graph": "minttt.game.graph",
    "graph_for": "minttt.game.graph",
    "count_all": "minttt.game.counts",
    # the words
    "Role": "minttt.vocabulary",
    "Criterion": "minttt.vocabulary",
    "Objective": "minttt.vocabulary",
    "Encoding": "minttt.vocabulary",
    "Symmetry": "minttt.vocabulary",
    # formula and solution
    "Variant": "minttt.formula.variants",
    "Formula": "minttt.formula.encode",
    "encode": "minttt.formula.encode",
    "solve": "minttt.solvers.portfolio",
    "cross_check": "minttt.solvers.portfolio",
    "make_table": "minttt.solvers.portfolio",
    "standard_variants": "minttt.formula.variants",
    "Solution": "minttt.solvers.solution",
    # tables and what checks them
    "Table": "minttt.table.model",
    "load_table": "minttt.table.model",
    "save_table": "minttt.table.model",
    "verify_table": "minttt.table.verify",
    "verify_player": "minttt.table.verify",
    "exact_odds": "minttt.table.odds",
    "export_table": "minttt.table.export",
    # certificates: "no table of size k-1", a CNF and a DRAT proof (checked by minttt.drat)
    "certify": "minttt.proof.certify",
    # play
    "tournament": "minttt.play.tournament",
    "play_game": "minttt.play.tournament",
    "make_player": "minttt.play.players.registry",
    # errors
    "InputError": "minttt.errors",
    "DefectError": "minttt.errors",
}

# the layers, reachable as attributes too (``minttt.render.board(...)``)
_SUBPACKAGES = {
    name: f"minttt.{name}"
    for name in (
        "bounds",
        "evolve",
        "formula",
        "game",
        "integrations",
        "nine",
        "play",
        "proof",
        "render",
        "report",
        "solvers",
        "table",
    )
}
# the proof checkers by their short names (``minttt.drat.check``, ``minttt.lrat.check``)
_SUBPACKAGES |= {"drat": "minttt.proof.drat", "lrat": "minttt.proof.lrat"}

__all__ = [
    "Board",
    "Criterion",
    "DefectError",
    "Encoding",
    "Formula",
    "Graph",
    "InputError",
    "Objective",
    "Role",
    "Rules",
    "Solution",
    "Symmetry",
    "TIC_TAC_TOE",
    "Table",
    "Variant",
    "build_graph",
    "certify",
    "count_all",
    "cross_check",
    "encode",
    "exact_odds",
    "export_table",
    "graph_for",
    "load_table",
    "make_player",
    "make_table",
    "play_game",
    "save_table",
    "solve",
    "standard_variants",
    "tournament",
    "verify_player",
    "verify_table",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """Import a front-door name (or a layer) on first use (PEP 562)."""
    if name in _SUBPACKAGES:
        return importlib.import_module(_SUBPACKAGES[name])
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'minttt' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS, *_SUBPACKAGES})


if TYPE_CHECKING:  # what a type checker and an editor see
    from minttt.errors import DefectError, InputError
    from minttt.formula.encode import Formula, encode
    from minttt.formula.variants import Variant, standard_variants
    from minttt.game.counts import count_all
    from minttt.game.graph import Graph, build_graph, graph_for
    from minttt.game.rules import TIC_TAC_TOE, Board, Rules
    from minttt.play.players.registry import make_player
    from minttt.play.tournament import play_game, tournament
    from minttt.proof.certify import certify
    from minttt.solvers.portfolio import cross_check, make_table, solve
    from minttt.solvers.solution import Solution
    from minttt.table.export import export_table
    from minttt.table.model import Table, load_table, save_table
    from minttt.table.odds import exact_odds
    from minttt.table.verify import verify_player, verify_table
    from minttt.vocabulary import Criterion, Encoding, Objective, Role, Symmetry
