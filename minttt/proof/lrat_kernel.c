/* minttt.proof.kernels, LRAT part: the LRAT checker of minttt.proof.lrat, compiled (C, the
 * stable CPython API).
 *
 * It checks the common proof, every lemma RUP on its positive hints, exactly as lrat._rup does,
 * and stops ("defers") at anything else: a RAT lemma, a failing hint, a tautology, a word that
 * is not a plain number, an id or variable past its arrays' bounds, a line too long. Then
 * minttt.proof.lrat checks the whole proof again with the reference, which judges it and names
 * what is wrong. So the kernel accepts only proofs the reference accepts, with the same counts;
 * it never says what is wrong with a proof.
 *
 * The state lives in a capsule: lrat_from_cnf(cnf, max_line) reads the DIMACS text where
 * drat.parse_cnf reads it in one sweep (else None: lrat_new(formula, clauses, max_line) takes
 * the clauses parse_cnf read), lrat_feed(state, chunk, final) checks the proof's bytes in pieces
 * (the end of the last line waits for the next piece), and lrat_stats(state) gives what the
 * reference's CheckResult holds. Like the reference it shares no code with the solvers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { GOING = 0, VALID = 1, DEFER = 2, NO_EMPTY = 3 };

#define MAX_INDEX ((int64_t)1 << 28) /* ids and variables past this: the reference's dicts */
/* An id or variable may also be at most twice its array's size and this beyond it, so that the
   arrays grow with what the proof holds: a small hostile file naming id 2^28 - 1 is the
   reference's, not a gigabyte's allocation. */
#define MAX_JUMP ((int64_t)1 << 20)
#ifndef COMPACT_FROM /* the arena is compacted once this many of its words are dead, and half */
#define COMPACT_FROM (1 << 20)
#endif

typedef struct {
    int32_t *arena;   /* clauses: a length, then the literals */
    int64_t arena_len, arena_cap, dead; /* dead: the arena's words of deleted clauses */
    int64_t *where;   /* clause id -> its offset in the arena, -1 when not live */
    int64_t where_cap;
    uint8_t *falsified; /* literal code (2 * var + negative) -> 1 while that literal is false */
    int64_t lit_cap;
    int32_t *trail;   /* the codes set in falsified, to clear them */
    int64_t trail_cap;
    uint8_t *used;    /* formula clause id (1..formula) -> a hint up to a conflict */
    int64_t formula;
    int64_t last;     /* the last lemma's id */
    int64_t lemmas, deletions, lines;
    int64_t max_line;
    int64_t *nums;    /* one line's numbers */
    int64_t nums_cap;
    char *rest;       /* the start of a line not yet ended, from the last piece */
    int64_t rest_len, rest_cap;
    int status;
} State;

static int grow(void **array, int64_t *cap, int64_t need, size_t item, int zero) {
    if (need <= *cap) return 1;
    int64_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need) cap2 *= 2;
    void *p = realloc(*array, (size_t)cap2 * item);
    if (!p) return 0;
    if (zero) memset((char *)p + (size_t)*cap * item, 0, (size_t)(cap2 - *cap) * item);
    *array = p;
    *cap = cap2;
    return 1;
}

static int grow_where(State *s, int64_t id) {
    int64_t old = s->where_cap;
    if (!grow((void **)&s->where, &s->where_cap, id + 1, sizeof(int64_t), 0)) return 0;
    for (int64_t i = old; i < s->where_cap; i++) s->where[i] = -1;
    return 1;
}

static int lit_code(const State *s, int64_t lit, int64_t *code) {
    int64_t var = lit < 0 ? -lit : lit;
    if (var >= MAX_INDEX || 2 * var > 2 * s->lit_cap + MAX_JUMP) return 0;
    *code = 2 * var + (lit < 0);
    return 1;
}

/* Rewrite the arena without its deleted clauses (when they hold most of it). */
static void compact(State *s) {
    int64_t out = 0;
    for (int64_t id = 0; id < s->where_cap; id++) {
        int64_t at = s->where[id];
        if (at < 0) continue;
        int64_t n = (int64_t)s->arena[at] + 1;
        memmove(s->arena + out, s->arena + at, (size_t)n * sizeof(int32_t));
        s->where[id] = out;
        out += n;
    }
    s->arena_len = out;
    s->dead = 0;
}

