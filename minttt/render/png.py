"""SVG -> PNG with cairosvg, byte for byte reproducible (no timestamp is written).

cairosvg draws through the cairo library (``libcairo2``), which Debian and most Linux images
carry; where it is missing, PNG output says so in one line and SVG output still works.
"""

from __future__ import annotations

from minttt.errors import InputError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def have_cairosvg() -> bool:
    """True when cairosvg (and its cairo library) can be imported."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


def svg_to_png(svg: str, scale: float = 2.0) -> bytes:
    """Rasterise ``svg`` to PNG bytes, ``scale`` pixels per SVG unit.

    >>> from minttt.render.board import board
    >>> svg_to_png(board("x...o....", move=8))[:8] == PNG_SIGNATURE
    True
    """
    try:
        import cairosvg
    except (ImportError, OSError) as exc:
        raise InputError(
            f"PNG output needs cairosvg and the cairo library ({exc}); install the library "
            "(Debian: apt-get install libcairo2) or write .svg"
        ) from None
    data: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return data


__all__ = [
    "PNG_SIGNATURE",
    "have_cairosvg",
    "svg_to_png",
]
