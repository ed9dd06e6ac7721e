"""``minttt evolve``: evolve a strategy with 000's (hochmuth) or 002's (cornell) recipe."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from minttt.cli.common import (
    console,
    counted_progress,
    err_console,
    guarded,
    number_option,
    plain,
    print_json,
    say_wrote,
)
from minttt.cli.spec import Group, option
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
    recipe: str = option(
        "hochmuth", "--recipe", metavar="RECIPE", help="hochmuth (000) or cornell (002)."
    ),
    population: int = option(None, "--population", metavar="N", help="Individuals (500 / 100)."),
    generations: int = option(
        None, "--generations", metavar="N", help="Most generations (500 / 200)."
    ),
    seed: int = option(0, "--seed", metavar="N", help="Seed of the run's numpy PCG64 generator."),
    fitness: str = option(
        None,
        "--fitness",
        metavar="FITNESS",
        help="hochmuth: not-lost (000's final) or points (000's table 1).",
    ),
    genes: int = option(
        None,
        "--genes",
        metavar="N",
        help="hochmuth: 627 decision positions or 000's 827 situations.",
    ),
    # probabilities: the recipe checks each is in [0, 1] (nan and inf fail), in one line
    p_replicate: float = option(None, "--p-replicate", metavar="P", help="hochmuth: 0.10."),
    p_mutate: float = option(
        None, "--p-mutate", metavar="P", help="0.001 (hochmuth) / 0.025 (cornell)."
    ),
    p_crossover: float = option(
        None, "--p-crossover", metavar="P", help="hochmuth: 0.15 per gene."
    ),
    out: str = option(
        None, "--out", metavar="PATH", help="Write the evolved strategy as a table file."
    ),
    checkpoint: str = option(
        None,
        "--checkpoint",
        metavar="PATH",
        help="Resume from FILE if it exists; write it as the run goes.",
    ),
    every: int = option(
        50, "--checkpoint-every", metavar="N", help="Generations between checkpoints."
    ),
    plot: str = option(
        None, "--plot", metavar="PATH", help="Write best and mean fitness per generation (PNG)."
    ),
    restarts: int = option(
        None,
        "--restarts",
        metavar="N",
        help="Restart a run that ends imperfect from a fresh population (seed + 1000 k), "
        "at most N times (default: 20 for hochmuth, 0 for cornell, which never reaches "
        "perfection).",
    ),
    max_seconds: float | None = number_option(
        600.0, "--max-seconds", help="Time budget over all attempts, in seconds.", above=True
    ),
    single_run: bool = option(
        False, "--single-run", help="000's exact protocol: one run, no restarts, no budget."
    ),
    json_out: bool = option(False, "--json", help="Print one JSON object."),
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
        raise SystemExit(1)
    if json_out:
        print_json(result)
        return
    _report_perfect(result, recipe, out, plot)


def register(app: Group) -> None:
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
    progress = counted_progress(
        transient=True,
        disable=quiet,
        stderr=True,
        label=f"[bold]{recipe}[/] {{task.description}}",
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
        raise SystemExit(130) from None


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
        say_wrote(f"{out} (the table, {result['table']['size']} lookups)")
    if plot is not None:
        say_wrote(f"{plot} (the fitness plot)")
    if "checkpoint" in result:
        say_wrote(f"{result['checkpoint']} (the checkpoint)")


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
