/* The pattern generator's search kernel: randomized backtracking over 0/1
 * orbit variables with unit propagation, in C.
 *
 * pipeline/patterns/solver.py compiles a python-constraint Problem into
 * plain numbers and hands them to a Model:
 *
 *   Model(nvars, weights, clauses, order, min_black, max_black,
 *         rows, cols, rep, connected, min_words, max_words,
 *         min_checked_share, cut_part, target, hazard)
 *     weights   per variable, the cells it stands for (its orbit's size)
 *     clauses   nogoods: each a tuple of literals var * 2 + value (value 1
 *               = black); the nogood is broken when every literal holds
 *     order     the decision order of the variables (row-major cells)
 *     min/max_black   bounds on the weighted count of black (-1: none)
 *     rows, cols, rep the grid: rep[cell] is the variable of each cell
 *     connected, min/max_words, min_checked_share, cut_part
 *               whole-grid checks at a leaf (-1 / 0: off); cut_part > 0
 *               forbids a cell whose filling cuts off two parts of at
 *               least cut_part cells
 *     target    blacks the value heuristic steers towards (< 0: no
 *               heuristic, even odds)
 *     hazard    per run length L, the chance a white run L cells long
 *               ends (black next); index 0 is a black after a black
 *     prior     per cell, a fixed chance of black for the value choice,
 *               or < 0 to use the hazards (British grids: the lattice of
 *               blacks at odd rows and columns)
 *
 *   model.solve(seed, max_nodes) -> (status, cells, nodes)
 *     status 0: a pattern (cells: bytes, b'#' black, b'.' white, row-major)
 *            1: none exists (the search space is exhausted)
 *            2: out of nodes (cells None); call again with another seed
 *
 * Propagation: each clause keeps how many of its literals hold (ntrue) and
 * how many are false (nfalse).  A clause with nfalse == 0 and one literal
 * left unassigned forces that variable to the other value; with none left
 * it is a conflict.  The weighted black count is bounded the same way.
 * Assignments go on a trail that is also the propagation queue; backtracking
 * pops it, undoing the counters of what was processed.
 *
 * Search: variables in `order`; the value is black with a probability
 * modelled on how constructors place blacks (the hazard of the across and
 * down white runs through the cell, few 2x2 black blocks, steered to the
 * target count), drawn from a splitmix64 stream seeded per solve, so the
 * same seed gives the same pattern on every machine.  Chronological
 * backtracking; the node budget bounds a solve and the caller restarts
 * with a fresh seed.  The whole-grid checks (one region, word count,
 * checked share, cut cells) run on complete assignments; a failure ends
 * the solve like an exhausted budget (status 2): it is owed to early
 * choices that backtracking over the last ones would not undo.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

typedef struct {
    PyObject_HEAD
    int nvars, nclauses, ncells, rows, cols;
    int *weight;       /* [nvars] */
    int *cl_start;     /* [nclauses + 1] into cl_lits */
    int *cl_lits;
    int *occ_start;    /* [2 * nvars + 1]: clauses holding literal l */
    int *occ;
    int *order;        /* [nvars] */
    int *rep;          /* [ncells] */
    int *cell_of;      /* [nvars]: the first cell of each variable */
    int min_black, max_black, connected, min_words, max_words, cut_part;
    double min_checked_share, target;
    double *prior;     /* [ncells] */
    double hazard[32];
    int nhazard;
    /* search state */
    signed char *val;  /* [nvars]: -1 free */
    int *ntrue, *nfalse;
    int *trail, trail_len, qhead;
    int blacks, free_weight;
    /* decision stack */
    int *dvar, *dmark, *dalt;
    /* scratch for the leaf checks */
    int *stack, *seen, *alen, *dlen, *disc, *low, *sub;
    int dfs_time;
    u64 rng;
} ModelObject;

