"""MkDocs hooks of the docs site (``mkdocs.yml``: ``hooks``).

The docstrings hold runnable examples in doctest form (``>>>`` lines and their output, the way
pytest runs them). Rendered as plain text, their brackets read as Markdown reference links
(``x[:2]``, ``d["nodes"]``); this hook adds a Markdown preprocessor, used by the pages and by
mkdocstrings alike, that fences every run of doctest lines as ``pycon`` code.
"""

from __future__ import annotations

from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor


class DoctestFences(Preprocessor):
    """Wrap each doctest run (a ``>>>`` line, its ``...`` continuations and output, up to a blank
    line) that is not already inside a fence in a ``pycon`` fence."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fenced = False
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.lstrip().startswith("```"):
                fenced = not fenced
            if not fenced and line.lstrip().startswith(">>>"):
                indent = line[: len(line) - len(line.lstrip())]
                out.append(f"{indent}```pycon")
                while i < len(lines) and lines[i].strip():
                    out.append(lines[i])
                    i += 1
                out.append(f"{indent}```")
                continue
            out.append(line)
            i += 1
        return out


class DoctestExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Markdown's API
        md.preprocessors.register(DoctestFences(md), "doctest_fences", 30)


def on_config(config: Any) -> Any:
    """Add the doctest fences to the site's Markdown (mkdocstrings renders with it too)."""
    config.markdown_extensions.append(DoctestExtension())
    return config
