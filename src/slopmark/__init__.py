"""slopmark: measure AI slop and rank the systems that produce it."""

#: The package version: native/Cargo.toml's, which maturin gives the package metadata
#: (tests/test_version.py holds the three equal); reading it from the installed
#: metadata would cost every command ~30 ms of start-up.
__version__ = "0.1.0"

__all__ = ["__version__"]
