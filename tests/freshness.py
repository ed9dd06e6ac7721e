"""Why a committed result differs from a fresh one, when the only difference is a tool's version.

``minttt reproduce`` records the versions of the tools that made its files (``python_sat`` in the
certificate index, Graphviz in the summary and every tree SVG). Installed without the lock, a newer
release changes those lines and nothing else; the freshness test then says so, naming the tool and
both versions, instead of calling the results stale.

>>> old = b'{\\n  "python_sat": "1.9.dev17",\\n  "n": 1\\n}\\n'
>>> new = b'{\\n  "python_sat": "1.9.dev22",\\n  "n": 1\\n}\\n'
>>> version_only_changes(old, new)
[('python_sat', '1.9.dev17', '1.9.dev22')]
>>> version_only_changes(old, new.replace(b'"n": 1', b'"n": 2')) is None   # a real change
True
"""

from __future__ import annotations

import difflib
import re
from importlib.metadata import PackageNotFoundError, version

VERSION = re.compile(r"\d+(?:\.[0-9A-Za-z]+)+")
KEY = re.compile(r'"([^"]+)"\s*:')
# distributions whose version a result may record
RECORDED = ("python-sat", "z3-solver", "pygraphviz", "numpy", "networkx", "matplotlib", "cairosvg")
LOCK_HINT = (
    'install from the lock (pip install -e ".[dev]" -c requirements/lock.txt); to move to the new '
    "version instead, refresh the lock and rerun minttt reproduce (README, 'The lock')"
)


def version_only_changes(committed: bytes, produced: bytes) -> list[tuple[str, str, str]] | None:
    """``[(what, committed version, produced version)]`` when the two files differ only in
    version numbers on changed lines, else ``None``. ``what`` is the JSON key on the line, or the
    line itself (trimmed) where there is none."""
    try:
        old, new = committed.decode("utf-8").splitlines(), produced.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return None
    found: list[tuple[str, str, str]] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag != "replace" or a1 - a0 != b1 - b0:
            return None
        for before, after in zip(old[a0:a1], new[b0:b1], strict=True):
            if VERSION.sub("#", before) != VERSION.sub("#", after):
                return None
            pairs = zip(VERSION.findall(before), VERSION.findall(after), strict=True)
            key = KEY.search(before)
            what = key[1] if key else before.strip()[:60]
            found += [(what, a, b) for a, b in pairs if a != b]
    return found or None


def installed_versions() -> dict[str, str]:
    """``version -> distribution`` for the tools a result may record, as installed here."""
    out: dict[str, str] = {}
    for name in RECORDED:
        try:
            out.setdefault(version(name), name)
        except PackageNotFoundError:
            continue
    try:
        from minttt.render import graphviz_version

        out.setdefault(graphviz_version(), "Graphviz (carried by pygraphviz)")
    except Exception:  # no pygraphviz: nothing it could have recorded
        pass
    return out


def explain(name: str, committed: bytes, produced: bytes) -> str | None:
    """One line saying ``name`` differs only in a recorded tool version, or ``None``."""
    changes = version_only_changes(committed, produced)
    if changes is None:
        return None
    tools = installed_versions()
    said = sorted(
        {f"{tools.get(new, what)} {old} committed, {new} installed" for what, old, new in changes}
    )
    return f"{name} differs only in a recorded tool version ({'; '.join(said)}): {LOCK_HINT}"
