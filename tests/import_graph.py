"""The import graph of a package read from its source (``ast``), for the layer tests.

Every import of the package is an edge, wherever it is written: at module level or inside a
function (a lazy import still ties two modules), relative (``from ..solvers import x``), or by
name (``importlib.import_module("minttt.x")``, ``__import__``). Two kinds are left out: the body
of ``if TYPE_CHECKING:`` (annotations only; its ``else`` and ``if not TYPE_CHECKING:`` run) and
``_repr_svg_`` / ``_repr_html_`` methods (a value drawing itself in a notebook).

Importing ``p.q.r`` runs ``p/__init__`` and ``p/q/__init__`` first: an import from outside a
package is also an edge to the package's ``__init__`` (the root package aside: its names are
loaded lazily), and a module that imports its own package's ``__init__`` (``from p.q import name``
inside ``p.q``) has that edge too. A cycle through a package ``__init__`` is a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

#: the layers, low to high (a module may import its own layer and the layers below); keyed by
#: the name under the root package (a sub-package or a top-level module)
LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(names.split())
    for names in (
        "errors vocabulary fileio interrupt schema store version cluster record assets",
        "trust",
        "game",
        "table",
        "formula",
        "solvers",
        "bounds proof",
        "play integrations evolve nine catalogue",
        "render web",
        "report",
        "cli",
        "__init__ __main__",
    )
)
DISPLAY_HOOKS = ("_repr_svg_", "_repr_html_")


@dataclass(frozen=True)
class Import:
    """One import: the module that imports, the module imported, a name taken from it ("" for
    a module), and where."""

    source: str
    target: str
    name: str
    line: int


class Package:
    """The modules of a package (``root``: its folder) and their imports."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.name = root.name
        self.modules: dict[str, Path] = {}
        self.packages: set[str] = set()
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(root.parent).with_suffix("").parts
            is_init = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_init else parts)
            self.modules[name] = path
            if is_init:
                self.packages.add(name)

    def resolve(self, name: str) -> str | None:
        """The module of the package that ``name`` (a module or a name in one) lives in."""
        while name and name not in self.modules:
            name = name.rpartition(".")[0]
        return name or None

    def imports(self, module: str) -> list[Import]:
        """Every import of the package written in ``module`` (see the module docstring)."""
        tree = ast.parse(self.modules[module].read_text("utf-8"))
        skip = _skipped_lines(tree)
        found = []
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            found += [
                Import(module, target, name, node.lineno)  # type: ignore[attr-defined]
                for target, name in self._targets(module, node)
                if target == self.name or target.startswith(self.name + ".")
            ]
        return found

    def _targets(self, module: str, node: ast.AST) -> Iterator[tuple[str, str]]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ""
        elif isinstance(node, ast.ImportFrom):
            base = self._absolute(module, node.module or "", node.level)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield (sub, "") if sub in self.modules else (base, alias.name)
        elif isinstance(node, ast.Call) and _is_import_call(node):
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                yield arg.value, ""

    def _absolute(self, module: str, name: str, level: int) -> str:
        """``from <level dots><name> import ...`` written in ``module``, made absolute."""
        if level == 0:
            return name
        here = module if module in self.packages else module.rpartition(".")[0]
        for _ in range(level - 1):
            here = here.rpartition(".")[0]
        return f"{here}.{name}" if name else here

    def edges(self) -> Iterator[tuple[str, str, int]]:
        """``(importer, imported module, line)``, package ``__init__`` edges included."""
        for module in self.modules:
            for imp in self.imports(module):
                target = self.resolve(imp.target)
                if target is None:
                    continue
                for step in self._runs(module, target):
                    if step != module:
                        yield module, step, imp.line

    def _runs(self, module: str, target: str) -> list[str]:
        """What importing ``target`` from ``module`` executes that ``module`` is not part of:
        ``target`` and every enclosing package ``__init__`` but the root and ``module``'s own
        packages."""
        parts = target.split(".")
        chain = [".".join(parts[:i]) for i in range(2, len(parts))] + [target]
        own = {p for p in self.packages if module == p or module.startswith(p + ".")}
        return [m for m in chain if m in self.modules and (m == target or m not in own)]

    def graph(self) -> nx.DiGraph:
        """The import graph (nodes: every module)."""
        g = nx.DiGraph()
        g.add_nodes_from(self.modules)
        for a, b, _line in self.edges():
            g.add_edge(a, b)
        return g

    def layer(self, module: str) -> int:
        """The index of ``module``'s layer in :data:`LAYERS` (AssertionError for none)."""
        parts = module.split(".")
        key = parts[1] if len(parts) > 1 else "__init__"
        for i, names in enumerate(LAYERS):
            if key in names:
                return i
        raise AssertionError(f"{module} is in no layer: add its package to LAYERS")

    def upward(self) -> list[str]:
        """Every import of a higher layer than the importer's, in words."""
        return [
            f"{a} ({self.layer(a)}) imports {b} ({self.layer(b)}), line {line}"
            for a, b, line in self.edges()
            if b != self.name and self.layer(b) > self.layer(a)
        ]

    def cycles(self) -> list[list[str]]:
        """The import cycles (networkx's simple cycles, at most 5)."""
        out = []
        for cycle in nx.simple_cycles(self.graph()):
            out.append(cycle)
            if len(out) == 5:
                break
        return out


def _is_import_call(node: ast.Call) -> bool:
    """``importlib.import_module(...)``, ``import_module(...)`` or ``__import__(...)``."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("import_module", "__import__")


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING`` (not ``not TYPE_CHECKING``)."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _lines(nodes: list[ast.stmt]) -> set[int]:
    out: set[int] = set()
    for child in nodes:
        out.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return out


def _skipped_lines(tree: ast.Module) -> set[int]:
    """The lines of ``if TYPE_CHECKING:`` bodies and of the display hooks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            lines |= _lines(node.body)
        elif isinstance(node, ast.FunctionDef) and node.name in DISPLAY_HOOKS:
            lines |= _lines([node])
    return lines
