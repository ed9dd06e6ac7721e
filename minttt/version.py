"""The version of minttt, in one place: ``pyproject.toml`` reads it from here (setuptools'
dynamic version), and the table files, exports and checkpoints record it.

>>> from minttt.version import __version__
>>> __version__.count(".")
2
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
