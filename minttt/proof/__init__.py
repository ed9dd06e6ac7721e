"""Proofs that no smaller table exists: certificates, and the checkers anyone can rerun.

- :mod:`~minttt.proof.drat`: the DRAT checker (backward, core first; it can write what it found as
  LRAT) and the DIMACS reader; :mod:`~minttt.proof.lrat`: the LRAT checker (one pass over the
  hints). On purpose they import nothing else of minttt and no solver: they share no code with
  what made the proofs. The front door names them ``minttt.drat`` and ``minttt.lrat``.
- :mod:`~minttt.proof.certify`: a certificate for any variant (the CNF "a table of size k-1
  exists", CaDiCaL's DRAT proof that it does not, the size-k table), the index of certificates;
- :mod:`~minttt.proof.drat_trim`: hands a certificate to the external drat-trim checker, and its
  LRAT output to :mod:`~minttt.proof.lrat`.
"""