static int store(State *s, int64_t id, const int64_t *lits, int64_t n) {
    if (!grow_where(s, id)) return 0;
    if (!grow((void **)&s->arena, &s->arena_cap, s->arena_len + n + 1, sizeof(int32_t), 0))
        return 0;
    s->where[id] = s->arena_len;
    s->arena[s->arena_len++] = (int32_t)n;
    for (int64_t i = 0; i < n; i++) s->arena[s->arena_len++] = (int32_t)lits[i];
    return 1;
}

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\x0b' || c == '\x0c';
}

/* A word as the reference's int() reads it in the plain case: an optional '-', then at most 10
   digits, the value below 2^31. Anything else (a '+', an underscore, a letter, a larger
   number) returns 0: the reference reads it. */
static int read_number(const char **p, const char *end, int64_t *value) {
    const char *q = *p;
    int negative = 0;
    if (q < end && *q == '-') { negative = 1; q++; }
    const char *digits = q;
    int64_t v = 0;
    while (q < end && !is_space(*q)) {
        if (*q < '0' || *q > '9' || q - digits >= 10) return 0;
        v = v * 10 + (*q - '0');
        q++;
    }
    if (q == digits || v > 2147483647) return 0;
    *value = negative ? -v : v;
    *p = q;
    return 1;
}

static int clear_and(State *s, int64_t n, int result) {
    for (int64_t i = 0; i < n; i++) s->falsified[s->trail[i]] = 0;
    return result;
}

/* lrat._rup: the lemma's literals false, each hint unit in turn until one is falsified.
   GOING on a conflict (its hints up to it marked used), else DEFER. */
static int rup(State *s, const int64_t *lits, int64_t n, const int64_t *hints, int64_t h) {
    int64_t top = 0, code, neg;
    if (!grow((void **)&s->trail, &s->trail_cap, n + h + 1, sizeof(int32_t), 0)) return -1;
    for (int64_t i = 0; i < n; i++) {
        if (!lit_code(s, lits[i], &code)) return clear_and(s, top, DEFER);
        if (!grow((void **)&s->falsified, &s->lit_cap, code + 2, 1, 1)) return -1;
        if (s->falsified[code ^ 1]) return clear_and(s, top, DEFER); /* a tautology */
        if (!s->falsified[code]) { s->falsified[code] = 1; s->trail[top++] = (int32_t)code; }
    }
    for (int64_t k = 0; k < h; k++) {
        int64_t id = hints[k];
        if (id <= 0 || id >= s->where_cap || s->where[id] < 0) return clear_and(s, top, DEFER);
        const int32_t *c = s->arena + s->where[id];
        int64_t len = c[0], unit = 0;
        for (int64_t j = 1; j <= len; j++) {
            int64_t x = c[j];
            if (!lit_code(s, x, &code)) return clear_and(s, top, DEFER);
            if (code < s->lit_cap && s->falsified[code]) continue;
            neg = code ^ 1;
            if (unit || (neg < s->lit_cap && s->falsified[neg])) return clear_and(s, top, DEFER);
            unit = x;
        }
        if (!unit) { /* the conflict */
            for (int64_t u = 0; u <= k; u++)
                if (hints[u] <= s->formula) s->used[hints[u]] = 1;
            return clear_and(s, top, GOING);
        }
        lit_code(s, -unit, &code);
        if (!grow((void **)&s->falsified, &s->lit_cap, code + 2, 1, 1)) return -1;
        s->falsified[code] = 1;
        s->trail[top++] = (int32_t)code;
    }
    return clear_and(s, top, DEFER); /* the hints end without a conflict */
}

/* One line, as lrat.check_lines reads it: GOING, VALID (the empty clause), DEFER, or -1 (no
   memory). */
