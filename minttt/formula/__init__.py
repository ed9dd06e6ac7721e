"""The formula: 003's encodings of "which positions must a perfect table answer".

- :mod:`~minttt.formula.encode`: ``Variant`` (role, opening, encoding, objective, criterion,
  game) and ``encode(graph, variant) -> Formula`` (hard clauses, objective literals, a name per
  variable), the tree and lookup encodings;
- :mod:`~minttt.formula.files`: the exchange files, WCNF and SMT-LIB 2.
"""
