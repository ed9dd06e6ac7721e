"""The catalogue of the small m,n,k games: each game's value and canonical positions, and the
smallest lookup table for X and for O (optimal and never-lose), proven and certified where the
time reaches, bounded otherwise (:mod:`~minttt.catalogue.games`: which games and cells;
:mod:`~minttt.catalogue.cell`: one game worked out; :mod:`~minttt.catalogue.run`: the resumable
run over a Dask cluster, ``minttt catalogue``; :mod:`~minttt.catalogue.check`: the run's state
checked against its evidence, on resume and by ``reproduce``).
"""
