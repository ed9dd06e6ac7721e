"""SVG -> PNG, byte for byte reproducible.

Uses cairosvg when it is installed; otherwise a small matplotlib painter that understands the
handful of SVG elements ``minttt.render`` itself writes (``g`` with ``translate``, ``rect``,
``line``, ``circle``, ``path`` made of M/L commands, ``text``). Neither writes a timestamp.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_SVG_NS = "{http://www.w3.org/2000/svg}"


def have_cairosvg() -> bool:
    """True when cairosvg (and its cairo library) can be imported."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


def svg_to_png(svg: str, scale: float = 2.0, *, backend: str = "auto") -> bytes:
    """Rasterise ``svg`` to PNG bytes, ``scale`` pixels per SVG unit.

    ``backend`` is ``auto`` (cairosvg if available), ``cairosvg`` or ``matplotlib``.

    >>> from minttt.render.board import board
    >>> svg_to_png(board("x...o....", move=8))[:8] == PNG_SIGNATURE
    True
    """
    if backend not in ("auto", "cairosvg", "matplotlib"):
        raise ValueError(f"unknown PNG backend {backend!r}")
    if backend == "cairosvg" or (backend == "auto" and have_cairosvg()):
        import cairosvg

        return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return _matplotlib_png(svg, scale)


def _length(value: str | None, default: float = 0.0) -> float:
    if value is None:
        return default
    match = re.match(r"\s*(-?[0-9.]+)", value)
    return float(match.group(1)) if match else default


def _colour(value: str | None) -> str | None:
    if value is None or value == "none":
        return None
    return value


def _matplotlib_png(svg: str, scale: float) -> bytes:
    """Paint our own SVG subset with matplotlib's Agg backend."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Rectangle

    root = ET.fromstring(svg)
    width, height = _length(root.get("width"), 100), _length(root.get("height"), 100)
    dpi = 100
    fig = Figure(figsize=(width * scale / dpi, height * scale / dpi), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    px_to_pt = scale * 72 / dpi  # one SVG unit in points on the canvas

    def walk(node: ET.Element, dx: float, dy: float) -> None:
        tag = node.tag.replace(_SVG_NS, "")
        if tag == "g":
            match = re.match(r"translate\(([-0-9.]+)[ ,]+([-0-9.]+)\)", node.get("transform", ""))
            if match:
                dx, dy = dx + float(match.group(1)), dy + float(match.group(2))
        stroke = _colour(node.get("stroke"))
        sw = _length(node.get("stroke-width"), 1) * px_to_pt
        if tag == "rect":
            fill = _colour(node.get("fill", "#000000"))
            x, y = dx + _length(node.get("x")), dy + _length(node.get("y"))
            w, h = _length(node.get("width")), _length(node.get("height"))
            ax.add_patch(
                Rectangle(
                    (x, y),
                    w,
                    h,
                    facecolor=fill or "none",
                    edgecolor=stroke or "none",
                    linewidth=sw if stroke else 0,
                )
            )
        elif tag == "circle":
            ax.add_patch(
                Circle(
                    (dx + _length(node.get("cx")), dy + _length(node.get("cy"))),
                    _length(node.get("r")),
                    facecolor=_colour(node.get("fill", "#000000")) or "none",
                    edgecolor=stroke or "none",
                    linewidth=sw if stroke else 0,
                )
            )
        elif tag == "line":
            ax.add_line(
                Line2D(
                    [dx + _length(node.get("x1")), dx + _length(node.get("x2"))],
                    [dy + _length(node.get("y1")), dy + _length(node.get("y2"))],
                    color=stroke or "#000000",
                    linewidth=sw,
                    solid_capstyle="round",
                )
            )
        elif tag == "path":
            for seg in re.findall(
                r"M\s*([-0-9.]+)[ ,]+([-0-9.]+)\s*L\s*([-0-9.]+)[ ,]+([-0-9.]+)", node.get("d", "")
            ):
                x1, y1, x2, y2 = (float(v) for v in seg)
                ax.add_line(
                    Line2D(
                        [dx + x1, dx + x2],
                        [dy + y1, dy + y2],
                        color=stroke or "#000000",
                        linewidth=sw,
                        solid_capstyle="round",
                    )
                )
        elif tag == "text":
            anchor = {"start": "left", "middle": "center", "end": "right"}
            ax.text(
                dx + _length(node.get("x")),
                dy + _length(node.get("y")),
                node.text or "",
                fontsize=_length(node.get("font-size"), 12) * px_to_pt,
                fontweight=node.get("font-weight", "normal"),
                color=node.get("fill", "#000000"),
                ha=anchor.get(node.get("text-anchor", "start"), "left"),
                va="baseline",
                family="DejaVu Sans",
            )
        for child in node:
            walk(child, dx, dy)

    walk(root, 0.0, 0.0)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=dpi, metadata={"Software": None})
    return out.getvalue()