static u64 next_rand(u64 *s) {
    u64 z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double uniform(u64 *s) { return (next_rand(s) >> 11) * (1.0 / 9007199254740992.0); }

static void Model_dealloc(ModelObject *m) {
    void *ptrs[] = {m->prior, m->weight, m->cl_start, m->cl_lits, m->occ_start, m->occ, m->order, m->rep, m->cell_of,
                    m->val, m->ntrue, m->nfalse, m->trail, m->dvar, m->dmark, m->dalt, m->stack, m->seen,
                    m->alen, m->dlen, m->disc, m->low, m->sub};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) free(ptrs[i]);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

/* A Python sequence of ints into a new C array of n ints (n checked). */
static int *int_array(PyObject *seq, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items, got %zd", what, n, PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return NULL;
    }
    int *out = malloc(sizeof(int) * (n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            free(out);
            Py_DECREF(fast);
            return NULL;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return out;
}

static PyObject *Model_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    int nvars, min_black, max_black, rows, cols, connected, min_words, max_words, cut_part;
    double share, target;
    PyObject *weights, *clauses, *order, *rep, *hazard, *prior;
    static char *names[] = {"nvars", "weights", "clauses", "order", "min_black", "max_black", "rows", "cols", "rep",
                            "connected", "min_words", "max_words", "min_checked_share", "cut_part", "target",
                            "hazard", "prior", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOOOiiiiOiiididOO", names, &nvars, &weights, &clauses, &order,
                                     &min_black, &max_black, &rows, &cols, &rep, &connected, &min_words, &max_words,
                                     &share, &cut_part, &target, &hazard, &prior))
        return NULL;
    if (nvars < 1 || rows < 1 || cols < 1 || rows * cols > 100000) {
        PyErr_SetString(PyExc_ValueError, "bad model size");
        return NULL;
    }
    ModelObject *m = (ModelObject *)type->tp_alloc(type, 0);
    if (!m) return NULL;
    m->nvars = nvars;
    m->rows = rows;
    m->cols = cols;
    m->ncells = rows * cols;
    m->min_black = min_black;
    m->max_black = max_black;
    m->connected = connected;
    m->min_words = min_words;
    m->max_words = max_words;
    m->min_checked_share = share;
    m->cut_part = cut_part;
    m->target = target;
    int n = m->ncells;
    if (!(m->weight = int_array(weights, nvars, "weights")) || !(m->order = int_array(order, nvars, "order")) ||
        !(m->rep = int_array(rep, n, "rep")))
        goto fail;
    for (int i = 0; i < nvars; i++)
        if (m->order[i] < 0 || m->order[i] >= nvars) {
            PyErr_SetString(PyExc_ValueError, "order: variable out of range");
            goto fail;
        }
    m->cell_of = malloc(sizeof(int) * nvars);
    for (int v = 0; v < nvars; v++) m->cell_of[v] = -1;
    for (int i = 0; i < n; i++) {
        if (m->rep[i] < 0 || m->rep[i] >= nvars) {
            PyErr_SetString(PyExc_ValueError, "rep: variable out of range");
            goto fail;
        }
        if (m->cell_of[m->rep[i]] < 0) m->cell_of[m->rep[i]] = i;
    }
    {
        PyObject *pr = PySequence_Fast(prior, "prior");
        if (!pr) goto fail;
        if (PySequence_Fast_GET_SIZE(pr) != n) {
            Py_DECREF(pr);
            PyErr_SetString(PyExc_ValueError, "prior: one value a cell");
            goto fail;
        }
        m->prior = malloc(sizeof(double) * n);
        for (int i = 0; i < n; i++) m->prior[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(pr, i));
        Py_DECREF(pr);
        if (PyErr_Occurred()) goto fail;
    }
    {
        PyObject *hz = PySequence_Fast(hazard, "hazard");
        if (!hz) goto fail;
        m->nhazard = (int)PySequence_Fast_GET_SIZE(hz);
        if (m->nhazard < 1 || m->nhazard > 32) {
            Py_DECREF(hz);
            PyErr_SetString(PyExc_ValueError, "hazard: 1 to 32 values");
            goto fail;
        }
        for (int i = 0; i < m->nhazard; i++) m->hazard[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(hz, i));
        Py_DECREF(hz);
        if (PyErr_Occurred()) goto fail;
    }
    /* clauses -> CSR, and the occurrence lists per literal */
    {
        PyObject *cl = PySequence_Fast(clauses, "clauses");
        if (!cl) goto fail;
        int nc = (int)PySequence_Fast_GET_SIZE(cl), total = 0;
        m->nclauses = nc;
        m->cl_start = malloc(sizeof(int) * (nc + 1));
        for (int c = 0; c < nc; c++) {
            Py_ssize_t k = PySequence_Size(PySequence_Fast_GET_ITEM(cl, c));
            if (k < 1) {
                Py_DECREF(cl);
                PyErr_SetString(PyExc_ValueError, "clauses: an empty nogood");
                goto fail;
            }
            m->cl_start[c] = total;
            total += (int)k;
        }
        m->cl_start[nc] = total;
        m->cl_lits = malloc(sizeof(int) * (total > 0 ? total : 1));
        m->occ_start = calloc(2 * nvars + 1, sizeof(int));
        for (int c = 0; c < nc; c++) {
            int *lits = int_array(PySequence_Fast_GET_ITEM(cl, c), m->cl_start[c + 1] - m->cl_start[c], "clause");
            if (!lits) {
                Py_DECREF(cl);
                goto fail;
            }
            for (int j = m->cl_start[c]; j < m->cl_start[c + 1]; j++) {
                int l = lits[j - m->cl_start[c]];
                if (l < 0 || l >= 2 * nvars) {
                    free(lits);
                    Py_DECREF(cl);
                    PyErr_SetString(PyExc_ValueError, "clauses: literal out of range");
                    goto fail;
                }
                m->cl_lits[j] = l;
                m->occ_start[l + 1]++;
            }
            free(lits);
        }
        Py_DECREF(cl);
        for (int l = 0; l < 2 * nvars; l++) m->occ_start[l + 1] += m->occ_start[l];
        m->occ = malloc(sizeof(int) * (total > 0 ? total : 1));
        int *fillp = malloc(sizeof(int) * 2 * nvars);
        memcpy(fillp, m->occ_start, sizeof(int) * 2 * nvars);
        for (int c = 0; c < nc; c++)
            for (int j = m->cl_start[c]; j < m->cl_start[c + 1]; j++) m->occ[fillp[m->cl_lits[j]]++] = c;
        free(fillp);
    }
    m->val = malloc(nvars);
    m->ntrue = calloc(m->nclauses + 1, sizeof(int));
    m->nfalse = calloc(m->nclauses + 1, sizeof(int));
    m->trail = malloc(sizeof(int) * nvars);
    m->dvar = malloc(sizeof(int) * nvars);
    m->dmark = malloc(sizeof(int) * nvars);
    m->dalt = malloc(sizeof(int) * nvars);
    m->stack = malloc(sizeof(int) * n);
    m->seen = malloc(sizeof(int) * n);
    m->alen = malloc(sizeof(int) * n);
    m->dlen = malloc(sizeof(int) * n);
    m->disc = malloc(sizeof(int) * n);
    m->low = malloc(sizeof(int) * n);
    m->sub = malloc(sizeof(int) * n);
    return (PyObject *)m;
fail:
    Py_DECREF(m);
    return NULL;
}

