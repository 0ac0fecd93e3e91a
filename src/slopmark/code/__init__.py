"""The code instrument: three products on one measure.

- `measure`: the pipeline that turns source files into erosion, verbosity and
  findings (`slopmark code measure`, `history`, `diff`, `baseline`, `rules`).
- `bench`: the iterative checkpoint benchmark of agents (`slopmark code bench`),
  which measures each checkpoint's workspace with `measure`.
- `study`: repository studies over sampled commits (`slopmark code study`), which
  measure each commit with `measure`.

`bench` and `study` import `measure`; `measure` imports neither.
"""
