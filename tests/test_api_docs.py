"""The front door's docstrings have their numpydoc sections: every name of ``minttt.__all__`` and
every public method of Board, Table, Graph and Formula says what it takes (``Parameters``), what
it gives (``Returns``, ``Yields`` for a generator) and, when its body raises an error, which
(``Raises``). A section is a numpydoc header: its name on a line, a line of dashes under it.

Also: the API reference gives every module a page (docs/api/*.rst lists the roots that
autosummary writes a page for, and a package's page lists its submodules, down the tree).
"""

from __future__ import annotations

import ast
import inspect
import pkgutil
import re
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

import minttt

ROOT = Path(__file__).resolve().parent.parent
CLASSES = ("Board", "Table", "Graph", "Formula")


def _sections(doc: str | None) -> set[str]:
    """The numpydoc section headers of a docstring."""
    return set(re.findall(r"^(\w[\w ]*)\n-{3,}$", inspect.cleandoc(doc or ""), re.M))


def _parameters(doc: str | None) -> set[str]:
    """The names its ``Parameters`` section documents (``x``, ``x : int``, ``x, y``, ``**kw``)."""
    match = re.search(
        r"^Parameters\n-{3,}\n(.*?)(?=^\w[\w ]*\n-{3,}$|\Z)",
        inspect.cleandoc(doc or ""),
        re.M | re.S,
    )
    names = set()
    for line in (match.group(1) if match else "").splitlines():
        if line and not line[0].isspace():
            names |= {n.strip().lstrip("*") for n in line.partition(" : ")[0].split(",")}
    return names


def _front_door() -> dict[str, object]:
    return {
        n: getattr(minttt, n) for n in minttt.__all__ if n not in ("__version__", "TIC_TAC_TOE")
    }


def _methods() -> dict[str, Callable]:
    out = {}
    for name in CLASSES:
        cls = getattr(minttt, name)
        for key, value in vars(cls).items():
            if key.startswith("_"):
                continue
            if isinstance(value, classmethod | staticmethod):
                value = value.__func__
            if inspect.isfunction(value):
                out[f"{name}.{key}"] = value
    return out


def _takes(func: Callable) -> list[str]:
    """The parameters a caller gives (not ``self`` or ``cls``)."""
    names = list(inspect.signature(func).parameters)
    return [n for n in names if n not in ("self", "cls")]


def _body_raises(func: Callable) -> set[str]:
    """The exceptions the function's own body raises by name (``raise InputError(...)``),
    nested functions and classes left out; a bare ``raise`` re-raises and is not counted."""
    try:
        source = inspect.getsource(func)
    except OSError:  # written at run time (a dataclass's __init__): no body of its own
        return set()
    tree = ast.parse(textwrap.dedent(source))
    found = set()
    nodes = list(ast.iter_child_nodes(tree.body[0]))
    while nodes:
        node = nodes.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name.endswith(("Error", "Exception")):
                found.add(name)
        nodes.extend(ast.iter_child_nodes(node))
    return found


def _returns_value(func: Callable) -> bool:
    annotation = inspect.signature(func).return_annotation
    return annotation not in (inspect.Signature.empty, None, "None")


def _missing(name: str, doc: str | None, func: Callable, *, is_class: bool = False) -> list[str]:
    have = _sections(doc)
    want = set()
    if _takes(func):
        want.add("Parameters")
    if not is_class and _returns_value(func):
        want.add("Yields" if inspect.isgeneratorfunction(func) else "Returns")
    if _body_raises(func):
        want.add("Raises")
    missing = [f"{name}: no {section}" for section in sorted(want - have)]
    if "Parameters" in have:
        documented = _parameters(doc)
        missing += [f"{name}: no parameter {p}" for p in _takes(func) if p not in documented]
    return missing


def _constructor(cls: type) -> Callable | None:
    """The code a call of the class runs, when the class defines it: ``__init__`` (or, for a
    record, ``__post_init__``, whose checks a call runs too)."""
    for key in ("__init__", "__new__", "__post_init__"):
        if key in vars(cls) and inspect.isfunction(vars(cls)[key]):
            return vars(cls)[key]
    return None


