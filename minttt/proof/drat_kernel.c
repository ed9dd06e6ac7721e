/* minttt.proof.kernels, DRAT part: the DRAT checker of minttt.proof.drat, compiled (C, the
 * stable CPython API). The same method, step for step, as its reference in Python
 * (drat._Checker: backward checking, core first, two watched literals, a top-level trail), on
 * arrays: the same clauses propagate in the same order, the same conflicts are found and the
 * same clauses marked, so every verdict, core, failing lemma and LRAT line is the reference's
 * (the tests compare them on every shipped certificate and every hostile proof).
 *
 * To keep that order, the watch lists are doubly linked lists of nodes: clause c owns nodes 2c
 * and 2c + 1, one in the list of each literal it watches; a list is appended at its tail and
 * walked from its head, and a node leaves it in place, as an item leaves a Python list. Four
 * families of lists: long clauses and binary ones (LONG, BINARY), each unmarked or marked
 * (+ 1: in the core, propagated first). Literal x indexes the value and list arrays at x + top
 * (top: the largest variable).
 *
 * The state lives in a capsule: drat_new(...) reads the formula and the proof's steps (arrays
 * of native int64, the kinds int8) and makes the clauses the forward pass may create; then
 * drat_load, drat_forward, drat_conflict and drat_backward run the check's phases (the last
 * two in slices, for progress and Ctrl-C between them), and drat_counts and drat_array give
 * what drat.CheckResult holds. Like the reference it shares no code with the solvers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { LONG = 0, BINARY = 2 }; /* list families; + 1 when the clause is marked (in the core) */
enum { ADD = 0, DELETE = 1 };

#define CAPSULE "minttt.drat_kernel"

typedef struct {
    int64_t *a;
    int64_t n, cap;
} Vec;

typedef struct {
    int64_t top, size, ncl, nformula, nsteps, maxlen;
    /* the scalars: trail length, where the last lemma's propagation began, events recorded,
       hint pool used, lemmas checked, by RAT, deletions ignored, lemmas failed */
    int64_t tlen, wave, evlen, core, rat, ignored, failed;
    int8_t *val;               /* 1 true, -1 false, 0 unassigned, at x + top */
    int64_t *reason;           /* the clause that implied the variable, or -1 */
    int64_t *trail, *tpos;     /* tpos: position on the top-level trail */
    int64_t *lpos;             /* position on a lemma's trail (hints), or -1 */
    uint8_t *in_top, *cone, *seen; /* on the top-level trail; its reasons all marked; analysis */
    uint8_t *lmark;            /* literal marks (tautologies), at x + top */
    int64_t *start;            /* clause c: lits[start[c]:start[c + 1]] */
    int32_t *lits;
    uint8_t *active, *marked, *taut;
    int64_t *pivot;            /* the first literal as written (RAT) */
    int32_t *head, *tail;      /* per list (4 * size): its first and last node, or -1 */
    int32_t *nxt, *prv;        /* per node (2 * ncl) */
    int64_t *owner;            /* the list a node is in, or -1 */
    int8_t *kinds;             /* per step */
    int64_t *step_cid, *del_ptr, *del_ids;
    int64_t *ev, *ev_index;    /* events: clause id * 2 + (1: a deletion), and their steps */
    int want_hints;
    int64_t *h_start, *h_len;  /* per clause: its hints in the pool */
    int64_t *checked, *failures;
    int64_t *occ_ptr, *occ_ids; /* each literal's clauses (RAT), made on the first RAT check */
    Vec hpool, stack, visited, keys, hints, final, res, tmp;
    int nomem, busy;
} Drat;

/* ------------------------------------------------------------------------------- memory */

static int reserve(Drat *s, Vec *v, int64_t need) {
    if (need <= v->cap) return 1;
    int64_t cap = v->cap ? v->cap : 64;
    while (cap < need) cap *= 2;
    int64_t *p = realloc(v->a, (size_t)cap * sizeof(int64_t));
    if (!p) {
        s->nomem = 1;
        return 0;
    }
    v->a = p;
    v->cap = cap;
    return 1;
}

static void drat_free(Drat *s) {
    free(s->val); free(s->reason); free(s->trail); free(s->tpos); free(s->lpos);
    free(s->in_top); free(s->cone); free(s->seen); free(s->lmark);
    free(s->start); free(s->lits); free(s->active); free(s->marked); free(s->taut);
    free(s->pivot); free(s->head); free(s->tail); free(s->nxt); free(s->prv); free(s->owner);
    free(s->kinds); free(s->step_cid); free(s->del_ptr); free(s->del_ids);
    free(s->ev); free(s->ev_index); free(s->h_start); free(s->h_len);
    free(s->checked); free(s->failures); free(s->occ_ptr); free(s->occ_ids);
    free(s->hpool.a); free(s->stack.a); free(s->visited.a); free(s->keys.a);
    free(s->hints.a); free(s->final.a); free(s->res.a); free(s->tmp.a);
    free(s);
}

static void *fill_array(size_t n, size_t item, int byte) {
    void *p = malloc(n ? n * item : 1);
    if (p) memset(p, byte, n * item);
    return p;
}

/* ----------------------------------------------------------------------------- the lists */

static inline void push(Drat *s, int64_t lst, int64_t node) {
    int32_t t = s->tail[lst];
    s->prv[node] = t;
    s->nxt[node] = -1;
    if (t >= 0) s->nxt[t] = (int32_t)node;
    else s->head[lst] = (int32_t)node;
    s->tail[lst] = (int32_t)node;
    s->owner[node] = lst;
}

