"""``minttt evolve``: evolve a strategy with 000's (hochmuth) or 002's (cornell) recipe."""

from __future__ import annotations

from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from minttt.cli.common import console, err_console, guarded, plain, print_json
from minttt.evolve.runner import Interrupted, evolved_table, make_config, run, start, summary
from minttt.evolve.state import EvolutionState
from minttt.interrupt import shielded


def _describe(state: EvolutionState) -> str:
    h = state.history
    if not h["best"]:
        return "starting"
    if state.recipe == "cornell":
        return f"best score {h['best'][-1]:+.0f}, lines not lost {h['best_not_lost'][-1]:.4f}"
    return f"best {h['best'][-1]:.4f}, lost {int(h['best_lost'][-1])}"


def _write_results(
    state: EvolutionState, result: dict[str, Any], out: str | None, plot: str | None
) -> None:
    """Write the evolved table and the plot asked for; note them in ``result``."""
    if out is not None:
        from minttt.table import save_table

        table = evolved_table(state)
        save_table(table, out)
        result["table"] = {"path": out, "size": table.size}
    if plot is not None:
        from minttt.evolve.plot import save_plot

        save_plot(state, plot)
        result["plot"] = plot


def register(app: typer.Typer) -> None:
    @app.command("evolve")
    @guarded
    def evolve(
        recipe: str = typer.Option("hochmuth", "--recipe", help="hochmuth (000) or cornell (002)."),
        population: int = typer.Option(None, "--population", help="Individuals (500 / 100)."),
        generations: int = typer.Option(
            None, "--generations", help="Most generations (500 / 200)."
        ),
        seed: int = typer.Option(0, "--seed", help="Seed of the run's numpy PCG64 generator."),
        fitness: str = typer.Option(
            None, "--fitness", help="hochmuth: not-lost (000's final) or points (000's table 1)."
        ),
        genes: int = typer.Option(
            None, "--genes", help="hochmuth: 627 decision positions or 000's 827 situations."
        ),
        p_replicate: float = typer.Option(None, "--p-replicate", help="hochmuth: 0.10."),
        p_mutate: float = typer.Option(
            None, "--p-mutate", help="0.001 (hochmuth) / 0.025 (cornell)."
        ),
        p_crossover: float = typer.Option(None, "--p-crossover", help="hochmuth: 0.15 per gene."),
        out: str = typer.Option(None, "--out", help="Write the evolved strategy as a table file."),
        checkpoint: str = typer.Option(
            None, "--checkpoint", help="Resume from FILE if it exists; write it as the run goes."
        ),
        every: int = typer.Option(
            50, "--checkpoint-every", help="Generations between checkpoints."
        ),
        plot: str = typer.Option(
            None, "--plot", help="Write best and mean fitness per generation (PNG)."
        ),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Evolve a never-losing strategy (000) or 002's raw-genome organisms, with checkpoints."""
        from minttt.errors import InputError
        from minttt.fileio import refuse_overwrite

        if every < 1:
            raise InputError(f"--checkpoint-every must be at least 1, got {every}")
        refuse_overwrite(out, checkpoint)
        refuse_overwrite(plot, checkpoint, out, what="--plot")
        config = make_config(
            recipe,
            population=population,
            generations=generations,
            seed=seed,
            fitness=fitness,
            genes=genes,
            p_replicate=p_replicate,
            p_mutate=p_mutate,
            p_crossover=p_crossover,
        )
        if out is not None and recipe == "cornell":
            evolved_table(start(config))  # raises the one-line explanation
        state = start(config, checkpoint)
        quiet = json_out or not err_console.is_terminal
        progress = Progress(
            TextColumn(f"[bold]{recipe}[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=err_console,
            disable=quiet,
            transient=True,
        )
        total = config.generations + 1
        try:
            with progress:
                task = progress.add_task(_describe(state), total=total, completed=state.generation)

                def tick(s: EvolutionState) -> None:
                    progress.update(task, completed=s.generation, description=_describe(s))

                state = run(
                    config, checkpoint=checkpoint, every=every, on_generation=tick, state=state
                )
        except Interrupted as stop:
            where = f"; checkpoint written to {stop.checkpoint}" if stop.checkpoint else ""
            err_console.print(
                f"interrupted after generation {stop.state.generation - 1}{where}", highlight=False
            )
            raise typer.Exit(130) from None
        result: dict[str, Any] = summary(state)
        with shielded(final=True):  # the results: written together, then the run has succeeded
            _write_results(state, result, out, plot)
        if json_out:
            print_json(result)
            return
        verdict = Text("perfect", "green") if result["perfect"] else Text("not perfect", "yellow")
        console.print(
            Text.assemble(
                f"{recipe}: ",
                verdict,
                f" after generation {result['generations']} "
                f"({result['seconds']:.1f} s); best fitness {result['fitness']}, "
                f"games lost by the best {result['best_lost']}",
            )
        )
        if out is not None:
            console.print(f"table: {plain(out)} ({result['table']['size']} lookups)")
        if plot is not None:
            console.print(f"plot: {plain(plot)}")
