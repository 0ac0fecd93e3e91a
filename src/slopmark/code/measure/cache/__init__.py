"""The content cache of the measure pipeline: one SQLite file, three kinds of entry.

- `store`: the file itself (`ResultCache`), keys made from content digests and the
  profile of everything that decides a result.
- `files`: file versions → per-file analyses, measuring only what the cache lacks.
- `reports`: whole tree reports (a warm `measure` of an unchanged tree).
- `rules`: the parsed rule catalog (a warm run parses no YAML).
"""
