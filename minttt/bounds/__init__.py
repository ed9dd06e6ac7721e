"""Bounds when a minimum is out of reach: tables found fast (upper bounds, each verified) and lower
bounds proven another way, over long runs that resume.

- :mod:`~minttt.bounds.greedy`: the tree DP, a greedy table level by level, seeded local search,
  the forced search;
- :mod:`~minttt.bounds.neighbourhood`: large-neighbourhood search, parts of a table re-solved
  exactly with MaxSAT under the rest;
- :mod:`~minttt.bounds.search`: a portfolio of those searches on a Dask cluster;
- :mod:`~minttt.bounds.hinted`: a SAT descent from a known table, the table as the solver's phases;
- :mod:`~minttt.bounds.levels`: a lower bound ply by ply, the sum of each table level's minimum;
- :mod:`~minttt.bounds.openings`: a lower bound by decomposition over the first player's openings;
- :mod:`~minttt.bounds.state`: a bounds run's state, as its checkpoint holds it;
- :mod:`~minttt.bounds.runs`: the resumable runs of ``minttt scale`` (one checkpoint each).

Solvers are built in :mod:`minttt.solvers` (RC2 and SAT over arrays, HiGHS): nothing here
constructs one.
"""
