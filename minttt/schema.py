"""The JSON Schemas shipped in ``minttt/schemas/``, one way to check a document against one, and
one way to read a JSON file back.

Every JSON file minttt reads back (tables, checkpoints of every long run, certificate indexes,
bounds files) goes through :func:`load_json`: a regular file of bounded size, UTF-8 JSON nested
a few levels at most (:func:`minttt.fileio.parse_json`, the one rule for JSON text), checked
against its schema; any problem is one :class:`~minttt.errors.InputError` line naming the file,
formatted here once. :func:`first_problem` is jsonschema's best match, as a field path and a
one-line message, or ``None`` for a valid document.

>>> first_problem("scale-checkpoint.schema.json", {"format": 1}) is not None
True
"""

from __future__ import annotations

import json
import os
from functools import cache
from importlib import resources
from typing import Any

from minttt.errors import InputError
from minttt.fileio import MAX_READ, parse_json, read_regular

__all__ = ["first_problem", "load_json", "load_schema", "problem_text", "validator"]

MAX_MESSAGE = 160  # characters of jsonschema's message kept in the one-line error


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``minttt/schemas/NAME`` as a dict."""
    text = resources.files("minttt").joinpath("schemas", name).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def validator(name: str, *, strict_integers: bool = True) -> Any:
    """A Draft 2020-12 validator of ``minttt/schemas/NAME``. With ``strict_integers`` an
    ``integer`` is a JSON integer only (JSON Schema also counts ``2.0``, which a shape, a
    generation or a bound cannot take)."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    if strict_integers:
        checker = base.TYPE_CHECKER.redefine(
            "integer", lambda _, x: isinstance(x, int) and not isinstance(x, bool)
        )
        base = jsonschema.validators.extend(base, type_checker=checker)
    return base(load_schema(name))


def first_problem(
    name: str, document: Any, *, strict_integers: bool = True
) -> tuple[list[Any], str] | None:
    """``(path, message)`` of the schema's first complaint about ``document``, or ``None``."""
    import jsonschema

    found = validator(name, strict_integers=strict_integers).iter_errors(document)
    error = jsonschema.exceptions.best_match(found)
    if error is None:
        return None
    message = " ".join(str(error.message).split())
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    return list(error.absolute_path), message


def problem_text(problem: tuple[list[Any], str]) -> str:
    """A schema problem in words: ``field.path: message`` (``(document)`` for the whole)."""
    path, message = problem
    return f"{'.'.join(str(p) for p in path) or '(document)'}: {message}"


def load_json(
    path: str | os.PathLike[str],
    schema: str | None,
    *,
    what: str,
    max_bytes: int = MAX_READ,
    follow: bool = True,
) -> Any:
    """The JSON document in ``path``, checked against ``minttt/schemas/SCHEMA`` (``None``: any
    JSON). InputError in one line naming the file and ``what`` it should be for a file that is
    not a bounded regular file (:func:`minttt.fileio.read_regular`; ``follow=False`` refuses a
    symlink), not UTF-8 JSON (nesting too deep included), or breaks the schema."""
    data = read_regular(path, max_bytes=max_bytes, follow=follow)
    document = parse_json(data, where=str(path), what=what, max_bytes=max_bytes)
    if schema is not None:
        try:
            problem = first_problem(schema, document)
        except RecursionError:
            problem = ([], "nested too deeply")
        if problem is not None:
            raise InputError(f"{path}: not a valid {what} ({problem_text(problem)})")
    return document
