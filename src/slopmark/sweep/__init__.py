"""Sweeps: what every executor and every sweeping command share.

An executor plug-in (`slopmark.executors`) runs a sweep's units; the commands
that sweep (a code study, a bench matrix, papers, an eval suite) drive
it. Both sides meet here, below both:

- `drive`: `run_sweep` hands an executor's events to the command and keeps a `Tally`.
- `roster`: units waiting, attempts made, units running (kept by every executor).
- `worker`: the worker side of a unit (its exception as one `Failed` line).
- `parcels`: folders a unit made on its worker, carried back to the driver.
- `address`: a cluster's ``--address`` checked before Ray is given it.
"""
