"""The exhaustive verifier within a time budget: :func:`minttt.table.verify.verify_table` in a
process of its own, stopped when the time is up (a 4x4 table takes minutes to verify, and a run
with a time limit must not overrun it).
"""

from __future__ import annotations

import multiprocessing
from typing import TYPE_CHECKING, Any

from minttt.errors import DefectError
from minttt.table.verify import verify_table

if TYPE_CHECKING:
    from minttt.table.model import Table


def verify_within(table: Table, seconds: float | None) -> tuple[bool, str] | None:
    """``(ok, reason)`` of the exhaustive verifier on ``table``; with ``seconds`` it runs in a
    process of its own, stopped after that long: ``None`` when it did not finish in time (the
    table is then not to be kept). ``None`` seconds: no limit, in this process."""
    if seconds is None:
        report = verify_table(table)
        return report.ok, str(report.counterexample)
    if seconds <= 0:
        return None
    context = multiprocessing.get_context("spawn")  # no fork: a Dask client's threads may run
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_verify_child, args=(table, send), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            return None
        answer: tuple[bool, str] = receive.recv()
        return answer
    except EOFError:
        raise DefectError(f"the verifier's process died (exit {child.exitcode})") from None
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
        receive.close()


def _verify_child(table: Table, send: Any) -> None:
    """The verifier's process: the verdict of :func:`verify_table` down ``send``."""
    from minttt.interrupt import worker_init

    worker_init()
    report = verify_table(table)
    send.send((report.ok, str(report.counterexample)))
    send.close()


__all__ = ["verify_within"]
