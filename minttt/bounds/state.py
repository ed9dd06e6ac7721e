"""The state of a bounds run (``minttt scale``), as its checkpoint holds it: typed, read back
through the run store (:class:`minttt.store.RunStore`) and checked before anything is claimed
from it.

The checkpoint (JSON, ``minttt/schemas/scale-checkpoint.schema.json``) holds the proven lower
bound, the size of the best verified table (saved beside it, its SHA-256 recorded), the seconds
spent over all runs, the bounds over time, and each method's record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from minttt.errors import InputError
from minttt.formula.instance import check_table
from minttt.formula.variants import Variant
from minttt.store import RunStore
from minttt.table.model import Table, table_from_json

#: the checkpoint's JSON Schema (package data, ``minttt/schemas/``)
SCALE_SCHEMA = "scale-checkpoint.schema.json"
SCALE_CHECKPOINT = "scale checkpoint"
#: the largest table file a checkpoint may name (bytes; 4x4 k=4 tables are about 1 MB)
MAX_TABLE_BYTES = 1 << 27


class _LevelsRequired(TypedDict):
    seconds_per_level: float
    lower: int
    complete: bool
    levels: list[dict[str, Any]]


class LevelsRecord(_LevelsRequired, total=False):
    """The per-level lower bound's record (``--levels``; with ``--certify``, the levels in
    blocks of ``block``, ``certified`` the sum of the certified ``blocks``)."""

    block: int
    certified: int
    blocks: list[dict[str, Any]]


class HintedRecord(TypedDict):
    """The hinted descent's record (``--hint``)."""

    seconds: float
    start: int
    found: list[int]
    proven: bool
    load_seconds: float


class SearchRecord(TypedDict, total=False):
    """The search portfolio's record (``--search``)."""

    seconds: float
    seeds: int
    first_seed: int
    rounds: int
    slack: int
    method: str
    horizons: list[int]
    workers: int | None
    start: int | None
    found: list[dict[str, Any]]


#: a run that raises the lower bound by less than this share of it has stalled (going on from
#: a 4x4 k=4 part near 450 costs 6 to 18 minutes a run, most of it checking the proof; a fresh
#: part of a split, about 3, and it starts near 400 to 600): :meth:`BoundsState.stalled`
STALLED_GAIN = 0.01

#: the records a method adds, in the order a checkpoint writes them
RECORDS = ("tree_dp", "greedy_entries", "levels", "mip", "hinted", "search")


@dataclass
class BoundsState:
    """One variant's bounds over every run: the proven ``lower`` bound and what proved it
    (``lower_by``: the method and the run; ``lower_from``: the bound that run started from), the
    ``upper`` bound (the entries of ``table``, a verified table beside the checkpoint with
    SHA-256 ``table_sha256``), ``optimal`` exactly when they meet, the ``seconds`` and ``runs``
    so far, the ``history`` ``[seconds, lower, upper, event]``, and each method's record."""

    variant: str
    lower: int = 0
    lower_by: str | None = None
    lower_from: int | None = None
    upper: int | None = None
    optimal: bool = False
    table: str | None = None
    table_sha256: str | None = None
    seconds: float = 0.0
    runs: int = 0
    history: list[list[Any]] = field(default_factory=list)
    tree_dp: float | None = None
    greedy_entries: int | None = None
    levels: LevelsRecord | None = None
    mip: dict[str, Any] | None = None
    hinted: HintedRecord | None = None
    search: SearchRecord | None = None

    def to_dict(self) -> dict[str, Any]:
        """The checkpoint document (records only where a method wrote one)."""
        out: dict[str, Any] = {"variant": self.variant, "lower": self.lower}
        if self.lower_by is not None:
            out["lower_by"] = self.lower_by
        if self.lower_from is not None:
            out["lower_from"] = self.lower_from
        out |= {
            "upper": self.upper,
            "optimal": self.optimal,
            "table": self.table,
        }
        if self.table_sha256 is not None:
            out["table_sha256"] = self.table_sha256
        out |= {"seconds": self.seconds, "runs": self.runs, "history": self.history}
        for name in RECORDS:
            value = getattr(self, name)
            if value is not None or (name == "tree_dp" and "greedy_entries" in out):
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> BoundsState:
        """A schema-valid checkpoint document as a state."""
        return cls(**{k: doc[k] for k in doc if k in cls.__dataclass_fields__})

    def stalled(self, least_gain: float = STALLED_GAIN) -> bool:
        """Whether going on from this record has stopped paying, and a split pays instead: its
        last run left the lower bound where an earlier run had put it (``lower_by`` names an
        earlier run than the last), or raised it by less than ``least_gain`` of the bound
        (``lower_from``, where the record keeps it: older records do not).

        >>> BoundsState("x", lower=437, lower_by="level certificates, run 2", runs=3).stalled()
        True
        >>> BoundsState("x", lower=655, lower_by="level certificates, run 2", runs=2).stalled()
        False
        >>> BoundsState("x", lower=445, lower_by="level certificates, run 3", lower_from=443,
        ...             runs=3).stalled()
        True
        >>> BoundsState("x", lower=532, lower_by="level certificates, run 2", lower_from=400,
        ...             runs=2).stalled()
        False
        """
        found = re.search(r", run (\d+)$", self.lower_by or "")
        if found is None:
            return False
        if int(found.group(1)) < self.runs:
            return True
        gained = None if self.lower_from is None else self.lower - self.lower_from
        return gained is not None and gained < least_gain * self.lower

    def gap(self) -> str:
        """The bounds in words: "proven" only when the last run proved it (its last event)."""
        if self.optimal and self.history and self.history[-1][3] == "proven":
            return f"{self.upper} entries, proven"
        if self.optimal:
            by = f" ({self.lower_by})" if self.lower_by else ""
            return (
                f"{self.upper} entries; an earlier run's lower bound{by} meets it, not re-proven "
                "in this run"
            )
        if self.upper is None:
            return f"at least {self.lower} entries (no table yet)"
        return f"{self.lower} .. {self.upper} entries"


