"""A Dask client for work that outgrows one process: a local cluster by default, or a running
Dask cluster at an address. Used by cube and conquer (:mod:`minttt.proof.conquer`) and the search
portfolio (:mod:`minttt.bounds.portfolio`). Needs the ``cluster`` extra (Dask distributed).

Start a real cluster with ``DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL=None dask scheduler`` on one
machine (a SAT call holds the GIL, so a busy worker sends no heartbeat: the scheduler must not
drop it) and ``dask worker ADDRESS --nthreads 1`` on the others (each with minttt installed), then
pass ``--scheduler ADDRESS`` to the command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minttt.errors import InputError

if TYPE_CHECKING:
    from distributed import Client


class DaskCluster:
    """A Dask client on ``scheduler``, or on a local cluster of ``workers`` single-threaded
    processes made for the run and closed with it (a context manager)."""

    def __init__(self, workers: int = 2, scheduler: str | None = None) -> None:
        if not 1 <= workers <= 1024:
            raise InputError(f"workers must be 1-1024, got {workers}")
        self.workers, self.scheduler = workers, scheduler
        self.cluster: Any = None
        self.client: Any = None
        self.config: Any = None

    def __enter__(self) -> Client:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise InputError(
                'Dask distributed is not installed: pip install "minttt[cluster]"'
            ) from None
        if self.scheduler is not None:
            try:
                self.client = Client(self.scheduler, timeout=30)
            except (OSError, TimeoutError, ValueError) as exc:
                raise InputError(f"--scheduler {self.scheduler}: cannot connect ({exc})") from None
        else:
            import dask

            # a SAT call holds the GIL for as long as it runs, so a worker sends no heartbeat
            # meanwhile: without this the scheduler would drop it after 5 minutes and rerun its
            # cube elsewhere, forever (a real cluster's scheduler needs the same setting)
            self.config = dask.config.set({"distributed.scheduler.worker-ttl": None})
            self.config.__enter__()
            self.cluster = LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # an HTTP server binds anyway: any free port
            )
            self.client = Client(self.cluster)
        return self.client

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        if self.config is not None:
            self.config.__exit__(None, None, None)


__all__ = ["DaskCluster"]
