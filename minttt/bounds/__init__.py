"""Bounds when a minimum is out of reach: tables found fast (upper bounds, each verified) and lower
bounds proven another way, over long runs that resume.

- :mod:`~minttt.bounds.greedy`: the tree DP, a greedy table level by level, seeded local search;
- :mod:`~minttt.bounds.hinted`: a SAT descent from a known table, the table as the solver's phases;
- :mod:`~minttt.bounds.lp`: the LP relaxation as a lower bound (scipy's HiGHS, optional);
- :mod:`~minttt.bounds.long_run`: resumable bounded solves with a checkpoint, decomposition by
  opening, the bounds-over-time plot.
"""
