"""The game: rules, positions and the game graph, the first stage of the data line.

- :mod:`~minttt.game.rules`: ``Rules`` (3x3, misère, any m,n,k board; lines, symmetries, hashing)
  and ``Board``, an immutable position;
- :mod:`~minttt.game.graph`: ``Graph`` over canonical (or raw) positions with minimax values and
  allowed moves; ``build_graph``, ``graph_for`` and the one walk over a table's own play;
- :mod:`~minttt.game.arrays`: the same graph built level by level with numpy (above 12 cells);
- :mod:`~minttt.game.counts`: every count of the source documents, from the graph.
"""
