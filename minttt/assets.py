"""Certificates as release assets: what ships beside the package, and how to fetch the rest.

The large compressed certificates of the long runs (``*.xz`` of 64 KiB or more under
``proofs/mnk/`` and ``catalogue/``: CNFs, DRAT proofs, cores logs) are too large for a wheel.
Their one home is the repository's ``results/``; a release publishes each as an asset named by
its SHA-256, and the package ships the manifest ``assets.json`` (each file's path, size and
SHA-256). :func:`fetch` downloads the
files with pooch, checks each against the manifest and keeps it in the user's cache folder
(``MINTTT_CACHE``, else the platform's cache folder, e.g. ``~/.cache/minttt``), where
:func:`locate` finds it again. ``MINTTT_ASSETS`` names another source (a mirror's URL or a
folder) for every fetch that names none.

A download is written to a temporary file in the cache folder and moved into place only when
its SHA-256 matches, so a wrong hash, a truncated download or an interrupt leaves nothing
half-written. A redirect is followed only to the same origin or to the release host's asset
storage (:data:`ASSET_HOSTS`); any other is refused.

>>> asset_name({"path": "proofs/mnk/a.drat.xz", "sha256": "ab" * 32, "bytes": 1})[-10:]
'ab.drat.xz'
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from minttt.errors import InputError
from minttt.fileio import write_json_atomic
from minttt.version import __version__

#: the manifest's file name, in the results folder (it ships with the package)
MANIFEST = "assets.json"
FORMAT = "minttt-assets/1"
#: the folders of the results whose compressed files are assets
ASSET_FOLDERS = ("proofs/mnk", "catalogue")
ASSET_SUFFIX = ".xz"
#: a compressed file smaller than this ships with the package (fetching it would cost more than
#: carrying it; it keeps a release under its host's count of assets)
ASSET_MIN_BYTES = 64 << 10
#: where a release's assets are published
DEFAULT_URL = f"https://github.com/minttt-dev/minttt/releases/download/v{__version__}/"
#: hosts a release download may be redirected to (the release host's asset storage)
ASSET_HOSTS = frozenset({"objects.githubusercontent.com", "release-assets.githubusercontent.com"})
#: the indexes whose records name asset files (relative to the results folder)
INDEXES = (
    "proofs/mnk/index.json",
    "proofs/mnk/lower-bounds.json",
    "catalogue/index.json",
    "catalogue/lower-bounds.json",
)
#: the record fields that name a file of the record's folder
FILE_FIELDS = ("cnf", "proof", "cores", "table")


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def asset_files(results: Path) -> list[str]:
    """The asset files present under ``results`` (paths relative to it, sorted): the compressed
    files of :data:`ASSET_FOLDERS` of :data:`ASSET_MIN_BYTES` or more."""
    found = []
    for folder in ASSET_FOLDERS:
        for path in sorted((results / folder).glob(f"*{ASSET_SUFFIX}")):
            if path.is_file() and path.stat().st_size >= ASSET_MIN_BYTES:
                found.append(path.relative_to(results).as_posix())
    return found


def build_manifest(results: Path) -> dict[str, Any]:
    """The manifest of the asset files under ``results``: path, size and SHA-256 of each (two
    files of the same bytes are one asset)."""
    entries = []
    for rel in asset_files(results):
        path = results / rel
        entries.append({"path": rel, "sha256": _sha256_file(path), "bytes": path.stat().st_size})
    return {
        "format": FORMAT,
        "about": "the compressed certificates of results/ that a release publishes as assets, "
        "each named by its SHA-256 (minttt fetch downloads and checks them)",
        "assets": entries,
    }


def write_manifest(results: Path) -> Path:
    """Write ``results/assets.json`` from the files there (a release chore)."""
    return write_json_atomic(results / MANIFEST, build_manifest(results))


def asset_name(entry: dict[str, Any]) -> str:
    """The release asset's file name: the SHA-256 and the file's own suffixes."""
    name = entry["path"].rsplit("/", 1)[-1]
    suffix = "".join(Path(name).suffixes[-2:])
    return f"{entry['sha256']}{suffix}"


def read_manifest(results: Path) -> list[dict[str, Any]]:
    """The manifest's entries, each checked for its fields (InputError, one line, if not)."""
    from minttt.schema import load_json

    path = results / MANIFEST
    data = load_json(path, None, what="asset manifest")
    entries = data.get("assets") if isinstance(data, dict) else None
    if not isinstance(entries, list) or data.get("format") != FORMAT:
        raise InputError(f"{path}: not a minttt asset manifest ({FORMAT})")
    for entry in entries:
        ok = isinstance(entry, dict) and isinstance(entry.get("path"), str)
        ok = ok and isinstance(entry.get("sha256"), str) and len(entry["sha256"]) == 64
        ok = ok and isinstance(entry.get("bytes"), int)
        if not ok or ".." in entry["path"].split("/") or entry["path"].startswith("/"):
            raise InputError(f"{path}: a bad asset entry: {str(entry)[:80]}")
    return entries


