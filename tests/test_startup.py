"""Start-up: a quick command imports only what it needs (no numpy, matplotlib, z3 or pydantic)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
sys.argv = ["minttt", *sys.argv[1:]]
from minttt.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
heavy = [m for m in ("numpy", "matplotlib", "z3", "pydantic") if m in sys.modules]
print(json.dumps(heavy), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--all", "--json"],
        ["solve", "--role", "second", "--objective", "entries"],
        ["encode", "first-center-lookup-entries", "--format", "wcnf"],
    ],
)
def test_quick_commands_do_not_import_heavy_libraries(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True
    )
    heavy = json.loads(done.stderr.strip().splitlines()[-1])
    assert heavy == [], f"minttt {' '.join(args)} imported {heavy}"