static int line(State *s, const char *p, const char *end) {
    s->lines++;
    if (end - p > s->max_line) return DEFER;
    while (p < end && is_space(*p)) p++;
    if (p == end || *p == 'c') return GOING; /* blank, or a comment */
    const char *first = p;
    while (p < end && !is_space(*p)) p++;
    while (p < end && is_space(*p)) p++;
    int deletion = p + 1 <= end && *p == 'd' && (p + 1 == end || is_space(p[1]));
    int64_t count = 0, value;
    const char *id_end = first;
    if (deletion && (!read_number(&id_end, end, &value) || value <= 0)) return DEFER;
    if (deletion) p++;
    else p = first;
    for (;;) {
        while (p < end && is_space(*p)) p++;
        if (p == end) break;
        if (!read_number(&p, end, &value)) return DEFER;
        if (!grow((void **)&s->nums, &s->nums_cap, count + 1, sizeof(int64_t), 0)) return -1;
        s->nums[count++] = value;
    }
    int64_t *nums = s->nums;
    if (deletion) { /* ID d IDS 0: the ids, then one 0; unknown ids are ignored */
        if (count == 0 || nums[count - 1] != 0) return DEFER;
        for (int64_t i = 0; i + 1 < count; i++)
            if (nums[i] <= 0) return DEFER;
        for (int64_t i = 0; i + 1 < count; i++) {
            int64_t id = nums[i];
            if (id < s->where_cap && s->where[id] >= 0) {
                s->dead += (int64_t)s->arena[s->where[id]] + 1;
                s->where[id] = -1;
            }
            s->deletions++;
        }
        if (s->dead > COMPACT_FROM && s->dead * 2 > s->arena_len) compact(s);
        return GOING;
    }
    /* ID LITS 0 HINTS 0 */
    if (count < 2 || nums[0] <= 0 || nums[count - 1] != 0) return DEFER;
    int64_t zero = 1;
    while (nums[zero] != 0) zero++;
    if (zero >= count - 1) return DEFER;
    for (int64_t i = zero + 1; i < count - 1; i++)
        if (nums[i] == 0) return DEFER;
    s->lemmas++;
    int64_t id = nums[0];
    if (id <= s->last || id >= MAX_INDEX || id > 2 * s->where_cap + MAX_JUMP) return DEFER;
    int r = rup(s, nums + 1, zero - 1, nums + zero + 1, count - 2 - zero);
    if (r != GOING) return r;
    if (!store(s, id, nums + 1, zero - 1)) return -1;
    s->last = id;
    return zero == 1 ? VALID : GOING;
}

static void state_free(PyObject *capsule) {
    State *s = PyCapsule_GetPointer(capsule, "minttt.lrat_kernel");
    if (!s) return;
    free(s->arena); free(s->where); free(s->falsified); free(s->trail); free(s->used);
    free(s->nums); free(s->rest);
    free(s);
}

static State *get_state(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "minttt.lrat_kernel");
}

/* A state holding the formula (its clauses' literals, each clause ended by a 0): a capsule, or
   NULL with the error set. */
static PyObject *make_state(const int32_t *lits, Py_ssize_t n, Py_ssize_t clauses,
                            Py_ssize_t max_line) {
    State *s = calloc(1, sizeof(State));
    if (!s) return PyErr_NoMemory();
    s->formula = clauses;
    s->last = clauses;
    s->max_line = max_line;
    s->used = calloc((size_t)clauses + 1, 1);
    Py_ssize_t start = 0;
    int64_t id = 1, ok = s->used != NULL && clauses < MAX_INDEX, top = 0;
    for (Py_ssize_t i = 0; i < n; i++) { /* the formula's variables: falsified covers them */
        int64_t v = lits[i] < 0 ? -(int64_t)lits[i] : lits[i];
        if (v > top) top = v;
    }
    ok = ok && top < MAX_INDEX && grow((void **)&s->falsified, &s->lit_cap, 2 * top + 2, 1, 1);
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        if (lits[i] != 0) continue;
        int64_t len = i - start;
        ok = grow_where(s, id) &&
             grow((void **)&s->arena, &s->arena_cap, s->arena_len + len + 1, sizeof(int32_t), 0);
        if (ok) {
            s->where[id++] = s->arena_len;
            s->arena[s->arena_len++] = (int32_t)len;
            memcpy(s->arena + s->arena_len, lits + start, (size_t)len * sizeof(int32_t));
            s->arena_len += len;
        }
        start = i + 1;
    }
    if (ok && id - 1 != clauses) {
        PyErr_SetString(PyExc_ValueError, "the formula holds another number of clauses");
        ok = 0;
    } else if (!ok) PyErr_NoMemory();
    PyObject *capsule = ok ? PyCapsule_New(s, "minttt.lrat_kernel", state_free) : NULL;
    if (!capsule) {
        free(s->arena); free(s->where); free(s->used); free(s->falsified); free(s);
    }
    return capsule;
}