def scale_store(checkpoint: Path) -> RunStore:
    """The run store of a scale checkpoint (its tables beside it)."""
    return RunStore(checkpoint, SCALE_SCHEMA, what=SCALE_CHECKPOINT)


def table_name(checkpoint: Path) -> str:
    """Where a checkpoint's new tables go: ``<stem>.table.json`` beside it."""
    return checkpoint.stem + ".table.json"


def read_state(store: RunStore, variant: Variant) -> BoundsState:
    """The state of ``variant`` in ``store`` (a fresh one if there is no checkpoint yet), checked:
    InputError, in one line naming the file, for a file that is not a readable checkpoint of
    ``variant`` or whose bounds contradict each other (lower above upper, a table without an
    upper bound or the reverse, optimal where they do not meet). ``optimal`` is read as what the
    bounds say (a checkpoint of an older minttt could leave it false where they meet)."""
    if not store.exists():
        return BoundsState(variant.name)
    state = BoundsState.from_dict(store.load())
    where = store.state
    if state.variant != variant.name:
        raise InputError(f"{where}: checkpoint of {state.variant!r}, not {variant.name!r}")
    if (state.upper is None) != (state.table is None):
        raise InputError(f"{where}: an upper bound needs its table and a table its upper bound")
    if state.upper is not None and state.lower > state.upper:
        raise InputError(
            f"{where}: lower bound {state.lower} is above the upper bound {state.upper}"
        )
    if state.optimal and (state.upper is None or state.lower < state.upper):
        raise InputError(
            f"{where}: claims optimal, but its bounds are {state.lower} .. {state.upper}"
        )
    state.optimal = state.upper is not None and state.lower >= state.upper
    return state


def read_table(store: RunStore, state: BoundsState, variant: Variant) -> Table | None:
    """The best table a checkpoint names, read back and checked before it stands as the upper
    bound: the file it names beside it (a checkpoint copied under another name keeps its table),
    else ``<stem>.table.json``; its SHA-256 as recorded (checkpoints of older runs recorded none),
    ``variant``'s, of the recorded size, passing the exhaustive verifier (InputError otherwise).
    ``None`` when neither file is there (the caller drops the bound, saying so)."""
    if state.table is None:
        return None
    for name in dict.fromkeys((Path(state.table).name, table_name(store.state))):
        path = store.path(name)
        if not (path.exists() or path.is_symlink()):
            continue
        data = store.read(name, state.table_sha256, max_bytes=MAX_TABLE_BYTES)
        table = table_from_json(data.decode("utf-8", "replace"), source=str(path))
        check_table(variant, table, str(path), size=state.upper)
        state.table = name
        return table
    return None


__all__ = [
    "MAX_TABLE_BYTES",
    "RECORDS",
    "SCALE_SCHEMA",
    "BoundsState",
    "HintedRecord",
    "LevelsRecord",
    "SearchRecord",
    "scale_store",
    "read_state",
    "read_table",
    "table_name",
]
