"""The quick parse (``minttt.cli.spec.parse``) reads every argument list it accepts as typer does.

``minttt`` runs a command without loading typer when the quick parse accepts its arguments; it
leaves everything else (help, usage errors, odd spellings) to typer. So for any argument list,
if the quick parse gives keyword arguments, typer must accept the same list and give the same
ones. Hypothesis draws argument lists from each command's own declarations, with hostile values.
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minttt.cli import COMMAND_MODULES, commands, quick
from minttt.cli.framework import typer_app
from minttt.cli.spec import Group, Param, argument, option, parse, target

VALUES = st.sampled_from(
    [
        "0", "1", "7", "-1", "2.5", " 5 ", "1e3", "1_000", "nan", "inf", "x", "", "-", "first",
        "second", "both", "X", "O", "lookup", "tree", "entries", "positions", "optimal",
        "never-lose", "full", "none", "3x3", "mnk:3,4,3", "center", "corner", "rc2", "a/b.json",
        "--json", "-h", "--", "é",
    ]
)  # fmt: skip
EXTRA = st.sampled_from(["--help", "-h", "--nope", "--", "word", "-x", "--json=1"])


def _declared() -> list[tuple[str, Any]]:
    """Every command whose parameters are all declared with minttt.cli.spec."""
    found = []

    def walk(group: Group, prefix: str) -> None:
        for name, func in group.commands.items():
            params = inspect.signature(target(func)).parameters.values()
            if all(isinstance(p.default, Param) for p in params):
                found.append((f"{prefix}{name}", func))
        for name, sub in group.groups.items():
            walk(sub, f"{prefix}{name} ")

    walk(commands(COMMAND_MODULES), "")
    return found


DECLARED = _declared()


@st.composite
def argument_lists(draw: st.DrawFn, func: Any) -> list[str]:
    """Tokens for ``func``: some of its options (flags, values, ``--opt=value``), positional
    values, and now and then a token typer must handle."""
    tokens: list[str] = []
    for p in inspect.signature(target(func)).parameters.values():
        param: Param = p.default
        if param.is_argument:
            tokens += draw(st.lists(VALUES, max_size=2))
            continue
        if not draw(st.booleans()):
            continue
        spellings = [s.strip() for flag in param.flags for s in flag.split("/")]
        flag = draw(st.sampled_from(spellings))
        if "bool" in str(p.annotation):
            tokens.append(flag)
        elif draw(st.booleans()):
            tokens.append(f"{flag}={draw(VALUES)}")
        else:
            tokens += [flag, draw(VALUES)]
    if draw(st.integers(0, 4)) == 0:
        tokens.insert(draw(st.integers(0, len(tokens))), draw(EXTRA))
    return draw(st.permutations(tokens)) if draw(st.booleans()) else tokens


def typer_kwargs(name: str, func: Any, args: list[str]) -> dict[str, Any] | None:
    """What typer passes to the command for ``args`` (None for a usage error or the help)."""
    seen: dict[str, Any] = {}

    @functools.wraps(target(func))
    def record(**kwargs: Any) -> None:
        seen.update(kwargs)

    group = Group()
    *parents, leaf = name.split()
    where = group
    for parent in parents:
        where.add_group(Group(), parent)
        where = where.groups[parent]
    where.command(leaf)(record)
    result = CliRunner().invoke(typer_app(group), [*name.split(), *args])
    return seen if result.exit_code == 0 and result.exception is None else None


@pytest.mark.parametrize(("name", "func"), DECLARED, ids=[n for n, _ in DECLARED])
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_quick_parse_agrees_with_typer(name: str, func: Any, data: st.DataObject) -> None:
    args = data.draw(argument_lists(func))
    quick_kwargs = parse(func, args)
    if quick_kwargs is None:
        return  # typer's to read: no claim
    assert typer_kwargs(name, func, args) == quick_kwargs, args


def test_every_command_is_declared_for_the_quick_parse() -> None:
    names = {name for name, _ in DECLARED}
    assert names >= {"count", "solve", "encode", "verify", "odds", "export", "tournament"}
    assert names >= {"play", "search", "render", "evolve", "web", "reproduce", "certify"}
    assert names >= {"check-proof", "scale", "nine match", "nine play"}


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--all", "--json"],
        ["solve", "--role", "first", "--opening", "center", "--out", "x.json"],
        ["verify", "x22.json"],
        ["certify", "first-center-lookup-entries"],
        ["check-proof", "a.cnf", "a.drat"],
        ["nine", "match", "--games", "2", "--nodes", "100"],
        ["--version"],
    ],
)
def test_plain_arguments_take_the_quick_path(args: list[str]) -> None:
    assert quick(args) is not None


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["solve", "--help"],
        ["solve", "-h"],
        ["solve", "--role", "nobody"],
        ["solve", "--limit", "many"],
        ["solve", "--nope"],
        ["solve", "--json=yes"],
        ["render", "--out"],
        ["nine"],
        ["nine", "match", "-h"],
        ["--install-completion"],
        ["unknown"],
    ],
)
def test_help_errors_and_the_rest_are_left_to_typer(args: list[str]) -> None:
    assert quick(args) is None


def test_parse_reads_the_declarations() -> None:
    def hello(
        names: list[str] = argument(None, help="Who."),
        times: int = option(1, "--times", "-n", help="How often."),
        loud: bool = option(False, "--loud/--quiet", help="How."),
        tag: list[str] = option(None, "--tag", help="Tags."),
    ) -> None: ...

    assert parse(hello, []) == {"names": None, "times": 1, "loud": False, "tag": None}
    got = parse(hello, ["a", "--times=3", "b", "--loud", "--tag", "t", "--quiet", "--tag=u"])
    assert got == {"names": ["a", "b"], "times": 3, "loud": False, "tag": ["t", "u"]}
    assert parse(hello, ["-n", "x"]) is None  # int("x"): typer words the error
    assert parse(hello, ["--times"]) is None  # a missing value


# ------------------------------------------------------------ the one grammar


@pytest.mark.parametrize(
    ("name", "long"),
    [
        ("3x3", "3x3"),
        ("3x3-misere", "3x3-misere"),
        ("3x4", "mnk:3,4,3"),
        ("4x4", "mnk:4,4,4"),
        ("4x4k3", "mnk:4,4,3"),
        ("4X4K3-MISERE", "mnk:4,4,3-misere"),
        ("mnk:3,4,3", "mnk:3,4,3"),
    ],
)
def test_every_game_option_reads_the_short_names(name: str, long: str) -> None:
    """``--game`` of each command goes through the one parser, Rules.from_name."""
    from minttt.cli.count import count_command
    from minttt.cli.encode import encode_command
    from minttt.cli.scale import scale_command
    from minttt.cli.solve import solve_command
    from minttt.game.rules import Rules

    assert Rules.from_name(name).name == long
    for func, rest in (
        (count_command, []),
        (solve_command, []),
        (encode_command, ["first-any-lookup-entries"]),
        (scale_command, ["--checkpoint", "c.json"]),
    ):
        kwargs = parse(func, [*rest, "--game", name])
        assert kwargs is not None and kwargs["game"] == long, func.__name__


@pytest.mark.parametrize("name", ["4x", "x4", "3x4k9", "chess", "mnk:3,4"])
def test_a_bad_game_name_is_one_line_exit_2(name: str) -> None:
    for command in (["count"], ["solve", "--role", "first"], ["scale", "--checkpoint", "c.json"]):
        result = CliRunner().invoke(typer_app(commands()), [*command, "--game", name])
        assert result.exit_code == 2, (command, result.output)
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("error: ") and "game" in line


def test_solve_on_a_board_without_a_centre_opens_anywhere() -> None:
    """solve's default opening: the centre where the board has one, else any (3x4: none)."""
    import json

    result = CliRunner().invoke(
        typer_app(commands()),
        ["solve", "--game", "3x4", "--role", "first", "--objective", "entries", "--json"],
    )
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)
    assert row["variant"] == "first-any-lookup-entries@mnk:3,4,3" and row["optimal"]
    assert row["size"] == 46


