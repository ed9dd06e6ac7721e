"""``minttt reproduce``: rebuild everything in ``results/`` (and ``encodings/``)."""

from __future__ import annotations

from pathlib import Path

from minttt.cli.common import (
    err_console,
    guarded,
    path_option,
    require_folder,
    say_wrote,
    step_progress,
)
from minttt.cli.spec import Group, option
from minttt.errors import InputError
from minttt.report.reproduce import STEPS, reproduce


def register(app: Group) -> None:
    """Add ``reproduce`` to ``app``."""

    @app.command("reproduce")
    @guarded
    def reproduce_command(
        out: Path = path_option(
            Path("results"), "--out", metavar="FOLDER", help="Folder for the results."
        ),
        encodings: Path | None = path_option(
            None,
            "--encodings",
            metavar="FOLDER",
            help="Folder for the exported formulas (default: encodings/ with the default --out, "
            "else OUT/encodings).",
        ),
        step: list[str] = option(
            None, "--step", metavar="STEP", help="Run only these steps (repeatable); default: all."
        ),
    ) -> None:
        """Rebuild every table, proof, verification, figure and report, deterministically.

        \f
        Parameters
        ----------
        out
            Folder for the results.
        encodings
            Folder for the exported formulas (default: ``encodings/`` with the default
            ``--out``, else ``OUT/encodings``).
        step
            Run only these steps (repeatable); default: all.

        Raises
        ------
        InputError
            Bad input (an argument, an option's value, a file that cannot be read or breaks its
            format): ``minttt reproduce`` prints it in one line and exits 2.
        """

        names = [n for n, _ in STEPS]
        unknown = [s for s in step or [] if s not in names]
        if unknown:
            raise InputError(
                f"unknown step(s) {', '.join(unknown)}: expected some of {', '.join(names)}"
            )
        require_folder(out)
        with step_progress(transient=False) as progress:
            task = progress.add_task("reproduce", total=None)

            def on_step(name: str, i: int, total: int) -> None:
                progress.update(task, description=f"reproduce: {name}", completed=i, total=total)

            figures = reproduce(out, encodings, steps=step or None, on_step=on_step)
            progress.update(task, description="reproduce: done", completed=progress.tasks[0].total)
        say_wrote(f"{out}/summary.json and {out}/REPORT.md ({len(figures)} sections)")
        _say_unchecked(out)


def _say_unchecked(out: Path) -> None:
    """One line when certificates the report names were not here to check (a wheel whose
    certificates were not fetched), with the command that fetches them."""
    from minttt.assets import missing, read_manifest

    absent = missing(out, out)
    if absent:
        total = len(read_manifest(out))
        err_console.print(
            f"note: {len(absent)} of {total} certificates are not here and were not checked "
            "(their records were read as written): minttt fetch --all, then minttt reproduce",
            highlight=False,
        )


__all__ = [
    "register",
]
