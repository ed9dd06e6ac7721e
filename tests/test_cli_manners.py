"""The command line's manners: --version, -h, shell completion, help without markup and with one
metavar style, output readable at 80 columns, a "wrote" line for every file written, cells named
0-8, and progress bars that estimate what is left."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from minttt.cli import build_app, run
from minttt.cli.common import counted_progress, step_progress
from minttt.formula.variants import standard_variants
from minttt.version import __version__

ROOT = Path(__file__).resolve().parents[1]
APP = build_app()
CLICK = typer.main.get_command(APP)
runner = CliRunner()


def _commands() -> list[tuple[str, Any]]:
    found = []
    for name, command in CLICK.commands.items():  # type: ignore[attr-defined]
        subs = getattr(command, "commands", None)
        found += [(f"{name} {s}", c) for s, c in subs.items()] if subs else [(name, command)]
    return found


COMMANDS = _commands()
IDS = [name for name, _ in COMMANDS]


def minttt(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m minttt ARGS`` in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "minttt", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        check=False,
    )


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    result = runner.invoke(APP, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"minttt {__version__}\n"
    assert run(["--version"]) == 0  # the quick path: no framework
    assert capsys.readouterr().out == f"minttt {__version__}\n"


@pytest.mark.parametrize("name", ["", *IDS])
def test_dash_h_is_the_help(name: str) -> None:
    words = name.split()
    short, long = runner.invoke(APP, [*words, "-h"]), runner.invoke(APP, [*words, "--help"])
    assert short.exit_code == 0 and short.stdout.startswith("Usage: ")
    assert short.stdout == long.stdout


def test_shell_completion(monkeypatch) -> None:
    # typer names the shell it runs under (shellingham reads the process tree); a run without a
    # shell among its parents (a daemon, a detached job) detects none, so bash is named here
    import typer.completion

    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    shown = runner.invoke(APP, ["--show-completion"])
    assert shown.exit_code == 0 and "_MINTTT_COMPLETE=complete_bash" in shown.stdout
    help_text = runner.invoke(APP, ["--help"]).stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text
    words = {"_MINTTT_COMPLETE": "complete_bash", "COMP_WORDS": "minttt so", "COMP_CWORD": "1"}
    assert minttt(env=words).stdout.split() == ["solve"]
    words |= {"COMP_WORDS": "minttt solve --obj", "COMP_CWORD": "2"}
    assert minttt(env=words).stdout.split() == ["--objective"]


#: one metavar style: an upper-case noun naming the value (optional arguments in brackets)
METAVAR = re.compile(r"\[?[A-Z][A-Z0-9_]*\]?(\.\.\.)?")


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=IDS)
def test_one_metavar_style(name: str, command: Any) -> None:
    for param in command.params:
        if getattr(param, "is_flag", False) or param.name == "help":
            continue
        assert param.metavar is not None, f"{name} {param.name}: no metavar"
        assert METAVAR.fullmatch(param.metavar), f"{name} {param.name}: {param.metavar}"


MARKUP = re.compile(r"``|:(mod|class|func|meth|data|attr):`|\[/?(bold|red|green)\]")


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=IDS)
def test_help_text_is_plain(name: str, command: Any) -> None:
    texts = [command.help or "", *(getattr(p, "help", "") or "" for p in command.params)]
    for text in texts:
        assert not MARKUP.search(text), f"{name}: {text!r}"
        for paragraph in text.split("\n\n"):  # the terminal wraps; the source's lines do not
            assert "\n" not in paragraph, f"{name}: {paragraph!r}"
    assert command.short_help and not command.short_help.endswith("..."), name


def test_the_root_help_lists_every_command_uncut() -> None:
    text = runner.invoke(APP, ["--help"], terminal_width=80).stdout
    assert all(len(line) <= 80 for line in text.splitlines())
    commands = text.split("Commands:")[1]
    assert not any(line.endswith("...") for line in commands.splitlines())
    for name in CLICK.commands:  # type: ignore[attr-defined]
        assert f"  {name} " in text


@pytest.mark.parametrize("extra", [[], ["--cross-check"]])
def test_solve_all_is_readable_at_80_columns(extra: list[str]) -> None:
    done = minttt("solve", "--all", *extra, env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert "…" not in done.stdout
    for variant in standard_variants():  # every name in full, on its row
        assert any(line.split()[:1] == [variant.name] for line in lines), variant.name


def test_solve_out_says_what_it_wrote(tmp_path: Path) -> None:
    path = tmp_path / "x22.json"
    args = ["solve", "--role", "first", "--objective", "entries", "--out", str(path)]
    result = runner.invoke(APP, args)
    assert result.exit_code == 0 and path.is_file()
    assert f"wrote {path}\n" in result.stdout
    folder = tmp_path / "all"
    result = runner.invoke(APP, ["solve", "--all", "--json", "--out", str(folder)])
    assert result.exit_code == 0 and len(list(folder.glob("*.json"))) == 18
    assert len(json.loads(result.stdout)) == 18  # stdout is the JSON alone
    assert result.stderr == f"wrote 18 tables to {folder}/\n"


def test_encode_out_says_what_it_wrote(tmp_path: Path) -> None:
    path = tmp_path / "f.wcnf"
    args = ["encode", "first-center-lookup-entries", "--no-optimum", "--out", str(path)]
    result = runner.invoke(APP, args)
    assert result.exit_code == 0 and path.read_text().startswith("c ")
    assert result.stdout == f"wrote {path}\n"


def test_cells_are_named_0_to_8() -> None:
    assert "cells 0-8" in runner.invoke(APP, ["play", "-h"]).stdout
    game = runner.invoke(APP, ["play", "--player", "random", "--as", "X"], input="9\n")
    assert "Move by entering a cell 0-8" in game.stdout
    assert "Please enter a cell 0-8." in game.stdout


def test_countable_work_shows_the_time_left() -> None:
    from rich.progress import MofNCompleteColumn, TimeElapsedColumn, TimeRemainingColumn

    for bar in (counted_progress(transient=True), step_progress(transient=True)):
        kinds = {type(c) for c in bar.columns}
        assert {MofNCompleteColumn, TimeElapsedColumn, TimeRemainingColumn} <= kinds
