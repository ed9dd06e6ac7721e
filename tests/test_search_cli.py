"""``minttt search`` on the command line: output, JSON, and one-line errors with exit code 2."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minttt.cli import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["search", *args])


def test_json_output():
    r = invoke("........x", "--algorithm", "alphabeta", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert {"move", "value", "states", "seconds"} <= data.keys()
    assert (data["move"], data["value"], data["states"]) == (4, 0, 3956)


def test_ordering_flag():
    r = invoke("--ordering", "--json")
    data = json.loads(r.stdout)
    assert (data["move"], data["states"], data["ordering"]) == (4, 2095, True)


def test_text_output_follows_001():
    r = invoke("xx.oo....")
    assert r.exit_code == 0
    assert "states explored" in r.stdout
    assert "I play cell 2;" in r.stdout


def check_bad(args: list[str], word: str) -> None:
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and word in lines[0], r.stderr
    assert "Traceback" not in r.output


def test_bad_boards_exit_2_with_one_line():
    check_bad(["x.o"], "cells")
    check_bad(["x.o.q...."], "characters")
    check_bad(["xxx......"], "impossible counts")
    check_bad(["xxxoo...."], "already finished")
    check_bad(["xoxxoxoxo"], "already finished")
    check_bad(["--algorithm", "mcts"], "unknown algorithm")


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="xo.XO-z1 ", min_size=0, max_size=11))
def test_any_board_string_is_answered_or_refused_cleanly(text):
    r = invoke(text, "--json")
    assert r.exit_code in (0, 2), r.output
    if r.exit_code == 2:
        assert len(r.stderr.strip().splitlines()) == 1
    else:
        assert 0 <= json.loads(r.stdout)["move"] <= 8
