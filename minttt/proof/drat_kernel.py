"""The DRAT checker of :mod:`minttt.proof.drat`, compiled (numba): the same method, step for
step, as its reference in Python (``drat._Checker``: backward checking, core first, two watched
literals, a top-level trail), on arrays. ``drat.check_parsed`` runs it on large proofs.

*Step for step* means the same clauses propagate in the same order, the same conflicts are found
and the same clauses marked, so every verdict, core, failing lemma and LRAT line is the
reference's (the tests compare them on every shipped certificate and every hostile proof). To
keep that order, the watch lists are doubly linked lists of *nodes*: clause ``c`` owns nodes
``2c`` and ``2c + 1``, one in the list of each literal it watches; a list is appended at its tail
and walked from its head, and a node leaves it in place, as an item leaves a Python list. Four
families of lists: long clauses and binary ones (:data:`LONG`, :data:`BINARY`), each unmarked or
marked (+ 1: in the core, propagated first).

Literal ``x`` indexes the value and list arrays at ``x + top`` (``top``: the largest variable).
The state is one tuple of arrays (:func:`new_state`); its scalars live in ``sc`` (``S_*``).
Imports numpy and numba only; the first call of a session loads the compiled code from numba's
cache (about a second), so small proofs stay with the reference.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LONG, BINARY = 0, 2  # list families; + 1 when the clause is marked (in the core)
ADD, DELETE = 0, 1
#: the scalars: trail length, where the last lemma's propagation began, events recorded, hint
#: pool used, lemmas checked, by RAT, deletions ignored, lemmas failed
S_TLEN, S_WAVE, S_EVLEN, S_HLEN, S_CORE, S_RAT, S_IGNORED, S_FAILED = range(8)


def new_state(top: int, start: np.ndarray, lits: np.ndarray, pivot: np.ndarray) -> tuple:
    """The checker's state for clauses ``lits[start[c]:start[c + 1]]`` over variables 1..top:
    nothing assigned, no clause present, none marked."""
    size = 2 * top + 1
    ncl = start.size - 1
    return (
        np.int64(top),
        np.int64(size),
        np.zeros(16, np.int64),
        np.zeros(size, np.int8),  # val: 1 true, -1 false, 0 unassigned, at x + top
        np.full(top + 1, -1, np.int64),  # reason: the clause that implied the variable
        np.zeros(top + 1, np.int64),  # trail
        np.zeros(top + 1, np.uint8),  # in_top: on the top-level trail
        np.zeros(top + 1, np.uint8),  # cone: its reasons are all marked
        np.zeros(top + 1, np.uint8),  # seen (analysis)
        np.zeros(top + 1, np.int64),  # tpos: position on the top-level trail
        np.full(top + 1, -1, np.int64),  # lpos: position on a lemma's trail (hints)
        np.zeros(size, np.uint8),  # lmark: literal marks (tautologies)
        start,
        lits.astype(np.int32),
        np.zeros(ncl, np.uint8),
        np.zeros(ncl, np.uint8),  # active, marked
        pivot,
        np.full(4 * size, -1, np.int32),
        np.full(4 * size, -1, np.int32),  # list head, tail
        np.full(2 * ncl, -1, np.int32),
        np.full(2 * ncl, -1, np.int32),  # node next, previous
        np.full(2 * ncl, -1, np.int32),  # node owner: its list
    )


@njit(cache=True, inline="always")
def _push(head, tail, nxt, prv, owner, lst, node):
    t = tail[lst]
    prv[node] = t
    nxt[node] = -1
    if t >= 0:
        nxt[t] = node
    else:
        head[lst] = node
    tail[lst] = node
    owner[node] = lst


@njit(cache=True, inline="always")
def _unlink(head, tail, nxt, prv, owner, node):
    lst = owner[node]
    p = prv[node]
    q = nxt[node]
    if p >= 0:
        nxt[p] = q
    else:
        head[lst] = q
    if q >= 0:
        prv[q] = p
    else:
        tail[lst] = p
    owner[node] = -1


@njit(cache=True, inline="always")
def _assign(val, reason, trail, sc, top, x, cid):
    val[x + top] = 1
    val[-x + top] = -1
    reason[abs(x)] = cid
    trail[sc[S_TLEN]] = x
    sc[S_TLEN] += 1


@njit(cache=True)
def propagate(st, qhead):  # noqa: C901 - the hot loop, inlined by hand
    """Unit propagation from ``trail[qhead]``, marked clauses first; the conflict's id or -1."""
    top, size, sc, val, reason, trail = st[0], st[1], st[2], st[3], st[4], st[5]
    start, lits = st[12], st[13]
    head, tail, nxt, prv, owner = st[17], st[18], st[19], st[20], st[21]
    qm = qhead
    qu = qhead
    tlen = sc[S_TLEN]
    while True:
        end = tlen
        if qm < end:
            f = -trail[qm]
            qm += 1
            fam = 1
        elif qu < end:
            f = -trail[qu]
            qu += 1
            fam = 0
        else:
            return -1
        node = head[(BINARY + fam) * size + f + top]
        while node >= 0:
            cid = node >> 1
            s = start[cid]
            o = lits[s]
            if o == f:
                o = lits[s + 1]
            vo = val[o + top]
            if vo == -1:
                return cid
            if vo == 0:
                val[o + top] = 1
                val[-o + top] = -1
                reason[abs(o)] = cid
                trail[tlen] = o
                tlen += 1
                sc[S_TLEN] = tlen
            node = nxt[node]
        lst = (LONG + fam) * size + f + top
        node = head[lst]
        while node >= 0:
            following = nxt[node]
            cid = node >> 1
            s = start[cid]
            e = start[cid + 1]
            other = lits[s]
            if other == f:
                other = lits[s + 1]
                lits[s] = other
                lits[s + 1] = f
            vo = val[other + top]
            if vo != 1:
                moved = False
                for k in range(s + 2, e):
                    x = lits[k]
                    if val[x + top] != -1:
                        lits[s + 1] = x
                        lits[k] = f
                        # _unlink and _push by hand: called, they cost their arrays'
                        # reference counts on every move (1.0 s for 0.71 s on the largest
                        # misere certificate). Out of this list (at ``lst``) ...
                        p = prv[node]
                        if p >= 0:
                            nxt[p] = following
                        else:
                            head[lst] = following
                        if following >= 0:
                            prv[following] = p
                        else:
                            tail[lst] = p
                        # ... onto the tail of x's
                        to = (LONG + fam) * size + x + top
                        t = tail[to]
                        prv[node] = t
                        nxt[node] = -1
                        if t >= 0:
                            nxt[t] = node
                        else:
                            head[to] = node
                        tail[to] = node
                        owner[node] = to
                        moved = True
                        break
                if not moved:
                    if vo == -1:
                        return cid
                    val[other + top] = 1
                    val[-other + top] = -1
                    reason[abs(other)] = cid
                    trail[tlen] = other
                    tlen += 1
                    sc[S_TLEN] = tlen
            node = following