def default_source() -> str:
    """Where assets are fetched from when not told: ``MINTTT_ASSETS`` (a URL or a folder, e.g.
    a mirror), else this version's release (:data:`DEFAULT_URL`)."""
    return os.environ.get("MINTTT_ASSETS") or DEFAULT_URL


def cache_folder() -> Path:
    """Where fetched assets are kept: ``MINTTT_CACHE``, else the user's cache folder."""
    given = os.environ.get("MINTTT_CACHE")
    if given:
        return Path(given)
    import pooch

    return Path(pooch.os_cache("minttt"))


def locate(entry: dict[str, Any], *folders: Path) -> Path | None:
    """The file of a manifest ``entry`` in the first of ``folders`` (results folders) that holds
    it, else in the cache; None when it is nowhere here. Its size is compared, not its SHA-256
    (the readers check that)."""
    for folder in (*folders, cache_folder()):
        path = folder / entry["path"]
        if path.is_file() and path.stat().st_size == entry["bytes"]:
            return path
    return None


def select(entries: list[dict[str, Any]], names: Iterable[str], results: Path) -> list[dict]:
    """The entries that ``names`` ask for: a file's path or name, or a record's variant in one of
    the shipped indexes (all its files). InputError for a name that matches nothing."""
    by_path = {e["path"]: e for e in entries}
    by_name = {e["path"].rsplit("/", 1)[-1]: e for e in entries}
    records = _index_files(results)
    chosen: dict[str, dict[str, Any]] = {}
    for name in names:
        if name in by_path or name in by_name:
            hit = by_path.get(name) or by_name[name]
            chosen[hit["path"]] = hit
            continue
        files = [by_path[f] for f in records.get(name, ()) if f in by_path]
        if not files:
            raise InputError(f"{name}: no certificate of that name (see {MANIFEST} or the indexes)")
        chosen |= {e["path"]: e for e in files}
    return list(chosen.values())


def _index_records(results: Path) -> dict[str, list[dict[str, str]]]:
    """variant -> ``{field: path}`` of each of its records (``cnf``, ``proof``, ``cores``,
    ``table``, relative to ``results``), over the shipped indexes and ``proofs/index.json``."""
    from minttt.schema import load_json

    out: dict[str, list[dict[str, str]]] = {}
    for rel in ("proofs/index.json", *INDEXES):
        path = results / rel
        if not path.is_file():
            continue
        folder = rel.rsplit("/", 1)[0]
        data = load_json(path, None, what="certificate index")
        for record in data.get("certificates", []) if isinstance(data, dict) else []:
            if not isinstance(record, dict) or not isinstance(record.get("variant"), str):
                continue
            files = {
                f: f"{folder}/{record[f]}" for f in FILE_FIELDS if isinstance(record.get(f), str)
            }
            out.setdefault(record["variant"], []).append(files)
    return out


def _index_files(results: Path) -> dict[str, list[str]]:
    """variant -> every path its records name."""
    return {
        variant: [path for files in records for path in files.values()]
        for variant, records in _index_records(results).items()
    }


def certificate(name: str, results: Path, source: str | None = None) -> tuple[Path, Path]:
    """The CNF and DRAT proof of the certificate ``name`` (a variant of the indexes of
    ``results``): from ``results`` when there, else from the cache, else fetched from
    ``source`` (default: :func:`default_source`) and checked by SHA-256. InputError for an
    unknown name, a record that ships no CNF, or a failed fetch.

    >>> from minttt.report.long_runs import shipped_folders
    >>> cnf, proof = certificate("first-any-lookup-entries@mnk:3,4,3", shipped_folders()[-1])
    >>> cnf.name.endswith(".cnf.xz"), proof.name.endswith(".drat.xz")
    (True, True)
    """
    records = [r for r in _index_records(results).get(name, []) if "proof" in r]
    if not records:
        raise InputError(f"{name}: no certificate of that name in the indexes of {results}")
    files = records[0]
    if "cnf" not in files:
        raise InputError(
            f"{name}: its CNF does not ship (made again from the game): minttt recheck {name}"
        )
    where = source or default_source()
    return _here_or_fetched(files["cnf"], results, where), _here_or_fetched(
        files["proof"], results, where
    )


def _here_or_fetched(rel: str, results: Path, source: str) -> Path:
    """``results/rel`` when it is there, else its asset (cached or fetched now)."""
    if (results / rel).is_file():
        return results / rel
    entry = next((e for e in read_manifest(results) if e["path"] == rel), None)
    if entry is None:
        raise InputError(f"{results / rel}: no such file, and no asset of that name")
    return locate(entry) or fetch_one(entry, source, cache_folder())


def _same_origin_or_asset_host(base: str) -> Callable[..., None]:
    """A requests response hook that refuses a redirect to another origin (but the release
    host's asset storage)."""
    origin = urlsplit(base)

    def hook(response: Any, *_args: Any, **_kwargs: Any) -> None:
        if not response.is_redirect:
            return
        target = urlsplit(response.headers.get("location", ""))
        if not target.netloc:
            return  # relative: the same origin
        same = (target.scheme, target.netloc) == (origin.scheme, origin.netloc)
        if not same and not (target.scheme == "https" and target.hostname in ASSET_HOSTS):
            raise InputError(f"{response.url}: redirected to another host ({target.netloc})")

    return hook


