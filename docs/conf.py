"""Sphinx configuration of the docs site: ``sphinx-build -W -n docs _build/html`` (``.ci/run``).

Pages are Markdown (MyST), the API reference is autodoc over the docstrings (numpydoc sections
through napoleon, reST roles as written), the notebook is shown with its stored outputs (myst-nb,
never executed here), and cross-links to Python, numpy, PySAT, networkx and Rich resolve from
small committed inventories (``docs/_inventories``, written by ``scripts/docs_inventories.py``), so
the build needs no network and gives the same site every time.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's minttt, even where it is not installed
sys.path.insert(0, str(ROOT / "scripts"))

from docs_inventories import intersphinx_mapping as _inventories  # noqa: E402
from sphinx.application import Sphinx  # noqa: E402
from sphinx.ext import autosummary, napoleon  # noqa: E402

import minttt  # noqa: E402

project = "minttt"
author = "The minttt developers"
copyright = "2026, The minttt developers"  # noqa: A001 - Sphinx's name
version = release = minttt.__version__

extensions = [
    "myst_nb",  # Markdown pages (MyST) and the notebook with its stored outputs
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",  # a page per module (docs/_templates/autosummary/module.rst)
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx.ext.intersphinx",
]
exclude_patterns = ["_build", "_inventories", "_templates", "Thumbs.db", ".DS_Store"]
root_doc = "index"

# MyST: ::: fences for directives (``` stays code only), anchors for every heading down to ####;
# {{ name }} substitutions for the figures that change (below)
myst_enable_extensions = ["colon_fence", "deflist", "substitution"]
myst_heading_anchors = 4
nb_execution_mode = "off"  # the notebook's outputs are stored; tests/test_docs.py executes it


def frontier_figures(bounds: Path) -> dict[str, str]:
    """The frontier's bounds as page substitutions, from ``results/games/bounds.json``: a page
    writes ``{{ x444_lower }}`` or ``{{ o343_upper }}`` (X or O, then m, n, k), not the figure."""
    roles = {"first-any-lookup-entries": "x", "second-lookup-entries": "o"}
    figures = {}
    for name, record in json.loads(bounds.read_text("utf-8"))["variants"].items():
        variant, _, game = name.partition("@mnk:")
        if variant in roles:
            key = roles[variant] + game.replace(",", "")
            figures[f"{key}_lower"] = f"{record['lower']:,}"
            figures[f"{key}_upper"] = f"{record['upper']:,}"
            figures[key] = (  # {{ x444 }}: "**46**, proven" or "460 .. 1,287"
                f"**{record['upper']:,}**, proven"
                if record["optimal"]
                else f"{record['lower']:,} .. {record['upper']:,}"
            )
    return figures


myst_substitutions = frontier_figures(ROOT / "results" / "games" / "bounds.json")

# every reference must resolve: -W makes a warning an error, nitpicky checks every type name
nitpicky = True
nitpick_ignore_regex = [
    # type variables (one capital letter) and private names have no entry of their own
    ("py:class", r"(minttt\.[\w.]+\.)?[A-Z]"),
    ("py:(class|func|meth|data)", r"([\w.]+\.)?_\w+"),
]
nitpick_ignore = [
    # Dask's client (a type-checking import of minttt.cluster): no Dask inventory is committed
    ("py:class", "Client"),
]
# names that annotations spell as the module imported them (``import numpy as np``, names
# imported only for type checking): what each refers to
SHORT_NAMES = {
    "Path": "pathlib.Path",
    "Fraction": "fractions.Fraction",
    "np.ndarray": "numpy.ndarray",
    "nx.MultiDiGraph": "networkx.MultiDiGraph",
    "RichTable": "rich.table.Table",
    "Progress": "rich.progress.Progress",
    "Console": "rich.console.Console",
}

autodoc_default_options = {
    "members": True,
    "member-order": "bysource",
    "ignore-module-all": True,
    "undoc-members": True,
}
# A page per module: each API chapter (docs/api/*.rst) lists its packages and modules in an
# ``autosummary`` table; autosummary writes a page for each (docs/api/generated/, not committed)
# and, through the template, for every public submodule of a package, down the tree.
templates_path = ["_templates"]
autosummary_generate = True
autosummary_context = {
    # compiled extension modules (C, built by setup.py where a compiler is at hand) get no page:
    # internals of the checkers whose pages say what they do, present only where built
    "compiled": sorted(
        ".".join((*p.relative_to(ROOT).parent.parts, p.name.partition(".")[0]))
        for p in (ROOT / "minttt").rglob("*")
        if p.suffix in (".so", ".pyd")
    ),
}
_import_by_name = autosummary._import_by_name


def _module_first(name: str, grouped_exception: bool = True) -> tuple:
    """autosummary reads ``a.b`` as the attribute ``b`` of ``a`` before the module ``a.b``; a
    package exporting a function named as its module (``minttt.render.board``: the module, and
    ``board``, the function ``minttt.render`` exports) would get a page for the function. A
    minttt module comes first here; every other name is read as autosummary reads it."""
    if name.startswith("minttt."):
        try:
            return importlib.import_module(name), None, name
        except ImportError:
            pass
    return _import_by_name(name, grouped_exception)


autosummary._import_by_name = _module_first


def _remove_stale_pages(app: Sphinx) -> None:
    """autosummary writes a page per module but never removes one, and reads the pages it wrote
    before for more modules: a page of a module that is gone (or has no ``.py``: compiled), or
    a package's page listing one, is removed here, and autosummary writes the right ones."""
    modules = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "minttt").rglob("*.py")
    }
    for page in (Path(app.srcdir) / "api" / "generated").glob("*.rst"):
        listed = re.findall(r"^   (\w+)$", page.read_text("utf-8"), re.M)  # the template's table
        if not {page.stem, *(f"{page.stem}.{name}" for name in listed)} <= modules:
            page.unlink(missing_ok=True)


