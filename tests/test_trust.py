"""Long runs you can trust, tried as a hostile user would: an external checker that lies, cube
checkpoints that are damaged, tampered or shared, ``--no-check`` over what a checkpoint holds, and
time limits that must hold. Each refusal is one line (exit 2), and a checkpoint's own damage is
never blamed on the solver."""

from __future__ import annotations

import json
import lzma
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from minttt.errors import DefectError, InputError
from minttt.proof.drat_trim import drat_trim_check

UNSAT = b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"
PROOF = b"2 0\n0\n"


def _fake_checker(tmp_path: Path, script: str) -> Path:
    path = tmp_path / "drat-trim"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_lying_drat_trim_cannot_pass_a_proof(tmp_path: Path) -> None:
    """A binary that says VERIFIED, rewrites the CNF it was handed into an easy one and writes
    an LRAT refutation of that: minttt's LRAT check reads minttt's own CNF and refuses it."""
    liar = _fake_checker(
        tmp_path,
        'printf "p cnf 1 2\\n1 0\\n-1 0\\n" > "$1"\n'  # the copy it was handed, rewritten
        'while [ "$1" != "-L" ]; do shift; done\n'
        'printf "3 0 1 2 0\\n" > "$2"\n'
        'echo "s VERIFIED"\n',
    )
    satisfiable = b"p cnf 2 1\n1 2 0\n"  # no proof of this can be valid
    with pytest.raises(DefectError, match="LRAT proof fails minttt's check"):
        drat_trim_check(liar, satisfiable, b"0\n", 60, lrat=True)


def test_a_drat_trim_that_writes_no_lrat_fails(tmp_path: Path) -> None:
    quiet = _fake_checker(tmp_path, 'echo "s VERIFIED"\n')
    with pytest.raises(DefectError, match="wrote no LRAT proof"):
        drat_trim_check(quiet, UNSAT, PROOF, 60, lrat=True)


def test_a_drat_trim_that_does_not_verify_fails(tmp_path: Path) -> None:
    no = _fake_checker(tmp_path, 'echo "s NOT VERIFIED"\n')
    with pytest.raises(DefectError, match="did not verify"):
        drat_trim_check(no, UNSAT, PROOF, 60)
    assert os.access(no, os.X_OK)


# ------------------------------------------------------------------- cube checkpoints, read back


@pytest.fixture
def folder_of_cubes(tmp_path: Path):
    """A cube checkpoint of the pigeonhole formula with its four cubes refuted by one session,
    written as a run writes it; ``(folder, clauses, splits)``."""
    from proof_helpers import PHP32

    from minttt.proof import drat
    from minttt.proof.conquer import Checkpoint, RefutedCube, _digest
    from minttt.proof.cubes import CubeSolver, decision_cubes

    clauses = drat.parse_cnf(PHP32)[1]
    splits = [[1, 2, 3]]
    folder = tmp_path / "ck"
    folder.mkdir()
    with (
        CubeSolver(clauses) as solver,
        Checkpoint(folder, _digest(clauses), splits, lambda _m: None) as ckpt,
    ):
        for i, cube in enumerate(decision_cubes(splits)):
            result = solver.refute(cube)
            text = ("\n".join(result.proof) + "\n").encode()
            refuted = RefutedCube(lzma.compress(text), len(text), 1, 0.1, 0.0, "ab", i)
            ckpt.record(i, refuted)
    return folder, clauses, splits


def _resume(folder: Path, clauses, splits) -> tuple[set[int], list[str]]:
    from minttt.proof.conquer import Checkpoint, _digest

    said: list[str] = []
    with Checkpoint(folder, _digest(clauses), splits, said.append) as ckpt:
        return ckpt.done(), said


def test_a_checkpoint_resumes_whole(folder_of_cubes) -> None:
    done, said = _resume(*folder_of_cubes)
    assert done == {0, 1, 2, 3} and not said


