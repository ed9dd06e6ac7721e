"""The run store every long run keeps its state in: one run at a time (a lock that a dead run
releases), files checked against the SHA-256 recorded when they were written, bounded reads and
decompression, one line (InputError) for everything it refuses."""

from __future__ import annotations

import gzip
import json
import lzma
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minttt.errors import InputError
from minttt.fileio import inflate, read_regular
from minttt.schema import load_json
from minttt.store import RunStore, sha256


def store(tmp_path: Path) -> RunStore:
    return RunStore(tmp_path / "run.json", None, what="test run")


def test_a_second_holder_is_refused_naming_the_first(tmp_path: Path) -> None:
    with store(tmp_path) as first:
        first.save({"a": 1})
        with pytest.raises(InputError, match=rf"in use by another run \(pid {os.getpid()}\)"):
            store(tmp_path).acquire()
    with store(tmp_path) as again:  # released: the next run takes it
        assert again.load() == {"a": 1}
    assert not (tmp_path / "run.json.lock").exists()


def test_a_run_that_died_holding_the_lock_releases_it(tmp_path: Path) -> None:
    """The lock is the kernel's: a killed process leaves its lock file, not its lock."""
    code = (
        "import os, sys; from minttt.store import RunStore; "
        f"s = RunStore({str(tmp_path / 'run.json')!r}, None, what='x'); s.acquire(); os._exit(9)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 9
    assert (tmp_path / "run.json.lock").exists()
    with store(tmp_path):
        pass


def test_writes_need_the_lock(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="without holding its lock"):
        store(tmp_path).save({})


def test_files_come_back_only_as_written(tmp_path: Path) -> None:
    with store(tmp_path) as s:
        digest = s.put("part.xz", lzma.compress(b"1 -2 0\n"))
        assert s.read_xz("part.xz", digest, 7) == b"1 -2 0\n"
        with pytest.raises(InputError, match="bytes, the test run says 9"):
            s.read_xz("part.xz", digest, 9)
        (tmp_path / "part.xz").write_bytes(lzma.compress(b"1 2 0\n"))
        with pytest.raises(InputError, match="not the file the test run recorded"):
            s.read("part.xz", digest)
        (tmp_path / "part.xz").unlink()
        (tmp_path / "part.xz").symlink_to("/dev/zero")
        with pytest.raises(InputError, match="is a symlink"):
            s.read("part.xz", digest)
        for bad in ("", "..", "a/b", "/etc/passwd"):
            with pytest.raises(InputError, match="is not a file name"):
                s.path(bad)


def test_a_small_file_cannot_inflate_past_its_bound() -> None:
    bomb = lzma.compress(b"0" * 10_000_000)
    assert len(bomb) < 2000
    with pytest.raises(InputError, match="inflates past 1,000 bytes"):
        inflate(bomb, 1000, where="bomb")
    with pytest.raises(InputError, match="truncated"):
        inflate(lzma.compress(b"abc")[:-5], 100, where="cut")
    with pytest.raises(InputError, match="not a readable compressed file"):
        inflate(b"not xz at all", 100, where="junk")
    assert inflate(gzip.compress(b"abc"), 3, where="gz") == b"abc"


def test_reads_are_of_bounded_regular_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a regular file"):
        read_regular("/dev/zero")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(InputError, match="larger than 100 bytes"):
        read_regular(big, max_bytes=100)
    with pytest.raises(InputError, match="cannot read"):
        read_regular(tmp_path / "missing")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opened to read, a FIFO waits for a writer: refused without waiting
    with pytest.raises(InputError, match="not a regular file"):
        read_regular(fifo)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 50_000, r"not a readable thing \(nested too deeply\)"),
        ('{"a": ', r"not a readable thing \(Expecting value"),
        ('{"format": 1}', r"not a valid thing \(\(document\): 'variant' is a required property\)"),
    ],
)
def test_load_json_says_what_is_wrong_in_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "doc.json"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as err:
        load_json(path, "scale-checkpoint.schema.json", what="thing")
    assert "\n" not in str(err.value) and str(err.value).startswith(f"{path}: ")
    assert json.loads('{"ok": 1}') == load_json(_write(tmp_path, '{"ok": 1}'), None, what="x")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ok.json"
    path.write_text(text)
    return path


def test_sha256_is_the_files_digest() -> None:
    assert sha256(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