static inline void unlink_node(Drat *s, int64_t node) {
    int64_t lst = s->owner[node];
    int32_t p = s->prv[node], q = s->nxt[node];
    if (p >= 0) s->nxt[p] = q;
    else s->head[lst] = q;
    if (q >= 0) s->prv[q] = p;
    else s->tail[lst] = p;
    s->owner[node] = -1;
}

static inline void assign(Drat *s, int64_t x, int64_t cid) {
    s->val[x + s->top] = 1;
    s->val[-x + s->top] = -1;
    s->reason[x < 0 ? -x : x] = cid;
    s->trail[s->tlen++] = x;
}

/* ---------------------------------------------------------------------------- propagation */

/* Unit propagation from trail[qhead], marked clauses first; the conflict's id or -1. */
static int64_t propagate(Drat *s, int64_t qhead) {
    const int64_t top = s->top, size = s->size;
    int8_t *val = s->val;
    int64_t *reason = s->reason, *trail = s->trail;
    const int64_t *start = s->start;
    int32_t *lits = s->lits, *head = s->head, *tail = s->tail, *nxt = s->nxt, *prv = s->prv;
    int64_t *owner = s->owner;
    int64_t qm = qhead, qu = qhead, tlen = s->tlen;
    for (;;) {
        int64_t f, fam;
        if (qm < tlen) {
            f = -trail[qm++];
            fam = 1;
        } else if (qu < tlen) {
            f = -trail[qu++];
            fam = 0;
        } else {
            s->tlen = tlen;
            return -1;
        }
        int32_t node = head[(BINARY + fam) * size + f + top];
        while (node >= 0) {
            int64_t cid = node >> 1, st = start[cid];
            int64_t o = lits[st];
            if (o == f) o = lits[st + 1];
            int8_t vo = val[o + top];
            if (vo == -1) {
                s->tlen = tlen;
                return cid;
            }
            if (vo == 0) {
                val[o + top] = 1;
                val[-o + top] = -1;
                reason[o < 0 ? -o : o] = cid;
                trail[tlen++] = o;
            }
            node = nxt[node];
        }
        int64_t lst = (LONG + fam) * size + f + top;
        node = head[lst];
        while (node >= 0) {
            int32_t following = nxt[node];
            int64_t cid = node >> 1, st = start[cid], e = start[cid + 1];
            int64_t other = lits[st];
            if (other == f) {
                other = lits[st + 1];
                lits[st] = (int32_t)other;
                lits[st + 1] = (int32_t)f;
            }
            int8_t vo = val[other + top];
            if (vo != 1) {
                int moved = 0;
                for (int64_t k = st + 2; k < e; k++) {
                    int64_t x = lits[k];
                    if (val[x + top] != -1) {
                        lits[st + 1] = (int32_t)x;
                        lits[k] = (int32_t)f;
                        /* out of this list (at lst) onto the tail of x's */
                        int32_t p = prv[node];
                        if (p >= 0) nxt[p] = following;
                        else head[lst] = following;
                        if (following >= 0) prv[following] = p;
                        else tail[lst] = p;
                        int64_t to = (LONG + fam) * size + x + top;
                        int32_t t = tail[to];
                        prv[node] = t;
                        nxt[node] = -1;
                        if (t >= 0) nxt[t] = node;
                        else head[to] = node;
                        tail[to] = node;
                        owner[node] = to;
                        moved = 1;
                        break;
                    }
                }
                if (!moved) {
                    if (vo == -1) {
                        s->tlen = tlen;
                        return cid;
                    }
                    val[other + top] = 1;
                    val[-other + top] = -1;
                    reason[other < 0 ? -other : other] = cid;
                    trail[tlen++] = other;
                }
            }
            node = following;
        }
    }
}

static void backtrack(Drat *s, int64_t length) {
    for (int64_t i = length; i < s->tlen; i++) {
        int64_t x = s->trail[i];
        s->val[x + s->top] = 0;
        s->val[-x + s->top] = 0;
    }
    s->tlen = length;
}

static void truncate_top(Drat *s, int64_t length) {
    for (int64_t i = length; i < s->tlen; i++) {
        int64_t v = s->trail[i] < 0 ? -s->trail[i] : s->trail[i];
        s->in_top[v] = 0;
        s->cone[v] = 0;
    }
    backtrack(s, length);
}

static int64_t propagate_top(Drat *s, int64_t x, int64_t cid) {
    int64_t base = s->tlen;
    assign(s, x, cid);
    int64_t conflict = propagate(s, base);
    for (int64_t position = base; position < s->tlen; position++) {
        int64_t v = s->trail[position] < 0 ? -s->trail[position] : s->trail[position];
        s->in_top[v] = 1;
        s->tpos[v] = position;
    }
    return conflict;
}

/* ------------------------------------------------------------------------ the database */