/* ------------------------------------------------------------ propagation */

/* Put var = value on the trail; 0 on a clash with its current value. */
static inline int enqueue(ModelObject *m, int var, int value) {
    if (m->val[var] >= 0) return m->val[var] == value;
    m->val[var] = (signed char)value;
    m->trail[m->trail_len++] = var;
    return 1;
}

/* Process the queue; 0 on a conflict. */
static int propagate(ModelObject *m) {
    while (m->qhead < m->trail_len) {
        int var = m->trail[m->qhead++];
        int value = m->val[var];
        int w = m->weight[var];
        m->free_weight -= w;
        if (value) m->blacks += w;
        int lt = var * 2 + value, lf = var * 2 + 1 - value;
        for (int k = m->occ_start[lf]; k < m->occ_start[lf + 1]; k++) m->nfalse[m->occ[k]]++;
        int ok = 1;
        for (int k = m->occ_start[lt]; k < m->occ_start[lt + 1]; k++) {
            int c = m->occ[k];
            int t = ++m->ntrue[c];
            if (!ok || m->nfalse[c]) continue;
            int size = m->cl_start[c + 1] - m->cl_start[c];
            if (t == size) {
                ok = 0;
            } else if (t == size - 1) {
                for (int j = m->cl_start[c]; j < m->cl_start[c + 1]; j++) {
                    int l = m->cl_lits[j], v = l >> 1;
                    if (m->val[v] < 0) {
                        enqueue(m, v, 1 - (l & 1));
                        break;
                    }
                }
            }
        }
        if (!ok) return 0;
        if (m->max_black >= 0 && m->blacks > m->max_black) return 0;
        if (m->min_black >= 0 && m->blacks + m->free_weight < m->min_black) return 0;
    }
    return 1;
}