@njit(cache=True, inline="always")
def _backtrack(st, length):
    top, sc, val, trail = st[0], st[2], st[3], st[5]
    for i in range(length, sc[S_TLEN]):
        x = trail[i]
        val[x + top] = 0
        val[-x + top] = 0
    sc[S_TLEN] = length


@njit(cache=True, inline="always")
def _truncate_top(st, length):
    sc, trail, in_top, cone = st[2], st[5], st[6], st[7]
    for i in range(length, sc[S_TLEN]):
        v = abs(trail[i])
        in_top[v] = 0
        cone[v] = 0
    _backtrack(st, length)


@njit(cache=True)
def _propagate_top(st, x, cid):
    top, sc, val, reason, trail, in_top, tpos = st[0], st[2], st[3], st[4], st[5], st[6], st[9]
    base = sc[S_TLEN]
    _assign(val, reason, trail, sc, top, x, cid)
    conflict = propagate(st, base)
    for position in range(base, sc[S_TLEN]):
        v = abs(trail[position])
        in_top[v] = 1
        tpos[v] = position
    return conflict


@njit(cache=True)
def activate(st, cid):  # noqa: C901 - one case per clause size, as the reference
    """Make ``cid`` present at top level: watch it, propagate if unit. Conflict id or -1."""
    top, size, val = st[0], st[1], st[3]
    start, lits, active, marked = st[12], st[13], st[14], st[15]
    head, tail, nxt, prv, owner = st[17], st[18], st[19], st[20], st[21]
    active[cid] = 1
    s = start[cid]
    n = start[cid + 1] - s
    if n == 0:
        return cid
    if n == 1:
        x = lits[s]
        if val[x + top] == -1:
            return cid
        if val[x + top] == 0:
            return _propagate_top(st, x, cid)
        return -1
    fam = marked[cid]
    if n == 2:
        a = lits[s]
        b = lits[s + 1]
        _push(head, tail, nxt, prv, owner, (BINARY + fam) * size + a + top, 2 * cid)
        _push(head, tail, nxt, prv, owner, (BINARY + fam) * size + b + top, 2 * cid + 1)
        if val[a + top] == -1 and val[b + top] == -1:
            return cid
        if val[a + top] == -1 and val[b + top] == 0:
            a, b = b, a
        if val[b + top] == -1 and val[a + top] == 0:
            return _propagate_top(st, a, cid)
        return -1
    if val[lits[s] + top] == -1 or val[lits[s + 1] + top] == -1:
        # a stable sort: true, then unassigned, then false
        tmp = lits[s : s + n].copy()
        j = s
        for want in (1, 0, -1):
            for k in range(n):
                if val[tmp[k] + top] == want:
                    lits[j] = tmp[k]
                    j += 1
    _push(head, tail, nxt, prv, owner, (LONG + fam) * size + lits[s] + top, 2 * cid)
    _push(head, tail, nxt, prv, owner, (LONG + fam) * size + lits[s + 1] + top, 2 * cid + 1)
    v0 = val[lits[s] + top]
    if v0 == -1:
        return cid
    if val[lits[s + 1] + top] == -1 and v0 == 0:
        return _propagate_top(st, lits[s], cid)
    return -1


