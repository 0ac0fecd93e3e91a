"""The built-in executors of `slopmark.executor`: ``local`` (a process pool) and ``ray``."""
