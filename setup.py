"""The wheel carries the long runs' results that ``minttt reproduce`` reads (results/ is their one
home; :mod:`minttt.report.long_runs` names them): ``build_py`` copies them into
``minttt/report/long_run_results/``. Everything else is configured in ``pyproject.toml``."""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

from setuptools import setup
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


setup(cmdclass={"build_py": BuildWithLongRuns})
