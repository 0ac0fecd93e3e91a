"""slopmark: measure AI slop and rank the systems that produce it."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("slopmark")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