/* Undo the trail down to `mark`. */
static void undo(ModelObject *m, int mark) {
    for (int i = m->trail_len - 1; i >= mark; i--) {
        int var = m->trail[i];
        if (i < m->qhead) {
            int value = m->val[var], w = m->weight[var];
            m->free_weight += w;
            if (value) m->blacks -= w;
            int lt = var * 2 + value, lf = var * 2 + 1 - value;
            for (int k = m->occ_start[lf]; k < m->occ_start[lf + 1]; k++) m->nfalse[m->occ[k]]--;
            for (int k = m->occ_start[lt]; k < m->occ_start[lt + 1]; k++) m->ntrue[m->occ[k]]--;
        }
        m->val[var] = -1;
    }
    m->trail_len = mark;
    if (m->qhead > mark) m->qhead = mark;
}

/* ------------------------------------------------------------ heuristic */

static inline int cell_is(ModelObject *m, int cell, int value) { return m->val[m->rep[cell]] == value; }

/* Cells sure to be white from `cell` (exclusive), `step` at a time, at most `limit`. */
static int white_run(ModelObject *m, int cell, int step, int limit) {
    int k = 0, i = cell + step;
    while (k < limit && cell_is(m, i, 0)) {
        k++;
        i += step;
    }
    return k;
}

static double run_end(ModelObject *m, int length) {
    return m->hazard[length < m->nhazard ? length : m->nhazard - 1];
}

/* The chance that the first cell of `var` should be black. */
static double p_black(ModelObject *m, int var) {
    if (m->target < 0) return 0.5; /* no grid to reason about */
    int cell = m->cell_of[var], cols = m->cols, r = cell / cols, c = cell % cols;
    if (m->prior[cell] >= 0) return m->prior[cell];
    int left = white_run(m, cell, -1, c), right = white_run(m, cell, 1, cols - 1 - c);
    int up = white_run(m, cell, -cols, r), down = white_run(m, cell, cols, m->rows - 1 - r);
    /* A run that touches an edge without a white is an edge black, rarer than a bar. */
    double hx = (left + right == 0 && (c == 0 || c == cols - 1)) ? m->hazard[0] / 3 : run_end(m, left + right);
    double hy = (up + down == 0 && (r == 0 || r == m->rows - 1)) ? m->hazard[0] / 3 : run_end(m, up + down);
    double p = 1.0 - (1.0 - hx) * (1.0 - hy);
    /* Few 2x2 black blocks: the other three cells of a block already black. */
    for (int dr = -1; dr <= 0; dr++)
        for (int dc = -1; dc <= 0; dc++) {
            int r0 = r + dr, c0 = c + dc;
            if (r0 < 0 || c0 < 0 || r0 + 1 >= m->rows || c0 + 1 >= cols) continue;
            int blacks = 0;
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    int j = (r0 + a) * cols + c0 + b;
                    if (j != cell && cell_is(m, j, 1)) blacks++;
                }
            if (blacks == 3) p *= 0.02;
        }
    /* Steer to the target count: scale by how far behind or ahead we are. */
    double expected = m->target / m->ncells * m->free_weight;
    if (expected > 0) {
        double f = (m->target - m->blacks) / expected;
        p *= f < 0.3 ? 0.3 : (f > 3.0 ? 3.0 : f);
    }
    return p < 0.01 ? 0.01 : (p > 0.95 ? 0.95 : p);
}

/* ------------------------------------------------------------ leaf checks */

static inline int white(ModelObject *m, int cell) { return m->val[m->rep[cell]] == 0; }

/* Lengths of the white runs through each cell of `lines` lines of `len`
 * cells (cell = line * line_step + k * cell_step) into out; 0 for blacks. */
static void runs_along(ModelObject *m, int *out, int lines, int len, int line_step, int cell_step) {
    for (int l = 0; l < lines; l++)
        for (int k = 0; k < len;) {
            int i = l * line_step + k * cell_step;
            if (!white(m, i)) {
                out[i] = 0;
                k++;
                continue;
            }
            int e = k;
            while (e < len && white(m, l * line_step + e * cell_step)) e++;
            for (int j = k; j < e; j++) out[l * line_step + j * cell_step] = e - k;
            k = e;
        }
}

