"""Errors the CLI turns into one line: bad input (exit 2) and a defect found (exit 1)."""


class InputError(ValueError):
    """Bad input from a user or a file; its message is one line naming the problem.

    Commands print it as ``error: MESSAGE`` and exit 2.

    Parameters
    ----------
    *args
        As :class:`ValueError`'s: the message, one line naming the field or value at fault.
    """


class DefectError(RuntimeError):
    """A check found a defect (an invalid proof, a table that fails verification).

    Commands print it in one line and exit 1.

    Parameters
    ----------
    *args
        As :class:`RuntimeError`'s: the message, one line saying what failed.
    """


__all__ = [
    "DefectError",
    "InputError",
]
