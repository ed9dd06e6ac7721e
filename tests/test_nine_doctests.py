"""The runnable examples in the docstrings of ``minttt.nine``."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["__init__", "bits", "rules", "baseline", "engine", "engine_match", "session"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module("minttt.nine" if name == "__init__" else f"minttt.nine.{name}")
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
