"""Check a built docs site: no reST markup shown as text, no broken internal link or anchor; and
the page sources a newcomer reads: a short README, no overlong sentence, no hand-copied bound.

    sphinx-build -W -n docs _build/html && python scripts/check_site.py _build/html

Sphinx's strict build already fails on a reference it cannot resolve; this reads the HTML it wrote
and fails on what a reader would still meet: a role or double backquote printed literally
(``:class:`Board``` where a link belongs: reST markup that did not render) and a link to a page,
file or ``#anchor`` of the site that is not there. Pages of source code (``_modules/``, viewcode)
show the code as written and are read for links only. External links are not followed (the build
runs offline).

The sources beside it (:func:`check_pages`): the README at most ``README_LINES`` lines, no
sentence of the README or of a guide over ``SENTENCE_WORDS`` words, and no 4x4 bound on a page
(README, ``docs/**/*.md``) that ``results/games/bounds.json`` does not hold: the guides take the
frontier's figures from it when the site is built (``docs/conf.py``), so a bound typed by hand
goes stale.

Exit 0 when the site is clean, 1 with each problem on a line of its own, 2 for a bad path.
"""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
README_LINES = 90
SENTENCE_WORDS = 60
# a stated bound: "460..1,287" (or an en dash), or "at least 460"
RANGE = re.compile(r"(?<![\w.,])(\d[\d,]*\d|\d)\s*(?:\.\.|\u2013)\s*(\d[\d,]*\d|\d)(?![\w.])")
AT_LEAST = re.compile(r"\bat least (\d[\d,]*\d|\d)\b")
FRONTIER = re.compile(r"4x4|mnk:4,4|four in a row")

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


def sentences(text: str) -> list[str]:
    """The sentences of a Markdown page: code blocks dropped, links read as their text, a list
    item, a table row, a heading and a paragraph each ending a sentence.

    Parameters
    ----------
    text
        The page's Markdown.

    Returns
    -------
    list[str]
        Each sentence, its white space as written.
    """
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    text = re.sub(r"^:::.*?^:::", "", text, flags=re.S | re.M)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"^\s*(?:[-*#]+|\d+\.)\s", "\n\n", text, flags=re.M).replace("|", "\n\n")
    parts = re.split(r"(?<=[.!?])\s+|\n\s*\n", text)
    return [s for s in parts if s.strip()]


def _held_bounds(root: Path) -> tuple[set[tuple[int, int]], set[int]]:
    """The (lower, upper) pairs and the lower bounds ``results/games/bounds.json`` holds."""
    variants = json.loads((root / "results" / "games" / "bounds.json").read_text("utf-8"))
    pairs = {(r["lower"], r["upper"]) for r in variants["variants"].values()}
    return pairs, {lower for lower, _ in pairs}


def stale_bounds(root: Path, page: Path) -> list[str]:
    """The 4x4 bounds ``page`` states that ``bounds.json`` does not hold.

    A paragraph that names 4x4 (``4x4``, ``mnk:4,4``, "four in a row") may state a range
    ``L..U`` only as the lower and upper bound of one variant, and "at least L" only as a lower
    bound of one.

    Parameters
    ----------
    root
        The checkout (``results/games/bounds.json`` under it).
    page
        A Markdown page.

    Returns
    -------
    list[str]
        ``page: ...`` lines, one per stale figure.
    """
    pairs, lowers = _held_bounds(root)
    name = page.relative_to(root).as_posix() if page.is_relative_to(root) else page.name
    problems = []
    for paragraph in re.split(r"\n\s*\n", page.read_text("utf-8")):
        if not FRONTIER.search(paragraph):
            continue
        for low, high in RANGE.findall(paragraph):
            if (_number(low), _number(high)) not in pairs:
                problems.append(f"{name}: a 4x4 bound {low}..{high} that bounds.json does not hold")
        for low in AT_LEAST.findall(paragraph):
            if _number(low) not in lowers:
                problems.append(f"{name}: a 4x4 bound 'at least {low}' bounds.json does not hold")
    return problems


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def check_pages(root: Path = ROOT) -> list[str]:
    """Every problem of the page sources under ``root``, one line each (empty when clean).

    Parameters
    ----------
    root
        The checkout: ``README.md``, ``docs/``, ``results/games/bounds.json``.

    Returns
    -------
    list[str]
        The README over ``README_LINES`` lines, a sentence of the README or of a guide over
        ``SENTENCE_WORDS`` words, and every stale 4x4 bound (:func:`stale_bounds`).
    """
    readme = root / "README.md"
    problems = []
    if (lines := len(readme.read_text("utf-8").splitlines())) > README_LINES:
        problems.append(f"README.md: {lines} lines, more than {README_LINES}")
    for page in [readme, *sorted((root / "docs" / "guides").glob("*.md"))]:
        for sentence in sentences(page.read_text("utf-8")):
            if (words := len(sentence.split())) > SENTENCE_WORDS:
                start = " ".join(sentence.split()[:8])
                problems.append(
                    f"{page.relative_to(root)}: a sentence of {words} words: {start}..."
                )
    for page in [readme, *sorted((root / "docs").rglob("*.md"))]:
        problems += stale_bounds(root, page)
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python scripts/check_site.py SITE_DIR", file=sys.stderr)
        return 2
    site = Path(argv[0])
    if not (site / "index.html").is_file():
        print(f"error: {site} holds no built site (no index.html)", file=sys.stderr)
        return 2
    problems = check_site(site) + check_pages()
    for line in problems:
        print(f"site: {line}", file=sys.stderr)
    if problems:
        return 1
    print(f"site: {site} has no literal markup and no broken internal link; the pages read clean")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
