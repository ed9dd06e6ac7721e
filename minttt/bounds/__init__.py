"""Bounds when a minimum is out of reach: tables found fast (upper bounds, each verified) and lower
bounds proven another way, over long runs that resume.

- :mod:`~minttt.bounds.greedy`: the tree DP, a greedy table level by level, seeded local search;
- :mod:`~minttt.bounds.neighbourhood`: large-neighbourhood search, parts of a table re-solved
  exactly with MaxSAT under the rest;
- :mod:`~minttt.bounds.portfolio`: a portfolio of those searches on a Dask cluster;
- :mod:`~minttt.bounds.hinted`: a SAT descent from a known table, the table as the solver's phases;
- :mod:`~minttt.bounds.levels`: a lower bound ply by ply, the sum of each table level's minimum;
- :mod:`~minttt.bounds.lp`: the LP relaxation and HiGHS's branch and bound as lower bounds (scipy,
  optional);
- :mod:`~minttt.bounds.long_run`: resumable bounded solves with a checkpoint, decomposition by
  opening, the bounds-over-time plot.
"""
