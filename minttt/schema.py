"""The JSON Schemas shipped in ``minttt/schemas/``, and one way to check a document against one.

Tables, evolution checkpoints and scale checkpoints are all read through :func:`first_problem`:
jsonschema's best match, as a field path and a one-line message, or ``None`` for a valid document.

>>> first_problem("scale-checkpoint.schema.json", {"format": 1}) is not None
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["first_problem", "load_schema", "validator"]

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
