"""The one exception type for bad input: the CLI turns it into one line and exit code 2."""


class InputError(ValueError):
    """Bad input from a user or a file; its message is one line naming the problem."""
