"""A hostile user, class by class: nothing read back is trusted, no agent decides a verdict by
exiting, no output replaces a special file, no reader sizes memory by an attacker's number, and no
number that is not a number gets in. Each case is one that once broke a command.

Commands run as real processes here (``python -m minttt``): an agent's ``sys.exit`` or an output
to a FIFO must be seen as a user sees them.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minttt.errors import InputError
from minttt.proof import drat, lrat
from minttt.proof.drat import ProofFormatError

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "results" / "tables" / "first-center-lookup-entries.json"
AGENTS = '''
import os, sys, time
def exits0(board): sys.exit(0)
def exits1(board): sys.exit(1)
def hard_exit(board): os._exit(3)
def hangs(board): time.sleep(60)
def raises(board): raise ValueError("boom")
def noisy(board):
    print("noise on stdout")
    return board.index(".")
def junk(board): return "seven"
class Chooser:
    """A minttt player: an object with choices()."""
    name = "chooser"
    def choices(self, board): return tuple(board.legal_moves())[:1]
class BrokenChooser:
    name = "broken"
    def choices(self, board): raise RuntimeError("inside choices")
class ExitingChooser:
    name = "exiting"
    def choices(self, board): sys.exit(0)
'''


def minttt(
    *args: str, cwd: Path | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "minttt", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=stdin,
        timeout=300,
        check=False,
    )


def one_line_error(done: subprocess.CompletedProcess) -> bool:
    lines = done.stderr.strip().splitlines()
    return done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def agents(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("agents")
    (folder / "hostile.py").write_text(AGENTS)
    (folder / "exits_at_import.py").write_text("import sys\nsys.exit(0)\ndef f(b): return 0\n")
    return folder


# ------------------------------------------------------------------ agents decide nothing


@pytest.mark.parametrize(
    ("agent", "said"),
    [
        ("hostile.py:exits0", "exited with code 0"),
        ("hostile.py:exits1", "exited with code 1"),
        ("hostile.py:hard_exit", "exited with code 3"),
        ("hostile.py:raises", "raised ValueError: boom"),
        ("hostile.py:junk", "not a cell"),
        ("hostile.py:BrokenChooser", "raised RuntimeError: inside choices"),
        ("hostile.py:ExitingChooser", "exited with code 0"),
        ("exits_at_import.py:f", "exited with code 0 while loading"),
    ],
)
def test_an_agent_that_exits_crashes_or_raises_is_a_counterexample(
    agents: Path, agent: str, said: str
) -> None:
    done = minttt("verify", "--player", agent, cwd=agents)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "FAILED" in done.stdout and said in done.stdout and "Traceback" not in done.stderr


def test_a_hanging_agent_is_stopped_at_the_move_timeout(agents: Path) -> None:
    done = minttt("verify", "--player", "hostile.py:hangs", "--move-timeout", "1", cwd=agents)
    assert done.returncode == 1 and "did not answer within 1 s" in done.stdout


@pytest.mark.parametrize("command", [["odds"], ["tournament", "-n", "5", "--json"]])
def test_an_agent_that_exits_is_one_line_elsewhere(agents: Path, command: list[str]) -> None:
    if command[0] == "odds":
        done = minttt("odds", "--player", "hostile.py:exits0", cwd=agents)
    else:
        done = minttt("tournament", "hostile.py:exits0", "random", *command[1:], cwd=agents)
    assert one_line_error(done) and "exited with code 0" in done.stderr


def test_an_agent_that_prints_cannot_corrupt_json(agents: Path) -> None:
    done = minttt("tournament", "hostile.py:noisy", "random", "-n", "20", "--json", cwd=agents)
    assert done.returncode == 0 and json.loads(done.stdout)["matches"]
    assert "noise on stdout" in done.stderr


@pytest.mark.parametrize("command", ["odds", "play"])
def test_an_object_with_choices_plays_in_every_command(agents: Path, command: str) -> None:
    if command == "odds":
        done = minttt("odds", "--player", "hostile.py:Chooser", cwd=agents)
        assert done.returncode == 0 and "as X vs random" in done.stdout
    else:  # the agent plays X, the person O
        done = minttt(
            "play", "--player", "hostile.py:Chooser", "--as", "O", cwd=agents, stdin="5\n9\n3\n7\n"
        )
        assert done.returncode == 0 and "Traceback" not in done.stderr


def test_a_missing_agent_is_bad_input(agents: Path) -> None:
    for spec in ("hostile.py:nothere", "no_such_module:f"):
        assert one_line_error(minttt("verify", "--player", spec, cwd=agents))


# ------------------------------------------------------------------ claims read back


@pytest.mark.slow  # two evolve runs
def test_an_evolve_checkpoint_that_claims_perfection_is_refused(tmp_path: Path) -> None:
    args = ("evolve", "--seed", "5", "--population", "50", "--generations", "30")
    base = tmp_path / "base.json"
    minttt(*args, "--restarts", "0", "--checkpoint", str(base))
    doc = json.loads(base.read_text())
    for lie in ({"perfect_generation": 5, "best_fitness": 1.0}, {"best_fitness": 1.0}):
        path = tmp_path / "lie.json"
        path.write_text(json.dumps({**doc, **lie}))
        out = tmp_path / "o.json"
        done = minttt(*args, "--restarts", "0", "--checkpoint", str(path), "--out", str(out))
        assert one_line_error(done) and "its best scores" in done.stderr
        assert not out.exists()


@pytest.fixture(scope="module")
def scale_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scale")
    done = minttt(
        "scale", "mnk:3,4,3", "--role", "first", "--time-limit", "30",
        "--checkpoint", str(folder / "c.json"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return folder / "c.json"


@pytest.mark.slow  # a scale run, then refused resumes
@pytest.mark.parametrize(
    ("change", "table_entries", "said"),
    [
        ({"upper": 17, "lower": 0, "optimal": False}, 17, "not the file the scale checkpoint"),
        (
            {"upper": 17, "lower": 0, "optimal": False, "table_sha256": None},
            17,
            "fails minttt verify",
        ),
        ({"upper": 17, "lower": 17, "table_sha256": None}, 17, "fails minttt verify"),
        ({"lower": 99}, None, "above the upper bound"),
        ({"optimal": True, "lower": 3}, None, "claims optimal"),
        (
            {"upper": 3, "lower": 0, "optimal": False, "table_sha256": None},
            None,
            "not the 3 recorded",
        ),
    ],
)
def test_a_scale_checkpoint_that_lies_is_refused(
    scale_checkpoint: Path, tmp_path: Path, change: dict, table_entries: int | None, said: str
) -> None:
    """A table that is not the one written is refused by its SHA-256; a checkpoint of an older
    run (no SHA-256) by what the table is: verified, of the recorded size."""
    state = json.loads(scale_checkpoint.read_text())
    if change.get("table_sha256", "") is None:
        change = {k: v for k, v in change.items() if k != "table_sha256"}
        del state["table_sha256"]
    table = json.loads(scale_checkpoint.with_name("c.table.json").read_text())
    if table_entries is not None:
        table["entries"], table["size"] = table["entries"][:table_entries], table_entries
    (tmp_path / "c.table.json").write_text(json.dumps(table))
    (tmp_path / "c.json").write_text(json.dumps({**state, **change}))
    done = minttt(
        "scale", "mnk:3,4,3", "--role", "first", "--time-limit", "5",
        "--checkpoint", str(tmp_path / "c.json"),
    )  # fmt: skip
    assert one_line_error(done) and said in done.stderr, done.stderr


@pytest.mark.slow  # RC2 proves the 3x4 X minimum again
def test_proven_is_said_only_when_this_run_proves_it(
    scale_checkpoint: Path, tmp_path: Path
) -> None:
    """A resumed, proven checkpoint is proven again before 'proven' is printed."""
    for path in scale_checkpoint.parent.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    state = json.loads((tmp_path / "c.json").read_text())
    assert state["optimal"] and state["lower"] == state["upper"] == 46
    done = minttt(
        "scale", "mnk:3,4,3", "--role", "first", "--time-limit", "60",
        "--checkpoint", str(tmp_path / "c.json"), "--json",
    )  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout)["optimal"] is True
    assert "re-proving" in done.stderr


def test_web_builds_no_page_for_a_table_verify_rejects(tmp_path: Path) -> None:
    doc = json.loads(TABLE.read_text())
    doc["role"] = "both"  # X entries only, labelled as playing both sides
    (tmp_path / "t.json").write_text(json.dumps(doc))
    done = minttt("web", str(tmp_path / "t.json"), "--out", str(tmp_path / "site"))
    assert one_line_error(done) and "fails minttt verify" in done.stderr
    assert not (tmp_path / "site").exists()


# ------------------------------------------------------------------ outputs


def test_outputs_write_through_symlinks_fifos_and_devices(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "target.json")  # dangling: the target is written, the link stays
    assert minttt("export", str(TABLE), "--format", "json", "--out", str(link)).returncode == 0
    assert link.is_symlink() and json.loads((tmp_path / "target.json").read_text())["size"] == 22
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    done = minttt("export", str(TABLE), "--format", "json", "--out", str(fifo))
    reader.join(timeout=60)
    assert done.returncode == 0 and json.loads(got[0])["size"] == 22
    assert fifo.is_fifo()
    assert minttt("export", str(TABLE), "--format", "json", "--out", "/dev/null").returncode == 0
    assert Path("/dev/null").is_char_device()


@pytest.mark.parametrize(
    "args",
    [
        ["web", str(TABLE), "--out", ""],
        ["reproduce", "--out", "", "--step", "counts"],
        ["certify", "first-center-lookup-entries", "--out", ""],
        ["export", str(TABLE), "--out", ""],
        ["encode", "first-center-lookup-entries", "--out", ""],
    ],
)
def test_an_empty_path_is_a_usage_error(args: list[str], tmp_path: Path) -> None:
    done = minttt(*args, cwd=tmp_path)
    assert one_line_error(done) and list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ bounded readers


@pytest.fixture
def small_cnf(tmp_path: Path) -> Path:
    path = tmp_path / "f.cnf"
    path.write_bytes(b"p cnf 2 2\n1 0\n-1 0\n")
    return path


def test_a_huge_variable_in_a_lemma_does_not_size_memory(small_cnf: Path) -> None:
    result = drat.check(small_cnf.read_bytes(), b"2147483647 0\n0\n", lrat=True)
    assert result.valid and result.lrat is not None


@pytest.mark.parametrize(
    ("cnf", "proof", "said"),
    [
        (b"p cnf 2147483648 2\n1 0\n-1 0\n", b"0\n", "more than DIMACS allows"),
        (b"p cnf 2 2\n1 0\n-1 0\n", b"2147483648 0\n0\n", "beyond the largest variable"),
        (b"p cnf 2 2\n1 0\n-1 0\n", b"a" + b"\x80" * 200_000 + b"\x01\x00", "past 32 bits"),
        (b"p cnf 2 2\n1 0\n-1 0\n", b"a\x80\x80\x80\x80\x80\x01\x00", "past 32 bits"),
    ],
)
def test_absurd_numbers_in_a_proof_are_refused(cnf: bytes, proof: bytes, said: str) -> None:
    with pytest.raises(ProofFormatError, match=said):
        drat.check(cnf, proof)


def test_a_compressed_bomb_is_refused_with_bounded_memory(small_cnf: Path, tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.drat.gz"
    bomb.write_bytes(gzip.compress(b"0\n" * (96 << 20), 9))  # 0.2 MB inflating to 192 MB
    done = minttt("check-proof", str(small_cnf), str(bomb))
    assert one_line_error(done) and "refused as a bomb" in done.stderr


@pytest.mark.parametrize("which", ["cnf", "proof", "lrat"])
def test_dev_zero_is_refused_at_once(small_cnf: Path, which: str) -> None:
    if which == "cnf":
        done = minttt("check-proof", "/dev/zero", str(small_cnf))
    else:
        lrat_flag = ["--lrat"] if which == "lrat" else []
        done = minttt("check-proof", str(small_cnf), "/dev/zero", *lrat_flag)
    assert one_line_error(done)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cnf=st.binary(max_size=200), proof=st.binary(max_size=200))
def test_any_bytes_are_a_verdict_or_a_format_error(cnf: bytes, proof: bytes) -> None:
    """The DRAT and LRAT checkers on any bytes: a verdict, or ProofFormatError (exit 2), never
    another exception."""
    for check in (drat.check, lrat.check):
        try:
            result = check(cnf, proof)
        except InputError:
            continue
        assert isinstance(result.valid, bool)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(lemma=st.lists(st.integers(min_value=-(2**40), max_value=2**40), min_size=1, max_size=4))
def test_any_integers_in_a_text_lemma_are_a_verdict_or_refused(lemma: list[int]) -> None:
    proof = (" ".join(map(str, [x for x in lemma if x])) + " 0\n0\n").encode()
    try:
        result = drat.check(b"p cnf 2 2\n1 0\n-1 0\n", proof)
    except ProofFormatError as exc:
        assert "beyond the largest variable" in str(exc)
        return
    assert result.valid  # the formula is refuted by its units whatever the lemma


# ------------------------------------------------------------------ numbers are numbers


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e308"])
@pytest.mark.parametrize(
    "args",
    [
        ["encode", "first-center-lookup-entries", "--timeout"],
        ["evolve", "--max-seconds"],
        ["scale", "mnk:3,4,3", "--checkpoint", "c.json", "--time-limit"],
        ["scale", "mnk:3,4,3", "--checkpoint", "c.json", "--hint"],
        ["solve", "--role", "first", "--timeout"],
        ["verify", "--player", "random", "--move-timeout"],
        ["nine", "match", "--movetime"],
    ],
)
def test_non_finite_and_absurd_numbers_are_usage_errors(
    args: list[str], value: str, tmp_path: Path
) -> None:
    done = minttt(*args, value, cwd=tmp_path)
    assert one_line_error(done), (args, value, done.stderr)
    assert list(tmp_path.iterdir()) == []
