"""``python -m minttt`` runs the command line."""

import signal
import sys


def _early_exit(signum: int, _frame: object) -> None:
    sys.exit(128 + signum)  # interrupted while importing: no traceback, no result


signal.signal(signal.SIGINT, _early_exit)
signal.signal(signal.SIGTERM, _early_exit)

from minttt.cli import main  # noqa: E402

main()
