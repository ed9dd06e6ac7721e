"""minttt: the smallest lookup tables that play perfect tic-tac-toe.

>>> from minttt.game.rules import Board
>>> Board.parse("x...o....").to_move
1
"""

__version__ = "0.1.0"
