"""The package's shape: no import cycle, no arrow up a layer, no private name across packages.

The import graph is read from the source (``ast``): every ``import`` of a minttt module, at module
level or inside a function (a lazy import still ties two modules), except under
``if TYPE_CHECKING:`` (annotations only) and inside ``_repr_svg_`` / ``_repr_html_`` (a value
drawing itself in a notebook). Layers, low to high (a module may import its own layer
and the layers below):

    base (errors, vocabulary, fileio, interrupt, schema, version) -> game -> table -> formula
    -> solvers -> bounds, proof -> play, integrations, evolve, nine -> render, web -> report
    -> cli -> the front door (minttt/__init__, __main__)
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "minttt"
LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(names.split())
    for names in (
        "errors vocabulary fileio interrupt schema version cluster",
        "game",
        "table",
        "formula",
        "solvers",
        "bounds proof",
        "play integrations evolve nine",
        "render web",
        "report",
        "cli",
        "__init__ __main__",
    )
)


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def _display_hook_lines(tree: ast.Module) -> set[int]:
    """Lines of ``_repr_svg_`` / ``_repr_html_`` methods: IPython's display protocol, the one
    place a value of a low layer may draw itself with the picture layer (as ``chess.Board``)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in ("_repr_svg_", "_repr_html_"):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


@cache  # every test reads the same source: parse each module once
def _imports(module: str) -> list[tuple[str, str, int]]:
    """``(imported module, imported name or "", line)`` for every minttt import of ``module``."""
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    skip = _type_checking_lines(tree) | _display_hook_lines(tree)
    found = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(a.name, "", node.lineno) for a in node.names if a.name.startswith("minttt")]
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").startswith("minttt")
        ):
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                target = sub if sub in MODULES else str(node.module)
                found.append((target, "" if sub in MODULES else a.name, node.lineno))
    return found


def _layer(module: str) -> int:
    parts = module.split(".")
    key = parts[1] if len(parts) > 1 else "__init__"
    for i, names in enumerate(LAYERS):
        if key in names:
            return i
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS")


@cache
def _graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for module in MODULES:
        g.add_node(module)
        for target, _, _ in _imports(module):
            resolved = _resolve(target)
            if resolved and resolved != module and not module.startswith(resolved + "."):
                g.add_edge(module, resolved)
    return g


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        _layer(module)


def test_no_import_cycle() -> None:
    cycles = list(nx.simple_cycles(_graph()))
    assert not cycles, f"import cycles: {cycles[:5]}"


def test_no_arrow_up_a_layer() -> None:
    up = [
        f"{a} ({_layer(a)}) imports {b} ({_layer(b)})"
        for a, b in _graph().edges
        if _layer(b) > _layer(a) and b != "minttt"
    ]
    assert not up, "\n".join(up)


def test_the_package_root_is_imported_by_nobody_inside() -> None:
    """``minttt/__init__`` is the front door for users; modules import what they use directly."""
    inside = [a for a, b in _graph().edges if b == "minttt"]
    assert not inside, inside


def test_no_private_name_imported_from_another_package() -> None:
    leaks = []
    for module in MODULES:
        home = module.split(".")[:2]
        for target, name, line in _imports(module):
            private = name.startswith("_") or any(p.startswith("_") for p in target.split("."))
            if private and target.split(".")[:2] != home and name != "__version__":
                leaks.append(f"{module}:{line} imports {target} {name}")
    assert not leaks, "\n".join(leaks)


@pytest.mark.parametrize("checker", ["minttt.proof.drat", "minttt.proof.lrat"])
def test_the_proof_checkers_import_nothing_else_of_minttt_and_no_solver(checker: str) -> None:
    """The checkers share no code with what made the proofs: they use minttt's error types, and
    LRAT reuses DRAT's reader."""
    allowed = {"minttt.errors"} | ({"minttt.proof.drat"} if checker.endswith("lrat") else set())
    theirs = {_resolve(t) for t, _, _ in _imports(checker)}
    assert theirs <= allowed, theirs
    text = MODULES[checker].read_text("utf-8")
    for solver in ("pysat", "z3", "numpy"):
        assert f"import {solver}" not in text and f"from {solver}" not in text