PyDoc_STRVAR(new_doc,
    "lrat_new(formula, clauses, max_line) -> state\n\n"
    "formula: the formula's clauses as native int32, each ended by a 0 (ids 1..clauses).");

static PyObject *k_new(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t clauses, max_line;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nn", &buf, &clauses, &max_line)) return NULL;
    PyObject *state = make_state(buf.buf, buf.len / (Py_ssize_t)sizeof(int32_t), clauses,
                                 max_line);
    PyBuffer_Release(&buf);
    return state;
}

/* A plain decimal number of digits only, at most `most`: 1 and *value, else 0. */
static int plain_number(const char *p, const char *end, int64_t most, int64_t *value) {
    int64_t v = 0;
    if (p == end) return 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9') return 0;
        v = v * 10 + (*p - '0');
        if (v > most) return 0;
    }
    *value = v;
    return 1;
}

/* drat._cnf_header in the plain case: 'p...' 'cnf' V C, V and C digits only, V < 2^31. */
static int cnf_header(const char *p, const char *end, int64_t *vars, int64_t *count) {
    const char *word[4], *word_end[4];
    int words = 0;
    while (p < end) {
        while (p < end && is_space(*p)) p++;
        if (p == end) break;
        if (words == 4) return 0;
        word[words] = p;
        while (p < end && !is_space(*p)) p++;
        word_end[words++] = p;
    }
    return words == 4 && word_end[1] - word[1] == 3 && memcmp(word[1], "cnf", 3) == 0 &&
           plain_number(word[2], word_end[2], 2147483647, vars) &&
           plain_number(word[3], word_end[3], (int64_t)1 << 40, count);
}

/* drat._parse_cnf_numbers in C: comment lines (c, %) and blank ones, the header, then numbers
   and white space only, every literal within the header's variables, every clause ended by 0,
   as many clauses as the header says. Its clauses' literals (each clause ended by a 0) into
   *out, *n of them; 0 for anything else (drat.parse_cnf reads it then), -1 out of memory. */
static int parse_cnf(const char *p, const char *end, int32_t **out, int64_t *n,
                     int64_t *clauses) {
    int64_t vars = 0, count = 0, cap = 0, len = 0, found = 0, pending = 0;
    for (;;) { /* the lines up to the header */
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *a = p, *b = nl ? nl : end;
        while (a < b && is_space(*a)) a++;
        while (b > a && is_space(b[-1])) b--;
        if (a < b && *a == 'p') {
            if (!cnf_header(a, b, &vars, &count)) return 0;
            p = nl ? nl + 1 : end;
            break;
        }
        if (a < b && *a != 'c' && *a != '%') return 0;
        if (!nl) return 0; /* no header */
        p = nl + 1;
    }
    int32_t *lits = NULL;
    while (p < end) {
        while (p < end && is_space(*p)) p++;
        if (p == end) break;
        const char *word = p;
        while (p < end && !is_space(*p)) p++;
        int negative = *word == '-';
        int64_t v;
        if (!plain_number(word + negative, p, vars, &v)) { free(lits); return 0; }
        if (!grow((void **)&lits, &cap, len + 1, sizeof(int32_t), 0)) { free(lits); return -1; }
        lits[len++] = (int32_t)(negative ? -v : v);
        if (v == 0) { found++; pending = 0; }
        else pending = 1;
    }
    if (pending || found != count) { free(lits); return 0; }
    *out = lits;
    *n = len;
    *clauses = found;
    return 1;
}

PyDoc_STRVAR(from_cnf_doc,
    "lrat_from_cnf(cnf, max_line) -> state or None\n\n"
    "A state holding the DIMACS CNF text's clauses where drat.parse_cnf reads it in one sweep\n"
    "(comments, the header, numbers; every literal within the header's variables); None for any\n"
    "other text, which drat.parse_cnf reads (and refuses, naming the line, where it is wrong).");

