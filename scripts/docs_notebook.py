"""Run docs/notebook.ipynb and store its outputs in it, as the docs site shows them.

    python scripts/docs_notebook.py

The site shows the notebook with its stored outputs (myst-nb; the build runs nothing);
tests/test_docs.py executes it again and fails when the stored outputs are not what it draws now.
"""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

from minttt.fileio import write_text_atomic

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "notebook.ipynb"


def executed(path: Path = NOTEBOOK) -> nbformat.NotebookNode:
    """The notebook at ``path`` run from the repository's root, without timing metadata (so the
    stored file changes only when an output does)."""
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.record_timing = False
    client.execute()
    return nb


if __name__ == "__main__":
    write_text_atomic(NOTEBOOK, nbformat.writes(executed()) + "\n")
    print(f"wrote {NOTEBOOK}")
