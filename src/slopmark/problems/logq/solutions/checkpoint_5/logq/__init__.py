"""logq: query structured log files from the command line."""
