"""``python -m minttt`` runs the command line."""

import signal
import sys


def _early_exit(signum: int, _frame: object) -> None:
    sys.exit(128 + signum)  # interrupted while importing: no traceback, no result


if __name__ == "__main__":  # not when a worker process (multiprocessing's spawn) imports it
    signal.signal(signal.SIGINT, _early_exit)
    signal.signal(signal.SIGTERM, _early_exit)

    from minttt.cli import main

    main()
