"""From a variant to its instance: the game graph and the formula, in the form the variant calls
for (chosen here, once, by :func:`~minttt.formula.variants.uses_arrays`), and the one check that
a table is a table of a variant (:func:`check_table`), which every table read back passes before
it stands for anything (a checkpoint's best table, ``certify --table``, the bounds report).

>>> from minttt.formula.variants import Variant
>>> inst = instance_for(Variant.parse("second-lookup-entries@mnk:3,4,3"))
>>> inst.arrays, inst.formula.num_vars
(True, 36995)
>>> instance_for(Variant.parse("second-lookup-entries")).arrays
False
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minttt.errors import InputError
from minttt.formula.encode import Formula, encode
from minttt.formula.variants import Variant, uses_arrays
from minttt.game.graph import Graph, graph_for
from minttt.record import Record
from minttt.vocabulary import Encoding, Objective

if TYPE_CHECKING:
    from minttt.formula.arrays import ArrayFormula
    from minttt.game.arrays import ArrayGraph
    from minttt.table.model import Table


class Instance(Record):
    """A variant, its game graph and its formula: objects (:class:`Graph`, :class:`Formula`) or
    arrays (:class:`~minttt.game.arrays.ArrayGraph`, :class:`~minttt.formula.arrays.ArrayFormula`;
    ``arrays``)."""

    FIELDS = ("variant", "graph", "formula", "arrays")
    variant: Variant
    graph: Graph | ArrayGraph
    formula: Formula | ArrayFormula
    arrays: bool

    def __init__(
        self,
        variant: Variant,
        graph: Graph | ArrayGraph,
        formula: Formula | ArrayFormula,
        arrays: bool,
    ) -> None:
        self._fill(variant, graph, formula, arrays)


def instance_for(
    variant: Variant,
    *,
    graph: Graph | ArrayGraph | None = None,
    symmetric: bool = True,
    arrays: bool | None = None,
) -> Instance:
    """``variant``'s graph and formula: the array form for the variants of
    :func:`~minttt.formula.variants.uses_arrays` (symmetric graphs only) and whenever an
    :class:`ArrayGraph` is given, the object form otherwise (``symmetric=False``: the raw graph,
    every key a raw board). A given ``graph`` of the chosen form is used as it is (one of the
    other form is not: the form follows the variant). ``arrays=True`` asks for the array form
    whatever the board (the searches of :mod:`minttt.bounds` work on arrays only). numpy is
    imported for the array form only (the quick commands never load it)."""
    given_arrays = graph is not None and not isinstance(graph, Graph)
    if arrays or given_arrays or (arrays is None and symmetric and uses_arrays(variant)):
        from minttt.formula.arrays import encode_arrays
        from minttt.game.arrays import ArrayGraph, build_array_graph

        g = graph if isinstance(graph, ArrayGraph) else build_array_graph(variant.rules)
        return Instance(variant, g, encode_arrays(g, variant), True)
    objects = graph if isinstance(graph, Graph) else graph_for(variant.rules, symmetric=symmetric)
    return Instance(variant, objects, encode(objects, variant), False)


def table_problem(
    variant: Variant, table: Table, *, size: int | None = None, verify: bool = True
) -> str | None:
    """Why ``table`` is not a perfect table of ``variant`` (game, role, criterion; ``size``
    entries when given; passing the exhaustive verifier unless ``verify`` is false: a caller
    that verifies it elsewhere, later), or ``None`` when it is."""
    from minttt.table.verify import verify_table  # the verifier only where a table is checked

    want = (variant.rules.name, variant.role, variant.criterion)
    if (table.rules.name, table.role, table.criterion) != want:
        return (
            f"a table of {table.rules.name} {table.role} ({table.criterion}), not of {variant.name}"
        )
    if size is not None and table.size != size:
        return f"{table.size} entries, not the {size} recorded"
    if not verify:
        return None
    report = verify_table(table)
    if not report.ok:
        reason = report.counterexample.reason if report.counterexample else "it does not verify"
        return f"it fails minttt verify ({reason})"
    return None


def check_table(
    variant: Variant, table: Table, where: str, *, size: int | None = None, verify: bool = True
) -> Table:
    """``table`` once :func:`table_problem` finds nothing, else InputError ``where: problem``: a
    table read back is input, checked before it stands as a bound or a certificate's minimum."""
    problem = table_problem(variant, table, size=size, verify=verify)
    if problem is not None:
        raise InputError(f"{where}: {problem}")
    return table


def counts_entries(variant: Variant) -> bool:
    """Whether ``variant`` counts a lookup table's entries (the variants a table's size is the
    objective of: checkpoints, ``certify --table``)."""
    return variant.encoding is Encoding.LOOKUP and variant.objective is Objective.ENTRIES


__all__ = ["Instance", "check_table", "counts_entries", "instance_for", "table_problem"]
