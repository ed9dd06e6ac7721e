"""``minttt fetch`` and :mod:`minttt.assets`: certificates downloaded by their SHA-256, from a
folder and from a server on 127.0.0.1, and every way a download can go wrong refused in one line
with nothing half-written in the cache."""

from __future__ import annotations

import http.server
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from minttt import assets
from minttt.errors import InputError
from minttt.report.long_runs import shipped_files

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
ENTRIES = assets.read_manifest(RESULTS)
#: the two smallest assets: quick to copy and to serve
SMALL = sorted(ENTRIES, key=lambda e: e["bytes"])[:2]


def _cache_files(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob("*") if p.is_file()) if cache.exists() else []


@pytest.fixture
def release(tmp_path: Path) -> Path:
    """A folder of assets named as a release names them."""
    folder = tmp_path / "release"
    folder.mkdir()
    for entry in SMALL:
        shutil.copyfile(RESULTS / entry["path"], folder / assets.asset_name(entry))
    return folder


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the release folder; ``/moved/NAME`` redirects to ``redirect_to``; ``/short/NAME``
    sends half the file under the whole file's Content-Length."""

    redirect_to = ""

    def log_message(self, *_args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/moved/"):
            self.send_response(302)
            self.send_header("Location", self.redirect_to + self.path.removeprefix("/moved/"))
            self.end_headers()
            return
        if self.path.startswith("/short/"):
            data = (Path(self.directory) / self.path.removeprefix("/short/")).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.close_connection = True
            return
        super().do_GET()


@pytest.fixture
def server(release: Path) -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("Handler", (_Handler,), {})

    def make(*args: object, **kwargs: object) -> _Handler:
        return handler(*args, directory=str(release), **kwargs)  # type: ignore[arg-type]

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_manifest_is_the_files_of_results_and_the_wheel_leaves_them_out() -> None:
    assert assets.build_manifest(RESULTS)["assets"] == ENTRIES, (
        "results/assets.json is stale: run python scripts/release_assets.py --manifest-only"
    )
    shipped = {p.as_posix() for p in shipped_files(RESULTS)}
    assert not shipped & {e["path"] for e in ENTRIES}
    assert "assets.json" in shipped
    # every file a long run's index names is either shipped or an asset (reproduce writes the
    # 3x3 certificates of proofs/ itself)
    listed = {e["path"] for e in ENTRIES}
    for files in assets._index_files(RESULTS).values():
        for rel in files:
            if rel.startswith(assets.ASSET_FOLDERS):
                assert rel in shipped or rel in listed, rel


def test_fetch_from_a_folder_checks_each_sha256(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("MINTTT_CACHE", str(cache))
    assert [assets.locate(e, tmp_path) for e in SMALL] == [None, None]
    got = assets.fetch(SMALL, str(release))
    assert [p.read_bytes() for p in got] == [(RESULTS / e["path"]).read_bytes() for e in SMALL]
    assert got == [cache / e["path"] for e in SMALL]
    assert [assets.locate(e, tmp_path) for e in SMALL] == got  # found in the cache
    # a checkout's results folder serves as a source too
    other = tmp_path / "other"
    assets.fetch(SMALL[:1], str(RESULTS), cache=other)
    assert _cache_files(other) == [other / SMALL[0]["path"]]


def test_a_wrong_hash_is_refused_and_nothing_is_kept(release: Path, tmp_path: Path) -> None:
    entry = SMALL[0]
    (release / assets.asset_name(entry)).write_bytes(b"not the certificate")
    cache = tmp_path / "cache"
    with pytest.raises(InputError, match="SHA256|hash") as caught:
        assets.fetch([entry], str(release), cache=cache)
    assert "\n" not in str(caught.value)
    assert _cache_files(cache) == []


def test_a_missing_asset_is_refused_in_one_line(release: Path, tmp_path: Path) -> None:
    (release / assets.asset_name(SMALL[1])).unlink()
    with pytest.raises(InputError, match="no such asset"):
        assets.fetch(SMALL, str(release), cache=tmp_path / "cache")
    assert _cache_files(tmp_path / "cache") == [tmp_path / "cache" / SMALL[0]["path"]]


def test_fetch_from_a_server(server: tuple[str, type[_Handler]], tmp_path: Path) -> None:
    url, _ = server
    cache = tmp_path / "cache"
    got = assets.fetch(SMALL, url + "/", cache=cache)
    assert [p.read_bytes() for p in got] == [(RESULTS / e["path"]).read_bytes() for e in SMALL]
    # fetched again: kept as it is (its SHA-256 matches), no download
    assert assets.fetch(SMALL, "http://127.0.0.1:9/", cache=cache) == got


def test_a_truncated_download_is_refused(
    server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    url, _ = server
    cache = tmp_path / "cache"
    with pytest.raises(InputError) as caught:
        assets.fetch(SMALL[:1], url + "/short", cache=cache)
    assert "\n" not in str(caught.value)
    assert _cache_files(cache) == []


def test_a_redirect_to_another_host_is_refused(
    server: tuple[str, type[_Handler]], tmp_path: Path
) -> None:
    url, handler = server
    cache = tmp_path / "cache"
    handler.redirect_to = url.replace("127.0.0.1", "localhost") + "/"
    with pytest.raises(InputError, match="redirected to another host"):
        assets.fetch(SMALL[:1], url + "/moved", cache=cache)
    assert _cache_files(cache) == []
    handler.redirect_to = url + "/"  # the same origin: followed
    assert assets.fetch(SMALL[:1], url + "/moved", cache=cache)[0].is_file()


def test_an_interrupted_download_leaves_nothing(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(_url: str, output_file: str, _pooch: object) -> None:
        Path(output_file).write_bytes(b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(assets, "_copy_from", lambda _folder: interrupted)
    cache = tmp_path / "cache"
    with pytest.raises(KeyboardInterrupt):
        assets.fetch(SMALL[:1], str(release), cache=cache)
    assert _cache_files(cache) == []


def test_select_names_a_record_or_a_file() -> None:
    lower = next(e for e in ENTRIES if e["path"].endswith(".relaxed.drat.xz"))
    name = lower["path"].rsplit("/", 1)[-1]
    assert assets.select(ENTRIES, [name], RESULTS) == [lower]
    variant = "first-0+5:1+10:1-lookup-entries@mnk:4,4,4"
    files = {e["path"].rsplit(".", 2)[-2] for e in assets.select(ENTRIES, [variant], RESULTS)}
    assert files == {"drat", "json"}  # its proof and its cores log
    with pytest.raises(InputError, match="no certificate of that name"):
        assets.select(ENTRIES, ["first-nothing"], RESULTS)


def _minttt(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "minttt", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def test_the_command_in_a_checkout_finds_everything_here(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "MINTTT_CACHE": str(tmp_path / "cache")}
    done = _minttt("fetch", "--all", env=env)
    assert done.returncode == 0, done.stderr
    assert f"{len(ENTRIES)} certificate(s): 0 fetched" in done.stdout
    assert not (tmp_path / "cache").exists()
    for args in (["fetch"], ["fetch", "first-nothing"], ["fetch", "x", "--all"]):
        bad = _minttt(*args, env=env)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1, (args, bad.stderr)