@pytest.mark.parametrize("name", sorted(_front_door()))
def test_each_front_door_name_has_its_sections(name: str) -> None:
    obj = _front_door()[name]
    if inspect.isclass(obj):
        init = _constructor(obj)
        if init is None or issubclass(obj, Exception):
            # the constructor is inherited (an exception's message): what it takes is said all
            # the same
            have = _sections(obj.__doc__)
            missing = [] if "Parameters" in have else [f"{name}: no Parameters"]
        else:
            doc = inspect.cleandoc(obj.__doc__ or "") + "\n" + inspect.cleandoc(init.__doc__ or "")
            missing = _missing(name, doc, init, is_class=True)
    else:
        assert callable(obj)
        missing = _missing(name, obj.__doc__, obj)
    assert not missing, "; ".join(missing)


@pytest.mark.parametrize("name", sorted(_methods()))
def test_each_public_method_has_its_sections(name: str) -> None:
    func = _methods()[name]
    missing = _missing(name, func.__doc__, func)
    assert not missing, "; ".join(missing)


def test_the_checks_see_sections_parameters_and_raises() -> None:
    """The helpers above on small functions of their own: a section is a header with dashes,
    ``self`` is no parameter, a raise in a nested function is not the body's."""

    def documented(self, x: int) -> int:
        """Twice ``x``.

        Parameters
        ----------
        x
            A number.

        Returns
        -------
        int
            ``2 * x``.

        Raises
        ------
        ValueError
            For a negative ``x``.
        """
        if x < 0:
            raise ValueError("negative")
        return 2 * x

    def bare(self, x: int) -> int:
        """Twice ``x``: Parameters, Returns and Raises named in prose only."""

        def inner() -> None:
            raise KeyError(x)

        if x < 0:
            raise ValueError("negative")
        return 2 * x

    assert _sections(documented.__doc__) == {"Parameters", "Returns", "Raises"}
    assert _takes(documented) == ["x"] and _body_raises(documented) == {"ValueError"}
    assert _parameters(documented.__doc__) == {"x"}
    assert _parameters("Parameters\n----------\nx, y : int\n    Two.\n**kw\n    More.") == {
        "x",
        "y",
        "kw",
    }
    assert _body_raises(bare) == {"ValueError"}
    assert _missing("bare", bare.__doc__, bare) == [
        "bare: no Parameters",
        "bare: no Raises",
        "bare: no Returns",
    ]
    assert _missing("documented", documented.__doc__, documented) == []


def _roots() -> set[str]:
    """The modules the API chapters list in their ``autosummary`` tables."""
    roots = set()
    for page in (ROOT / "docs" / "api").glob("*.rst"):
        for block in re.findall(
            r"^\.\. autosummary::\n((?:   .*\n|\n)+)", page.read_text("utf-8"), re.M
        ):
            roots |= set(re.findall(r"^   (minttt[\w.]*)$", block, re.M))
    return roots


def _paged(roots: set[str]) -> set[str]:
    """Every module that gets a page: the roots and, under a package, each public submodule
    (no leading underscore), as autosummary's ``:recursive:`` walks them."""
    paged = set()
    todo = sorted(roots)
    while todo:
        name = todo.pop()
        paged.add(name)
        folder = ROOT.joinpath(*name.split("."))
        for info in pkgutil.iter_modules([str(folder)] if folder.is_dir() else []):
            if not info.name.startswith("_"):
                todo.append(f"{name}.{info.name}")
    return paged


def test_every_module_has_a_page_of_its_own() -> None:
    modules = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "minttt").rglob("*.py")
    }
    hidden = {m for m in modules if m.startswith("minttt.cli") or m.rsplit(".", 1)[-1][0] == "_"}
    paged = _paged(_roots())
    assert {"minttt.game.rules", "minttt.proof.drat", "minttt.cli.common"} <= paged
    assert not sorted(modules - hidden - paged - {"minttt"}), "modules with no page"
    template = (ROOT / "docs" / "_templates" / "autosummary" / "module.rst").read_text("utf-8")
    assert ".. automodule:: {{ fullname }}" in template and ":recursive:" in template
