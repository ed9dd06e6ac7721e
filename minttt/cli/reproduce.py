"""``minttt reproduce``: rebuild everything in ``results/`` (and ``encodings/``)."""

from __future__ import annotations

from pathlib import Path

import typer

from minttt.cli.common import console, guarded, path_option, plain, require_folder, step_progress
from minttt.errors import InputError
from minttt.report.reproduce import STEPS, reproduce


def register(app: typer.Typer) -> None:
    """Add ``reproduce`` to ``app``."""

    @app.command("reproduce")
    @guarded
    def reproduce_command(
        out: Path = path_option(Path("results"), "--out", help="Folder for the results."),
        encodings: Path | None = path_option(
            None,
            "--encodings",
            help="Folder for the exported formulas (default: encodings/ with the default --out, "
            "else OUT/encodings).",
        ),
        step: list[str] = typer.Option(
            None, "--step", help="Run only these steps (repeatable); default: all."
        ),
    ) -> None:
        """Rebuild every table, proof, verification, figure and report, deterministically."""

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
        console.print(
            f"wrote {plain(out)}/summary.json and {plain(out)}/REPORT.md ({len(figures)} sections)",
            soft_wrap=True,
        )


__all__ = [
    "register",
]
