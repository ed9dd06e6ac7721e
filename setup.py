"""The wheel carries the long runs' results that ``minttt reproduce`` reads (results/ is their one
home; :mod:`minttt.report.long_runs` names them): ``build_py`` copies them into
``minttt/report/long_run_results/``. It also builds the compiled LRAT checker
(``minttt/proof/lrat_kernel.c``) where a C compiler is at hand; without one the install goes on
and :mod:`minttt.proof.lrat` runs its reference alone (``optional``). Everything else is configured
in ``pyproject.toml``."""

from __future__ import annotations

import runpy
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
LONG_RUNS = runpy.run_path(str(HERE / "minttt" / "report" / "long_runs.py"))


class BuildWithLongRuns(build_py):
    """``build_py``, then the long runs' files from ``results/`` into the built package."""

    def run(self) -> None:
        super().run()
        results = HERE / "results"
        files = LONG_RUNS["long_run_files"](results)
        if not files and not self.editable_mode:
            raise SystemExit(f"setup.py: no long-run results under {results} to ship")
        target = Path(self.build_lib) / "minttt" / "report" / LONG_RUNS["SHIPPED"]
        for rel in files:
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(results / rel, target / rel)


LRAT_KERNEL = Extension(
    "minttt.proof.lrat_kernel",
    ["minttt/proof/lrat_kernel.c"],
    extra_compile_args=["-O2"] if sys.platform != "win32" else [],
    optional=True,
)

setup(cmdclass={"build_py": BuildWithLongRuns}, ext_modules=[LRAT_KERNEL])
