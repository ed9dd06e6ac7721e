"""Start-up: a command imports only what it uses, and never the CLI framework when its arguments
are plain (declared options, values its parsers accept).

Each case runs ``minttt`` in a fresh process and lists the modules of a deny-list it imported (a
package's name stands for all its modules, a dotted name for that module). The test asserts
imports, never times: the times are ``scripts/bench_startup.py``'s (``bench.json``, area
``startup``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: what no plain run of a quick command may import: the CLI framework (typer, its vendored click,
#: shell detection), heavy numeric and plotting libraries, the other solver family, the cluster,
#: the schema validator (a solver's table is never a file to validate)
DENIED = (
    "typer",
    "click",
    "shellingham",
    "numpy",
    "numba",
    "llvmlite",
    "scipy",
    "z3",
    "matplotlib",
    "dask",
    "distributed",
    "networkx",
    "pydantic",
    "jsonschema",
    "pygraphviz",
    "cairosvg",
)
PROBE = """
import json, sys
denied = set(json.loads(sys.argv[1]))
sys.argv = ["minttt", *sys.argv[2:]]
from minttt.cli import main
try:
    main()
except SystemExit:
    pass
loaded = set(sys.modules) | {m.split(".")[0] for m in sys.modules}
print(json.dumps(sorted(loaded & denied)), file=sys.stderr)
"""


#: what ``minttt solve --json`` does without, beyond :data:`DENIED`: the console library (it prints
#: JSON); dataclasses, which import inspect, ast and dis (the value classes on its path are
#: ``minttt.record`` records); the table layer (a table is built only for ``--out``)
SOLVE_JSON_DENIED = (*DENIED, "rich", "dataclasses", "inspect", "minttt.table.model")


def imported_denied(args: list[str], denied: tuple[str, ...] = DENIED) -> list[str]:
    """The packages and modules of ``denied`` that ``minttt ARGS`` imports (its output is
    discarded)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(list(denied)), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    found: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize(
    ("args", "denied"),
    [
        # the start-up benchmark's command
        (["solve", "--all", "--json"], SOLVE_JSON_DENIED),
        (["solve", "--role", "second", "--objective", "entries"], DENIED),
        (["encode", "first-center-lookup-entries", "--format", "wcnf"], (*DENIED, "rich")),
        # 000's 827 situations are counted over all 3^9 boards with numpy
        (["count", "--json"], tuple(m for m in (*DENIED, "rich") if m != "numpy")),
        (["search", "x...o....", "--json"], (*DENIED, "rich")),
        (["check-proof", "--json", "missing.cnf", "missing.drat"], (*DENIED, "rich")),
        (["--version"], (*DENIED, "rich")),
    ],
)
def test_quick_commands_do_not_import_denied_modules(
    args: list[str], denied: tuple[str, ...]
) -> None:
    found = imported_denied(args, denied)
    assert found == [], f"minttt {' '.join(args)} imported {found}"


def test_help_and_usage_errors_go_through_the_framework() -> None:
    """The other side of the same rule: typer is loaded when it has work (help, usage errors)."""
    assert imported_denied(["solve", "--help"], ("typer",)) == ["typer"]
    assert imported_denied(["solve", "--role", "nobody"], ("typer",)) == ["typer"]


COMPILES = """
import builtins, contextlib, io, json, sys
sys.argv = ["minttt", *sys.argv[1:]]
compiled = []
real = builtins.compile


def spy(source, *args, **kwargs):
    if isinstance(source, str):  # a module's own source comes as bytes (no .pyc yet)
        compiled.append(source[:60])
    return real(source, *args, **kwargs)


builtins.compile = spy
from minttt.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main()
    except SystemExit:
        pass
print(json.dumps(compiled), file=sys.stderr)
"""


def test_solve_compiles_nothing() -> None:
    """``minttt solve`` calls no ``compile()``: typing compiles each string annotation of a
    ``class X(NamedTuple)`` body (all are strings under ``from __future__ import annotations``),
    and the first compile of a process costs about 1.5 ms (dataclasses, which ``exec`` their
    methods, are on the deny-list)."""
    done = subprocess.run(
        [sys.executable, "-c", COMPILES, "solve", "--all", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    compiled = json.loads(done.stderr.strip().splitlines()[-1])
    assert compiled == [], f"minttt solve --all --json compiled {compiled}"
