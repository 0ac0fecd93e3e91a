"""`slopmark code study`: the repository study of SlopCodeBench as a command.

Per repository (a unit of a sweep): the sampled source-modifying commits of
its history with erosion, verbosity, SLOC and callables over the CC threshold
(`measure`). Per study: slopes, the share of repositories that rose first to
last, slope quantiles and the trajectory band over normalised commit position
(`summary`). Reference: Orlanski et al., "SlopCodeBench" (seed 000), §3.3 and
Appendix D (473 repositories × up to 30 sampled commits).
"""
