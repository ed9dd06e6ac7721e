"""Playing: players, games and tournaments, search with state counts, the console.

- :mod:`~minttt.play.players`: random, minimax (004), negamax and alpha-beta (001), tree and table
  players, any Python agent (``make_player("spec")``);
- :mod:`~minttt.play.tournament`: one game or many (vectorised), with Wilson intervals and exact
  odds;
- :mod:`~minttt.play.search`: a move by search with the states it explored (001's counts);
- :mod:`~minttt.play.console`: 001's console play; :mod:`~minttt.play.opponents`: who may play
  whom; :mod:`~minttt.play.simavr`: firmware running in simavr, as a player.
"""
