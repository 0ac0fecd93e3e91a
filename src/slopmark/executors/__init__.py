"""The built-in executors of `slopmark.executor`: ``local`` (a process pool) and ``ray``.

This is a plug-in package: the executor registry imports every module in it, so it
holds the executors alone; what they share with the commands that sweep is in
`slopmark.sweep`.
"""
