"""The iterative checkpoint benchmark (SlopCodeBench's setting).

An agent implements checkpoint 1 of a problem's spec in an empty workspace,
then extends its own code checkpoint by checkpoint. After each checkpoint the
problem's hidden tests run in a fresh, network-less sandbox and the workspace
is measured (erosion, verbosity). `problem` reads the public problem layout,
`slopmark.sandbox` runs commands under limits, `agents` are the registry of agents,
`runner` drives a run directory, `scoring` turns results into solve rates and
trajectories.
"""
