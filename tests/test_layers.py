"""The package's shape: no import cycle, no arrow up a layer, no private name across packages.

The import graph and the layers (low to high; a module may import its own layer and the layers
below) are :mod:`import_graph`'s: every import counts, lazy, relative or by name, and a cycle
through a package ``__init__`` is a cycle; only ``if TYPE_CHECKING:`` bodies (annotations) and a
value's notebook display hooks are left out. The checker itself is tested on a planted package:
each way an arrow used to slip past it is caught.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from import_graph import LAYERS, Package

PACKAGE = Package(Path(__file__).resolve().parent.parent / "minttt")
MODULES = PACKAGE.modules


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        PACKAGE.layer(module)


def test_no_import_cycle() -> None:
    cycles = PACKAGE.cycles()
    assert not cycles, f"import cycles: {cycles}"


def test_no_arrow_up_a_layer() -> None:
    up = PACKAGE.upward()
    assert not up, "\n".join(up)


def test_the_package_root_is_imported_by_nobody_inside() -> None:
    """``minttt/__init__`` is the front door for users; modules import what they use directly."""
    inside = [a for a, b, _ in PACKAGE.edges() if b == "minttt"]
    assert not inside, inside


def test_no_private_name_imported_from_another_package() -> None:
    leaks = []
    for module in MODULES:
        home = module.split(".")[:2]
        for imp in PACKAGE.imports(module):
            target, name = imp.target, imp.name
            private = name.startswith("_") or any(p.startswith("_") for p in target.split("."))
            if private and target.split(".")[:2] != home and name != "__version__":
                leaks.append(f"{module}:{imp.line} imports {target} {name}")
    assert not leaks, "\n".join(leaks)


def _plant(root: Path, files: dict[str, str]) -> Package:
    """A package ``minttt`` under ``root`` holding ``files`` (path -> source)."""
    for name, text in files.items():
        path = root / "minttt" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    for folder in (root / "minttt").rglob("*"):
        if folder.is_dir() and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("", "utf-8")
    (root / "minttt" / "__init__.py").touch()
    return Package(root / "minttt")


BASE = {"errors.py": "", "solvers/extract.py": "def g(): pass\n", "solvers/model.py": ""}


@pytest.mark.parametrize(
    "game",
    [
        "from ..solvers import extract\n",  # relative, up a layer
        "from ..solvers.model import g\n",
        "import importlib\nM = importlib.import_module('minttt.solvers.model')\n",  # by name
        "def f():\n    return __import__('minttt.solvers.model')\n",
        "from typing import TYPE_CHECKING\nif not TYPE_CHECKING:\n    import minttt.solvers.model",
        "import typing\nif typing.TYPE_CHECKING:\n    pass\nelse:\n    import minttt.solvers.model",
    ],
)
def test_an_arrow_up_a_layer_is_caught_however_it_is_written(tmp_path: Path, game: str) -> None:
    planted = _plant(tmp_path, {**BASE, "game/rules.py": game})
    up = planted.upward()
    assert up and all(
        line.startswith(
            f"minttt.game.rules ({LAYERS.index(frozenset({'game'}))}) imports minttt.solvers"
        )
        for line in up
    )


def test_only_the_type_checking_body_is_left_out(tmp_path: Path) -> None:
    game = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import minttt.solvers.model\n"
    assert not _plant(tmp_path, {**BASE, "game/rules.py": game}).upward()


def test_a_cycle_through_a_package_init_is_caught(tmp_path: Path) -> None:
    """``solvers/__init__`` imports ``extract``, which takes a name from ``solvers/__init__``:
    ``import minttt.solvers.extract`` fails with a partially initialised module."""
    planted = _plant(
        tmp_path,
        {
            **BASE,
            "solvers/__init__.py": "from minttt.solvers.extract import g\n",
            "solvers/extract.py": "from minttt.solvers import solve\ndef g(): pass\n",
        },
    )
    assert ["minttt.solvers", "minttt.solvers.extract"] in [sorted(c) for c in planted.cycles()]


def test_importing_a_module_runs_its_packages_init(tmp_path: Path) -> None:
    """From outside, ``minttt.solvers.model`` is reached through ``minttt/solvers/__init__``:
    a cycle through that ``__init__`` counts."""
    planted = _plant(
        tmp_path,
        {
            **BASE,
            "solvers/__init__.py": "import minttt.formula.encode\n",
            "formula/encode.py": "from minttt.solvers.model import x\n",
        },
    )
    assert ["minttt.formula.encode", "minttt.solvers"] in [sorted(c) for c in planted.cycles()]


def test_the_layers_are_the_designs() -> None:
    """The layer list is stated once here and once in docs/DESIGN.md (tests/test_design.py)."""
    assert LAYERS[0] >= {"errors", "store", "cluster"} and LAYERS[-1] == {"__init__", "__main__"}


#: what the independent pieces must not import: the pipeline they check
PIPELINE = ("minttt.game", "minttt.formula", "minttt.solvers", "minttt.bounds", "minttt.proof")


def test_the_trust_package_imports_nothing_of_the_pipeline() -> None:
    """``minttt.trust`` (the reference encoder, its game rules) shares no code with what it
    checks: of minttt it imports its own modules and the error types alone, and its layer is
    below the game's."""
    trust = [m for m in MODULES if m == "minttt.trust" or m.startswith("minttt.trust.")]
    assert {"minttt.trust", "minttt.trust.encoder", "minttt.trust.game"} <= set(trust)
    assert PACKAGE.layer("minttt.trust.encoder") < PACKAGE.layer("minttt.game.graph")
    for module in trust:
        theirs = {PACKAGE.resolve(i.target) or "" for i in PACKAGE.imports(module)}
        assert not [t for t in theirs if t.startswith(PIPELINE)], (module, theirs)
        outside = {t for t in theirs if not t.startswith("minttt.trust")}
        assert outside <= {"minttt.errors"}, (module, outside)


@pytest.mark.parametrize("checker", ["minttt.proof.drat", "minttt.proof.lrat"])
def test_the_proof_checkers_import_nothing_else_of_minttt_and_no_solver(checker: str) -> None:
    """The checkers share no code with what made the proofs: they use minttt's error types,
    LRAT reuses DRAT's reader, and their compiled kernels (C, minttt.proof.kernels, loaded
    lazily) include nothing but Python's header and the C library."""
    allowed = {
        # minttt.proof: the compiled kernels (C, no .py to resolve; checked below)
        "minttt.proof.drat": {"minttt.errors", "minttt.proof"},
        "minttt.proof.lrat": {"minttt.errors", "minttt.proof.drat", "minttt.proof"},
    }[checker]
    theirs = {PACKAGE.resolve(i.target) for i in PACKAGE.imports(checker)}
    assert theirs <= allowed, theirs
    text = MODULES[checker].read_text("utf-8")
    for solver in ("pysat", "z3"):
        assert f"import {solver}" not in text and f"from {solver}" not in text
    lines = [line.strip() for line in text.splitlines() if "from minttt.proof import" in line]
    assert lines == ["from minttt.proof import kernels"]
    for source in ("kernels.c", "drat_kernel.c", "lrat_kernel.c"):
        kernel = (MODULES[checker].parent / source).read_text("utf-8")
        includes = [line for line in kernel.splitlines() if line.startswith("#include")]
        assert set(includes) <= {
            "#include <Python.h>",
            "#include <stdint.h>",
            "#include <stdlib.h>",
            "#include <string.h>",
        }, source
