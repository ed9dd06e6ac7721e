"""Names vulture (``vulture minttt .ci/vulture_whitelist.py``, run by .ci/run) reports as unused,
each used from outside minttt's own code, with the reason. A new entry needs a reason too."""

# PySAT's RC2 calls these on its subclass (minttt/solvers/arrays.py: ArrayRC2 overrides them)
_.active_assumps  # noqa
_.filter_assumps  # noqa
_.exhaust_core  # noqa  RC2 calls it when exhaust=True
_.vmap  # noqa  RC2 reads vmap.e2i / vmap.i2e
e2i  # noqa
i2e  # noqa
# PySAT's WCNF fields, filled in by hand (minttt/solvers/pysat_drivers.py: maxsat_instance)
_.hard  # noqa
_.topw  # noqa
# OpenSpiel calls these on a pyspiel.Bot (minttt/integrations/openspiel.py)
_.inform_action  # noqa
_.provides_policy  # noqa
_.step_with_policy  # noqa
# public API: documented and tested, not called inside the package
_.board_full  # noqa  9-board rules: is a small board full (tests/test_nine_rules.py)
_.stabilizer  # noqa  the symmetries that fix a board (tests/test_game.py)
_.stalled  # noqa  scripts/scale_games.py marks a split's stalled parts in bounds.json by it
split_moves  # noqa  scripts/scale_games.py names the moves a stalled part splits by
_.to_networkx  # noqa  the game graph for networkx users (tests/test_graph.py)
first_free  # noqa  the example agent of `minttt verify --player` (README, agent docstring)
# Python and typer call these
__dir__  # noqa  PEP 562: the front door's names
__getattr__  # noqa  PEP 562: lazy front door (minttt/__init__.py, minttt/cli/__init__.py)
reproduce_command  # noqa  registered with typer by its decorator
_.__signature__  # noqa  inspect.signature reads it: typer's view of a command (cli/framework.py)
# IPython calls these to draw a value in a notebook (docs/notebook.ipynb runs them)
_._repr_svg_  # noqa
_._repr_html_  # noqa
# dataclass fields written to JSON by to_dict / asdict (minttt/bounds/state.py, solvers/highs.py)
_.tree_dp  # noqa
_.greedy_entries  # noqa
_.hinted  # noqa
lp_value  # noqa  LPBound: the relaxation's optimum, kept in results/games/bounds.json