@njit(cache=True, inline="always")
def _unwatch(st, cid):
    start, head, tail, nxt, prv, owner = st[12], st[17], st[18], st[19], st[20], st[21]
    if start[cid + 1] - start[cid] >= 2:
        _unlink(head, tail, nxt, prv, owner, 2 * cid)
        _unlink(head, tail, nxt, prv, owner, 2 * cid + 1)


@njit(cache=True, inline="always")
def deactivate(st, cid):
    """Take ``cid`` out of the database (out of its watch lists)."""
    active = st[14]
    if not active[cid]:
        return
    active[cid] = 0
    _unwatch(st, cid)


@njit(cache=True)
def mark(st, cid):
    """Put ``cid`` in the core; from now on it propagates in the marked (first) pass."""
    top, size = st[0], st[1]
    start, lits, active, marked = st[12], st[13], st[14], st[15]
    head, tail, nxt, prv, owner = st[17], st[18], st[19], st[20], st[21]
    if marked[cid]:
        return
    marked[cid] = 1
    if not active[cid]:
        return
    s = start[cid]
    n = start[cid + 1] - s
    if n < 2:
        return
    _unwatch(st, cid)
    fam = (BINARY if n == 2 else LONG) + 1
    _push(head, tail, nxt, prv, owner, fam * size + lits[s] + top, 2 * cid)
    _push(head, tail, nxt, prv, owner, fam * size + lits[s + 1] + top, 2 * cid + 1)


@njit(cache=True, inline="always")
def top_reason_pos(st, cid):
    """Trail position of the top-level literal ``cid`` is the reason of, or -1."""
    reason, in_top, tpos, start, lits = st[4], st[6], st[9], st[12], st[13]
    for k in range(start[cid], start[cid + 1]):
        v = abs(lits[k])
        if in_top[v] and reason[v] == cid:
            return tpos[v]
    return -1


@njit(cache=True, inline="always")
def _grow(a, need):
    if need <= a.size:
        return a
    b = np.empty(max(need, 2 * a.size), a.dtype)
    b[: a.size] = a
    return b