/* Make cid present at top level: watch it, propagate if unit. Conflict id or -1. */
static int64_t activate(Drat *s, int64_t cid) {
    const int64_t top = s->top, size = s->size;
    int8_t *val = s->val;
    int32_t *lits = s->lits;
    s->active[cid] = 1;
    int64_t st = s->start[cid], n = s->start[cid + 1] - st;
    if (n == 0) return cid;
    if (n == 1) {
        int64_t x = lits[st];
        if (val[x + top] == -1) return cid;
        if (val[x + top] == 0) return propagate_top(s, x, cid);
        return -1;
    }
    int64_t fam = s->marked[cid];
    if (n == 2) {
        int64_t a = lits[st], b = lits[st + 1];
        push(s, (BINARY + fam) * size + a + top, 2 * cid);
        push(s, (BINARY + fam) * size + b + top, 2 * cid + 1);
        if (val[a + top] == -1 && val[b + top] == -1) return cid;
        if (val[a + top] == -1 && val[b + top] == 0) {
            int64_t c = a;
            a = b;
            b = c;
        }
        if (val[b + top] == -1 && val[a + top] == 0) return propagate_top(s, a, cid);
        return -1;
    }
    if (val[lits[st] + top] == -1 || val[lits[st + 1] + top] == -1) {
        /* a stable sort: true, then unassigned, then false */
        int64_t *tmp = s->tmp.a, j = st;
        for (int64_t k = 0; k < n; k++) tmp[k] = lits[st + k];
        for (int want = 1; want >= -1; want--)
            for (int64_t k = 0; k < n; k++)
                if (val[tmp[k] + top] == want) lits[j++] = (int32_t)tmp[k];
    }
    push(s, (LONG + fam) * size + lits[st] + top, 2 * cid);
    push(s, (LONG + fam) * size + lits[st + 1] + top, 2 * cid + 1);
    int8_t v0 = val[lits[st] + top];
    if (v0 == -1) return cid;
    if (val[lits[st + 1] + top] == -1 && v0 == 0) return propagate_top(s, lits[st], cid);
    return -1;
}

static void unwatch(Drat *s, int64_t cid) {
    if (s->start[cid + 1] - s->start[cid] >= 2) {
        unlink_node(s, 2 * cid);
        unlink_node(s, 2 * cid + 1);
    }
}

/* Take cid out of the database (out of its watch lists). */
static void deactivate(Drat *s, int64_t cid) {
    if (!s->active[cid]) return;
    s->active[cid] = 0;
    unwatch(s, cid);
}

/* Put cid in the core; from now on it propagates in the marked (first) pass. */
static void mark(Drat *s, int64_t cid) {
    if (s->marked[cid]) return;
    s->marked[cid] = 1;
    if (!s->active[cid]) return;
    int64_t st = s->start[cid], n = s->start[cid + 1] - st;
    if (n < 2) return;
    unwatch(s, cid);
    int64_t fam = (n == 2 ? BINARY : LONG) + 1;
    push(s, fam * s->size + s->lits[st] + s->top, 2 * cid);
    push(s, fam * s->size + s->lits[st + 1] + s->top, 2 * cid + 1);
}

/* Trail position of the top-level literal cid is the reason of, or -1. */
static int64_t top_reason_pos(Drat *s, int64_t cid) {
    for (int64_t k = s->start[cid]; k < s->start[cid + 1]; k++) {
        int64_t v = s->lits[k] < 0 ? -(int64_t)s->lits[k] : s->lits[k];
        if (s->in_top[v] && s->reason[v] == cid) return s->tpos[v];
    }
    return -1;
}

/* -------------------------------------------------------------------------- the analysis */

/* Push clause r's literals (their variables with absolute) on the stack. 0: out of memory. */
static int push_clause(Drat *s, int64_t r, int absolute) {
    int64_t a = s->start[r], n = s->start[r + 1] - a;
    if (!reserve(s, &s->stack, s->stack.n + n)) return 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t x = s->lits[a + k];
        s->stack.a[s->stack.n++] = absolute && x < 0 ? -x : x;
    }
    return 1;
}

/* Mark cid and every reason the conflict depends on. */
static void mark_conflict(Drat *s, int64_t cid) {
    mark(s, cid);
    s->stack.n = 0;
    int64_t nv = 0, *visited = s->visited.a;
    if (!push_clause(s, cid, 0)) return;
    while (s->stack.n > 0) {
        int64_t x = s->stack.a[--s->stack.n];
        int64_t v = x < 0 ? -x : x;
        if (s->seen[v] || s->cone[v]) continue;
        s->seen[v] = 1;
        visited[nv++] = v;
        int64_t r = s->reason[v];
        if (r >= 0) {
            if (!s->marked[r]) mark(s, r);
            if (!push_clause(s, r, 0)) break;
        }
    }
    for (int64_t i = 0; i < nv; i++) {
        int64_t v = visited[i];
        s->seen[v] = 0;
        if (s->in_top[v]) s->cone[v] = 1;
    }
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The clauses that unit-propagate to conflict in trail order, then conflict: into s->hints. */
static void hints_for(Drat *s, int64_t conflict, int64_t base, const int32_t *lemma, int64_t n) {
    int64_t tlen = s->tlen, nv = 0, nk = 0, *visited = s->visited.a, *keys = s->keys.a;
    int64_t big = s->ncl + 1;
    s->hints.n = 0;
    if (conflict < 0) return; /* never: a true literal at top level has its reason */
    for (int64_t i = base; i < tlen; i++)
        s->lpos[s->trail[i] < 0 ? -s->trail[i] : s->trail[i]] = i;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = lemma[i] < 0 ? -(int64_t)lemma[i] : lemma[i];
        if (!s->seen[v]) {
            s->seen[v] = 1;
            visited[nv++] = v;
        }
    }
    s->stack.n = 0;
    int ok = push_clause(s, conflict, 1);
    while (ok && s->stack.n > 0) {
        int64_t v = s->stack.a[--s->stack.n];
        if (s->seen[v]) continue;
        s->seen[v] = 1;
        visited[nv++] = v;
        int64_t r = s->reason[v];
        if (r >= 0 && r != conflict) {
            int64_t p = s->lpos[v] >= 0 ? s->lpos[v] : (s->in_top[v] ? s->tpos[v] : -1);
            keys[nk++] = (p + 1) * big + r;
            ok = push_clause(s, r, 1);
        }
    }
    for (int64_t i = 0; i < nv; i++) s->seen[visited[i]] = 0;
    for (int64_t i = base; i < tlen; i++)
        s->lpos[s->trail[i] < 0 ? -s->trail[i] : s->trail[i]] = -1;
    if (!ok) return;
    qsort(keys, (size_t)nk, sizeof(int64_t), compare);
    for (int64_t i = 0; i < nk; i++) s->hints.a[i] = keys[i] % big;
    s->hints.a[nk] = conflict;
    s->hints.n = nk + 1;
}