@pytest.mark.parametrize(
    "damage, why",
    [
        (lambda p: p.write_bytes(lzma.compress(b"1 0\n")), "not the file the cube checkpoint"),
        (lambda p: p.write_bytes(p.read_bytes()[:-8]), "not the file the cube checkpoint"),
        (lambda p: p.write_bytes(b""), "not the file the cube checkpoint"),
        (lambda p: p.unlink(), "cannot read"),
        (lambda p: (p.unlink(), p.symlink_to("/dev/zero")), "is a symlink"),
    ],
)
def test_a_damaged_cube_proof_is_solved_again_saying_why(folder_of_cubes, damage, why) -> None:
    """Cube 1's file swapped, truncated, emptied, gone, or a symlink to /dev/zero: cube 1 and
    its session's later cubes are open again (cube 0 is kept), and the run says why."""
    folder, clauses, splits = folder_of_cubes
    damage(folder / "cube-1.drat.xz")
    done, said = _resume(folder, clauses, splits)
    assert done == {0}
    assert len(said) == 1 and said[0].startswith("cube 1: its proof cube-1.drat.xz is solved again")
    assert why in said[0]


def _rewrite(folder: Path, change) -> None:
    state = json.loads((folder / "cubes.json").read_text())
    change(state)
    (folder / "cubes.json").write_text(json.dumps(state))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: s["cubes"].__setitem__("00", s["cubes"]["0"]), "00"),
        (lambda s: s["cubes"].__setitem__("٣", s["cubes"]["0"]), "٣"),
        (lambda s: s["cubes"].__setitem__("²", s["cubes"]["0"]), "²"),
        (lambda s: s["cubes"]["0"].__setitem__("seconds", "soon"), "'soon' is not of type"),
        (lambda s: s["cubes"]["0"].pop("session"), "'session' is a required property"),
        (lambda s: s["cubes"]["0"].__setitem__("sha256", "x" * 64), "does not match"),
        (lambda s: s.__setitem__("splits", [[[[[[1]]]]]]), "is not of type 'integer'"),
        (lambda s: s["cubes"].__setitem__("9", s["cubes"]["0"]), "cube 9 is not one of its 4"),
    ],
)
def test_a_malformed_cube_checkpoint_is_one_line_naming_the_file(
    folder_of_cubes, change, message: str
) -> None:
    folder, clauses, splits = folder_of_cubes
    _rewrite(folder, change)
    with pytest.raises(InputError, match=message) as err:
        _resume(folder, clauses, splits)
    assert "\n" not in str(err.value) and str(err.value).startswith(str(folder / "cubes.json"))


def test_a_deeply_nested_cube_checkpoint_is_one_line(folder_of_cubes) -> None:
    folder, clauses, splits = folder_of_cubes
    (folder / "cubes.json").write_text("[" * 100_000)
    with pytest.raises(InputError, match="nested too deeply"):
        _resume(folder, clauses, splits)


def test_a_cube_checkpoint_held_by_a_run_is_refused(folder_of_cubes) -> None:
    from minttt.proof.conquer import Checkpoint, _digest

    folder, clauses, splits = folder_of_cubes
    with (
        Checkpoint(folder, _digest(clauses), splits, lambda _m: None),
        pytest.raises(InputError, match="in use by another run"),
    ):
        _resume(folder, clauses, splits)


def test_a_session_with_a_place_missing_is_refused_when_joining(folder_of_cubes) -> None:
    """A session whose places are 0, 1, 3 (another run's cube took place 2 in its solver):
    its segment at place 3 may use lemmas no segment here holds. On reading, such a session
    is cut at the gap; among the cubes of one run, the join refuses it."""
    from minttt.proof.conquer import Checkpoint, CubeRecord, _digest

    folder, clauses, splits = folder_of_cubes
    with Checkpoint(folder, _digest(clauses), splits, lambda _m: None) as ckpt:
        record = ckpt.cubes[3]
        ckpt.cubes[3] = CubeRecord(**{**record.to_dict(), "sequence": 7})
        with pytest.raises(DefectError, match="has no cube at place 3"):
            ckpt.order()


def test_a_checkpoint_of_an_older_format_is_read_with_its_proofs_bounded(folder_of_cubes) -> None:
    """minttt-cubes/2 recorded no SHA-256: its proofs are read, within a bound, and checked by
    the joined proof's check."""
    folder, clauses, splits = folder_of_cubes

    def older(state: dict) -> None:
        state["format"] = "minttt-cubes/2"
        for record in state["cubes"].values():
            del record["sha256"], record["bytes"]

    _rewrite(folder, older)
    done, said = _resume(folder, clauses, splits)
    assert done == {0, 1, 2, 3} and not said


# ------------------------------------------------------- bounds: "proven" only from evidence

ROOT = Path(__file__).resolve().parent.parent


