"""Scientific slop: six measures of broken reasoning over a paper's LaTeX source.

`latex` turns a source tree into a `Document` (the structure and prose views
of the "Science or Slop?" paper, Appendix A); `measures` computes each
measure on a Document; `score` aggregates them (Eq. 7); `findings` locates
every instance; `pdf` rebuilds a LaTeX-like source from a PDF.
"""
