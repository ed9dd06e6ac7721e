"""The static play page: a person plays tic-tac-toe (or an m,n,k game of at most 16 cells, such
as 3x4 and 4x4) in the browser against a table file alone.

``build_site(table, out_dir)`` writes it; ``write_site(table_path, out_dir)`` loads the file first.
"""

from minttt.web.site import SITE_FILES, build_site, render_site, write_site

__all__ = ["SITE_FILES", "build_site", "render_site", "write_site"]