static PyObject *k_from_cnf(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t max_line;
    int32_t *lits = NULL;
    int64_t n = 0, clauses = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*n", &buf, &max_line)) return NULL;
    const char *p = buf.buf;
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = parse_cnf(p, p + buf.len, &lits, &n, &clauses);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    if (r < 0) return PyErr_NoMemory();
    if (r == 0) Py_RETURN_NONE;
    PyObject *state = make_state(lits ? lits : (int32_t *)"", (Py_ssize_t)n, (Py_ssize_t)clauses,
                                 max_line);
    free(lits);
    return state;
}

PyDoc_STRVAR(feed_doc,
    "lrat_feed(state, piece, final) -> (status, lines)\n\n"
    "Check the whole lines of piece (the end of the last one waits for the next piece, unless\n"
    "final): 0 going on, 1 valid (the empty clause; nothing after it is read), 2 defer to the\n"
    "reference, 3 the proof ended without the empty clause.");

static PyObject *k_feed(PyObject *self, PyObject *args) {
    PyObject *capsule;
    Py_buffer buf;
    int final;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oy*p", &capsule, &buf, &final)) return NULL;
    State *s = get_state(capsule);
    if (!s) { PyBuffer_Release(&buf); return NULL; }
    const char *p = buf.buf, *end = p + buf.len;
    int r = s->status;
    Py_BEGIN_ALLOW_THREADS
    while (r == GOING) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        if (s->rest_len) { /* the line began in an earlier piece */
            int64_t need = s->rest_len + (nl - p);
            if (need > s->max_line + 1) r = DEFER;
            else if (!grow((void **)&s->rest, &s->rest_cap, need, 1, 0)) r = -1;
            else {
                memcpy(s->rest + s->rest_len, p, (size_t)(nl - p));
                r = line(s, s->rest, s->rest + need);
                s->rest_len = 0;
            }
        } else r = line(s, p, nl);
        p = nl + 1;
    }
    if (r == GOING && p < end) { /* keep the start of the next line */
        int64_t need = s->rest_len + (end - p);
        if (need > s->max_line + 1) r = DEFER;
        else if (!grow((void **)&s->rest, &s->rest_cap, need, 1, 0)) r = -1;
        else {
            memcpy(s->rest + s->rest_len, p, (size_t)(end - p));
            s->rest_len = need;
        }
    }
    if (r == GOING && final) {
        if (s->rest_len) {
            r = line(s, s->rest, s->rest + s->rest_len);
            s->rest_len = 0;
        }
        if (r == GOING) r = NO_EMPTY;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    if (r < 0) return PyErr_NoMemory();
    s->status = r;
    return Py_BuildValue("iL", r, (long long)s->lines);
}

PyDoc_STRVAR(stats_doc,
    "lrat_stats(state) -> (lemmas, deletions, used)\n\n"
    "used: the formula clauses a hint used up to a conflict, as 0-based indexes (native int32).");

static PyObject *k_stats(PyObject *self, PyObject *args) {
    PyObject *capsule;
    (void)self;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    State *s = get_state(capsule);
    if (!s) return NULL;
    int64_t count = 0;
    for (int64_t i = 1; i <= s->formula; i++) count += s->used[i];
    PyObject *used = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * (int64_t)sizeof(int32_t)));
    if (!used) return NULL;
    int32_t *out = (int32_t *)PyBytes_AsString(used);
    for (int64_t i = 1, k = 0; i <= s->formula; i++)
        if (s->used[i]) out[k++] = (int32_t)(i - 1);
    return Py_BuildValue("LLN", (long long)s->lemmas, (long long)s->deletions, used);
}

PyMethodDef lrat_methods[] = { /* the module: kernels.c */
    {"lrat_new", k_new, METH_VARARGS, new_doc},
    {"lrat_from_cnf", k_from_cnf, METH_VARARGS, from_cnf_doc},
    {"lrat_feed", k_feed, METH_VARARGS, feed_doc},
    {"lrat_stats", k_stats, METH_VARARGS, stats_doc},
    {NULL, NULL, 0, NULL},
};
