/* The filler's search kernel: propagation and search over word bitsets, in C.
 *
 * The same engine as described in pipeline/fill/search.py, moved out of the
 * interpreter because its inner loop (which letters a slot's words still
 * allow in each cell) is a few machine instructions per word and Python
 * spends ~100x that per step.  Python keeps the model (grid, slots, word
 * list, scores, exclusions, results and their checks); this file only sees
 * numbers:
 *
 *   Words(length, letters)      one length of the list, best score first;
 *                               letters is bytes, n * length codes 0-25.
 *                               Builds masks[pos][letter] as bitsets.
 *   solve(words, cells, cset, limit, banned, seed, max_nodes, timeout,
 *         first_cutoff, look[, moved[, good[, relax_share[, patience]]]])
 *       words   list per slot of the Words for its length
 *       cells   list per slot of the tuple of its cell numbers
 *       cset    list per cell of the 26-bit set of letters it may take
 *       limit   list per slot: words 0..limit-1 are allowed (score floor),
 *               or a list of such limits, growing: the slot's grades
 *       banned  list per slot of word numbers it may not take
 *       moved   optional, list per slot of the words whose score was
 *               lowered (a penalty), flat [rank, k, rank, k, ...] in their
 *               new order: word k now comes after `rank` words of the
 *               list's own order (see pick_moved); empty: none moved
 *       good    optional, list per slot: words 0..good-1 are good ones,
 *               which slot and value choice favour (see room_of, choose)
 *       relax_share, patience: see relax
 *       -> (status, words per slot or None, nodes, fails, restarts,
 *           failure weight per slot, grade reached per slot)
 *       status: 0 filled, 1 unfillable (search space exhausted at the
 *               last grades), 2 out of nodes or time.
 *
 * State: per slot a bitset of candidate words with the range [lo, hi) of
 * 64-bit words outside which it is zero (domains shrink fast, so scans stay
 * short), its popcount, and per cell a 26-bit letter set.  Invariant: each
 * candidate of a slot has at each position a letter allowed in that cell.
 * Changes are trailed per decision level and undone on backtrack.
 *
 * Propagation is AC-3 between slots sharing a cell, plus "no word twice":
 * a slot down to one word takes it away from every other slot of its
 * length.  A slot's support (the letters its candidates allow in each
 * cell) comes from per-(position, letter) counts kept as words leave,
 * counting down the removed or up the kept, whichever is fewer.  A slot
 * with more than EXACT_MAX candidates keeps no counts and counts as
 * supporting every letter: its cells are still narrowed by its crossings
 * (forward checking), it just narrows nothing itself until it is small.
 * On the benchmark grids that costs fewer nodes, not more, and a fifth to
 * half of the instructions of full arc consistency; slots of one word are
 * always counted, so every fill is consistent.
 *
 * Search: the unassigned slot with the fewest candidates per failure weight
 * (dom/wdeg); among its `look` best-scored candidates (scores lowered by
 * any penalty, see pick_moved) the one leaving its
 * crossings the most room (sum of log2 of the crossing candidates that
 * agree), plus seeded noise below one unit; two-way branching (take the
 * word / remove it), so a run that ends without a fill has exhausted the
 * space.  Runs restart after first_cutoff * 1.5^k failures, keeping the
 * weights.
 *
 * Grades: a slot given several limits starts at its first (the best-scored
 * words only).  A run that fails or restarts while some slot can still
 * come down lowers the grade of the slots most blamed for its dead ends
 * (relax) and starts again from fresh domains, keeping the weights, the
 * cutoff growing by GRADED_GROWTH instead of 1.5: so a fill keeps the best
 * words wherever the grid allows and takes poorer ones only in the corners
 * that need them.  The last grades are the plain problem, so "unfillable"
 * still means no fill exists.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
#define ALL26 ((1u << 26) - 1)
/* Slots with more candidates than this keep no letter counts (see refresh):
 * on the benchmark grids 1000 needs about a third of the instructions of
 * counting everything, and about as many nodes. */
#define EXACT_MAX 1000

/* ------------------------------------------------------------------ Words */

typedef struct {
    PyObject_HEAD
    int length;
    int n;          /* words */
    int nw;         /* 64-bit words per bitset */
    uint8_t *letters; /* n * length */
    u64 *masks;     /* [pos][letter][nw] */
} WordsObject;

static void Words_dealloc(WordsObject *self) {
    free(self->letters);
    free(self->masks);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Words_init(WordsObject *self, PyObject *args, PyObject *kw) {
    int length;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "iy*", &length, &buf)) return -1;
    if (length <= 0 || buf.len % length) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "letters must hold whole words");
        return -1;
    }
    int n = (int)(buf.len / length);
    int nw = (n + 63) / 64;
    if (nw == 0) nw = 1;
    self->length = length;
    self->n = n;
    self->nw = nw;
    self->letters = malloc(buf.len ? buf.len : 1);
    self->masks = calloc((size_t)length * 26 * nw, sizeof(u64));
    if (!self->letters || !self->masks) {
        PyBuffer_Release(&buf);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(self->letters, buf.buf, buf.len);
    PyBuffer_Release(&buf);
    for (int k = 0; k < n; k++) {
        for (int p = 0; p < length; p++) {
            int c = self->letters[(size_t)k * length + p];
            if (c > 25) {
                PyErr_SetString(PyExc_ValueError, "letter codes are 0-25");
                return -1;
            }
            self->masks[((size_t)p * 26 + c) * nw + (k >> 6)] |= (u64)1 << (k & 63);
        }
    }
    return 0;
}