def _bounds_copy(tmp_path: Path, change) -> Path:
    """results/games and the m,n,k certificate index copied, bounds.json changed."""
    import shutil

    games = tmp_path / "results" / "games"
    shutil.copytree(ROOT / "results" / "games", games)
    proofs = tmp_path / "results" / "proofs" / "mnk"
    shutil.copytree(ROOT / "results" / "proofs" / "mnk", proofs)
    bounds = json.loads((games / "bounds.json").read_text())
    change(bounds)
    (games / "bounds.json").write_text(json.dumps(bounds))
    return games / "bounds.json"


X444 = "first-any-lookup-entries@mnk:4,4,4"
O343 = "second-lookup-entries@mnk:3,4,3"
#: X's upper bound on 4x4 k=4 as committed (a table; the searches lower it from run to run)
X444_UPPER = json.loads((ROOT / "results" / "games" / "bounds.json").read_text())["variants"][X444][
    "upper"
]


def _lower(name: str, lower: int, method: str, evidence: str = "x"):
    def change(bounds: dict) -> None:
        record = bounds["variants"][name]
        record["lower"], record["lower_by"] = lower, {"method": method, "evidence": evidence}
        record["optimal"] = lower >= record["upper"]

    return change


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda b: b["opening_decomposition"][1].__setitem__("lower", 5000),
            f"the decomposition's lower bound 5000 is above {X444_UPPER}",
        ),
        (_lower(X444, X444_UPPER, "certificate"), "no checked certificate"),
        (_lower(X444, 231, "openings"), "the decomposition says 230"),
        (_lower(X444, X444_UPPER + 72, "rc2"), "are not 0 <= lower <= upper"),
        (
            lambda b: b["variants"][O343].__setitem__("optimal", False),
            "optimal is False, its bounds 189 .. 189",
        ),
        (lambda b: b["variants"][O343].pop("lower_by"), "'lower_by' is a required property"),
    ],
)
def test_a_tampered_bounds_file_is_refused(tmp_path: Path, change, message: str) -> None:
    from minttt.report.bounds import load_bounds

    with pytest.raises(InputError, match=message):
        load_bounds(_bounds_copy(tmp_path, change))


def test_a_lower_bound_that_meets_the_table_is_not_called_proven_without_a_certificate(
    tmp_path: Path,
) -> None:
    """A lower bound set equal to the upper one, by RC2 (so the file says): the bounds meet,
    and the report says so, but "proven" needs a checked certificate."""
    from minttt.report.bounds import load_bounds, scale_markdown

    bounds = load_bounds(_bounds_copy(tmp_path, _lower(X444, X444_UPPER, "rc2")))
    row = next(line for line in scale_markdown(bounds) if "| 4x4 k=4 | first (X) |" in line)
    assert "| met, not certified |" in row and "| proven |" not in row
    certified = next(line for line in scale_markdown(bounds) if "| 3x4 k=3 | second (O) |" in line)
    assert "| 189 | certificate | 189 |" in certified and "| proven |" in certified


def test_an_unchecked_certificate_proves_nothing(tmp_path: Path) -> None:
    from minttt.report.bounds import load_bounds

    path = _bounds_copy(tmp_path, lambda b: None)
    index = tmp_path / "results" / "proofs" / "mnk" / "index.json"
    data = json.loads(index.read_text())
    for record in data["certificates"]:
        if record["variant"] == O343:
            record["checked_by"] = None
    index.write_text(json.dumps(data))
    with pytest.raises(InputError, match="no checked certificate"):
        load_bounds(path)


# ------------------------------------------------------ certificates anyone can re-check


@pytest.fixture(scope="module")
def cube_certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """3x3 O's certificate by cube and conquer on a local cluster: its index names its session
    record."""
    from typer.testing import CliRunner

    from minttt.cli import app

    out = tmp_path_factory.mktemp("cert")
    done = CliRunner().invoke(
        app, ["certify", "second-lookup-entries", "--out", str(out), "--cubes", "2"]
    )
    assert done.exit_code == 0, done.output
    return out


def _audit(out: Path, *args: str):
    from typer.testing import CliRunner

    from minttt.cli import app

    return CliRunner().invoke(
        app, ["certify", "second-lookup-entries", "--out", str(out), "--audit", *args]
    )