/* Run lengths through each cell, across (alen) and down (dlen); 0 for blacks. */
static void run_lengths(ModelObject *m) {
    runs_along(m, m->alen, m->rows, m->cols, m->cols, 1);
    runs_along(m, m->dlen, m->cols, m->rows, 1, m->cols);
}

/* Words (runs of two or more whites) across and down. */
static int word_count(ModelObject *m) {
    int words = 0, n = m->ncells, cols = m->cols;
    for (int i = 0; i < n; i++) {
        if (m->alen[i] >= 2 && (i % cols == 0 || !m->alen[i - 1])) words++;
        if (m->dlen[i] >= 2 && (i < cols || !m->dlen[i - cols])) words++;
    }
    return words;
}

/* Every word has at least `share` of its letters checked. */
static int checked_share_ok(ModelObject *m, double share) {
    int n = m->ncells, cols = m->cols;
    for (int i = 0; i < n; i++) {
        if (m->alen[i] >= 2 && (i % cols == 0 || !m->alen[i - 1])) {
            int L = m->alen[i], k = 0;
            for (int j = 0; j < L; j++) k += m->dlen[i + j] >= 2;
            if (k < share * L - 1e-9) return 0;
        }
        if (m->dlen[i] >= 2 && (i < cols || !m->dlen[i - cols])) {
            int L = m->dlen[i], k = 0;
            for (int j = 0; j < L; j++) k += m->alen[i + j * cols] >= 2;
            if (k < share * L - 1e-9) return 0;
        }
    }
    return 1;
}

static int neighbours(ModelObject *m, int i, int *out) {
    int cols = m->cols, r = i / cols, c = i % cols, k = 0;
    if (c > 0 && white(m, i - 1)) out[k++] = i - 1;
    if (c + 1 < cols && white(m, i + 1)) out[k++] = i + 1;
    if (r > 0 && white(m, i - cols)) out[k++] = i - cols;
    if (r + 1 < m->rows && white(m, i + cols)) out[k++] = i + cols;
    return k;
}

/* Tarjan's articulation points with subtree sizes: 1 when some cell's
 * filling leaves two parts of at least cut_part cells. */
static void cut_dfs(ModelObject *m, int v, int parent, int total, int *bad) {
    int nb[4], k = neighbours(m, v, nb), big = 0, cut_off = 0, children = 0;
    m->disc[v] = m->low[v] = ++m->dfs_time;
    m->sub[v] = 1;
    for (int j = 0; j < k && !*bad; j++) {
        int u = nb[j];
        if (!m->disc[u]) {
            children++;
            cut_dfs(m, u, v, total, bad);
            m->sub[v] += m->sub[u];
            if (m->low[u] < m->low[v]) m->low[v] = m->low[u];
            if (m->low[u] >= m->disc[v]) {
                /* u's subtree is a part of its own without v (for the root, any child's is) */
                cut_off += m->sub[u];
                big += m->sub[u] >= m->cut_part;
            }
        } else if (u != parent && m->disc[u] < m->low[v]) {
            m->low[v] = m->disc[u];
        }
    }
    if (!*bad) {
        if (parent >= 0) {
            int rest = total - 1 - cut_off; /* the part holding the root */
            if (cut_off > 0 && rest >= m->cut_part) big++;
            if (cut_off > 0 && big >= 2) *bad = 1;
        } else if (children > 1 && big >= 2) {
            *bad = 1;
        }
    }
}

/* Cells of the region holding `start` (marks them in seen). */
static int region_size(ModelObject *m, int start) {
    int count = 0, top = 0, nb[4];
    m->seen[start] = 1;
    m->stack[top++] = start;
    while (top) {
        int i = m->stack[--top];
        count++;
        int k = neighbours(m, i, nb);
        for (int j = 0; j < k; j++)
            if (!m->seen[nb[j]]) {
                m->seen[nb[j]] = 1;
                m->stack[top++] = nb[j];
            }
    }
    return count;
}

