"""Hostile inputs for minttt's readers, and processes that end with their parent.

A DIMACS, DRAT or LRAT number is ``-?[0-9]+``: the forms Python's ``int()`` also reads (``1_0``,
``0_0``, ``+1``) are refused naming the line, as drat-trim refuses them, by every reader and by
``minttt check-proof`` (exit 2, one line). JSON nested deeper than a few levels is refused in one
line wherever it is read; a bounded read never allocates its bound up front, and an xz bomb is
refused in one line even under an address-space limit. A killed ``reproduce`` leaves no worker
running, and its staging folders are removed by the next run; an audit shows its progress and
stops at its time limit, claiming nothing.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.fileio import MAX_JSON_DEPTH, parse_json, read_regular
from minttt.proof import drat, lrat
from minttt.proof.drat import ProofFormatError

runner = CliRunner()

#: x1 xor x2 and its negation: unsatisfiable; refuted by "2 0", then the empty clause
XOR2 = b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"
XOR2_DRAT = b"2 0\n0\n"
XOR2_LRAT = b"5 2 0 1 2 0\n6 0 5 3 4 0\n"

#: (a formula, the line named) whose numbers int() reads and DIMACS does not
LOOSE_CNF = [
    (XOR2.replace(b"-1 -2 0\n", b"-1 -2 0_0\n"), "CNF line 5"),
    (XOR2.replace(b"\n1 2 0", b"\n+1 2 0"), "CNF line 2"),
    (b"p cnf 10 1\n1_0 0\n", "CNF line 2"),
    (XOR2.replace(b"p cnf 2 4", b"p cnf +2 4"), "CNF line 1"),
    (XOR2.replace(b"p cnf 2 4", b"p cnf 2 0_4"), "CNF line 1"),
    (b"c a comment\n" + XOR2.replace(b"1 -2 0", b"1 -2 +0"), "CNF line 5"),
]

#: (a DRAT proof of XOR2, the line named), each with one number int() reads
LOOSE_DRAT = [
    (b"+2 0\n0\n", "proof line 1"),
    (b"2 0_0\n0\n", "proof line 1"),
    (b"2 0\n0_0\n", "proof line 2"),
    (b"c the comment sends it past the one-sweep reader\n2 0\n+0\n", "proof line 3"),
    (b"2 0\nd +1 2 0\n0\n", "proof line 2"),
]

#: (an LRAT proof of XOR2, the line named), each with one number int() reads
LOOSE_LRAT = [
    (b"+5 2 0 1 2 0\n6 0 5 3 4 0\n", "LRAT line 1"),
    (b"5 2 0 1 2 0\n6 0 5 3 4 0_0\n", "LRAT line 2"),
    (b"5 2 0 1_0 2 0\n6 0 5 3 4 0\n", "LRAT line 1"),
    (b"5 2 0 1 2 0\n1_0 d 1 0\n6 0 5 3 4 0\n", "LRAT line 2"),  # a deletion's own id
    (b"5 2 0 1 2 0\n+7 d 1 0\n6 0 5 3 4 0\n", "LRAT line 2"),
]


# --------------------------------------------------------------- numbers are -?[0-9]+


@pytest.mark.parametrize("cnf, line", LOOSE_CNF)
def test_a_cnf_number_in_int_syntax_is_refused_naming_its_line(cnf: bytes, line: str) -> None:
    with pytest.raises(ProofFormatError, match=line):
        drat.parse_cnf(cnf)
    with pytest.raises(ProofFormatError, match=line):
        drat.check(cnf, XOR2_DRAT)
    for compiled in (False, None):  # the reference, and the compiled checker where built
        with pytest.raises(ProofFormatError, match=line):
            lrat.check(cnf, XOR2_LRAT, compiled=compiled)


@pytest.mark.parametrize("proof, line", LOOSE_DRAT)
def test_a_drat_number_in_int_syntax_is_refused_naming_its_line(proof: bytes, line: str) -> None:
    with pytest.raises(ProofFormatError, match=line):
        drat.parse_proof(proof)
    with pytest.raises(ProofFormatError, match=line):
        drat.check(XOR2, proof)


@pytest.mark.parametrize("compiled", [False, None])
@pytest.mark.parametrize("proof, line", LOOSE_LRAT)
def test_an_lrat_number_in_int_syntax_is_refused_naming_its_line(
    proof: bytes, line: str, compiled: bool | None
) -> None:
    with pytest.raises(ProofFormatError, match=line):
        lrat.check(XOR2, proof, compiled=compiled)


def test_the_plain_forms_still_check() -> None:
    """What the strict reader keeps: white space around numbers (drat-trim's ``fscanf`` skips
    it too), ``-0`` and leading zeros are ``-?[0-9]+``."""
    assert drat.check(XOR2, XOR2_DRAT).valid
    assert drat.check(XOR2, b" 2  0\n\t0\n").valid
    assert drat.check(XOR2.replace(b"1 2 0", b"01 2 0"), b"2 -0\n0\n").valid
    for compiled in (False, None):
        assert lrat.check(XOR2, XOR2_LRAT, compiled=compiled).valid
        assert lrat.check(XOR2, b"5 2 0 1 2 0\n7 d 1 0\n 6 0 5 3 4 0\n", compiled=compiled).valid


def _write(folder: Path, name: str, data: bytes) -> str:
    (folder / name).write_bytes(data)
    return str(folder / name)


@pytest.mark.parametrize(
    "cnf, proof, lrat_proof",
    [
        (LOOSE_CNF[1][0], XOR2_DRAT, False),
        (XOR2, LOOSE_DRAT[1][0], False),
        (XOR2, LOOSE_DRAT[3][0], False),
        (XOR2, LOOSE_LRAT[0][0], True),
        (XOR2, LOOSE_LRAT[3][0], True),
    ],
)
def test_check_proof_refuses_int_syntax_in_one_line(
    tmp_path: Path, cnf: bytes, proof: bytes, lrat_proof: bool
) -> None:
    name = "p.lrat" if lrat_proof else "p.drat"
    args = ["check-proof", _write(tmp_path, "f.cnf", cnf), _write(tmp_path, name, proof)]
    done = runner.invoke(app, args)
    lines = done.stderr.splitlines()
    assert done.exit_code == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "line" in lines[0] and "valid" not in done.stdout


# ------------------------------------------------------------------------------- JSON


def test_json_nested_100000_deep_is_one_line() -> None:
    with pytest.raises(InputError, match="nested too deeply") as caught:
        parse_json(b"[" * 100_000 + b"]" * 100_000, where="x.json", what="record")
    assert len(str(caught.value).splitlines()) == 1


def test_json_nested_past_the_limit_is_refused_though_python_reads_it() -> None:
    """Nested deeper than :data:`MAX_JSON_DEPTH` (yet within Python's recursion limit): refused,
    before any recursive reader (jsonschema, a walk of the record) meets it."""
    deep = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    with pytest.raises(InputError, match="nested too deeply"):
        parse_json(deep, where="x.json", what="record")
    flat = json.dumps({"a": [[1] * 5] * 1000, "b": "[" * 500})  # brackets in a string
    assert parse_json(flat, where="x.json", what="record")["b"] == "[" * 500


def test_oversized_json_is_one_line() -> None:
    with pytest.raises(InputError, match="larger than 10 bytes"):
        parse_json(b"[1, 2, 3, 4, 5]", where="x.json", what="record", max_bytes=10)


def test_a_deeply_nested_session_record_is_refused_in_one_line(tmp_path: Path) -> None:
    """``certify --audit`` reads the session record a certificate names: nested 100,000 deep
    (its SHA-256 recorded to match), it is refused in one line, not a RecursionError."""
    from minttt.proof.audit import load_sessions

    data = b'{"format": "minttt-sessions/2", "sessions": ' + b"[" * 100_000 + b"]" * 100_000
    data += b"}"
    (tmp_path / "v.sessions.json").write_bytes(data)
    record = {
        "variant": "v",
        "sessions": "v.sessions.json",
        "sessions_sha256": hashlib.sha256(data).hexdigest(),
    }
    with pytest.raises(InputError, match="nested too deeply") as caught:
        load_sessions(tmp_path, record)
    assert len(str(caught.value).splitlines()) == 1


# ------------------------------------------------------------------- bounded reads


#: a child that limits its address space to what it holds now plus LIMIT_MB, then runs CODE
#: through the commands' guard (one line and exit 2 for an InputError)
UNDER_LIMIT = """
import resource, sys
from minttt.cli.common import guarded
from minttt.fileio import inflate, read_regular
from minttt.store import RunStore
size = int(next(l for l in open("/proc/self/status") if l.startswith("VmSize")).split()[1])
limit = (size << 10) + ({limit_mb} << 20)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
def run():
{code}
    print("read", flush=True)
guarded(run)()
"""


def _under_limit(code: str, limit_mb: int = 100) -> subprocess.CompletedProcess[str]:
    script = UNDER_LIMIT.format(limit_mb=limit_mb, code=textwrap.indent(code, "    "))
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )


needs_rlimit = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status: Linux"
)


@pytest.fixture(scope="module")
def xz_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """128 MiB of zeros in about 20 KB of xz (a run store's file, with its SHA-256): past the
    limit of :func:`_under_limit` whole, within it cut at the bomb's bound (64 MiB)."""
    folder = tmp_path_factory.mktemp("bomb")
    data = lzma.compress(bytes(128 << 20), preset=0)
    (folder / "cube.drat.xz").write_bytes(data)
    (folder / "sha256").write_text(hashlib.sha256(data).hexdigest())
    return folder


@needs_rlimit
def test_an_xz_bomb_under_an_address_space_limit_is_one_line(xz_bomb: Path) -> None:
    """A checkpoint's file that claims 4 GiB (its record says so) but is a bomb: refused in
    one line (exit 2), not a MemoryError traceback."""
    digest = (xz_bomb / "sha256").read_text()
    code = (
        f"store = RunStore({str(xz_bomb / 'state.json')!r}, None, what='checkpoint')\n"
        f"store.read_xz('cube.drat.xz', {digest!r}, 4 << 30, max_bytes=1 << 40)"
    )
    done = _under_limit(code)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "a bomb" in lines[0] and "Traceback" not in done.stderr


@needs_rlimit
def test_a_bound_is_not_allocated_up_front(tmp_path: Path) -> None:
    """A small file read with a bound of 1 TiB, under a limit of 100 MB more than the reader
    holds: read whole (the bound was never allocated)."""
    (tmp_path / "small.json").write_text('{"a": 1}')
    code = f"assert read_regular({str(tmp_path / 'small.json')!r}, max_bytes=1 << 40)"
    done = _under_limit(code)
    assert done.returncode == 0 and done.stdout == "read\n", done.stderr


def test_a_bounded_read_stops_past_its_bound(tmp_path: Path) -> None:
    (tmp_path / "big").write_bytes(bytes(3 << 20))
    with pytest.raises(InputError, match="larger than 2,097,152 bytes"):
        read_regular(tmp_path / "big", max_bytes=2 << 20)
    assert len(read_regular(tmp_path / "big", max_bytes=3 << 20)) == 3 << 20


# ----------------------------------------------------------------------- processes


#: a parent running two queue workers, each stuck in a part for a minute (their pids written)
KILLED_PARENT = """
import os, sys, time
from minttt.report.queue import Part, Step, run_steps
folder = sys.argv[1]
def work(step, arg, state):
    with open(os.path.join(folder, str(os.getpid())), "w"):
        pass
    time.sleep(60)
steps = [Step("slow", [Part(1, 1.0), Part(2, 1.0)], lambda results: None)]
run_steps(steps, work, snapshot=lambda: None, workers=2)
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie nobody reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: Linux")
def test_the_queue_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    parent = subprocess.Popen([sys.executable, "-c", KILLED_PARENT, str(tmp_path)])
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = [int(p.name) for p in tmp_path.iterdir()]
        assert len(workers) == 2 and all(map(_alive, workers))
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:  # the test's own clean-up: the processes it made
        os.kill(pid, signal.SIGKILL)
    assert not left


#: a run that stages its folders, writes into them and is killed (no clean-up runs)
KILLED_STAGING = """
import os, signal, sys
from pathlib import Path
from minttt.report.reproduce import _stage
staged = _stage(Path(sys.argv[1]), Path(sys.argv[2]), locks=[])
for tmp, _ in staged:
    (tmp / "part.txt").write_bytes(bytes(1 << 20))
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_stale_staging_folders_are_removed_by_the_next_run(tmp_path: Path) -> None:
    from minttt.report.reproduce import _stage

    out, encodings = tmp_path / "out", tmp_path / "encodings"
    killed = subprocess.run([sys.executable, "-c", KILLED_STAGING, str(out), str(encodings)])
    assert killed.returncode == -signal.SIGKILL
    left = [*out.glob(".*.staging"), *tmp_path.glob(".*.staging")]
    assert len(left) == 2  # what the killed run left, 1 MiB in each
    foreign = out / ".out.kept.staging"  # no lock file: whose it is cannot be told
    foreign.mkdir()
    locks: list[int] = []
    staged = _stage(out, encodings, locks=locks)  # a live run's, held
    try:
        assert not any(p.exists() for p in left) and foreign.is_dir()
        again: list[int] = []
        theirs = _stage(out, encodings, locks=again)  # another run beside it
        try:
            assert all(tmp.is_dir() for tmp, _ in staged)  # the live run's are kept
        finally:
            for fd in again:
                os.close(fd)
        assert {tmp for tmp, _ in theirs}.isdisjoint(tmp for tmp, _ in staged)
    finally:
        for fd in locks:
            os.close(fd)


# ---------------------------------------------------------------------------- audit


def test_an_audit_stops_at_its_time_limit_within_a_session() -> None:
    """A session's replay looks at the deadline between cubes (and the solver's slices): past
    it, the audit stops with one line and nothing claimed."""
    from minttt.formula.encode import encode
    from minttt.formula.variants import Variant
    from minttt.game.graph import build_graph
    from minttt.proof.audit import _Clock, _replay
    from minttt.proof.cnf import bound_clauses
    from minttt.proof.conquer import lookup_splits
    from minttt.proof.cubes import decision_cubes

    formula = encode(build_graph(), Variant.parse("second-lookup-entries"))
    _, clauses = bound_clauses(formula, 71)
    cubes = decision_cubes(lookup_splits(formula, 2))[:3]
    session = [[i, 0, "0" * 64] for i in range(3)]
    shown: list[tuple[str, int, int]] = []
    clock = _Clock(time.perf_counter() - 1, lambda *step: shown.append(step))
    clock.total = 3
    with pytest.raises(InputError, match="time limit after 0 of 3 cubes") as caught:
        _replay(0, session, cubes, [], clauses, None, lambda _: None, {}, clock)
    assert "nothing audited" in str(caught.value) and not shown
    counted = _Clock(None, lambda *step: shown.append(step))
    counted.total = 3
    _replay(0, session, cubes, [], clauses, None, lambda _: None, {}, counted)
    assert shown == [("replaying", 1, 3)]  # the first segment differs: the replay stops there


@pytest.fixture(scope="module")
def cube_certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """3x3 O's certificate by cube and conquer: its index names its session record."""
    out = tmp_path_factory.mktemp("cert")
    done = runner.invoke(
        app, ["certify", "second-lookup-entries", "--out", str(out), "--cubes", "2"]
    )
    assert done.exit_code == 0, done.output
    return out


@pytest.mark.slow  # a local cluster, then a replay
def test_certify_audit_shows_progress_and_honours_its_time_limit(cube_certificate: Path) -> None:
    from minttt.formula.variants import Variant
    from minttt.proof.audit import audit

    base = ["certify", "second-lookup-entries", "--out", str(cube_certificate), "--audit", "100"]
    stopped = runner.invoke(app, [*base, "--time-limit", "0.001"])
    lines = stopped.stderr.splitlines()
    assert stopped.exit_code == 2 and len(lines) == 1 and "time limit" in lines[0], stopped.stderr
    assert stopped.stdout == ""  # nothing claimed
    shown: list[tuple[str, int, int]] = []
    variant = Variant.parse("second-lookup-entries")
    done = audit(variant, cube_certificate, sessions=100, say=lambda _: None,
                 progress=lambda *step: shown.append(step))  # fmt: skip
    replayed = [step for step in shown if step[0] == "replaying"]
    total = sum(s.cubes for s in done.replayed)
    assert done.valid and replayed[-1] == ("replaying", total, total)
