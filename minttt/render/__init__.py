"""Pictures of boards, tables and the game graph: SVG strings, Graphviz DOT, PNG bytes.

In the spirit of ``chess.svg``: every function returns text (or bytes) you can save, embed or
compose; nothing writes files except :func:`render_file` and :func:`render_results`.

>>> from minttt import render
>>> render.board("x...o....", move=8).startswith("<svg")
True
"""

from minttt.render.board import board
from minttt.render.bounds import bounds_plot
from minttt.render.files import SUFFIXES, output_format, picture, render_file, render_results
from minttt.render.grid import table
from minttt.render.layout import GraphvizMissing, graphviz_version, have_graphviz, render_dot
from minttt.render.png import PNG_SIGNATURE, svg_to_png
from minttt.render.positions import positions
from minttt.render.tree import tree

__all__ = [
    "PNG_SIGNATURE",
    "SUFFIXES",
    "GraphvizMissing",
    "board",
    "bounds_plot",
    "graphviz_version",
    "have_graphviz",
    "output_format",
    "picture",
    "positions",
    "render_dot",
    "render_file",
    "render_results",
    "svg_to_png",
    "table",
    "tree",
]