static void mark_conflict_lit(Drat *s, int64_t x) {
    int64_t v = x < 0 ? -x : x, r = s->reason[v];
    if (r >= 0 && !s->cone[v]) mark_conflict(s, r);
}

/* Is lemma implied by unit propagation? Marks what the conflict used; with want_hints, also
   the clauses of the refutation (in s->hints). */
static int rup(Drat *s, const int32_t *lemma, int64_t n, int want_hints) {
    const int64_t top = s->top;
    for (int64_t i = 0; i < n; i++) {
        int64_t x = lemma[i];
        if (s->val[x + top] == 1) {
            if (want_hints) hints_for(s, s->reason[x < 0 ? -x : x], s->tlen, lemma, n);
            mark_conflict_lit(s, x);
            return 1;
        }
    }
    int64_t base = s->tlen;
    for (int64_t i = 0; i < n; i++) {
        int64_t x = lemma[i];
        if (s->val[-x + top] == 0) {
            s->val[-x + top] = 1;
            s->val[x + top] = -1;
            s->reason[x < 0 ? -x : x] = -1;
            s->trail[s->tlen++] = -x;
        }
    }
    int64_t conflict = propagate(s, base);
    if (conflict >= 0) {
        if (want_hints) hints_for(s, conflict, base, lemma, n);
        mark_conflict(s, conflict);
    }
    backtrack(s, base);
    return conflict >= 0;
}

/* Each literal's clauses, in clause order (CSR over x + top). 0: out of memory. */
static int occurrences(Drat *s) {
    int64_t nlits = s->start[s->ncl], slots = 2 * s->top + 2;
    int64_t *ptr = fill_array((size_t)slots, sizeof(int64_t), 0);
    int64_t *ids = malloc(nlits ? (size_t)nlits * sizeof(int64_t) : 1);
    int64_t *fill = malloc((size_t)slots * sizeof(int64_t));
    if (!ptr || !ids || !fill) {
        free(ptr); free(ids); free(fill);
        s->nomem = 1;
        return 0;
    }
    for (int64_t k = 0; k < nlits; k++) ptr[s->lits[k] + s->top + 1]++;
    for (int64_t i = 1; i < slots; i++) ptr[i] += ptr[i - 1];
    memcpy(fill, ptr, (size_t)slots * sizeof(int64_t));
    for (int64_t cid = 0; cid < s->ncl; cid++)
        for (int64_t k = s->start[cid]; k < s->start[cid + 1]; k++)
            ids[fill[s->lits[k] + s->top]++] = cid;
    free(fill);
    s->occ_ptr = ptr;
    s->occ_ids = ids;
    return 1;
}

/* RAT on the lemma's first literal against every present clause holding its negation. */
static int rat(Drat *s, int64_t cid) {
    const int64_t top = s->top;
    int64_t st = s->start[cid], e = s->start[cid + 1];
    if (e == st) return 0;
    int64_t p = s->pivot[cid];
    for (int64_t i = s->occ_ptr[-p + top]; i < s->occ_ptr[-p + top + 1]; i++) {
        int64_t other = s->occ_ids[i];
        if (!s->active[other] || other == cid) continue;
        /* the resolvent: the lemma, then the clause less -p */
        int32_t *res = (int32_t *)s->res.a;
        int64_t n = 0;
        for (int64_t k = st; k < e; k++) res[n++] = s->lits[k];
        for (int64_t k = s->start[other]; k < s->start[other + 1]; k++)
            if (s->lits[k] != -p) res[n++] = s->lits[k];
        int taut = 0;
        for (int64_t k = 0; k < n; k++) s->lmark[res[k] + top] = 1;
        for (int64_t k = 0; k < n; k++)
            if (s->lmark[-res[k] + top]) taut = 1;
        for (int64_t k = 0; k < n; k++) s->lmark[res[k] + top] = 0;
        if (taut) continue;
        if (!rup(s, res, n, 0)) return 0;
        mark(s, other);
    }
    return 1;
}

/* ------------------------------------------------------------------------------- phases */

/* Activate the formula's clauses; the first top-level conflict's clause id, or -1. */
static int64_t load_formula(Drat *s) {
    int64_t conflict = -1;
    for (int64_t cid = 0; cid < s->nformula; cid++)
        if (conflict < 0 && !s->taut[cid]) conflict = activate(s, cid);
    return conflict;
}

