"""The measure pipeline: source files → per-file analyses → a tree report.

Each module is named for its role in the pipeline:

- What is measured: `discovery` (which files of a folder, and why not the others),
  `languages` (suffix → grammar, which rules run where), `git` (commits and blobs
  read from the object database), `project` (a project's ``[tool.slopmark]``),
  `sides` (the two sides `code diff` compares), `rules` (the YAML rule pack).
- One file: `native` (the Rust core as the pipeline calls it: one parse per file),
  `fileanalysis` (what one file yields: callables, SLOC, clone digests, rule hits),
  `hits` (which rule hits count: suppressions, ``min_hits``).
- The tree: `metrics` (erosion and verbosity, the formulas), `clones` (clone groups
  across files), `report` (the `TreeReport`), `summary` (a report reduced to its
  totals, updated file by file), `repool` (a report pooled again from the last one
  when a few files changed), `findings` (fingerprinted findings), `baseline`.
- Two trees: `pairing` (which file is which, which lines changed), `compare` (what a
  change added and removed, pure), `suppressions` (what a change does to its own
  measurement).
- One command each (orchestration): `measure_tree` (``code measure``),
  `measure_history` (``code history``), `measure_diff` (``code diff``).
- `cache`: the one content cache (a SQLite file) and what goes through it: per-file
  analyses (`cache.files`), tree reports (`cache.reports`), the rule catalog
  (`cache.rules`).
"""