def _copy_from(folder: Path) -> Callable[[str, str, Any], None]:
    """A pooch downloader that copies from a local folder (``--from DIR``)."""

    def copy(url: str, output_file: str, _pooch: Any) -> None:
        source = folder / url.rsplit("/", 1)[-1]
        if not source.is_file():
            raise InputError(f"{source}: no such asset in {folder}")
        shutil.copyfile(source, output_file)

    return copy


def fetch_one(entry: dict[str, Any], source: str, cache: Path) -> Path:
    """Download (or copy) one asset into ``cache`` and check its SHA-256; the path kept.

    ``source``: a base URL (``http://``, ``https://``) or a local folder. Either holds the
    assets by their :func:`asset_name`, or a results folder by their paths (a checkout's
    ``results/``). InputError for a wrong hash, a failed download or a refused redirect."""
    import pooch
    import requests

    target = cache / entry["path"]
    name = asset_name(entry)
    local = Path(source)
    if "://" not in source:
        if (local / entry["path"]).is_file():  # a results folder laid out as the repository
            local, name = (local / entry["path"]).parent, target.name
        url, downloader = f"file:///{name}", _copy_from(local)
    else:
        url = source.rstrip("/") + "/" + name
        hooks = {"response": [_same_origin_or_asset_host(source)]}
        downloader = pooch.HTTPDownloader(timeout=60, hooks=hooks)
    try:
        got = pooch.retrieve(
            url,
            known_hash=f"sha256:{entry['sha256']}",
            fname=target.name,
            path=target.parent,
            downloader=downloader,
        )
    except ValueError as exc:  # pooch: the SHA-256 does not match (the file is not kept)
        raise InputError(f"{entry['path']}: {source}: {_first_line(exc)}") from None
    except (requests.RequestException, OSError) as exc:
        raise InputError(
            f"{entry['path']}: cannot fetch from {source}: {_first_line(exc)}"
        ) from None
    return Path(got)


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] or type(exc).__name__


def fetch(
    entries: list[dict[str, Any]],
    source: str | None = None,
    *,
    cache: Path | None = None,
    on_file: Callable[[str, int, int], None] | None = None,
) -> list[Path]:
    """Fetch ``entries`` (manifest entries) from ``source`` into the cache; files already
    cached with their SHA-256 are kept as they are. Returns their paths in the cache."""
    import logging

    import pooch

    pooch.get_logger().setLevel(logging.WARNING)
    cache = cache_folder() if cache is None else cache
    source = source or default_source()
    got = []
    for i, entry in enumerate(entries):
        if on_file:
            on_file(entry["path"], i, len(entries))
        got.append(fetch_one(entry, source, cache))
    return got


def evidence(file: Path) -> Path | None:
    """Where to read ``file`` of a results folder: itself when it is there; when it is not and is
    an asset of its results folder (the manifest in one of its parent folders lists it), its
    fetched copy in the cache, or None when it has not been fetched (a reader then reads the
    record as written and says it did not check it, where it refuses any other missing file)."""
    if file.exists():
        return file
    for results in list(file.parents)[:3]:
        manifest = results / MANIFEST
        if manifest.is_file():
            rel = file.relative_to(results).as_posix()
            entry = _listed(results, manifest.stat().st_mtime_ns).get(rel)
            return file if entry is None else locate(entry)
    return file


def fetch_missing(name: str, results: Path, source: str | None = None) -> int:
    """Fetch the assets of the certificate ``name`` (see :func:`select`) that neither
    ``results`` nor the cache holds; the number fetched. A name that is no asset's fetches
    nothing."""
    if not (results / MANIFEST).is_file():
        return 0
    entries = read_manifest(results)
    try:
        chosen = select(entries, [name], results)
    except InputError:
        return 0
    wanted = [e for e in chosen if locate(e, results) is None]
    fetch(wanted, source)
    return len(wanted)


def unfetched(file: Path) -> bool:
    """Whether ``file`` is an asset this installation has not fetched (:func:`evidence`)."""
    return evidence(file) is None


@lru_cache(maxsize=8)
def _listed(results: Path, _mtime_ns: int) -> dict[str, dict[str, Any]]:
    """path -> entry of a manifest (read once while the file is unchanged)."""
    return {e["path"]: e for e in read_manifest(results)}


def missing(results: Path, *folders: Path) -> list[dict[str, Any]]:
    """The manifest's entries (of ``results``' manifest) found in none of ``folders`` nor in the
    cache: the certificates a run here could not check."""
    if not (results / MANIFEST).is_file():
        return []
    return [e for e in read_manifest(results) if locate(e, *folders) is None]


__all__ = [
    "ASSET_FOLDERS",
    "DEFAULT_URL",
    "MANIFEST",
    "asset_files",
    "asset_name",
    "build_manifest",
    "cache_folder",
    "default_source",
    "evidence",
    "certificate",
    "fetch",
    "fetch_missing",
    "fetch_one",
    "locate",
    "missing",
    "read_manifest",
    "select",
    "unfetched",
    "write_manifest",
]
