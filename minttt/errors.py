"""Errors the CLI turns into one line: bad input (exit 2) and a defect found (exit 1)."""


class InputError(ValueError):
    """Bad input from a user or a file; its message is one line naming the problem.

    Commands print it as ``error: MESSAGE`` and exit 2.
    """


class DefectError(RuntimeError):
    """A check found a defect (an invalid proof, a table that fails verification).

    Commands print it in one line and exit 1.
    """


__all__ = [
    "DefectError",
    "InputError",
]