static int leaf_ok(ModelObject *m) {
    if (m->connected || m->cut_part > 0) {
        int n = m->ncells, regions = 0, bad = 0;
        for (int i = 0; i < n; i++) m->seen[i] = m->disc[i] = 0;
        m->dfs_time = 0;
        /* Each region alone: a cell cuts its own region, never another. */
        for (int i = 0; i < n && !bad; i++) {
            if (!white(m, i) || m->seen[i]) continue;
            regions++;
            if (m->connected && regions > 1) return 0;
            int size = region_size(m, i);
            if (m->cut_part > 0) cut_dfs(m, i, -1, size, &bad);
        }
        if (bad || (m->connected && regions == 0)) return 0;
    }
    if (m->min_words >= 0 || m->max_words >= 0 || m->min_checked_share > 0) {
        run_lengths(m);
        if (m->min_words >= 0 || m->max_words >= 0) {
            int w = word_count(m);
            if ((m->min_words >= 0 && w < m->min_words) || (m->max_words >= 0 && w > m->max_words)) return 0;
        }
        if (m->min_checked_share > 0 && !checked_share_ok(m, m->min_checked_share)) return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ search */

static PyObject *Model_solve(ModelObject *m, PyObject *args) {
    unsigned long long seed;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "KL", &seed, &max_nodes)) return NULL;
    int nvars = m->nvars;
    m->rng = seed;
    memset(m->val, -1, nvars);
    memset(m->ntrue, 0, sizeof(int) * (m->nclauses + 1));
    memset(m->nfalse, 0, sizeof(int) * (m->nclauses + 1));
    m->trail_len = m->qhead = m->blacks = 0;
    m->free_weight = 0;
    for (int v = 0; v < nvars; v++) m->free_weight += m->weight[v];
    long long nodes = 0;
    int depth = 0, pos = 0, status = 2, ok = 1;
    /* Clauses of one literal hold at the root. */
    for (int c = 0; c < m->nclauses && ok; c++)
        if (m->cl_start[c + 1] - m->cl_start[c] == 1) {
            int l = m->cl_lits[m->cl_start[c]];
            ok = enqueue(m, l >> 1, 1 - (l & 1));
        }
    if (!ok || !propagate(m)) {
        status = 1;
        goto done;
    }
    for (;;) {
        while (pos < nvars && m->val[m->order[pos]] >= 0) pos++;
        if (pos == nvars) {
            /* A whole-grid rule broken at a leaf is owed to early choices:
             * backtracking over the last few would search in vain, so the
             * solve ends and the caller restarts with a fresh seed. */
            status = leaf_ok(m) ? 0 : 2;
            goto done;
        } else {
            int var = m->order[pos];
            int value = uniform(&m->rng) < p_black(m, var);
            m->dvar[depth] = var;
            m->dmark[depth] = m->trail_len;
            m->dalt[depth] = 1 - value;
            depth++;
            nodes++;
            enqueue(m, var, value);
            ok = propagate(m);
        }
        while (!ok) {
            if (nodes >= max_nodes) {
                status = 2;
                goto done;
            }
            if (depth == 0) {
                status = 1;
                goto done;
            }
            int d = depth - 1;
            undo(m, m->dmark[d]);
            if (m->dalt[d] >= 0) {
                int value = m->dalt[d];
                m->dalt[d] = -1; /* both values tried once this fails */
                nodes++;
                enqueue(m, m->dvar[d], value);
                ok = propagate(m);
            } else {
                depth--;
            }
            pos = 0;
        }
    }
done:;
    PyObject *cells = Py_None;
    if (status == 0) {
        cells = PyBytes_FromStringAndSize(NULL, m->ncells);
        if (!cells) return NULL;
        char *s = PyBytes_AS_STRING(cells);
        for (int i = 0; i < m->ncells; i++) s[i] = m->val[m->rep[i]] ? '#' : '.';
    } else {
        Py_INCREF(cells);
    }
    return Py_BuildValue("(iNL)", status, cells, nodes);
}

static PyMethodDef Model_methods[] = {
    {"solve", (PyCFunction)Model_solve, METH_VARARGS,
     "solve(seed, max_nodes) -> (status, cells, nodes): 0 found (cells: bytes '#'/'.'), 1 none exists, 2 out "
     "of nodes"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pipeline.patterns._kernel.Model",
    .tp_basicsize = sizeof(ModelObject),
    .tp_dealloc = (destructor)Model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled pattern model (see the module's header comment).",
    .tp_methods = Model_methods,
    .tp_new = Model_new,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The pattern generator's search kernel.", -1,
                                    NULL};

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&ModelType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&module);
    if (!mod) return NULL;
    Py_INCREF(&ModelType);
    if (PyModule_AddObject(mod, "Model", (PyObject *)&ModelType) < 0) {
        Py_DECREF(&ModelType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
