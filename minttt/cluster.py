"""A Dask client for work that outgrows one process: a local cluster by default, or a running
Dask cluster at an address, and the one way work is fanned out over it (:func:`fan_out`). Used by
cube and conquer (:mod:`minttt.proof.conquer`) and the search portfolio
(:mod:`minttt.bounds.search`). Needs the ``cluster`` extra (Dask distributed).

Start a real cluster with ``DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL=None dask scheduler`` on one
machine (a SAT call holds the GIL, so a busy worker sends no heartbeat: the scheduler must not
drop it) and ``dask worker ADDRESS --nthreads 1`` on the others (each with minttt installed), then
pass ``--scheduler ADDRESS`` to the command.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from minttt.errors import InputError

if TYPE_CHECKING:
    from distributed import Client

K = TypeVar("K", bound=Hashable)


def max_workers() -> int:
    """The most local workers a run may start: one per core of this machine (each runs a solver
    that holds a core; more only queue)."""
    return os.cpu_count() or 1


def check_workers(workers: int) -> int:
    """``workers`` if it is 1 .. :func:`max_workers`, else InputError in one line (every command
    with ``--workers`` asks here)."""
    top = max_workers()
    if not 1 <= workers <= top:
        raise InputError(f"--workers must be 1-{top} (this machine's cores), got {workers}")
    return workers


#: how long a scheduler has to say hello (Dask's handshake comes the moment it accepts)
HELLO_SECONDS = 10.0
#: how long Dask's client has to connect once the scheduler said hello
CONNECT_SECONDS = 20.0


class ClusterLost(InputError):
    """The cluster lost every worker (or the scheduler) in the middle of a run: one line, exit 2;
    what was finished is in the run's checkpoint."""


def scheduler_address(address: str) -> tuple[str, int]:
    """``(host, port)`` of ``tcp://HOST:PORT`` or ``HOST:PORT``; InputError in one line for any
    other scheme (``tls://``, ``ucx://``, ``ws://``: not supported here) or a malformed address.

    >>> scheduler_address("tcp://127.0.0.1:8786"), scheduler_address("node7:8786")
    (('127.0.0.1', 8786), ('node7', 8786))
    """
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        raise InputError(f"--scheduler {address}: only tcp:// addresses are supported")
    host, colon, port = rest.rpartition(":")
    if not colon or not host or not port.isascii() or not port.isdigit() or int(port) > 65535:
        raise InputError(f"--scheduler {address}: expected tcp://HOST:PORT")
    return host.strip("[]"), int(port)


def say_hello(address: str, seconds: float = HELLO_SECONDS) -> None:
    """InputError in one line unless a Dask scheduler answers at ``address`` within ``seconds``:
    it accepts the connection and sends Dask's handshake at once (a port that accepts and says
    nothing, or speaks another protocol, would keep Dask's client waiting for minutes)."""
    host, port = scheduler_address(address)
    deadline = time.monotonic() + seconds
    try:
        sock = socket.create_connection((host, port), timeout=seconds)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise InputError(f"--scheduler {address}: cannot connect ({reason})") from None
    data = b""
    with sock:
        while b"pickle-protocol" not in data and len(data) < 4096:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            sock.settimeout(left)
            try:
                chunk = sock.recv(4096)
            except OSError:  # the time ran out, or the peer reset the connection
                break
            if not chunk:
                break
            data += chunk
    if b"pickle-protocol" not in data:
        raise InputError(
            f"--scheduler {address}: no Dask scheduler answers there (no handshake in "
            f"{seconds:g} s)"
        )


class DaskCluster:
    """A Dask client on ``scheduler``, or on a local cluster of ``workers`` single-threaded
    processes made for the run and closed with it (a context manager)."""

    def __init__(self, workers: int = 2, scheduler: str | None = None) -> None:
        if scheduler is None:
            check_workers(workers)
        else:
            scheduler_address(scheduler)
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
            say_hello(self.scheduler)
            try:
                self.client = Client(self.scheduler, timeout=CONNECT_SECONDS)
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


def fan_out(
    client: Client,
    function: Callable[..., Any],
    tasks: Mapping[K, Sequence[Any]],
    on_result: Callable[[K, Any], None],
) -> None:
    """Run ``function(*args)`` for each task on the cluster and hand each result to
    ``on_result(key, result)`` as it arrives (a worker's exception is raised here); whatever is
    still running is cancelled on the way out (an error, Ctrl-C). Every task's key is new (no
    result is shared with another run on the same cluster). :class:`ClusterLost` when the
    cluster loses its workers or its scheduler on the way."""
    from distributed import as_completed
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    run = uuid.uuid4().hex
    futures = {
        client.submit(function, *args, key=f"minttt-{run}-{key}", pure=False): key
        for key, args in tasks.items()
    }
    try:
        for future in as_completed(futures):
            on_result(futures[future], future.result())
    except (FutureCancelledError, KilledWorker, CommClosedError) as exc:
        raise ClusterLost(f"the cluster lost its workers ({type(exc).__name__})") from None
    finally:
        client.cancel(list(futures))


def scatter(client: Client, data: Any) -> Any:
    """``data`` sent once to every worker, under a key of its own: two runs scattering equal
    data on one cluster get two objects (a solver cached on one is never shared)."""
    return client.scatter(data, broadcast=True, hash=False)


__all__ = [
    "ClusterLost",
    "DaskCluster",
    "check_workers",
    "fan_out",
    "max_workers",
    "say_hello",
    "scatter",
    "scheduler_address",
]
