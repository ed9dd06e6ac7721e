"""``minttt reproduce`` and the sections of REPORT.md, each module named for what it holds.

- :mod:`~minttt.report.reproduce`: the staging and the driver;
- :mod:`~minttt.report.steps`: the steps, each split into parts;
- :mod:`~minttt.report.queue`: the work queue that runs the parts side by side;
- :mod:`~minttt.report.long_runs`: the long runs' results reproduce reads, and where it finds
  them;
- :mod:`~minttt.report.sections`: the sections of the steps (counts, tables, verification,
  evolution, certificates), written from their figures;
- :mod:`~minttt.report.sources`: the figures the source documents state, quoted once;
- :mod:`~minttt.report.minima`: the ``beyond`` step (max-wins tables of every variant) and its
  section, assembled from :mod:`~minttt.report.joint` (the joint table for both roles),
  :mod:`~minttt.report.never_lose` (never-lose beside optimal minima),
  :mod:`~minttt.report.enumeration` (every minimal table, its odds) and
  :mod:`~minttt.report.other_games` (the other-games study).
"""