autodoc_typehints = "signature"
python_maximum_signature_line_length = 90
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_preprocess_types = False  # it splits "dict[str, int]" at the comma

intersphinx_mapping = _inventories("_inventories")

html_theme = "furo"
html_title = f"minttt {release}"
html_static_path: list[str] = []
viewcode_follow_imported_members = False  # it would list ``builtins`` and link a missing page
html_copy_source = False  # the page sources are in the repository; viewcode shows the code


def _napoleon_for_callables(app: Sphinx, what: str, name: str, obj, options, lines) -> None:  # noqa: ANN001
    """Napoleon's sections for modules, classes and functions only: the docstring of a constant
    or a property is prose (its first line ``Tic-tac-toe: 3x3, ...`` is no ``type: text`` pair)."""
    if what not in ("attribute", "data", "property"):
        napoleon._process_docstring(app, what, name, obj, options, lines)


def _resolve_short(app: Sphinx, env, node, contnode):  # noqa: ANN001, ANN202
    """A Python reference Sphinx could not resolve: an annotation's short name (above), or a name
    written without its module (``:func:`forced_search``` in a module that imports it) that
    exactly one documented object ends with."""
    if node.get("refdomain") != "py":
        return None
    domain = env.get_domain("py")
    target = SHORT_NAMES.get(node["reftarget"], node["reftarget"])
    if target != node["reftarget"]:
        node["reftarget"] = target
        return None  # intersphinx, which runs next, resolves the full name
    matches = domain.find_obj(env, None, None, target, node["reftype"], 1)
    if len(matches) == 1:
        name, _entry = matches[0]
        return domain.resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], name, node, contnode
        )
    return _resolve_by_import(app, env, node, contnode, domain)


def _resolve_by_import(app: Sphinx, env, node, contnode, domain):  # noqa: ANN001, ANN202
    """A minttt name Python itself resolves: a re-export (``minttt.solvers.make_table``) links
    to the object's home; a constant with no entry of its own (``FORMATS``) is shown as code.
    A name Python cannot resolve stays a broken reference, which fails the build."""
    target = node["reftarget"]
    module = node.get("py:module") or ""
    candidates = [target] if target.startswith("minttt.") else [f"{module}.{target}"]
    for name in candidates:
        try:
            obj = pkgutil.resolve_name(name)
        except (ImportError, AttributeError, ValueError):
            continue
        home = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"
        if home in domain.objects:
            return domain.resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], home, node, contnode
            )
        if name.startswith("minttt.") and not callable(obj):
            return contnode
    return None


def _factory_defaults(app, what, name, obj, options, signature, annotation):  # noqa: ANN001, ANN202
    """A dataclass field's ``default_factory`` shows as ``<factory>``, which the signature parser
    cannot read (it then splits the signature at every comma, ``dict[str, Any]`` too): show it as
    ``...``, Python's own word for a default not spelt out."""
    if signature and "<factory>" in signature:
        return signature.replace("<factory>", "..."), annotation
    return None


def setup(app: Sphinx) -> None:
    """Run napoleon through the filter above instead of on every docstring; resolve short
    names before intersphinx (priority 400 < its 500)."""
    app.connect("missing-reference", _resolve_short, priority=400)
    app.connect("builder-inited", _remove_stale_pages, priority=400)  # before autosummary's
    app.connect("autodoc-process-signature", _factory_defaults)
    listeners = app.events.listeners["autodoc-process-docstring"]
    for listener in list(listeners):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)
    app.connect("autodoc-process-docstring", _napoleon_for_callables)
