"""Write the small intersphinx inventories the docs link through (``docs/_inventories/*.inv``).

    python scripts/docs_inventories.py

Sphinx resolves a name such as ``pathlib.Path`` or ``numpy.ndarray`` in a signature through the
other project's ``objects.inv``, which intersphinx downloads at every build. The docs build offline
and deterministically instead: each inventory here holds only the names minttt's docstrings and
signatures use, each with the address it has on that project's site (Python's checked against
Python 3.11's own ``objects.inv``, Debian's python3-doc; PySAT's against its ``docs/api`` pages;
numpy's, networkx's and Rich's follow their sites' one page per class or module). A name added
to a signature that no inventory holds fails the strict build (``nitpicky``); add it below and
rerun this script.
tests/test_docs.py fails when the committed files and this table disagree.
"""

from __future__ import annotations

import zlib
from pathlib import Path

from minttt.fileio import write_bytes_atomic

OUT = Path(__file__).resolve().parent.parent / "docs" / "_inventories"

# project -> (base URL, version, [(name, role, page#anchor)]); "$" in an address is the name
_BUILTIN = "library/functions.html#$"
_STDTYPES = "library/stdtypes.html#$"
_ABC = "library/collections.abc.html#$"
_EXC = "library/exceptions.html#$"
_TYPING = "library/typing.html#$"
INVENTORIES: dict[str, tuple[str, str, str, list[tuple[str, str, str]]]] = {
    "python": (
        "Python",
        "3",
        "https://docs.python.org/3",
        [
            *[(n, "py:class", _BUILTIN) for n in ("bool", "float", "int", "object")],
            *[(n, "py:class", _STDTYPES) for n in ("bytes", "dict", "frozenset", "list")],
            *[(n, "py:class", _STDTYPES) for n in ("set", "str", "tuple")],
            ("None", "py:data", "library/constants.html#$"),
            *[(f"collections.abc.{n}", "py:class", _ABC) for n in ("Callable", "Collection")],
            *[(f"collections.abc.{n}", "py:class", _ABC) for n in ("Iterable", "Iterator")],
            *[(f"collections.abc.{n}", "py:class", _ABC) for n in ("Mapping", "Sequence")],
            ("Exception", "py:exception", _EXC),
            ("KeyboardInterrupt", "py:exception", _EXC),
            ("KeyError", "py:exception", _EXC),
            ("OSError", "py:exception", _EXC),
            ("TypeError", "py:exception", _EXC),
            ("ValueError", "py:exception", _EXC),
            ("enum.Enum", "py:class", "library/enum.html#$"),
            ("fractions.Fraction", "py:class", "library/fractions.html#$"),
            ("os.PathLike", "py:class", "library/os.html#$"),
            ("pathlib.Path", "py:class", "library/pathlib.html#$"),
            ("random.Random", "py:class", "library/random.html#$"),
            # data in Python's inventory; classes here, as annotations refer to them
            ("types.FrameType", "py:class", "library/types.html#$"),
            ("typing.Any", "py:class", _TYPING),
            ("typing.Literal", "py:class", _TYPING),
        ],
    ),
    "numpy": (
        "NumPy",
        "2",
        "https://numpy.org/doc/stable",
        [
            ("numpy.ndarray", "py:class", "reference/generated/numpy.ndarray.html#$"),
            ("numpy.random.Generator", "py:class", "reference/random/generator.html#$"),
            # the name numpy.random.Generator has at run time, which signatures show
            (
                "numpy.random._generator.Generator",
                "py:class",
                "reference/random/generator.html#numpy.random.Generator",
            ),
        ],
    ),
    "pysat": (
        "PySAT",
        "1.8",
        "https://pysathq.github.io/docs/html",
        [
            ("pysat.formula.CNF", "py:class", "api/formula.html#$"),
            ("pysat.formula.WCNF", "py:class", "api/formula.html#$"),
            ("pysat.examples.rc2.RC2", "py:class", "api/examples/rc2.html#$"),
            ("pysat.solvers.Solver", "py:class", "api/solvers.html#$"),
        ],
    ),
    "networkx": (
        "NetworkX",
        "3",
        "https://networkx.org/documentation/stable",
        [
            ("networkx.MultiDiGraph", "py:class", "reference/classes/multidigraph.html#$"),
            ("networkx.DiGraph", "py:class", "reference/classes/digraph.html#$"),
        ],
    ),
    "rich": (
        "Rich",
        "14",
        "https://rich.readthedocs.io/en/stable",
        [
            ("rich.console.Console", "py:class", "reference/console.html#$"),
            ("rich.progress.Progress", "py:class", "reference/progress.html#$"),
            ("rich.table.Table", "py:class", "reference/table.html#$"),
        ],
    ),
}


def inventory(project: str, version: str, entries: list[tuple[str, str, str]]) -> bytes:
    """One ``objects.inv`` (format 2: four header lines, then zlib-compressed entries)."""
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n"
        f"# Version: {version}\n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    body = "".join(f"{name} {role} 1 {uri} -\n" for name, role, uri in sorted(entries))
    return header.encode() + zlib.compress(body.encode(), 9)


def inventories() -> dict[str, bytes]:
    """File name -> contents, for every project above."""
    return {
        f"{key}.inv": inventory(project, version, entries)
        for key, (project, version, _url, entries) in INVENTORIES.items()
    }


def intersphinx_mapping(directory: str) -> dict[str, tuple[str, str]]:
    """The ``intersphinx_mapping`` of ``docs/conf.py``: each base URL and its local inventory."""
    return {key: (url, f"{directory}/{key}.inv") for key, (_p, _v, url, _e) in INVENTORIES.items()}


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for name, data in inventories().items():
        write_bytes_atomic(OUT / name, data)
        print(f"wrote {OUT / name}")
