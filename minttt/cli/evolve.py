"""``minttt evolve``: evolve a strategy with 000's (hochmuth) or 002's (cornell) recipe."""

from __future__ import annotations

from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from minttt.cli.common import console, err_console, guarded, number_option, plain, print_json
from minttt.errors import InputError
from minttt.evolve.plot import save_plot
from minttt.evolve.runner import (
    Interrupted,
    evolve_until_perfect,
    evolved_table,
    make_config,
    start,
    summary,
)
from minttt.evolve.state import EvolutionState
from minttt.fileio import refuse_overwrite
from minttt.interrupt import shielded
from minttt.table.model import save_table


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
    """Write the evolved table (only ever for a perfect strategy) and the plot asked for."""
    if out is not None:
        table = evolved_table(state)
        save_table(table, out)
        result["table"] = {"path": out, "size": table.size}
    if plot is not None:
        save_plot(state, plot)
        result["plot"] = plot


def evolve_command(
    recipe: str = typer.Option("hochmuth", "--recipe", help="hochmuth (000) or cornell (002)."),
    population: int = typer.Option(None, "--population", help="Individuals (500 / 100)."),
    generations: int = typer.Option(None, "--generations", help="Most generations (500 / 200)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the run's numpy PCG64 generator."),
    fitness: str = typer.Option(
        None, "--fitness", help="hochmuth: not-lost (000's final) or points (000's table 1)."
    ),
    genes: int = typer.Option(
        None, "--genes", help="hochmuth: 627 decision positions or 000's 827 situations."
    ),
    # probabilities: the recipe checks each is in [0, 1] (nan and inf fail), in one line
    p_replicate: float = typer.Option(None, "--p-replicate", help="hochmuth: 0.10."),
    p_mutate: float = typer.Option(None, "--p-mutate", help="0.001 (hochmuth) / 0.025 (cornell)."),
    p_crossover: float = typer.Option(None, "--p-crossover", help="hochmuth: 0.15 per gene."),
    out: str = typer.Option(None, "--out", help="Write the evolved strategy as a table file."),
    checkpoint: str = typer.Option(
        None, "--checkpoint", help="Resume from FILE if it exists; write it as the run goes."
    ),
    every: int = typer.Option(50, "--checkpoint-every", help="Generations between checkpoints."),
    plot: str = typer.Option(
        None, "--plot", help="Write best and mean fitness per generation (PNG)."
    ),
    restarts: int = typer.Option(
        None,
        "--restarts",
        help="Restart a run that ends imperfect from a fresh population (seed + 1000 k), "
        "at most N times (default: 20 for hochmuth, 0 for cornell, which never reaches "
        "perfection).",
    ),
    max_seconds: float | None = number_option(
        600.0, "--max-seconds", help="Time budget over all attempts, in seconds.", above=True
    ),
    single_run: bool = typer.Option(
        False, "--single-run", help="000's exact protocol: one run, no restarts, no budget."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Evolve a never-losing strategy (000) or 002's raw-genome organisms, with checkpoints.

    Exits 0 with a perfect strategy; 1 when the budget ran out first (the best strategy
    still loses games: nothing is written to --out; resume from --checkpoint).

    \f
    Parameters
    ----------
    recipe
        hochmuth (000) or cornell (002).
    population
        Individuals (500 / 100).
    generations
        Most generations (500 / 200).
    seed
        Seed of the run's numpy PCG64 generator.
    fitness
        hochmuth: not-lost (000's final) or points (000's table 1).
    genes
        hochmuth: 627 decision positions or 000's 827 situations.
    p_replicate
        hochmuth: 0.10.
    p_mutate
        0.001 (hochmuth) / 0.025 (cornell).
    p_crossover
        hochmuth: 0.15 per gene.
    out
        Write the evolved strategy as a table file.
    checkpoint
        Resume from FILE if it exists; write it as the run goes.
    every
        Generations between checkpoints.
    plot
        Write best and mean fitness per generation (PNG).
    restarts
        Restart a run that ends imperfect from a fresh population (seed + 1000 k), at most N
        times (default: 20 for hochmuth, 0 for cornell, which never reaches perfection).
    max_seconds
        Time budget over all attempts, in seconds.
    single_run
        000's exact protocol: one run, no restarts, no budget.
    json_out
        Print one JSON object.

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt evolve`` prints it in one line and exits 2.
    """

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
    if single_run:
        restarts, max_seconds = 0, None
    elif restarts is None:
        restarts = 20 if recipe == "hochmuth" else 0
    quiet = json_out or not err_console.is_terminal
    campaign = _campaign(config, recipe, quiet, restarts, max_seconds, checkpoint, every)
    state = campaign.state
    result: dict[str, Any] = summary(state)
    result["seconds"] = round(campaign.seconds, 3)
    result["seed"] = int(state.config["seed"])
    result["attempts"] = campaign.attempts
    if checkpoint is not None:
        result["checkpoint"] = checkpoint
    with shielded(final=True):  # the results: written together, then the run has succeeded
        _write_results(state, result, None if not campaign.perfect else out, plot)
    if not campaign.perfect:
        _report_imperfect(result, recipe, json_out, state, out)
        raise typer.Exit(1)
    if json_out:
        print_json(result)
        return
    _report_perfect(result, recipe, out, plot)


def register(app: typer.Typer) -> None:
    """Add ``evolve`` to ``app``."""
    app.command("evolve")(guarded(evolve_command))


def _campaign(
    config: Any,
    recipe: str,
    quiet: bool,
    restarts: int,
    max_seconds: float | None,
    checkpoint: str | None,
    every: int,
) -> Any:
    """Run the attempts with a progress bar on stderr; Ctrl-C exits 130 naming the checkpoint."""
    progress = Progress(
        TextColumn(f"[bold]{recipe}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=err_console.get(),
        disable=quiet,
        transient=True,
    )
    total = config.generations + 1
    try:
        with progress:
            task = progress.add_task("starting", total=total)

            def tick(s: EvolutionState) -> None:
                progress.update(task, completed=s.generation, description=_describe(s))

            def restarted(attempt: int, s: EvolutionState) -> None:
                progress.reset(task, total=total, description=f"restart {attempt}")

            return evolve_until_perfect(
                config,
                restarts=restarts,
                max_seconds=max_seconds,
                checkpoint=checkpoint,
                every=every,
                on_generation=tick,
                on_restart=restarted,
            )
    except Interrupted as stop:
        where = f"; checkpoint written to {stop.checkpoint}" if stop.checkpoint else ""
        err_console.print(
            f"interrupted after generation {stop.state.generation - 1}{where}", highlight=False
        )
        raise typer.Exit(130) from None


def _report_perfect(result: dict[str, Any], recipe: str, out: str | None, plot: str | None) -> None:
    tries = len(result["attempts"])
    console.print(
        Text.assemble(
            f"{recipe}: ",
            Text("perfect", "green"),
            f" at generation {result['generations']} of attempt {tries} (seed "
            f"{result['seed']}, {result['seconds']:.1f} s in all); best fitness "
            f"{result['fitness']}",
        )
    )
    if out is not None:
        console.print(f"table: {plain(out)} ({result['table']['size']} lookups)")
    if plot is not None:
        console.print(f"plot: {plain(plot)}")


def _report_imperfect(
    result: dict[str, Any],
    recipe: str,
    json_out: bool,
    state: EvolutionState,
    out: str | None,
) -> None:
    """Exit-1 report: no strategy under the never-lose label, what was run, where to resume."""
    if json_out:
        print_json(result)
        return
    # generations bred after each attempt's initial population, as --generations and --json count
    generations = sum(a["generations"] for a in result["attempts"])
    where = (
        f"checkpoint {plain(result['checkpoint'])} (run the same command to go on)"
        if "checkpoint" in result
        else "no checkpoint (give --checkpoint FILE to keep and resume a run)"
    )
    err_console.print(
        f"{recipe}: not perfect after {len(result['attempts'])} attempt(s), {generations} "
        f"generations, {result['seconds']:.1f} s: the best strategy still loses "
        f"{result['best_lost']} games; {'nothing written to --out; ' if out else ''}{where}",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )


__all__ = [
    "evolve_command",
    "register",
]
