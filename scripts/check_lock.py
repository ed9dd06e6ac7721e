"""Every distribution installed in this environment is pinned by the lock, at the installed version.

Run after ``pip install -e ".[dev,...]" -c requirements/lock.txt`` (CI does, in ``.ci/run``): a
dependency added to ``pyproject.toml`` but not to the lock would install at whatever version pip
found that day, which is what the lock exists to prevent.

    python scripts/check_lock.py requirements/lock.txt

Exit 0 when every installed distribution (but minttt and the installers) is pinned at its version,
1 when one is missing or differs (each named, with how to refresh the lock), 2 for a bad path.
"""

from __future__ import annotations

import re
import sys
from importlib.metadata import distributions
from pathlib import Path

# what the venv brings or the install itself needs, never imported by minttt
NOT_LOCKED = {"minttt", "pip", "setuptools", "wheel"}
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)")


def normalise(name: str) -> str:
    """PEP 503 names: ``Python_SAT`` and ``python-sat`` are one project."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(text: str) -> dict[str, set[str]]:
    """``name -> versions`` of a pip requirements lock (a universal lock may pin a project twice,
    under different environment markers)."""
    pins: dict[str, set[str]] = {}
    for line in text.splitlines():
        match = PIN.match(line.strip())
        if match:
            pins.setdefault(normalise(match[1]), set()).add(match[2])
    return pins


def unlocked(pins: dict[str, set[str]]) -> list[str]:
    """One line per installed distribution the lock does not pin at its installed version."""
    problems = []
    for dist in distributions():
        name = normalise(dist.metadata["Name"])
        if name in NOT_LOCKED:
            continue
        if name not in pins:
            problems.append(f"{name} {dist.version} is installed but not in the lock")
        elif dist.version not in pins[name]:
            locked = ", ".join(sorted(pins[name]))
            problems.append(f"{name} {dist.version} is installed, the lock pins {locked}")
    return sorted(set(problems))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python scripts/check_lock.py LOCK", file=sys.stderr)
        return 2
    path = Path(argv[0])
    try:
        pins = read_pins(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read the lock {path}: {exc}", file=sys.stderr)
        return 2
    problems = unlocked(pins)
    for line in problems:
        print(f"lock: {line}", file=sys.stderr)
    if problems:
        print(
            "lock: refresh it (README, 'The lock') and rerun minttt reproduce, then commit both",
            file=sys.stderr,
        )
        return 1
    print(f"lock: every installed distribution is pinned by {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
