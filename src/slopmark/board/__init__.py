"""The board: leaderboards with honest statistics, comparisons, exports and gates."""
