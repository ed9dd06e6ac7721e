"""Genetic evolution of tic-tac-toe strategies: 000's recipe (``hochmuth``) and 002's (``cornell``).

``runner.run(config)`` evolves; ``runner.evolved_table(state)`` gives the strategy as a table;
``runner.evolution_summary()`` is the deterministic summary ``reproduce`` may call.
"""