@pytest.mark.parametrize(
    ("old", "new", "notice"),
    [
        (["search", "-b", "x...o...."], ["search", "x...o...."], "--board"),
        (["search", "--board", "x...o...."], ["search", "x...o...."], "--board"),
    ],
)
def test_old_spellings_still_work_with_one_notice(old: list[str], new: list[str], notice: str):
    app = typer_app(commands())
    before, after = CliRunner().invoke(app, old), CliRunner().invoke(app, new)
    assert before.exit_code == after.exit_code == 0
    # the same answer (the time it took aside)
    assert [ln for ln in before.stdout.splitlines() if " us" not in ln and " ms" not in ln] == [
        ln for ln in after.stdout.splitlines() if " us" not in ln and " ms" not in ln
    ]
    (line,) = before.stderr.strip().splitlines()
    assert line.startswith(f"{notice} is deprecated: minttt ")
    assert after.stderr == ""


def test_scale_takes_the_game_as_an_option_and_the_old_argument_with_a_notice(tmp_path) -> None:
    import json

    app = typer_app(commands())
    runs = {}
    for how, args in (("new", ["--game", "3x4"]), ("old", ["mnk:3,4,3"])):
        checkpoint = tmp_path / f"{how}.json"
        result = CliRunner().invoke(
            app, ["scale", *args, "--checkpoint", str(checkpoint), "--time-limit", "20", "--json"]
        )
        assert result.exit_code == 0, result.output
        runs[how] = (json.loads(result.stdout), result.stderr)
    assert runs["new"][0]["variant"] == runs["old"][0]["variant"]
    assert runs["new"][0]["upper"] == runs["old"][0]["upper"] == 46
    assert "GAME as an argument is deprecated: minttt scale --game GAME" in runs["old"][1]
    assert "deprecated" not in runs["new"][1]
    both = CliRunner().invoke(
        app, ["scale", "3x4", "--game", "4x4", "--checkpoint", str(tmp_path / "b.json")]
    )
    assert both.exit_code == 2 and len(both.stderr.strip().splitlines()) == 1


def test_play_takes_the_table_positionally_and_the_old_option_with_a_notice(tmp_path) -> None:
    from minttt.table.model import save_table
    from minttt.web.sample import sample_table

    save_table(sample_table(), tmp_path / "t.json")
    app = typer_app(commands())
    new = CliRunner().invoke(app, ["play", str(tmp_path / "t.json"), "--as", "X"], input="4\n")
    old = CliRunner().invoke(
        app, ["play", "-t", str(tmp_path / "t.json"), "--as", "X"], input="4\n"
    )
    assert new.exit_code == old.exit_code == 0
    assert re.sub(r"\d+ [um]s", "", new.stdout) == re.sub(r"\d+ [um]s", "", old.stdout)
    assert old.stderr.strip().splitlines() == ["--table is deprecated: minttt play TABLE"]
    both = CliRunner().invoke(app, ["play", str(tmp_path / "t.json"), "-p", "random"])
    assert both.exit_code == 2 and both.stderr.strip().splitlines() == [
        "error: give TABLE or --player, not both"
    ]
