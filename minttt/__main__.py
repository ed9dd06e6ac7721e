"""``python -m minttt`` runs the command line."""

from minttt.cli import main

main()
