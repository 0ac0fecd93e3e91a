"""The command-line interface: one module per command group; parse → core → format."""
