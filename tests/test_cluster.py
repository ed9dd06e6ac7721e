"""The cluster fails in one line: a port that speaks no Dask is refused within seconds, schemes
other than tcp:// are refused, a cluster that loses its workers says so (and the run's
checkpoint keeps what was done), ``--workers`` is bounded by the machine; two runs on one
cluster never share a scattered object. Real local clusters and listeners."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from minttt.cluster import (
    ClusterLost,
    DaskCluster,
    check_workers,
    fan_out,
    max_workers,
    say_hello,
    scatter,
    scheduler_address,
)
from minttt.errors import InputError

pytest.importorskip("distributed", reason="the cluster tests need Dask (the cluster extra)")


@contextmanager
def silent_listener() -> Iterator[int]:
    """A loopback port that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()
        for conn in held:
            conn.close()


@contextmanager
def http_server() -> Iterator[int]:
    """A loopback HTTP server (it speaks, but not Dask)."""

    class Hello(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("listener", [silent_listener, http_server])
def test_a_port_that_speaks_no_dask_is_refused_in_seconds(listener) -> None:
    with listener() as port, pytest.raises(InputError, match="no Dask scheduler answers there"):
        say_hello(f"tcp://127.0.0.1:{port}", seconds=1.0)


@pytest.mark.parametrize(
    "address",
    ["tls://127.0.0.1:8786", "ucx://127.0.0.1:8786", "ws://127.0.0.1:8786", "inproc://x"],
)
def test_other_schemes_are_refused_in_one_line(address: str) -> None:
    with pytest.raises(InputError, match="only tcp:// addresses are supported"):
        DaskCluster(1, address)


@pytest.mark.parametrize("address", ["tcp://127.0.0.1", "tcp://:8786", "tcp://h:x", "h:99999"])
def test_malformed_addresses_are_refused(address: str) -> None:
    with pytest.raises(InputError, match="expected tcp://HOST:PORT"):
        scheduler_address(address)


def test_a_closed_port_is_refused() -> None:
    with socket.socket() as sock:  # a port bound, never listening: connections are refused
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        with pytest.raises(InputError, match="cannot connect"):
            say_hello(f"127.0.0.1:{port}", seconds=2.0)


def test_workers_are_bounded_by_the_machine() -> None:
    assert check_workers(max_workers()) == max_workers()
    for bad in (0, max_workers() + 1, 1024):
        with pytest.raises(InputError, match="--workers must be 1-"):
            check_workers(bad)


def _die() -> None:
    os._exit(3)  # a worker that dies mid-task, every time


def _double(x: int) -> int:
    return 2 * x


@pytest.mark.slow  # a local cluster whose worker is killed until Dask gives up on the task
def test_a_cluster_that_loses_its_workers_says_so_in_one_line() -> None:
    import dask

    arrived: list[tuple[int, int]] = []
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        DaskCluster(1) as client,
    ):
        fan_out(client, _double, {1: (1,), 2: (2,)}, lambda k, r: arrived.append((k, r)))
        assert sorted(arrived) == [(1, 2), (2, 4)]
        with pytest.raises(ClusterLost, match="the cluster lost its workers"):
            fan_out(client, _die, {0: ()}, lambda k, r: None)


class _Cached:
    """Something a worker keeps a solver on (as the cubes' clauses do)."""

    def __init__(self) -> None:
        self.solver = object()


def _solver_id(data: _Cached) -> int:
    return id(data.solver)


@pytest.mark.slow  # a local cluster
def test_two_runs_scattering_equal_data_get_objects_of_their_own() -> None:
    """Content hashing gave two runs' equal clauses one key, so one solver per worker served
    both and their proofs interleaved; scattered data is keyed by run."""
    with DaskCluster(1) as client:
        first, second = scatter(client, b"clauses"), scatter(client, b"clauses")
        assert first.key != second.key
        a, b = scatter(client, _Cached()), scatter(client, _Cached())
        ids: list[int] = []
        for data in (a, b):
            fan_out(client, _solver_id, {0: (data,)}, lambda _k, r: ids.append(r))
        assert ids[0] != ids[1]
