"""Write docs/reference/commands.md from the command line itself (minttt.cli.reference).

    python scripts/docs_reference.py

tests/test_docs.py fails when the committed page and the CLI disagree; rerun this then.
"""

from __future__ import annotations

from pathlib import Path

from minttt.cli.reference import commands_markdown
from minttt.fileio import write_text_atomic

PAGE = Path(__file__).resolve().parent.parent / "docs" / "reference" / "commands.md"

if __name__ == "__main__":
    write_text_atomic(PAGE, commands_markdown())
    print(f"wrote {PAGE}")