/* Steps lo..hi: the conflict's id or -1, and in *empty the index of an empty clause met. */
static int64_t forward(Drat *s, int64_t lo, int64_t hi, int64_t *empty) {
    *empty = -1;
    for (int64_t index = lo; index < hi; index++) {
        if (s->kinds[index] == ADD) {
            int64_t cid = s->step_cid[index];
            if (cid < 0) {
                *empty = index;
                return -1;
            }
            s->ev[s->evlen] = cid * 2;
            s->ev_index[s->evlen++] = index;
            if (s->taut[cid]) continue;
            s->wave = s->tlen;
            int64_t conflict = activate(s, cid);
            if (conflict >= 0) return conflict;
        } else {
            int64_t cid = -1;
            for (int64_t i = s->del_ptr[index + 1] - 1; i >= s->del_ptr[index]; i--)
                if (s->active[s->del_ids[i]]) {
                    cid = s->del_ids[i];
                    break;
                }
            if (cid < 0) continue;
            if (top_reason_pos(s, cid) >= 0) {
                s->ignored++;
                continue;
            }
            deactivate(s, cid);
            s->ev[s->evlen] = cid * 2 + 1;
            s->ev_index[s->evlen++] = index;
        }
    }
    return -1;
}

/* Events lo..hi of the reversed event list: 0, or 1 when restoring a deleted clause
   conflicted (an internal error). */
static int backward(Drat *s, int64_t lo, int64_t hi) {
    int64_t n = s->evlen;
    for (int64_t position = lo; position < hi && !s->nomem; position++) {
        int64_t e = s->ev[n - 1 - position], cid = e >> 1, index = s->ev_index[n - 1 - position];
        if (e & 1) {
            if (activate(s, cid) >= 0) return 1;
            continue;
        }
        if (position == 0) {
            deactivate(s, cid);
            truncate_top(s, s->wave);
        } else {
            int64_t pos = top_reason_pos(s, cid);
            deactivate(s, cid);
            if (pos >= 0) truncate_top(s, pos);
        }
        if (!s->marked[cid]) continue;
        s->checked[s->core++] = index;
        if (rup(s, s->lits + s->start[cid], s->start[cid + 1] - s->start[cid], s->want_hints)) {
            if (s->want_hints) {
                if (!reserve(s, &s->hpool, s->hpool.n + s->hints.n)) break;
                s->h_start[cid] = s->hpool.n;
                s->h_len[cid] = s->hints.n;
                memcpy(s->hpool.a + s->hpool.n, s->hints.a, (size_t)s->hints.n * sizeof(int64_t));
                s->hpool.n += s->hints.n;
            }
            continue;
        }
        if (!s->occ_ptr && !occurrences(s)) break;
        if (rat(s, cid)) {
            s->rat++;
            continue;
        }
        s->failures[s->failed++] = index;
    }
    return 0;
}

/* -------------------------------------------------------------------------- preparation */

static inline uint64_t mix(int64_t x) {
    uint64_t z = (uint64_t)x * 0x9E3779B97F4A7C15ULL;
    z ^= z >> 29;
    z *= 0xBF58476D1CE4E5B9ULL;
    return z ^ (z >> 32);
}

/* The latest clause of each hash (open addressing; a missing hash reads -1). */
typedef struct {
    uint64_t *key;
    int64_t *value;
    uint64_t mask;
} Table;

static int64_t *table_slot(Table *t, uint64_t h) {
    uint64_t i = (h ^ h >> 29) & t->mask;
    while (t->value[i] >= 0 && t->key[i] != h) i = (i + 1) & t->mask;
    t->key[i] = h;
    return &t->value[i];
}

typedef struct {
    const int64_t *f_start, *f_lits, *s_start, *s_lits;
    const int8_t *kinds;
} Input;

/* The clauses the forward pass may create (the formula's, then each non-empty lemma's), each
   without repeated literals (first occurrences kept, in order), and for each deletion the
   clauses with the same literals created before it, in order (the reference's key_to_ids).
   0: out of memory. */