@pytest.mark.slow  # a local cluster, then replays
def test_a_cube_certificate_replays_session_by_session(cube_certificate: Path) -> None:
    record = json.loads((cube_certificate / "index.json").read_text())["certificates"][0]
    sessions = json.loads((cube_certificate / record["sessions"]).read_text())
    assert sessions["format"] == "minttt-sessions/2" and sessions["solver"].startswith("CaDiCaL")
    assert sum(len(s) for s in sessions["sessions"]) == record["cubes"]["count"]
    whole = _audit(cube_certificate, "100", "--json")
    assert whole.exit_code == 0, whole.output
    verdict = json.loads(whole.stdout)
    assert verdict["kind"] == "full replay" and verdict["valid"]
    assert verdict["checked_by"] == ["minttt.drat"]
    sample = json.loads(_audit(cube_certificate, "1", "--prefix", "1", "--json").stdout)
    assert sample["kind"] == "sample" and sample["replayed"][0]["cubes"] == 1


@pytest.mark.slow  # a local cluster, then a replay checked by drat-trim
def test_an_audit_given_drat_trim_checks_the_replay_with_it_and_minttt_lrat(
    cube_certificate: Path,
) -> None:
    import shutil

    binary = os.environ.get("MINTTT_DRAT_TRIM") or shutil.which("drat-trim")
    if not binary:
        pytest.skip("no drat-trim (set MINTTT_DRAT_TRIM or put it on PATH)")
    done = _audit(cube_certificate, "1", "--prefix", "2", "--drat-trim", binary, "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["checked_by"] == ["drat-trim, its LRAT by minttt.lrat"]


def _edited_sessions(
    cube_certificate: Path, out: Path, edit: Callable[[dict[str, Any]], None], *, rehash: bool
) -> None:
    """A copy of the certificate at ``out`` whose session record ``edit`` changed (and, with
    ``rehash``, whose index records the changed file's SHA-256)."""
    import hashlib
    import shutil

    shutil.copytree(cube_certificate, out)
    index = json.loads((out / "index.json").read_text())
    record = index["certificates"][0]
    path = out / record["sessions"]
    sessions = json.loads(path.read_text())
    edit(sessions)
    data = json.dumps(sessions).encode()
    path.write_bytes(data)
    if rehash:
        record["sessions_sha256"] = hashlib.sha256(data).hexdigest()
        (out / "index.json").write_text(json.dumps(index))


@pytest.mark.slow
def test_an_audit_finds_a_segment_that_is_not_the_recorded_one(
    cube_certificate: Path, tmp_path: Path
) -> None:
    def first_hash_changed(sessions: dict[str, Any]) -> None:
        sessions["sessions"][0][0][2] = "0" * 64

    _edited_sessions(cube_certificate, tmp_path / "a", first_hash_changed, rehash=False)
    tampered = _audit(tmp_path / "a", "100")
    assert tampered.exit_code == 2 and "is not the file the record names" in tampered.stderr
    _edited_sessions(cube_certificate, tmp_path / "b", first_hash_changed, rehash=True)
    lying = _audit(tmp_path / "b", "100")  # the record made to match
    assert lying.exit_code == 1 and "replays to another proof" in lying.stderr


@pytest.mark.slow
def test_an_audit_refuses_a_record_made_with_other_solver_options(
    cube_certificate: Path, tmp_path: Path
) -> None:
    """Segments replay to the recorded ones only under the same solver settings: a record made
    with others is refused in one line (exit 2), not reported as a proof that differs."""

    from minttt.proof.cubes import SOLVER_OPTIONS

    def other_options(sessions: dict[str, Any]) -> None:
        assert sessions["solver_options"] == dict(SOLVER_OPTIONS)  # nothing set aside
        assert "deletions of the solver's own earlier lemmas" in sessions["segments"]
        sessions["solver_options"] = {"elim": 1}

    _edited_sessions(cube_certificate, tmp_path / "cert", other_options, rehash=True)
    other = _audit(tmp_path / "cert", "100")
    assert other.exit_code == 2 and "solver options {'elim': 1}" in other.stderr


def test_a_session_replays_under_the_rule_it_was_made_with() -> None:
    """A record made with CaDiCaL's defaults (segments without deletions, as before /4) replays
    to its own segments under those options, and not under the cube solver's of today."""
    import hashlib

    from minttt.formula.encode import encode
    from minttt.formula.variants import Variant
    from minttt.game.graph import build_graph
    from minttt.proof.audit import _replay
    from minttt.proof.cnf import bound_clauses
    from minttt.proof.conquer import lookup_splits
    from minttt.proof.cubes import SOLVER_OPTIONS, CubeSolver, decision_cubes

    graph = build_graph()
    formula = encode(graph, Variant.parse("second-lookup-entries"))
    _, clauses = bound_clauses(formula, 71)
    cubes = decision_cubes(lookup_splits(formula, 2))[:3]
    with CubeSolver(clauses, options={}) as solver:
        made = [solver.refute(cube).proof for cube in cubes]
    session = [
        [i, 0, hashlib.sha256(("\n".join(p) + "\n").encode()).hexdigest()]
        for i, p in enumerate(made)
    ]
    args = (session, cubes, [], clauses, None, lambda _: None)
    same, _, _ = _replay(0, *args, {})
    assert same.matched == 3
    today, _, _ = _replay(0, *args, dict(SOLVER_OPTIONS))
    assert today.matched == 0  # another search from the first cube on


def test_a_certificate_without_sessions_cannot_be_audited(tmp_path: Path) -> None:
    done = _audit(Path(__file__).resolve().parent.parent / "results" / "proofs", "1")
    assert done.exit_code == 2 and "no session record" in done.stderr


# ------------------------------------------------------------------------- time limits


def test_a_long_phase_is_never_silent(monkeypatch) -> None:
    import time

    import minttt.bounds.runs as runs

    monkeypatch.setattr(runs, "HEARTBEAT", 0.05)
    monkeypatch.setattr(runs, "QUIET", 0.05)
    said: list[str] = []
    with runs.heartbeat(said.append, "building"):
        time.sleep(0.4)
    assert said[0] == "  building ..." and len(said) >= 3
    assert all(line.startswith("  building ... ") for line in said[1:])


def test_a_quick_phase_says_nothing(monkeypatch) -> None:
    import minttt.bounds.runs as runs

    monkeypatch.setattr(runs, "QUIET", 5.0)
    said: list[str] = []
    with runs.heartbeat(said.append, "checking"):
        pass
    assert said == []


def test_a_verification_out_of_time_is_not_a_verdict() -> None:
    from minttt.table.verify_timed import verify_within
    from minttt.web.sample import sample_table

    table = sample_table()
    assert verify_within(table, 0) is None
    assert verify_within(table, 120) == (True, "None")
    assert verify_within(table, None) == (True, "None")


def test_rc2_out_of_time_while_loading_is_no_answer_and_no_bound() -> None:
    from minttt.formula.arrays import encode_arrays
    from minttt.formula.variants import Variant
    from minttt.game.arrays import build_array_graph
    from minttt.solvers.arrays import rc2_arrays

    variant = Variant.parse("second-lookup-entries@mnk:3,4,3")
    outcome = rc2_arrays(encode_arrays(build_array_graph(variant.rules), variant), timeout=0)
    assert outcome.model is None and outcome.timed_out and outcome.lower == 0
    assert outcome.calls == 0


def test_a_run_whose_time_is_gone_stops_without_a_table(tmp_path: Path, monkeypatch) -> None:
    """The clock starts after the checked checkpoint: with no time left after the graph and
    formula, the run keeps nothing it could not verify and says it stopped."""
    import minttt.bounds.runs as runs
    from minttt.bounds.runs import long_solve
    from minttt.formula.variants import Variant

    monkeypatch.setattr(runs, "QUIET", 0.0)  # every phase announced, however quick

    said: list[str] = []
    variant = Variant.parse("second-lookup-entries@mnk:3,4,3")
    state = long_solve(variant, tmp_path / "c.json", time_limit=1e-6, say=said.append)
    assert state.upper is None and state.history[-1][3] == "time limit"
    assert any("the game graph and the formula ..." in line for line in said)


def test_a_search_with_no_time_runs_no_round(tmp_path: Path, monkeypatch) -> None:
    import minttt.bounds.search as search
    from minttt.formula.variants import Variant
    from minttt.game.arrays import build_array_graph

    class NoCluster:
        def __init__(self, *args: object) -> None:
            pass

        def __enter__(self) -> object:
            class Client:
                def nthreads(self) -> dict[str, int]:
                    return {"w": 1}

            return Client()

        def __exit__(self, *exc: object) -> None:
            pass

    monkeypatch.setattr(search, "DaskCluster", NoCluster)
    monkeypatch.setattr(search, "scatter", lambda client, data: data)
    variant = Variant.parse("second-lookup-entries")
    graph = build_array_graph(variant.rules)
    assert search.search_portfolio(variant, None, graph=graph, seconds=0, rounds=1000) == []
