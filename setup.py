"""The wheel carries the long runs' small results that ``minttt reproduce`` reads (results/ is
their one home; :mod:`minttt.report.long_runs` names them): ``build_py`` copies them into
``minttt/report/long_run_results/``. The large compressed certificates stay out: they are
release assets that ``minttt fetch`` downloads and checks by the SHA-256 of ``results/assets.json``,
which ships. It also builds the compiled LRAT checker
(``minttt/proof/lrat_kernel.c``) where a C compiler is at hand; without one the install goes on
and :mod:`minttt.proof.lrat` runs its reference alone (``optional``). Everything else is configured
in ``pyproject.toml``."""

from __future__ import annotations

import os
import runpy
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
LONG_RUNS = runpy.run_path(str(HERE / "minttt" / "report" / "long_runs.py"))


class BuildWithLongRuns(build_py):
    """``build_py``, then the long runs' small files from ``results/`` into the built package."""

    def run(self) -> None:
        super().run()
        results = HERE / "results"
        files = LONG_RUNS["shipped_files"](results)
        if not files and not self.editable_mode:
            raise SystemExit(f"setup.py: no long-run results under {results} to ship")
        target = Path(self.build_lib) / "minttt" / "report" / LONG_RUNS["SHIPPED"]
        for rel in files:
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(results / rel, target / rel)


class SdistWithoutAssets(sdist):
    """``sdist``, less the certificates that are release assets (``results/assets.json``)."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        fetched = {f"results/{p.as_posix()}" for p in LONG_RUNS["fetched_files"](HERE / "results")}
        super().make_release_tree(base_dir, [f for f in files if f not in fetched])


#: the compiled DRAT and LRAT checkers, one module on the stable ABI (CPython 3.11 on)
KERNELS = Extension(
    "minttt.proof.kernels",
    ["minttt/proof/kernels.c", "minttt/proof/drat_kernel.c", "minttt/proof/lrat_kernel.c"],
    define_macros=[("Py_LIMITED_API", "0x030B0000")],
    py_limited_api=True,
    extra_compile_args=["-O2"] if sys.platform != "win32" else [],
    optional=True,
)

#: ``MINTTT_PURE=1``: the pure-Python wheel (``py3-none-any``), which runs the checkers' reference
PURE = os.environ.get("MINTTT_PURE") == "1"

setup(
    cmdclass={"build_py": BuildWithLongRuns, "sdist": SdistWithoutAssets},
    ext_modules=[] if PURE else [KERNELS],
    # one wheel for every CPython from 3.11 (the stable ABI): cp311-abi3
    options={} if PURE else {"bdist_wheel": {"py_limited_api": "cp311"}},
)
