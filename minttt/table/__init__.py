"""The table, what ships, and what checks it.

- :mod:`~minttt.table.model`: ``Table`` (the ``minttt-table/1`` file), ``load_table``,
  ``save_table``, lookup by canonical or raw board, the table as a player;
- :mod:`~minttt.table.verify`: the exhaustive verifier (shares nothing with the solvers);
- :mod:`~minttt.table.odds`: exact win/draw/loss odds as fractions;
- :mod:`~minttt.table.export`: C and Python exports; :mod:`~minttt.table.firmware`: ATmega328P
  firmware.
"""