static int prepare(Drat *s, const Input *in) {
    const int64_t top = s->top, nformula = s->nformula, nsteps = s->nsteps;
    int64_t ncl = nformula, total = in->f_start[nformula] + in->s_start[nsteps];
    s->kinds = malloc((size_t)(nsteps ? nsteps : 1));
    if (!s->kinds) return 0;
    memcpy(s->kinds, in->kinds, (size_t)nsteps);
    for (int64_t i = 0; i < nsteps; i++)
        if (in->kinds[i] == ADD && in->s_start[i + 1] > in->s_start[i]) ncl++;
    s->ncl = ncl;
    uint64_t slots = 1;
    while (slots < 2 * (uint64_t)ncl + 2) slots *= 2;
    Table t = {malloc(slots * sizeof(uint64_t)), fill_array(slots, sizeof(int64_t), 0xff),
               slots - 1};
    int64_t *chain = malloc((size_t)(ncl ? ncl : 1) * sizeof(int64_t)); /* same hash, earlier */
    Vec found = {0}, dels = {0};
    s->start = fill_array((size_t)ncl + 1, sizeof(int64_t), 0);
    s->lits = malloc((size_t)(total ? total : 1) * sizeof(int32_t));
    s->taut = fill_array((size_t)ncl, 1, 0);
    s->pivot = fill_array((size_t)ncl, sizeof(int64_t), 0);
    s->step_cid = fill_array((size_t)nsteps, sizeof(int64_t), 0xff);
    s->del_ptr = fill_array((size_t)nsteps + 1, sizeof(int64_t), 0);
    int ok = t.key && t.value && chain && s->start && s->lits && s->taut && s->pivot &&
             s->step_cid && s->del_ptr;
    int64_t nd = 0, n = 0, cid = 0;
    uint8_t *lmark = s->lmark;
    int32_t *lits = s->lits;
    for (int64_t i = -nformula; ok && i < nsteps; i++) {
        const int64_t *src;
        int64_t a, b;
        if (i < 0) {
            src = in->f_lits;
            a = in->f_start[i + nformula];
            b = in->f_start[i + nformula + 1];
        } else {
            src = in->s_lits;
            a = in->s_start[i];
            b = in->s_start[i + 1];
            if (in->kinds[i] == ADD && b == a) { /* the empty clause: never created */
                s->del_ptr[i + 1] = nd;
                continue;
            }
        }
        /* src[a:b] without repeats, each literal kept marked: its hash, a tautology */
        int64_t begin = n;
        uint64_t h = 0;
        for (int64_t k = a; k < b; k++) {
            int64_t x = src[k];
            if (!lmark[x + top]) {
                lmark[x + top] = 1;
                lits[n++] = (int32_t)x;
                h += mix(x);
            }
        }
        uint8_t taut = 0;
        for (int64_t k = begin; k < n; k++)
            if (lmark[-lits[k] + top]) taut = 1;
        int64_t *latest = table_slot(&t, h);
        int64_t c = *latest;
        if (i < 0 || in->kinds[i] == ADD) {
            s->start[cid + 1] = n;
            s->taut[cid] = taut;
            s->pivot[cid] = b > a ? src[a] : 0;
            chain[cid] = c;
            *latest = cid;
            if (i >= 0) s->step_cid[i] = cid;
            cid++;
        } else { /* a deletion: its clauses, in order; its literals are not kept */
            int64_t size = n - begin;
            found.n = 0;
            for (; c >= 0 && ok; c = chain[c]) {
                if (s->start[c + 1] - s->start[c] != size) continue;
                int same = 1;
                for (int64_t k = s->start[c]; k < s->start[c + 1]; k++)
                    if (!lmark[lits[k] + top]) {
                        same = 0;
                        break;
                    }
                if (same && (ok = reserve(s, &found, found.n + 1))) found.a[found.n++] = c;
            }
            ok = ok && reserve(s, &dels, nd + found.n);
            for (int64_t k = 0; ok && k < found.n; k++) dels.a[nd + k] = found.a[found.n - 1 - k];
            nd += found.n;
        }
        for (int64_t k = begin; k < n; k++) lmark[lits[k] + top] = 0;
        if (i >= 0) {
            s->del_ptr[i + 1] = nd;
            if (in->kinds[i] == DELETE) n = begin;
        }
    }
    free(t.key);
    free(t.value);
    free(chain);
    free(found.a);
    s->del_ids = dels.a;
    if (!ok) {
        s->nomem = 1;
        return 0;
    }
    int32_t *shrunk = realloc(s->lits, (size_t)(n ? n : 1) * sizeof(int32_t));
    if (shrunk) s->lits = shrunk;
    return 1;
}

/* ---------------------------------------------------------------------------- Python */

static Drat *get_state(PyObject *capsule) {
    Drat *s = PyCapsule_GetPointer(capsule, CAPSULE);
    if (s && s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the DRAT checker's state is in use");
        return NULL;
    }
    return s;
}

static void capsule_free(PyObject *capsule) {
    Drat *s = PyCapsule_GetPointer(capsule, CAPSULE);
    if (s) drat_free(s);
}

/* Is buf n items of `item` bytes? Else a ValueError naming what. */
static int sized(const Py_buffer *buf, Py_ssize_t item, const char *what, int64_t *n) {
    if (buf->len % item) {
        PyErr_Format(PyExc_ValueError, "%s: not a whole number of %zd-byte items", what, item);
        return 0;
    }
    *n = buf->len / item;
    return 1;
}

/* Are start (n + 1 offsets from 0 to the literals' count, not decreasing) and its literals
   (each 1..top or -top..-1) sound? Else a ValueError. */
static int sound(const int64_t *start, int64_t n, const int64_t *lits, int64_t nlits,
                 int64_t top, const char *what) {
    if (start[0] != 0 || start[n] != nlits) {
        PyErr_Format(PyExc_ValueError, "%s: the offsets do not span the literals", what);
        return 0;
    }
    for (int64_t i = 0; i < n; i++)
        if (start[i + 1] < start[i]) {
            PyErr_Format(PyExc_ValueError, "%s: decreasing offsets", what);
            return 0;
        }
    for (int64_t k = 0; k < nlits; k++)
        if (lits[k] == 0 || lits[k] > top || lits[k] < -top) {
            PyErr_Format(PyExc_ValueError, "%s: a literal past the variables 1..%lld", what,
                         (long long)top);
            return 0;
        }
    return 1;
}

