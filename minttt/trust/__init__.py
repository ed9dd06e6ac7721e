"""The independent pieces: what a reader trusts to trust a certificate, sharing no code with the
pipeline that made it (the game graph, the formulas, the solvers, the bounds).

:mod:`minttt.trust.game` (the rules of m,n,k games and their symmetric graph) and
:mod:`minttt.trust.encoder` (the lookup and tree formulas, a certificate's CNF and a lower-bound
part's CNF) make every shipped CNF again; ``minttt recheck`` checks each proof against it.
"""
