"""Write the per-cube record of a cube-and-conquer run (``results/games/<stem>.cubes.json``) from
its checkpoint folder (``minttt certify --cubes N --checkpoint DIR``): what each refuted cube took,
which solver refuted it at which place, and the cubes still open.

    python scripts/cube_record.py /work/ck443/second-lookup-entries@mnk-4-4-3 \\
        "second-lookup-entries@mnk:4,4,3" "cube and conquer of ..." \\
        results/games/second-lookup-entries_mnk443.cubes.json [--before before.json]

Exit 0 written, 2 for a checkpoint that is not one (one line).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from minttt.fileio import write_json_atomic
from minttt.proof.conquer import CUBE_CHECKPOINT, CUBES_SCHEMA, READ_FORMATS, STATE, Checkpoint
from minttt.proof.cubes import decision_cubes
from minttt.schema import load_json


def record(folder: Path, variant: str, claim: str, before: dict | None = None) -> dict:
    """The record of the checkpoint in ``folder``, read as a resumed run reads it
    (:class:`~minttt.proof.conquer.Checkpoint`): a cube counts as refuted only with its proof on
    disk and its solver's earlier cubes kept; the proofs themselves are checked by the
    certificate they join into, not here."""
    state = load_json(folder / STATE, CUBES_SCHEMA, what=CUBE_CHECKPOINT)
    if state["format"] not in READ_FORMATS:
        raise ValueError(f"{folder / STATE}: not a checkpoint this minttt reads")
    with Checkpoint(folder, state["cnf_sha256"], state["splits"], lambda _m: None) as kept:
        done = dict(kept.cubes)
    count = len(decision_cubes(kept.splits))
    solvers = {s: n for n, s in enumerate(dict.fromkeys(r.session for r in done.values()), 1)}
    refuted = {
        str(i): {
            "lemmas": r.lemmas,
            "seconds": r.seconds,
            "load_seconds": r.load_seconds,
            "sequence": r.sequence,
            "solver": solvers[r.session],
            **({"sub_depth": r.sub_depth} if r.sub_depth else {}),
        }
        for i, r in sorted(done.items())
    }
    seconds = [r["seconds"] for r in refuted.values()]
    out = {
        "variant": variant,
        "claim": claim,
        "checkpoint_format": state["format"],
        "cnf_sha256": kept.digest,
        "splits": kept.splits,
        "cubes": count,
        "refuted": refuted,
        "open": [i for i in range(count) if i not in done],
        "refuted_seconds": {
            "total": round(sum(seconds), 1),
            "median": statistics.median(seconds) if seconds else None,
            "max": max(seconds, default=None),
        },
        "refuted_lemmas": sum(r["lemmas"] for r in refuted.values()),
        "solvers": len(solvers),
    }
    if before is not None:
        out["before"] = before
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", type=Path)
    parser.add_argument("variant")
    parser.add_argument("claim")
    parser.add_argument("out", type=Path)
    parser.add_argument("--before", type=Path, help="a JSON object: the runs before this one")
    args = parser.parse_args(argv)
    try:
        before = json.loads(args.before.read_text("utf-8")) if args.before else None
        data = record(args.checkpoint, args.variant, args.claim, before)
    except (OSError, ValueError, KeyError, TypeError) as exc:  # InputError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 2
    write_json_atomic(args.out, data)
    print(f"{args.out}: {len(data['refuted'])} of {data['cubes']} cubes refuted")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