@njit(cache=True)
def mark_conflict(st, cid):
    """Mark ``cid`` and every reason the conflict depends on."""
    reason, in_top, cone, seen, start, lits, marked = (
        st[4],
        st[6],
        st[7],
        st[8],
        st[12],
        st[13],
        st[15],
    )
    mark(st, cid)
    stack = np.empty(64, np.int64)
    sp = 0
    n = start[cid + 1] - start[cid]
    stack = _grow(stack, n)
    for k in range(n):
        stack[sp] = lits[start[cid] + k]
        sp += 1
    visited = np.empty(64, np.int64)
    nv = 0
    while sp > 0:
        sp -= 1
        x = stack[sp]
        v = abs(x)
        if seen[v] or cone[v]:
            continue
        seen[v] = 1
        visited = _grow(visited, nv + 1)
        visited[nv] = v
        nv += 1
        r = reason[v]
        if r >= 0:
            if not marked[r]:
                mark(st, r)
            n = start[r + 1] - start[r]
            stack = _grow(stack, sp + n)
            for k in range(n):
                stack[sp] = lits[start[r] + k]
                sp += 1
    for i in range(nv):
        v = visited[i]
        seen[v] = 0
        if in_top[v]:
            cone[v] = 1


@njit(cache=True)
def hints_for(st, conflict, base, lemma):
    """The clauses that unit-propagate to ``conflict`` in trail order, then ``conflict``."""
    sc, reason, trail, in_top, seen, tpos, lpos, start, lits = (
        st[2],
        st[4],
        st[5],
        st[6],
        st[8],
        st[9],
        st[10],
        st[12],
        st[13],
    )
    tlen = sc[S_TLEN]
    for i in range(base, tlen):
        lpos[abs(trail[i])] = i
    visited = np.empty(64, np.int64)
    nv = 0
    for x in lemma:
        v = abs(x)
        if not seen[v]:
            seen[v] = 1
            visited = _grow(visited, nv + 1)
            visited[nv] = v
            nv += 1
    stack = np.empty(64, np.int64)
    sp = 0
    n = start[conflict + 1] - start[conflict]
    stack = _grow(stack, n)
    for k in range(n):
        stack[sp] = abs(lits[start[conflict] + k])
        sp += 1
    keys = np.empty(64, np.int64)
    nk = 0
    big = np.int64(start.size)
    while sp > 0:
        sp -= 1
        v = stack[sp]
        if seen[v]:
            continue
        seen[v] = 1
        visited = _grow(visited, nv + 1)
        visited[nv] = v
        nv += 1
        r = reason[v]
        if r >= 0 and r != conflict:
            p = lpos[v] if lpos[v] >= 0 else (tpos[v] if in_top[v] else -1)
            keys = _grow(keys, nk + 1)
            keys[nk] = (p + 1) * big + r
            nk += 1
            n = start[r + 1] - start[r]
            stack = _grow(stack, sp + n)
            for k in range(n):
                stack[sp] = abs(lits[start[r] + k])
                sp += 1
    for i in range(nv):
        seen[visited[i]] = 0
    for i in range(base, tlen):
        lpos[abs(trail[i])] = -1
    out = np.sort(keys[:nk]) % big
    res = np.empty(nk + 1, np.int64)
    res[:nk] = out
    res[nk] = conflict
    return res


@njit(cache=True, inline="always")
def _mark_conflict_lit(st, x):
    reason, cone = st[4], st[7]
    v = abs(x)
    r = reason[v]
    if r >= 0 and not cone[v]:
        mark_conflict(st, r)


@njit(cache=True)
def rup(st, lemma, want_hints):
    """Is ``lemma`` implied by unit propagation? Marks what the conflict used; with
    ``want_hints``, also the clauses of the refutation (else an empty array)."""
    top, sc, val, reason, trail = st[0], st[2], st[3], st[4], st[5]
    hints = np.empty(0, np.int64)
    for x in lemma:
        if val[x + top] == 1:
            if want_hints:
                hints = hints_for(st, reason[abs(x)], sc[S_TLEN], lemma)
            _mark_conflict_lit(st, x)
            return True, hints
    base = sc[S_TLEN]
    for x in lemma:
        if val[-x + top] == 0:
            val[-x + top] = 1
            val[x + top] = -1
            reason[abs(x)] = -1
            trail[sc[S_TLEN]] = -x
            sc[S_TLEN] += 1
    conflict = propagate(st, base)
    if conflict >= 0:
        if want_hints:
            hints = hints_for(st, conflict, base, lemma)
        mark_conflict(st, conflict)
    _backtrack(st, base)
    return conflict >= 0, hints