/* The state, once prepare has made the clauses; NULL out of memory. */
static Drat *allocate(Drat *s, int want_hints) {
    int64_t top = s->top, size = s->size, ncl = s->ncl, nsteps = s->nsteps, maxlen = 0;
    for (int64_t c = 0; c < ncl; c++)
        if (s->start[c + 1] - s->start[c] > maxlen) maxlen = s->start[c + 1] - s->start[c];
    s->maxlen = maxlen;
    s->want_hints = want_hints;
    s->val = fill_array((size_t)size, 1, 0);
    s->reason = fill_array((size_t)top + 1, sizeof(int64_t), 0xff);
    s->trail = fill_array((size_t)top + 1, sizeof(int64_t), 0);
    s->tpos = fill_array((size_t)top + 1, sizeof(int64_t), 0);
    s->lpos = fill_array((size_t)top + 1, sizeof(int64_t), 0xff);
    s->in_top = fill_array((size_t)top + 1, 1, 0);
    s->cone = fill_array((size_t)top + 1, 1, 0);
    s->seen = fill_array((size_t)top + 1, 1, 0);
    s->active = fill_array((size_t)ncl, 1, 0);
    s->marked = fill_array((size_t)ncl, 1, 0);
    s->head = fill_array(4 * (size_t)size, sizeof(int32_t), 0xff);
    s->tail = fill_array(4 * (size_t)size, sizeof(int32_t), 0xff);
    s->nxt = fill_array(2 * (size_t)ncl, sizeof(int32_t), 0xff);
    s->prv = fill_array(2 * (size_t)ncl, sizeof(int32_t), 0xff);
    s->owner = fill_array(2 * (size_t)ncl, sizeof(int64_t), 0xff);
    s->ev = fill_array((size_t)nsteps, sizeof(int64_t), 0);
    s->ev_index = fill_array((size_t)nsteps, sizeof(int64_t), 0);
    s->h_start = fill_array((size_t)ncl, sizeof(int64_t), 0xff);
    s->h_len = fill_array((size_t)ncl, sizeof(int64_t), 0);
    s->checked = fill_array((size_t)nsteps, sizeof(int64_t), 0);
    s->failures = fill_array((size_t)nsteps, sizeof(int64_t), 0);
    int ok = s->val && s->reason && s->trail && s->tpos && s->lpos && s->in_top && s->cone &&
             s->seen && s->active && s->marked && s->head && s->tail && s->nxt && s->prv &&
             s->owner && s->ev && s->ev_index && s->h_start && s->h_len && s->checked &&
             s->failures && reserve(s, &s->visited, top + 1) && reserve(s, &s->tmp, maxlen + 1) &&
             reserve(s, &s->res, maxlen + 1) && reserve(s, &s->stack, 64) &&
             (!want_hints || (reserve(s, &s->keys, top + 1) && reserve(s, &s->hints, top + 2)));
    return ok ? s : NULL;
}

PyDoc_STRVAR(drat_new_doc,
    "drat_new(top, f_start, f_lits, kinds, s_start, s_lits, want_hints) -> state\n\n"
    "The checker over variables 1..top for the formula (clause i: f_lits[f_start[i]:f_start[i "
    "+ 1]])\nand the proof's steps (step i: kinds[i], 0 a lemma and 1 a deletion, its literals "
    "s_lits[s_start[i]:\ns_start[i + 1]]): the offsets and literals native int64, the kinds "
    "int8. want_hints: keep each\nchecked lemma's LRAT hints.");

static PyObject *k_drat_new(PyObject *self, PyObject *args) {
    Py_buffer b[5];
    long long top;
    int want_hints;
    (void)self;
    if (!PyArg_ParseTuple(args, "Ly*y*y*y*y*p", &top, &b[0], &b[1], &b[2], &b[3], &b[4],
                          &want_hints))
        return NULL;
    int64_t nf1, nfl, nk, ns1, nsl;
    PyObject *out = NULL;
    Drat *s = NULL;
    Input in = {b[0].buf, b[1].buf, b[3].buf, b[4].buf, b[2].buf};
    if (top < 0 || top >= ((int64_t)1 << 31))
        PyErr_SetString(PyExc_ValueError, "top: not a variable count (0..2^31 - 1)");
    else if (sized(&b[0], 8, "f_start", &nf1) && sized(&b[1], 8, "f_lits", &nfl) &&
             sized(&b[2], 1, "kinds", &nk) && sized(&b[3], 8, "s_start", &ns1) &&
             sized(&b[4], 8, "s_lits", &nsl)) {
        if (nf1 < 1 || ns1 != nk + 1)
            PyErr_SetString(PyExc_ValueError, "the offsets: one more than the clauses or steps");
        else if (nf1 - 1 + nk >= ((int64_t)1 << 30))
            PyErr_SetString(PyExc_ValueError, "more than 2^30 clauses and steps");
        else if (sound(in.f_start, nf1 - 1, in.f_lits, nfl, top, "the formula") &&
                 sound(in.s_start, nk, in.s_lits, nsl, top, "the proof")) {
            int64_t k = 0;
            while (k < nk && (in.kinds[k] == ADD || in.kinds[k] == DELETE)) k++;
            if (k < nk) PyErr_SetString(PyExc_ValueError, "kinds: 0 (a lemma) or 1 only");
            else if (!(s = calloc(1, sizeof(Drat)))) PyErr_NoMemory();
            else {
                s->top = top;
                s->size = 2 * top + 1;
                s->nformula = nf1 - 1;
                s->nsteps = nk;
                s->lmark = fill_array((size_t)s->size, 1, 0);
                int ok;
                Py_BEGIN_ALLOW_THREADS
                ok = s->lmark && prepare(s, &in) && allocate(s, want_hints);
                Py_END_ALLOW_THREADS
                if (ok) out = PyCapsule_New(s, CAPSULE, capsule_free);
                else PyErr_NoMemory();
                if (!out) drat_free(s);
            }
        }
    }
    for (int i = 0; i < 5; i++) PyBuffer_Release(&b[i]);
    return out;
}

/* The phases: their common frame (the state busy, the GIL released). */
enum { LOAD, FORWARD, CONFLICT, BACKWARD };