static PyTypeObject WordsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pipeline.fill._kernel.Words",
    .tp_basicsize = sizeof(WordsObject),
    .tp_dealloc = (destructor)Words_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One length of a word list as bitsets: Words(length, letters)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Words_init,
};

/* ------------------------------------------------------------------ State */

typedef struct {
    int s;      /* slot */
    int lo, hi, count, exact;
    size_t off;  /* into bits */
    size_t coff; /* into counts: cnt then sm */
} Saved;

typedef struct {
    int nslots, ncells;
    /* per slot */
    WordsObject **W;
    int *len;
    int **cell;      /* cell[s][pos] */
    int **cross;     /* crossing slot at pos, -1 none */
    int **crosspos;
    int **same;      /* other slots of the same length, -1 terminated */
    u64 **dom;
    int *lo, *hi, *count;
    int32_t **cnt;   /* cnt[s][pos * 26 + letter]: candidates with letter at pos */
    uint32_t **sm;   /* sm[s][pos]: letters with cnt > 0 (the slot's support) */
    char *exact;     /* cnt and sm kept (else sm is every letter) */
    u64 *scratch;    /* words removed by one narrowing */
    double *weight;
    int *stamp;      /* level at which dom[s] was last saved */
    /* per cell */
    uint32_t *cset;
    /* trail */
    Saved *saved;
    size_t nsaved, capsaved;
    u64 *bits;
    size_t nbits, capbits;
    int32_t *counts;
    size_t ncounts, capcounts;
    uint32_t *cset_stack;  /* ncells per level */
    size_t *level_saved;   /* nsaved at level start */
    int level;
    int stampgen;
    /* queue */
    int *queue, qn;
    char *queued;
    /* search */
    u64 rng;
    long long nodes, fails, restarts, max_nodes, cutoff;
    double deadline;
    int look;
    /* penalties (NULL when none): per slot the moved words in their new
     * order, their ranks, how many, and a bitset of them */
    int **moved_k, **moved_rank, *nmoved;
    u64 **moved_bits;
    /* good words (NULL when not given): per slot, words 0..good-1 are the
     * good ones, whose room a value choice counts first (see room_of) */
    int *good;
    /* grades: per slot its word limits, best first (glimit[s][0..ngl[s]-1],
     * growing), the one in force (glevel), its banned words, and the cells'
     * letter sets before any search (cset0): a failed or restarted run may
     * lower the most blamed slots' floors (see relax) and start afresh */
    int **glimit, *ngl, *glevel;
    int **banned_k, *nbanned;
    uint32_t *cset0;
    double relax_share;
    long long patience; /* nodes after which every floor comes down at each relax */
} State;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static u64 next_rand(State *st) { /* splitmix64: the same on every machine */
    u64 z = (st->rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double rand01(State *st) { return (next_rand(st) >> 11) * (1.0 / 9007199254740992.0); }

static inline u64 *mask(WordsObject *w, int pos, int letter) {
    return w->masks + ((size_t)pos * 26 + letter) * w->nw;
}

/* Room for `more` items of `size` bytes in *buf (holding `used` of `*cap`). */
static int reserve(void **buf, size_t *cap, size_t used, size_t more, size_t size) {
    if (used + more <= *cap) return 0;
    size_t want = (*cap + more) * 2 + 64;
    void *p = realloc(*buf, want * size);
    if (!p) return -1;
    *buf = p;
    *cap = want;
    return 0;
}

/* Save dom[s] once per level before it changes. */
static int save(State *st, int s) {
    if (st->stamp[s] == st->stampgen) return 0;
    st->stamp[s] = st->stampgen;
    int n = st->hi[s] - st->lo[s];
    size_t nc = (size_t)st->len[s] * 27; /* cnt, then sm */
    if (reserve((void **)&st->saved, &st->capsaved, st->nsaved, 1, sizeof(Saved)) < 0 ||
        reserve((void **)&st->bits, &st->capbits, st->nbits, n, sizeof(u64)) < 0 ||
        reserve((void **)&st->counts, &st->capcounts, st->ncounts, nc, sizeof(int32_t)) < 0)
        return -1;
    memcpy(st->counts + st->ncounts, st->cnt[s], st->len[s] * 26 * sizeof(int32_t));
    memcpy(st->counts + st->ncounts + st->len[s] * 26, st->sm[s], st->len[s] * sizeof(uint32_t));
    Saved *sv = &st->saved[st->nsaved++];
    sv->coff = st->ncounts;
    st->ncounts += nc;
    sv->s = s;
    sv->lo = st->lo[s];
    sv->hi = st->hi[s];
    sv->count = st->count[s];
    sv->exact = st->exact[s];
    sv->off = st->nbits;
    if (n > 0) memcpy(st->bits + st->nbits, st->dom[s] + st->lo[s], n * sizeof(u64));
    st->nbits += n;
    return 0;
}

static void push_level(State *st) {
    st->level_saved[st->level] = st->nsaved;
    memcpy(st->cset_stack + (size_t)st->level * st->ncells, st->cset, st->ncells * sizeof(uint32_t));
    st->level++;
    st->stampgen++;
}

static void pop_level(State *st) {
    st->level--;
    size_t start = st->level_saved[st->level];
    while (st->nsaved > start) {
        Saved *sv = &st->saved[--st->nsaved];
        int s = sv->s;
        /* Domains only shrink: outside the saved range they were zero. */
        memcpy(st->dom[s] + sv->lo, st->bits + sv->off, (sv->hi - sv->lo) * sizeof(u64));
        st->nbits = sv->off;
        memcpy(st->cnt[s], st->counts + sv->coff, st->len[s] * 26 * sizeof(int32_t));
        memcpy(st->sm[s], st->counts + sv->coff + st->len[s] * 26, st->len[s] * sizeof(uint32_t));
        st->ncounts = sv->coff;
        st->lo[s] = sv->lo;
        st->hi[s] = sv->hi;
        st->count[s] = sv->count;
        st->exact[s] = (char)sv->exact;
    }
    memcpy(st->cset, st->cset_stack + (size_t)st->level * st->ncells, st->ncells * sizeof(uint32_t));
    st->stampgen++; /* saves at the parent level start afresh */
}

static void tighten(State *st, int s) {
    u64 *d = st->dom[s];
    int lo = st->lo[s], hi = st->hi[s];
    while (lo < hi && !d[lo]) lo++;
    while (hi > lo && !d[hi - 1]) hi--;
    st->lo[s] = lo;
    st->hi[s] = hi;
}

static void enqueue(State *st, int s) {
    if (!st->queued[s]) {
        st->queued[s] = 1;
        st->queue[st->qn++] = s;
    }
}

/* cnt[s] and sm[s] from scratch, from the words of dom[s]. */
static void recount(State *st, int s) {
    int L = st->len[s];
    int32_t *c = st->cnt[s];
    const uint8_t *letters = st->W[s]->letters;
    u64 *d = st->dom[s];
    memset(c, 0, L * 26 * sizeof(int32_t));
    for (int i = st->lo[s]; i < st->hi[s]; i++) {
        u64 x = d[i];
        while (x) {
            const uint8_t *code = letters + (size_t)(i * 64 + __builtin_ctzll(x)) * L;
            x &= x - 1;
            for (int p = 0; p < L; p++) c[p * 26 + code[p]]++;
        }
    }
    for (int p = 0; p < L; p++) {
        uint32_t m = 0;
        for (int l = 0; l < 26; l++)
            if (c[p * 26 + l]) m |= 1u << l;
        st->sm[s][p] = m;
    }
}

/* Counted if small enough, else supporting every letter (see the top). */
static void refresh(State *st, int s) {
    if (st->count[s] <= EXACT_MAX) {
        st->exact[s] = 1;
        recount(st, s);
    } else {
        st->exact[s] = 0;
        for (int p = 0; p < st->len[s]; p++) st->sm[s][p] = ALL26;
    }
}

/* Take word k out of cnt[s] and sm[s]. */
static inline void uncount_word(State *st, int s, int k) {
    int L = st->len[s];
    int32_t *c = st->cnt[s];
    uint32_t *sm = st->sm[s];
    const uint8_t *code = st->W[s]->letters + (size_t)k * L;
    for (int p = 0; p < L; p++)
        if (--c[p * 26 + code[p]] == 0) sm[p] &= ~(1u << code[p]);
}

/* Take the words of rem[lo..hi) out of cnt[s] and sm[s]. */
static void uncount(State *st, int s, const u64 *rem, int lo, int hi) {
    for (int i = lo; i < hi; i++) {
        u64 x = rem[i];
        while (x) {
            uncount_word(st, s, i * 64 + __builtin_ctzll(x));
            x &= x - 1;
        }
    }
}

/* dom[t] keeps the words whose letter at tp is in `allowed`.  -1 on a
 * wipe-out, 1 if it changed, 0 if not. */
static int narrow(State *st, int t, int tp, uint32_t allowed, uint32_t lost) {
    WordsObject *w = st->W[t];
    u64 *d = st->dom[t];
    int lo = st->lo[t], hi = st->hi[t];
    const u64 *m[26];
    int nm = 0, keep = __builtin_popcount(allowed) <= __builtin_popcount(lost);
    uint32_t x = keep ? allowed : lost;
    while (x) {
        int l = __builtin_ctz(x);
        x &= x - 1;
        m[nm++] = mask(w, tp, l);
    }
    /* First the words to remove, branch-free (the compiler vectorises it),
     * then, only if there are any, save and apply. */
    u64 *rem = st->scratch, any = 0;
    if (nm == 1) {
        const u64 *m0 = m[0];
        if (keep)
            for (int i = lo; i < hi; i++) any |= rem[i] = d[i] & ~m0[i];
        else
            for (int i = lo; i < hi; i++) any |= rem[i] = d[i] & m0[i];
    } else {
        for (int i = lo; i < hi; i++) {
            u64 acc = 0;
            for (int j = 0; j < nm; j++) acc |= m[j][i];
            any |= rem[i] = d[i] & (keep ? ~acc : acc);
        }
    }
    if (!any) return 0;
    if (save(st, t) < 0) return -2;
    int count = 0;
    for (int i = lo; i < hi; i++) {
        d[i] &= ~rem[i];
        count += __builtin_popcountll(d[i]);
    }
    int removed = st->count[t] - count;
    st->count[t] = count;
    if (!count) return -1;
    /* Count down the removed words or count up the kept: whichever is fewer. */
    if (st->exact[t] && removed <= count) uncount(st, t, rem, lo, hi);
    tighten(st, t);
    if (!st->exact[t] || removed > count) refresh(st, t);
    return 1;
}

/* Remove word k from slot u (no word twice). */
static int remove_word(State *st, int u, int k) {
    u64 *d = st->dom[u];
    int i = k >> 6;
    u64 b = (u64)1 << (k & 63);
    if (i < st->lo[u] || i >= st->hi[u] || !(d[i] & b)) return 0;
    if (save(st, u) < 0) return -2;
    d[i] &= ~b;
    if (--st->count[u] == 0) return -1;
    tighten(st, u);
    if (st->exact[u])
        uncount_word(st, u, k);
    else
        refresh(st, u);
    return 1;
}

static int first_word(State *st, int s) {
    u64 *d = st->dom[s];
    for (int i = st->lo[s]; i < st->hi[s]; i++)
        if (d[i]) return i * 64 + __builtin_ctzll(d[i]);
    return -1;
}

/* AC-3 from the queued slots: each cell keeps the letters both its slots
 * still support, and a slot narrowed by a crossing is revised in turn.
 * 1 consistent, 0 wipe-out, -2 no memory. */
static int propagate(State *st) {
    while (st->qn) {
        int s = st->queue[--st->qn];
        st->queued[s] = 0;
        int n = st->count[s];
        if (!n) {
            st->weight[s] += 1;
            goto fail;
        }
        int L = st->len[s];
        for (int p = 0; p < L; p++) {
            int cell = st->cell[s][p];
            uint32_t cs = st->cset[cell], nw = st->sm[s][p] & cs;
            if (nw == cs) continue;
            if (!nw) {
                st->weight[s] += 1;
                goto fail;
            }
            st->cset[cell] = nw;
            int t = st->cross[s][p];
            if (t < 0) continue;
            int r = narrow(st, t, st->crosspos[s][p], nw, cs & ~nw);
            if (r == -2) return -2;
            if (r < 0) {
                st->weight[t] += 1;
                goto fail;
            }
            if (r > 0) enqueue(st, t);
        }
        if (n == 1) {
            int k = first_word(st, s);
            for (int *u = st->same[s]; *u >= 0; u++) {
                int r = remove_word(st, *u, k);
                if (r == -2) return -2;
                if (r < 0) {
                    st->weight[*u] += 1;
                    goto fail;
                }
                if (r > 0) enqueue(st, *u);
            }
        }
    }
    return 1;
fail:
    while (st->qn) st->queued[st->queue[--st->qn]] = 0;
    return 0;
}

#ifdef XW_CHECK
/* A debugging build (-DXW_CHECK) checks the state at every node. */
#include <stdio.h>
static void check_counts(State *st) {
    for (int s = 0; s < st->nslots; s++) {
        int L = st->len[s], n = 0;
        int32_t c[64 * 26];
        memset(c, 0, sizeof c);
        for (int i = 0; i < st->W[s]->nw; i++) {
            u64 x = st->dom[s][i];
            if (x && (i < st->lo[s] || i >= st->hi[s])) fprintf(stderr, "slot %d: bits outside range\n", s);
            while (x) {
                const uint8_t *code = st->W[s]->letters + (size_t)(i * 64 + __builtin_ctzll(x)) * L;
                x &= x - 1;
                n++;
                for (int p = 0; p < L; p++) c[p * 26 + code[p]]++;
            }
        }
        if (n != st->count[s]) fprintf(stderr, "slot %d: count %d, has %d\n", s, st->count[s], n);
        if (st->exact[s] && memcmp(c, st->cnt[s], L * 26 * sizeof(int32_t)))
            fprintf(stderr, "slot %d: letter counts wrong\n", s);
        for (int p = 0; p < L; p++) {
            uint32_t m = 0;
            for (int l = 0; l < 26; l++)
                if (c[p * 26 + l]) m |= 1u << l;
            if (st->exact[s] && m != st->sm[s][p]) fprintf(stderr, "slot %d: support wrong\n", s);
            if ((m & st->cset[st->cell[s][p]]) != m) fprintf(stderr, "slot %d pos %d: word letter not in cell\n", s, p);
            if (st->exact[s] && (m & st->cset[st->cell[s][p]]) != st->cset[st->cell[s][p]])
                fprintf(stderr, "node %lld slot %d pos %d: a cell letter no candidate has\n", st->nodes, s, p);
        }
    }
}
#endif

/* How many of slot t's good words (its first good[t] candidates) are still
 * in its domain and, when m is given, in mask m too.  Inlined at each call,
 * so the m == NULL case compiles to its own loop. */
static inline int popcount_good(State *st, int t, const u64 *m) {
    int g = st->good[t], lo = st->lo[t], hi = st->hi[t], gi = g >> 6, c = 0;
    const u64 *d = st->dom[t];
    int end = hi < gi ? hi : gi;
    for (int i = lo; i < end; i++) c += __builtin_popcountll(m ? d[i] & m[i] : d[i]);
    if ((g & 63) && gi >= lo && gi < hi)
        c += __builtin_popcountll((m ? d[gi] & m[gi] : d[gi]) & (((u64)1 << (g & 63)) - 1));
    return c;
}

static int choose(State *st) {
#ifdef XW_CHECK
    check_counts(st);
#endif
    int best = -1;
    double bk = 0;
    for (int s = 0; s < st->nslots; s++) {
        int n = st->count[s];
        if (n > 1) {
            double key = (st->good && st->good[s] > 0 ? popcount_good(st, s, NULL) + 1 : n) / (st->weight[s] + 1.0);
            if (best < 0 || key < bk) {
                best = s;
                bk = key;
            }
        }
    }
    return best;
}

static int agree(State *st, int t, int tp, int letter) {
    if (st->exact[t]) return st->cnt[t][tp * 26 + letter];
    const u64 *m = mask(st->W[t], tp, letter), *d = st->dom[t];
    int c = 0;
    for (int i = st->lo[t]; i < st->hi[t]; i++) c += __builtin_popcountll(d[i] & m[i]);
    return c;
}

/* How much room word k of slot s leaves its crossings (sum of log2 of the
 * crossing candidates that agree), plus seeded noise below one unit; -1 if
 * it leaves some crossing nothing.  With good words given, the room is
 * that left to the crossings' good words (log2 of one more than their
 * count) and a quarter of the plain room: a first fill keeps good words
 * possible where it can, instead of spending them early and leaving a
 * corner only poor ones.  memo and memo_g cache the counts per (pos, letter). */
static inline double room_of(State *st, int s, int k, int memo[64][26], int memo_g[64][26]) {
    int L = st->len[s];
    const uint8_t *code = st->W[s]->letters + (size_t)k * L;
    double room = rand01(st);
    for (int p = 0; p < L; p++) {
        int t = st->cross[s][p];
        if (t < 0) continue;
        int c = memo[p][code[p]];
        if (c < 0) c = memo[p][code[p]] = agree(st, t, st->crosspos[s][p], code[p]);
        if (!c) return -1.0;
        if (st->good && st->good[t] > 0) {
            int g = memo_g[p][code[p]];
            if (g < 0) g = memo_g[p][code[p]] = popcount_good(st, t, mask(st->W[t], st->crosspos[s][p], code[p]));
            room += log2(1.0 + g) + 0.25 * log2((double)c);
        } else {
            room += log2((double)c);
        }
    }
    return room;
}

/* pick() for a slot some of whose words have a lowered score.  Its words
 * in score order are the list's order (bit order) with the moved words
 * taken out and each put back after the first `rank` words of the list:
 * a merge of the unmoved candidates (bit order, moved ones masked off)
 * and the moved list (already in its order), so the `look` best are found
 * without sorting.  Ties keep the list's order: deterministic. */
/* Keep candidate k of slot s if it leaves the crossing slots more room than the best so far. */
static inline void consider(State *st, int s, int k, int memo[64][26], int memo_g[64][26], int *best,
                            double *best_room) {
    double room = room_of(st, s, k, memo, memo_g);
    if (*best < 0 || room > *best_room) {
        *best = k;
        *best_room = room;
    }
}

static int pick_moved(State *st, int s, int memo[64][26], int memo_g[64][26]) {
    const u64 *d = st->dom[s], *mb = st->moved_bits[s];
    const int *mk = st->moved_k[s], *mr = st->moved_rank[s];
    int nm = st->nmoved[s], q = 0, hi = st->hi[s];
    int i = st->lo[s], best = -1, seen = 0;
    double best_room = 0;
    u64 x = i < hi ? d[i] & ~mb[i] : 0;
    while (seen < st->look) {
        while (!x && ++i < hi) x = d[i] & ~mb[i];
        int j = x ? i * 64 + __builtin_ctzll(x) : INT32_MAX; /* next unmoved candidate */
        while (q < nm && !(d[mk[q] >> 6] & ((u64)1 << (mk[q] & 63)))) q++; /* moved, not candidates */
        int k;
        if (q < nm && mr[q] <= j)
            k = mk[q++];
        else if (x) {
            k = j;
            x &= x - 1;
        } else
            break;
        seen++;
        consider(st, s, k, memo, memo_g, &best, &best_room);
    }
    return best;
}

static int pick(State *st, int s) {
    int L = st->len[s];
    u64 *d = st->dom[s];
    int best = -1, seen = 0;
    double best_room = 0;
    int memo[64][26], memo_g[64][26];
    for (int p = 0; p < L; p++)
        for (int l = 0; l < 26; l++) memo[p][l] = memo_g[p][l] = -1;
    if (st->nmoved && st->nmoved[s]) return pick_moved(st, s, memo, memo_g);
    for (int i = st->lo[s]; i < st->hi[s] && seen < st->look; i++) {
        u64 x = d[i];
        while (x && seen < st->look) {
            int k = i * 64 + __builtin_ctzll(x);
            x &= x - 1;
            seen++;
            consider(st, s, k, memo, memo_g, &best, &best_room);
        }
    }
    return best;
}

/* Every slot's domain afresh from its word limit in force, its banned
 * words and the cells' letter sets before any search; the trail emptied. */
static void setup_domains(State *st) {
    st->nsaved = st->nbits = st->ncounts = 0;
    st->level = 0;
    st->stampgen++;
    memcpy(st->cset, st->cset0, st->ncells * sizeof(uint32_t));
    for (int s = 0; s < st->nslots; s++) {
        WordsObject *w = st->W[s];
        int lim = st->glimit[s][st->glevel[s]];
        u64 *d = st->dom[s];
        memset(d, 0, w->nw * sizeof(u64));
        for (int i = 0; i < lim / 64; i++) d[i] = ~(u64)0;
        if (lim % 64) d[lim / 64] = ((u64)1 << (lim % 64)) - 1;
        for (int j = 0; j < st->nbanned[s]; j++) {
            int k = st->banned_k[s][j];
            d[k >> 6] &= ~((u64)1 << (k & 63));
        }
        for (int p = 0; p < st->len[s]; p++) {
            uint32_t cs = st->cset[st->cell[s][p]];
            if (cs == ALL26) continue;
            for (int i = 0; i < w->nw; i++) {
                u64 acc = 0;
                for (int l = 0; l < 26; l++)
                    if (cs >> l & 1) acc |= mask(w, p, l)[i];
                d[i] &= acc;
            }
        }
        int count = 0;
        for (int i = 0; i < w->nw; i++) count += __builtin_popcountll(d[i]);
        st->count[s] = count;
        st->lo[s] = 0;
        st->hi[s] = w->nw;
        tighten(st, s);
        refresh(st, s);
    }
}

/* Lower the floor of the slots most blamed for failures (at least
 * relax_share of the most blamed one's weight) by one grade; if none of
 * the slots that can come down was blamed, or the search has tried more
 * than `patience` words, all of them.  0 if no slot can come down. */
static int relax(State *st) {
    double top = -1;
    for (int s = 0; s < st->nslots; s++)
        if (st->glevel[s] < st->ngl[s] - 1 && st->weight[s] > top) top = st->weight[s];
    if (top < 0) return 0;
    if (st->nodes > st->patience) top = 0; /* out of patience: every slot comes down */
    for (int s = 0; s < st->nslots; s++)
        if (st->glevel[s] < st->ngl[s] - 1 && (top <= 0 || st->weight[s] >= st->relax_share * top)) st->glevel[s]++;
    return 1;
}

enum { FOUND = 1, FAILED = 0, ABORT = -1, RESTART = -2, NOMEM = -3 };
#define GRADED_GROWTH 1.35

static int solve(State *st) {
    for (;;) {
        int s = choose(st);
        if (s < 0) return FOUND;
        st->nodes++;
        if (st->nodes > st->max_nodes) return ABORT;
        if ((st->nodes & 63) == 0 && now() > st->deadline) return ABORT;
        int k = pick(st, s);
        /* Take the word. */
        push_level(st);
        u64 *d = st->dom[s];
        if (save(st, s) < 0) return NOMEM;
        memset(d + st->lo[s], 0, (st->hi[s] - st->lo[s]) * sizeof(u64));
        d[k >> 6] = (u64)1 << (k & 63);
        st->lo[s] = k >> 6;
        st->hi[s] = (k >> 6) + 1;
        st->count[s] = 1;
        refresh(st, s);
        enqueue(st, s);
        int r = propagate(st);
        if (r == -2) return NOMEM;
        if (r) {
            r = solve(st);
            if (r != FAILED) return r;
        }
        pop_level(st);
        st->fails++;
        if (st->fails > st->cutoff) return RESTART;
        /* Or not. */
        r = remove_word(st, s, k);
        if (r == -2) return NOMEM;
        if (r < 0) return FAILED;
        enqueue(st, s);
        r = propagate(st);
        if (r == -2) return NOMEM;
        if (!r) return FAILED;
    }
}

/* ------------------------------------------------------------------ glue */

static void free_state(State *st) {
    for (int s = 0; s < st->nslots; s++) {
        if (st->cell) free(st->cell[s]);
        if (st->cross) free(st->cross[s]);
        if (st->crosspos) free(st->crosspos[s]);
        if (st->same) free(st->same[s]);
        if (st->dom) free(st->dom[s]);
        if (st->cnt) free(st->cnt[s]);
        if (st->sm) free(st->sm[s]);
        if (st->moved_k) free(st->moved_k[s]);
        if (st->moved_rank) free(st->moved_rank[s]);
        if (st->moved_bits) free(st->moved_bits[s]);
    }
    for (int s = 0; s < st->nslots; s++) {
        if (st->glimit) free(st->glimit[s]);
        if (st->banned_k) free(st->banned_k[s]);
    }
    free(st->glimit); free(st->ngl); free(st->glevel); free(st->banned_k); free(st->nbanned); free(st->cset0);
    free(st->moved_k); free(st->moved_rank); free(st->moved_bits); free(st->nmoved);
    free(st->W); free(st->len); free(st->cell); free(st->cross); free(st->crosspos);
    free(st->same); free(st->dom); free(st->lo); free(st->hi); free(st->count);
    free(st->weight); free(st->good); free(st->stamp); free(st->cset); free(st->saved); free(st->bits);
    free(st->cnt); free(st->sm); free(st->exact); free(st->scratch); free(st->counts);
    free(st->cset_stack); free(st->level_saved); free(st->queue); free(st->queued);
}

#define CALLOC(p, n) do { (p) = calloc((n) ? (n) : 1, sizeof(*(p))); if (!(p)) goto nomem; } while (0)

static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *words, *cells, *cset, *limit, *banned, *moved = Py_None, *good = Py_None;
    double relax_share = 0.5;
    long long patience = -1;
    unsigned long long seed;
    long long max_nodes, first_cutoff;
    double timeout;
    int look;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!KLdLi|OOdL", &PyList_Type, &words, &PyList_Type, &cells, &PyList_Type,
                          &cset, &PyList_Type, &limit, &PyList_Type, &banned, &seed, &max_nodes, &timeout,
                          &first_cutoff, &look, &moved, &good, &relax_share, &patience))
        return NULL;
    State st;
    memset(&st, 0, sizeof st);
    int ns = (int)PyList_GET_SIZE(words), nc = (int)PyList_GET_SIZE(cset);
    if (PyList_GET_SIZE(cells) != ns || PyList_GET_SIZE(limit) != ns || PyList_GET_SIZE(banned) != ns ||
        (moved != Py_None && (!PyList_Check(moved) || PyList_GET_SIZE(moved) != ns)) ||
        (good != Py_None && (!PyList_Check(good) || PyList_GET_SIZE(good) != ns))) {
        PyErr_SetString(PyExc_ValueError, "words, cells, limit, banned, moved and good need one item per slot");
        return NULL;
    }
    st.nslots = ns;
    st.ncells = nc;
    CALLOC(st.W, ns); CALLOC(st.len, ns); CALLOC(st.cell, ns); CALLOC(st.cross, ns); CALLOC(st.crosspos, ns);
    CALLOC(st.same, ns); CALLOC(st.dom, ns); CALLOC(st.lo, ns); CALLOC(st.hi, ns); CALLOC(st.count, ns);
    CALLOC(st.weight, ns); CALLOC(st.stamp, ns); CALLOC(st.cset, nc); CALLOC(st.queue, ns); CALLOC(st.queued, ns);
    CALLOC(st.cnt, ns); CALLOC(st.sm, ns); CALLOC(st.exact, ns);
    CALLOC(st.level_saved, ns + 4);
    CALLOC(st.cset_stack, (size_t)(ns + 4) * nc);
    for (int c = 0; c < nc; c++) {
        unsigned long v = PyLong_AsUnsignedLong(PyList_GET_ITEM(cset, c));
        if (PyErr_Occurred()) goto error;
        st.cset[c] = (uint32_t)(v & ALL26);
    }
    /* owners of each cell: at most two slots */
    int *own = malloc(sizeof(int) * 4 * (nc ? nc : 1));
    if (!own) goto nomem;
    for (int c = 0; c < 4 * nc; c++) own[c] = -1;
    for (int s = 0; s < ns; s++) {
        PyObject *w = PyList_GET_ITEM(words, s);
        if (!PyObject_TypeCheck(w, &WordsType)) {
            free(own);
            PyErr_SetString(PyExc_TypeError, "words must be Words objects");
            goto error;
        }
        st.W[s] = (WordsObject *)w;
        PyObject *cs = PySequence_Fast(PyList_GET_ITEM(cells, s), "cells must be sequences");
        if (!cs) { free(own); goto error; }
        int L = (int)PySequence_Fast_GET_SIZE(cs);
        if (L != st.W[s]->length || L > 64) {
            Py_DECREF(cs);
            free(own);
            PyErr_SetString(PyExc_ValueError, "a slot's cells and its words differ in length");
            goto error;
        }
        st.len[s] = L;
        st.cell[s] = malloc(sizeof(int) * L);
        st.cross[s] = malloc(sizeof(int) * L);
        st.crosspos[s] = malloc(sizeof(int) * L);
        if (!st.cell[s] || !st.cross[s] || !st.crosspos[s]) { Py_DECREF(cs); free(own); goto nomem; }
        for (int p = 0; p < L; p++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(cs, p));
            if (c < 0 || c >= nc) {
                Py_DECREF(cs);
                free(own);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "cell number out of range");
                goto error;
            }
            st.cell[s][p] = (int)c;
            if (own[4 * c] < 0) { own[4 * c] = s; own[4 * c + 1] = p; }
            else { own[4 * c + 2] = s; own[4 * c + 3] = p; }
        }
        Py_DECREF(cs);
    }
    for (int s = 0; s < ns; s++) {
        for (int p = 0; p < st.len[s]; p++) {
            int c = st.cell[s][p];
            if (own[4 * c] == s && own[4 * c + 1] == p) { st.cross[s][p] = own[4 * c + 2]; st.crosspos[s][p] = own[4 * c + 3]; }
            else { st.cross[s][p] = own[4 * c]; st.crosspos[s][p] = own[4 * c + 1]; }
        }
        int m = 0;
        st.same[s] = malloc(sizeof(int) * (ns + 1));
        if (!st.same[s]) { free(own); goto nomem; }
        for (int u = 0; u < ns; u++)
            if (u != s && st.W[u] == st.W[s]) st.same[s][m++] = u;
        st.same[s][m] = -1;
    }
    free(own);
    int maxnw = 1;
    for (int s = 0; s < ns; s++)
        if (st.W[s]->nw > maxnw) maxnw = st.W[s]->nw;
    CALLOC(st.scratch, maxnw);
    /* word limits (an int, or a list of growing ints: the grades) and
     * banned words per slot; then the initial domains */
    CALLOC(st.glimit, ns); CALLOC(st.ngl, ns); CALLOC(st.glevel, ns); CALLOC(st.banned_k, ns); CALLOC(st.nbanned, ns);
    CALLOC(st.cset0, nc);
    memcpy(st.cset0, st.cset, nc * sizeof(uint32_t));
    st.relax_share = relax_share;
    st.patience = patience < 0 ? LLONG_MAX : patience;
    for (int s = 0; s < ns; s++) {
        WordsObject *w = st.W[s];
        PyObject *lim = PyList_GET_ITEM(limit, s);
        PyObject *lims = PyLong_Check(lim) ? NULL : PySequence_Fast(lim, "limit must be an int or a sequence");
        if (!PyLong_Check(lim) && !lims) goto error;
        int n = lims ? (int)PySequence_Fast_GET_SIZE(lims) : 1;
        st.glimit[s] = calloc(n ? n : 1, sizeof(int));
        if (!st.glimit[s]) { Py_XDECREF(lims); goto nomem; }
        for (int j = 0; j < n; j++) {
            long v = PyLong_AsLong(lims ? PySequence_Fast_GET_ITEM(lims, j) : lim);
            if (v > w->n) v = w->n;
            if (v < 0) v = 0;
            if (j && v < st.glimit[s][j - 1]) v = st.glimit[s][j - 1];
            st.glimit[s][j] = (int)v;
        }
        Py_XDECREF(lims);
        if (PyErr_Occurred()) goto error;
        st.ngl[s] = n ? n : 1;
        PyObject *b = PySequence_Fast(PyList_GET_ITEM(banned, s), "banned must be sequences");
        if (!b) goto error;
        Py_ssize_t nb = PySequence_Fast_GET_SIZE(b);
        st.banned_k[s] = calloc(nb ? nb : 1, sizeof(int));
        if (!st.banned_k[s]) { Py_DECREF(b); goto nomem; }
        for (Py_ssize_t j = 0; j < nb; j++) {
            long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(b, j));
            if (k >= 0 && k < w->n) st.banned_k[s][st.nbanned[s]++] = (int)k;
        }
        Py_DECREF(b);
        if (PyErr_Occurred()) goto error;
        CALLOC(st.dom[s], w->nw);
        CALLOC(st.cnt[s], (size_t)st.len[s] * 26);
        CALLOC(st.sm[s], st.len[s]);
    }
    setup_domains(&st);
    if (good != Py_None) {
        CALLOC(st.good, ns);
        for (int s = 0; s < ns; s++) {
            long g = PyLong_AsLong(PyList_GET_ITEM(good, s));
            if (PyErr_Occurred()) goto error;
            st.good[s] = g < 0 ? 0 : g > st.W[s]->n ? st.W[s]->n : (int)g;
        }
    }
    /* moved words (lowered scores): [rank, k, ...] per slot, in their new order */
    if (moved != Py_None) {
        CALLOC(st.moved_k, ns); CALLOC(st.moved_rank, ns); CALLOC(st.moved_bits, ns); CALLOC(st.nmoved, ns);
        for (int s = 0; s < ns; s++) {
            PyObject *m = PySequence_Fast(PyList_GET_ITEM(moved, s), "moved must be sequences");
            if (!m) goto error;
            Py_ssize_t n2 = PySequence_Fast_GET_SIZE(m);
            if (n2 % 2) {
                Py_DECREF(m);
                PyErr_SetString(PyExc_ValueError, "moved lists hold rank, word pairs");
                goto error;
            }
            int n = (int)(n2 / 2), w_n = st.W[s]->n;
            st.moved_k[s] = calloc(n ? n : 1, sizeof(int));
            st.moved_rank[s] = calloc(n ? n : 1, sizeof(int));
            st.moved_bits[s] = calloc(st.W[s]->nw, sizeof(u64));
            if (!st.moved_k[s] || !st.moved_rank[s] || !st.moved_bits[s]) { Py_DECREF(m); goto nomem; }
            for (int j = 0; j < n; j++) {
                long r = PyLong_AsLong(PySequence_Fast_GET_ITEM(m, 2 * j));
                long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(m, 2 * j + 1));
                if (PyErr_Occurred() || k < 0 || k >= w_n || r < 0 || (j && r < st.moved_rank[s][j - 1])) {
                    Py_DECREF(m);
                    if (!PyErr_Occurred())
                        PyErr_SetString(PyExc_ValueError, "moved: word out of range or ranks out of order");
                    goto error;
                }
                st.moved_rank[s][j] = (int)r;
                st.moved_k[s][j] = (int)k;
                st.moved_bits[s][k >> 6] |= (u64)1 << (k & 63);
            }
            st.nmoved[s] = n;
            Py_DECREF(m);
        }
    }
    st.rng = seed;
    st.max_nodes = max_nodes;
    st.look = look;
    st.deadline = now() + timeout;
    int status, r;
    Py_BEGIN_ALLOW_THREADS
    /* level 0 holds the root state, so every run starts from it; a run
     * that fails or restarts while some slot's floor can still come down
     * lowers the most blamed floors and starts again from new domains */
    double cutoff = (double)first_cutoff;
    int fresh = 1; /* the domains were just set up: the root needs propagating */
    for (;;) {
        if (fresh) {
            for (int s = 0; s < ns; s++) enqueue(&st, s);
            push_level(&st);
            r = propagate(&st);
            if (r == -2) { status = -3; break; }
            if (!r) { /* the floors leave some slot no word: lower them */
                if (relax(&st)) { setup_domains(&st); continue; }
                status = 1;
                break;
            }
            fresh = 0;
        }
        st.cutoff = st.fails + (long long)cutoff;
        push_level(&st);
        r = solve(&st);
        if (r == FOUND) { status = 0; break; }
        if (r == ABORT) { status = 2; break; }
        if (r == NOMEM) { status = -3; break; }
        if (r == RESTART) st.restarts++;
        if (relax(&st)) { /* a run at new floors is a new problem: the cutoff grows slowly */
            if (r == RESTART) cutoff *= GRADED_GROWTH;
            setup_domains(&st);
            fresh = 1;
            continue;
        }
        if (r == FAILED) { status = 1; break; }
        cutoff *= 1.5;
        while (st.level > 1) pop_level(&st); /* a plain restart, from the root state */
    }
    Py_END_ALLOW_THREADS
    if (status == -3) goto nomem;
    PyObject *sol = Py_None;
    if (status == 0) {
        sol = PyList_New(ns);
        if (!sol) goto error;
        for (int s = 0; s < ns; s++) PyList_SET_ITEM(sol, s, PyLong_FromLong(first_word(&st, s)));
    } else {
        Py_INCREF(sol);
    }
    PyObject *weights = PyList_New(ns);
    if (!weights) { Py_DECREF(sol); goto error; }
    for (int s = 0; s < ns; s++) PyList_SET_ITEM(weights, s, PyFloat_FromDouble(st.weight[s]));
    PyObject *levels = PyList_New(ns);
    if (!levels) { Py_DECREF(sol); Py_DECREF(weights); goto error; }
    for (int s = 0; s < ns; s++) PyList_SET_ITEM(levels, s, PyLong_FromLong(st.glevel[s]));
    PyObject *out = Py_BuildValue("(iNLLLNN)", status, sol, st.nodes, st.fails, st.restarts, weights, levels);
    free_state(&st);
    return out;
nomem:
    PyErr_NoMemory();
error:
    free_state(&st);
    return NULL;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(words, cells, cset, limit, banned, seed, max_nodes, timeout, first_cutoff, look[, moved[, good[,\n"
     "relax_share[, patience]]]]) -> (status, words per slot or None, nodes, fails, restarts, failure weight\n"
     "per slot,\n"
     "grade reached per slot); a slot's limit is a word count or a list of them, its grades, best first;\n"
     "status 0 filled, 1 unfillable, 2 out of budget"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The filler's search kernel.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&WordsType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&WordsType);
    if (PyModule_AddObject(m, "Words", (PyObject *)&WordsType) < 0) {
        Py_DECREF(&WordsType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
