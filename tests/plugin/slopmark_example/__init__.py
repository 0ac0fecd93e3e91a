"""Example slopmark plug-ins, one module each (see docs/extending.md)."""