static PyObject *run(PyObject *args, int phase) {
    PyObject *capsule;
    long long lo = 0, hi = 0;
    if (!PyArg_ParseTuple(args, phase == LOAD ? "O" : phase == CONFLICT ? "OL" : "OLL",
                          &capsule, &lo, &hi))
        return NULL;
    Drat *s = get_state(capsule);
    if (!s) return NULL;
    int64_t most = phase == FORWARD ? s->nsteps : phase == BACKWARD ? s->evlen : s->ncl;
    if (phase != LOAD && (lo < 0 || lo > most || (phase == CONFLICT ? lo == most : hi > most ||
                                                                     hi < lo))) {
        PyErr_SetString(PyExc_ValueError, "a step, event or clause past the proof's");
        return NULL;
    }
    int64_t a = -1, b = -1;
    s->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    if (phase == LOAD) a = load_formula(s);
    else if (phase == FORWARD) a = forward(s, lo, hi, &b);
    else if (phase == BACKWARD) a = backward(s, lo, hi);
    else {
        if (s->want_hints) {
            hints_for(s, lo, s->tlen, NULL, 0);
            if (!s->nomem && reserve(s, &s->final, s->hints.n)) {
                memcpy(s->final.a, s->hints.a, (size_t)s->hints.n * sizeof(int64_t));
                s->final.n = s->hints.n;
            }
        }
        mark_conflict(s, lo);
    }
    Py_END_ALLOW_THREADS
    s->busy = 0;
    if (s->nomem) return PyErr_NoMemory();
    if (phase == CONFLICT) Py_RETURN_NONE;
    return phase == FORWARD ? Py_BuildValue("LL", (long long)a, (long long)b)
                            : PyLong_FromLongLong(a);
}

PyDoc_STRVAR(drat_load_doc,
    "drat_load(state) -> conflict\n\n"
    "Make the formula's clauses present: the first top-level conflict's clause id, or -1.");

static PyObject *k_drat_load(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, LOAD);
}

PyDoc_STRVAR(drat_forward_doc,
    "drat_forward(state, lo, hi) -> (conflict, empty)\n\n"
    "Steps lo..hi: the conflict's clause id or -1, and the index of an empty clause met (the\n"
    "proof's end with no conflict before it) or -1.");

static PyObject *k_drat_forward(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, FORWARD);
}

PyDoc_STRVAR(drat_conflict_doc,
    "drat_conflict(state, conflict) -> None\n\n"
    "Mark the conflict's clause and every reason it depends on (and keep its LRAT hints).");

static PyObject *k_drat_conflict(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, CONFLICT);
}

PyDoc_STRVAR(drat_backward_doc,
    "drat_backward(state, lo, hi) -> error\n\n"
    "Events lo..hi of the reversed event list (the needed lemmas checked): 0, or 1 when\n"
    "restoring a deleted clause conflicted (an internal error).");

static PyObject *k_drat_backward(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, BACKWARD);
}

PyDoc_STRVAR(drat_counts_doc,
    "drat_counts(state) -> (events, ignored, core, rat, failed)\n\n"
    "Events recorded, deletions ignored, lemmas checked, of them by RAT, and failed.");

static PyObject *k_drat_counts(PyObject *self, PyObject *args) {
    PyObject *capsule;
    (void)self;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Drat *s = get_state(capsule);
    if (!s) return NULL;
    return Py_BuildValue("LLLLL", (long long)s->evlen, (long long)s->ignored,
                         (long long)s->core, (long long)s->rat, (long long)s->failed);
}

PyDoc_STRVAR(drat_array_doc,
    "drat_array(state, name) -> bytes\n\n"
    "One of the state's arrays, native int64 (lits: int32, marked: uint8): events (clause id *\n"
    "2 + 1 for a deletion), checked and failures (steps), marked (per clause), start and lits\n"
    "(the clauses, as propagation left their literals' order), h_start and h_len (per clause,\n"
    "in the hint pool), hints (the pool), final (the final conflict's hints).");

static PyObject *k_drat_array(PyObject *self, PyObject *args) {
    PyObject *capsule;
    const char *name;
    (void)self;
    if (!PyArg_ParseTuple(args, "Os", &capsule, &name)) return NULL;
    Drat *s = get_state(capsule);
    if (!s) return NULL;
    const void *p = NULL;
    int64_t n = -1, item = sizeof(int64_t);
    if (!strcmp(name, "events")) p = s->ev, n = s->evlen;
    else if (!strcmp(name, "checked")) p = s->checked, n = s->core;
    else if (!strcmp(name, "failures")) p = s->failures, n = s->failed;
    else if (!strcmp(name, "marked")) p = s->marked, n = s->ncl, item = 1;
    else if (!strcmp(name, "start")) p = s->start, n = s->ncl + 1;
    else if (!strcmp(name, "lits")) p = s->lits, n = s->start[s->ncl], item = sizeof(int32_t);
    else if (!strcmp(name, "h_start")) p = s->h_start, n = s->ncl;
    else if (!strcmp(name, "h_len")) p = s->h_len, n = s->ncl;
    else if (!strcmp(name, "hints")) p = s->hpool.a, n = s->hpool.n;
    else if (!strcmp(name, "final")) p = s->final.a, n = s->final.n;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "no array %s", name);
        return NULL;
    }
    return PyBytes_FromStringAndSize(n ? p : "", (Py_ssize_t)(n * item));
}

PyMethodDef drat_methods[] = {
    {"drat_new", k_drat_new, METH_VARARGS, drat_new_doc},
    {"drat_load", k_drat_load, METH_VARARGS, drat_load_doc},
    {"drat_forward", k_drat_forward, METH_VARARGS, drat_forward_doc},
    {"drat_conflict", k_drat_conflict, METH_VARARGS, drat_conflict_doc},
    {"drat_backward", k_drat_backward, METH_VARARGS, drat_backward_doc},
    {"drat_counts", k_drat_counts, METH_VARARGS, drat_counts_doc},
    {"drat_array", k_drat_array, METH_VARARGS, drat_array_doc},
    {NULL, NULL, 0, NULL},
};