@njit(cache=True)
def occurrences(start, lits, top):
    """Each literal's clauses, in clause order (CSR over ``x + top``)."""
    count = np.zeros(2 * top + 2, np.int64)
    for k in range(lits.size):
        count[lits[k] + top + 1] += 1
    ptr = np.cumsum(count)
    fill = ptr[:-1].copy()
    ids = np.empty(lits.size, np.int64)
    for cid in range(start.size - 1):
        for k in range(start[cid], start[cid + 1]):
            x = lits[k] + top
            ids[fill[x]] = cid
            fill[x] += 1
    return ptr, ids


@njit(cache=True, inline="always")
def _resolvent(lits, s, e, o_s, o_e, p):
    """The lemma ``lits[s:e]`` and the clause ``lits[o_s:o_e]`` less ``-p``, one after the other."""
    res = np.empty(e - s + o_e - o_s, np.int64)
    n = 0
    for k in range(s, e):
        res[n] = lits[k]
        n += 1
    for k in range(o_s, o_e):
        if lits[k] != -p:
            res[n] = lits[k]
            n += 1
    return res[:n]


@njit(cache=True, inline="always")
def _is_tautology(res, lmark, top):
    taut = False
    for x in res:
        lmark[x + top] = 1
    for x in res:
        if lmark[-x + top]:
            taut = True
    for x in res:
        lmark[x + top] = 0
    return taut


@njit(cache=True)
def rat(st, cid, occ_ptr, occ_ids):
    """RAT on the lemma's first literal against every present clause holding its negation."""
    top, lmark, start, lits, active, pivot = st[0], st[11], st[12], st[13], st[14], st[16]
    s = start[cid]
    e = start[cid + 1]
    if e == s:
        return False
    p = pivot[cid]
    for i in range(occ_ptr[-p + top], occ_ptr[-p + top + 1]):
        other = occ_ids[i]
        if not active[other] or other == cid:
            continue
        res = _resolvent(lits, s, e, start[other], start[other + 1], p)
        if _is_tautology(res, lmark, top):
            continue
        ok, _ = rup(st, res, False)
        if not ok:
            return False
        mark(st, other)
    return True


@njit(cache=True)
def load_formula(st, nformula, taut):
    """Activate the formula's clauses; the first top-level conflict's clause id, or -1."""
    conflict = -1
    for cid in range(nformula):
        if conflict < 0 and not taut[cid]:
            conflict = activate(st, cid)
    return conflict


@njit(cache=True)
def forward(st, lo, hi, kind, step_cid, taut, del_ptr, del_ids, ev, ev_index):
    """Steps ``lo..hi``: ``(conflict id or -1, index of an empty clause met or -1)``."""
    sc, active = st[2], st[14]
    for index in range(lo, hi):
        if kind[index] == ADD:
            cid = step_cid[index]
            if cid < 0:
                return -1, index
            ev[sc[S_EVLEN]] = cid * 2
            ev_index[sc[S_EVLEN]] = index
            sc[S_EVLEN] += 1
            if taut[cid]:
                continue
            sc[S_WAVE] = sc[S_TLEN]
            conflict = activate(st, cid)
            if conflict >= 0:
                return conflict, -1
        else:
            cid = -1
            for i in range(del_ptr[index + 1] - 1, del_ptr[index] - 1, -1):
                if active[del_ids[i]]:
                    cid = del_ids[i]
                    break
            if cid < 0:
                continue
            if top_reason_pos(st, cid) >= 0:
                sc[S_IGNORED] += 1
                continue
            deactivate(st, cid)
            ev[sc[S_EVLEN]] = cid * 2 + 1
            ev_index[sc[S_EVLEN]] = index
            sc[S_EVLEN] += 1
    return -1, -1


