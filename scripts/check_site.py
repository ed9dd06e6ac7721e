"""Check a built docs site: no reST markup shown as text, no broken internal link or anchor.

    sphinx-build -W -n docs _build/html && python scripts/check_site.py _build/html

Sphinx's strict build already fails on a reference it cannot resolve; this reads the HTML it wrote
and fails on what a reader would still meet: a role or double backquote printed literally
(``:class:`Board``` where a link belongs: reST markup that did not render) and a link to a page,
file or ``#anchor`` of the site that is not there. Pages of source code (``_modules/``, viewcode)
show the code as written and are read for links only. External links are not followed (the build
runs offline).

Exit 0 when the site is clean, 1 with each problem on a line of its own, 2 for a bad path.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

# reST that rendered would have left no such text on a page
LITERAL_MARKUP = re.compile(r":(?:mod|class|func|meth|data|attr|exc|obj):`|``")


class _Page(HTMLParser):
    """The ids a page defines, the links it makes, and its text outside ``<pre>`` blocks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.text: list[str] = []
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name"):
            if values.get(key) and (key == "id" or tag == "a"):
                self.ids.add(values[key] or "")
        for key in ("href", "src"):
            if values.get(key) and tag in ("a", "img", "link", "script", "object"):
                self.links.append(values[key] or "")
        if tag == "pre":
            self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._pre -= 1

    def handle_data(self, data: str) -> None:
        if not self._pre:
            self.text.append(data)


def _read(site: Path) -> dict[str, _Page]:
    pages = {}
    for path in sorted(site.rglob("*.html")):
        page = _Page()
        page.feed(path.read_text("utf-8"))
        pages[path.relative_to(site).as_posix()] = page
    return pages


def _broken_links(site: Path, name: str, page: _Page, pages: dict[str, _Page]) -> list[str]:
    problems = []
    for link in page.links:
        parts = urlsplit(link)
        if parts.scheme or parts.netloc or link.startswith(("mailto:", "data:", "javascript:")):
            continue
        target = name
        if parts.path:
            resolved = (site / name).parent / unquote(parts.path)
            if not resolved.exists():
                problems.append(f"{name}: link to a missing file {link}")
                continue
            if resolved.is_dir():
                resolved = resolved / "index.html"
            target = resolved.resolve().relative_to(site.resolve()).as_posix()
        fragment = unquote(parts.fragment)
        if fragment and target in pages and fragment not in pages[target].ids:
            problems.append(f"{name}: link to a missing anchor {link}")
    return problems


def _literal_markup(name: str, page: _Page) -> list[str]:
    if name.startswith("_modules/"):
        return []
    text = "".join(page.text)
    return [
        f"{name}: reST shown as text: ...{text[max(0, m.start() - 30) : m.end() + 30]!r}..."
        for m in LITERAL_MARKUP.finditer(text)
    ]


def check_site(site: Path) -> list[str]:
    """Every problem of the built site at ``site``, one line each (empty when it is clean).

    Parameters
    ----------
    site
        The folder ``sphinx-build -b html`` wrote (``index.html`` at its top).

    Returns
    -------
    list[str]
        ``page: what is wrong`` lines, sorted; literal reST markup and broken internal links.
    """
    pages = _read(site)
    problems = []
    for name, page in pages.items():
        problems += _literal_markup(name, page)
        problems += _broken_links(site, name, page, pages)
    return sorted(set(problems))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python scripts/check_site.py SITE_DIR", file=sys.stderr)
        return 2
    site = Path(argv[0])
    if not (site / "index.html").is_file():
        print(f"error: {site} holds no built site (no index.html)", file=sys.stderr)
        return 2
    problems = check_site(site)
    for line in problems:
        print(f"site: {line}", file=sys.stderr)
    if problems:
        return 1
    print(f"site: {site} has no literal markup and no broken internal link")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
