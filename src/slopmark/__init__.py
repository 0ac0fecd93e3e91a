"""slopmark: measure AI slop and rank the systems that produce it."""

#: The package version (kept equal to pyproject.toml's by a test; reading it from
#: the installed metadata would cost every command ~30 ms of start-up).
__version__ = "0.1.0"

__all__ = ["__version__"]