@njit(cache=True)
def backward(
    st,
    lo,
    hi,
    ev,
    ev_index,
    want_hints,
    h_start,
    h_len,
    hpool,
    core_steps,
    failures,
    occ_ptr,
    occ_ids,
):
    """Events ``lo..hi`` of the reversed event list. Returns the hint pool (grown) and 0, or 1
    when restoring a deleted clause conflicted (an internal error)."""
    sc, marked, start, lits = st[2], st[15], st[12], st[13]
    n = sc[S_EVLEN]
    for position in range(lo, hi):
        e = ev[n - 1 - position]
        cid = e >> 1
        index = ev_index[n - 1 - position]
        if e & 1:
            if activate(st, cid) >= 0:
                return hpool, occ_ptr, occ_ids, 1
            continue
        if position == 0:
            deactivate(st, cid)
            _truncate_top(st, sc[S_WAVE])
        else:
            pos = top_reason_pos(st, cid)
            deactivate(st, cid)
            if pos >= 0:
                _truncate_top(st, pos)
        if not marked[cid]:
            continue
        core_steps[sc[S_CORE]] = index
        sc[S_CORE] += 1
        ok, hints = rup(st, lits[start[cid] : start[cid + 1]], want_hints)
        if ok:
            if want_hints:
                hpool = _grow(hpool, sc[S_HLEN] + hints.size)
                h_start[cid] = sc[S_HLEN]
                h_len[cid] = hints.size
                hpool[sc[S_HLEN] : sc[S_HLEN] + hints.size] = hints
                sc[S_HLEN] += hints.size
            continue
        if occ_ptr.size == 0:
            occ_ptr, occ_ids = occurrences(start, lits, st[0])
        if rat(st, cid, occ_ptr, occ_ids):
            sc[S_RAT] += 1
            continue
        failures[sc[S_FAILED]] = index
        sc[S_FAILED] += 1
    return hpool, occ_ptr, occ_ids, 0


@njit(cache=True, inline="always")
def _mix(x):
    z = np.uint64(x & 0xFFFFFFFFFFFFFFFF) * np.uint64(0x9E3779B97F4A7C15)
    z ^= z >> np.uint64(29)
    z *= np.uint64(0xBF58476D1CE4E5B9)
    return z ^ (z >> np.uint64(32))


@njit(cache=True, inline="always")
def _distinct(src, a, b, lits, n, lmark, top):
    """Append ``src[a:b]`` without repeats to ``lits`` at ``n``, marking each literal kept:
    ``(new n, hash of the set, a tautology)``."""
    h = np.uint64(0)
    begin = n
    for k in range(a, b):
        x = src[k]
        if not lmark[x + top]:
            lmark[x + top] = 1
            lits[n] = x
            n += 1
            h += _mix(x)
    taut = False
    for k in range(begin, n):
        if lmark[-lits[k] + top]:
            taut = True
    return n, h, taut


@njit(cache=True, inline="always")
def _same_clauses(start, lits, chain, c, size, lmark, top, found):
    """The clauses from ``c`` down its ``chain`` holding just the marked ``size`` literals,
    latest first: ``(found, how many)``."""
    nf = 0
    while c >= 0:
        if start[c + 1] - start[c] == size:
            same = True
            for k in range(start[c], start[c + 1]):
                if not lmark[lits[k] + top]:
                    same = False
                    break
            if same:
                found = _grow(found, nf + 1)
                found[nf] = c
                nf += 1
        c = chain[c]
    return found, nf


@njit(cache=True)
def prepare(top, f_start, f_lits, s_kind, s_start, s_lits):
    """The clauses the forward pass may create (the formula's, then each non-empty lemma's),
    each without repeated literals (first occurrences kept, in order), and for each deletion
    the clauses with the same literals created before it, in order (the reference's
    ``key_to_ids``). ``(start, lits, taut, pivot, step_cid, del_ptr, del_ids)``."""
    nformula = f_start.size - 1
    nsteps = s_kind.size
    ncl = nformula
    for i in range(nsteps):
        if s_kind[i] == ADD and s_start[i + 1] > s_start[i]:
            ncl += 1
    start = np.zeros(ncl + 1, np.int64)
    lits = np.empty(f_lits.size + s_lits.size, np.int64)
    taut = np.zeros(ncl, np.uint8)
    pivot = np.zeros(ncl, np.int64)
    step_cid = np.full(nsteps, -1, np.int64)
    lmark = np.zeros(2 * top + 1, np.uint8)
    chain = np.full(ncl, -1, np.int64)  # the previous clause with the same hash
    last = {np.uint64(0): np.int64(-1)}  # the latest clause of each hash
    del_ptr = np.zeros(nsteps + 1, np.int64)
    del_ids = np.empty(16, np.int64)
    found = np.empty(16, np.int64)
    nd = n = cid = 0
    for i in range(-nformula, nsteps):
        if i < 0:  # a clause of the formula (never f_start[i + nformula] past its end: numba
            # checks no bounds, and a read past an array's last page is a segmentation fault)
            src, a, b = f_lits, f_start[i + nformula], f_start[i + nformula + 1]
        else:
            src, a, b = s_lits, s_start[i], s_start[i + 1]
            if s_kind[i] == ADD and b == a:  # the empty clause: never created
                del_ptr[i + 1] = nd
                continue
        begin = n
        n, h, t = _distinct(src, a, b, lits, n, lmark, top)
        c = last[h] if h in last else -1  # noqa: SIM401 - numba's dict.get gives an Optional
        if i < 0 or s_kind[i] == ADD:
            start[cid + 1] = n
            taut[cid] = t
            pivot[cid] = src[a] if b > a else 0
            chain[cid] = c
            last[h] = cid
            if i >= 0:
                step_cid[i] = cid
            cid += 1
        else:  # a deletion: its clauses, in order; its literals are not kept
            found, nf = _same_clauses(start, lits, chain, c, n - begin, lmark, top, found)
            del_ids = _grow(del_ids, nd + nf)
            for k in range(nf):
                del_ids[nd + k] = found[nf - 1 - k]
            nd += nf
        for k in range(begin, n):
            lmark[lits[k] + top] = 0
        if i >= 0:
            del_ptr[i + 1] = nd
            if s_kind[i] == DELETE:
                n = begin
    return start, lits[:n].copy(), taut, pivot, step_cid, del_ptr, del_ids[:nd].copy()


LOAD, FORWARD, CONFLICT, BACKWARD = range(4)  # the phases of :func:`run`


@njit(cache=True)
def run(phase, st, lo, hi, steps, work, hpool, occ_ptr, occ_ids):
    """One phase of the check, the single entry point from Python (numba loads one compiled
    library, not one per phase). ``steps``: ``(kinds, step_cid, taut, del_ptr, del_ids)``;
    ``work``: ``(events, event_steps, want_hints, h_start, h_len, checked, failures)``.

    * LOAD: the formula's ``lo`` clauses made present; ``(conflict or -1, -1, ...)``;
    * FORWARD: steps ``lo..hi``; ``(conflict or -1, an empty clause met or -1, ...)``;
    * CONFLICT: the conflict ``lo`` marked; its hints (with ``want_hints``) last;
    * BACKWARD: events ``lo..hi`` of the reversed list; ``(1 on an internal error else 0, ...)``.

    Returns ``(a, b, hpool, occ_ptr, occ_ids, hints)``, the arrays grown as they need."""
    kinds, step_cid, taut, del_ptr, del_ids = steps
    ev, ev_index, want_hints, h_start, h_len, checked, failures = work
    hints = np.empty(0, np.int64)
    a = b = -1
    if phase == LOAD:
        a = load_formula(st, lo, taut)
    elif phase == FORWARD:
        a, b = forward(st, lo, hi, kinds, step_cid, taut, del_ptr, del_ids, ev, ev_index)
    elif phase == CONFLICT:
        if want_hints:
            hints = hints_for(st, lo, st[2][S_TLEN], hints)
        mark_conflict(st, lo)
    else:
        hpool, occ_ptr, occ_ids, a = backward(
            st, lo, hi, ev, ev_index, want_hints, h_start, h_len, hpool, checked, failures,
            occ_ptr, occ_ids,
        )  # fmt: skip
    return a, b, hpool, occ_ptr, occ_ids, hints
