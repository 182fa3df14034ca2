/* Compiled block Gibbs moves for the Abbey's chains: the same moves as gibbs.py.
 *
 * run(arrays, moves, seed, params) makes `moves` moves of one walk whose whole state
 * lives in numpy arrays (see gibbs.py, class Compiled, for their layout): each move
 * draws a block as chains.Blocks does, redraws the block's paths exactly given the
 * rest (a forward filter over the block's segments, then backward sampling) and adds
 * the block's current-holder law given the rest to the walk's sums
 * (Rao-Blackwellised). A block whose layers would pass `params.most` states is left
 * as it is (the same for every history of its class, so the law is kept).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXK 12 /* cards in a block: 12 holders' codes of 3 bits fit 36 bits */
#define MAXH 8  /* holders: the culprit, the pile and six players */
#define CULPRIT 0

typedef struct {
    int cards, holders, epochs, nobs, nfree, npool;
    const int32_t *node_bad, *stay_bad; /* [cards][holders][epochs + 1] */
    const uint64_t *steps;              /* [cards][epochs]: bit a*8+b, transfer t at t-1 */
    const int32_t *obs;                 /* [nobs][4]: time, holder, lo, hi */
    const uint64_t *obs_cards;          /* [nobs]: bit c for each observed card */
    const int32_t *of_start, *of_card;  /* observations of card c: of_card[of_start[c]..] */
    const int32_t *free;                /* [nfree] */
    const int32_t *pool_start, *pool;   /* pool set p: pool[pool_start[p]..pool_start[p+1]] */
    int8_t *paths;                      /* [cards][epochs] */
    int32_t *value;                     /* [nobs] */
    double *sums;                       /* [cards][holders] */
    int64_t *since;                     /* [cards] */
    int64_t *stats;                     /* made, changes, culprit, left alone */
    double pool_share, join_share, culprit_share;
    int largest, fewest_random, most_random;
    int64_t most;
    uint64_t rng;
} Walk;

/* ---- random numbers: splitmix64 ---------------------------------------------- */

static uint64_t next64(Walk *w) {
    uint64_t z = (w->rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double uniform(Walk *w) { return (next64(w) >> 11) * (1.0 / 9007199254740992.0); }

static int below(Walk *w, int n) { return (int)(uniform(w) * n); }

/* ---- growable arrays ---------------------------------------------------------- */

typedef struct {
    void *data;
    size_t size, cap, item;
} Vec;

static int vec_reserve(Vec *v, size_t n) {
    if (n <= v->cap) return 0;
    size_t cap = v->cap ? v->cap : 256;
    while (cap < n) cap *= 2;
    void *data = realloc(v->data, cap * v->item);
    if (!data) return -1;
    v->data = data;
    v->cap = cap;
    return 0;
}

/* ---- blocks ----------------------------------------------------------------- */

static int has(const int *block, int k, int c) {
    for (int i = 0; i < k; i++)
        if (block[i] == c) return 1;
    return 0;
}

/* m distinct random cards of the free ones other than `except` (-1: none), into out */
static int sample_free(Walk *w, int m, int except, int *out) {
    int pool[64], n = 0;
    for (int i = 0; i < w->nfree; i++)
        if (w->free[i] != except) pool[n++] = w->free[i];
    if (m > n) m = n;
    for (int i = 0; i < m; i++) {
        int j = i + below(w, n - i);
        int t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
        out[i] = pool[i];
    }
    return m;
}

static int union_into(int *block, int k, const int *more, int m, int largest) {
    int joined[2 * MAXK + 64], n = k;
    memcpy(joined, block, k * sizeof(int));
    for (int i = 0; i < m; i++)
        if (!has(joined, n, more[i])) joined[n++] = more[i];
    if (n > largest) return k;
    memcpy(block, joined, n * sizeof(int));
    return n;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* the next move's block, as chains.Blocks.draw: its size, the cards sorted into block */
static int draw_block(Walk *w, int culprit, int *block) {
    double roll = uniform(w);
    int k = 0;
    if (w->npool && roll < w->pool_share) {
        int p = below(w, w->npool);
        for (int i = w->pool_start[p]; i < w->pool_start[p + 1]; i++) block[k++] = w->pool[i];
        double join = uniform(w);
        if (join < w->join_share / 2) {
            int q = below(w, w->npool);
            k = union_into(block, k, w->pool + w->pool_start[q],
                           w->pool_start[q + 1] - w->pool_start[q], w->largest);
        } else if (join < w->join_share) {
            int more[2];
            int m = sample_free(w, 1 + below(w, 2), -1, more);
            k = union_into(block, k, more, m, w->largest);
        }
    } else {
        int culprit_free = 0;
        for (int i = 0; i < w->nfree; i++) culprit_free |= w->free[i] == culprit;
        if (roll < w->pool_share + w->culprit_share && culprit_free) {
            block[0] = culprit;
            k = 1 + sample_free(w, 1 + below(w, 3), culprit, block + 1);
        } else {
            int size = w->fewest_random + below(w, w->most_random - w->fewest_random + 1);
            int half = w->nfree / 2 > 2 ? w->nfree / 2 : 2;
            k = sample_free(w, size < half ? size : half, -1, block);
        }
    }
    qsort(block, k, sizeof(int), cmp_int);
    return k;
}

/* ---- one move ----------------------------------------------------------------- */

typedef struct {
    int holder, lo, hi;
    uint32_t members; /* bit i: block card i is observed */
} Check;

typedef struct {
    Vec codes, weights;       /* every layer's states, one after the other */
    Vec links;                /* every transfer's (child, parent) pairs */
    Vec table;                /* the open hash of the layer being made */
    size_t used;              /* the slots of the table in use: a power of two */
} Scratch;

#define CODE(s, i) ((int)(((s) >> (3 * (i))) & 7))

static int stays(const Walk *w, int c, int h, int first, int last) {
    const int32_t *nb = w->node_bad + ((size_t)c * w->holders + h) * (w->epochs + 1);
    const int32_t *sb = w->stay_bad + ((size_t)c * w->holders + h) * (w->epochs + 1);
    return nb[last + 1] == nb[first] && sb[last + 1] == sb[first + 1];
}

static int passes(uint64_t s, const Check *checks, int n) {
    for (int j = 0; j < n; j++) {
        int count = 0;
        for (uint32_t m = checks[j].members; m; m &= m - 1) {
            int i = __builtin_ctz(m);
            count += CODE(s, i) == checks[j].holder;
        }
        if (count < checks[j].lo || count > checks[j].hi) return 0;
    }
    return 1;
}

typedef struct {
    int k;
    uint8_t allowed[MAXK];      /* holders allowed in the segment */
    int left[MAXH];             /* seats left (seatings) */
    uint8_t stay[MAXK];         /* holders a card may stay at through the transfer */
    uint8_t go[MAXK][MAXH];     /* destinations from each holder */
    int flow[MAXH][MAXH];       /* cards left to send along each edge */
    int moving;
    uint64_t from;
    uint64_t *out;
    size_t n, cap;
    int overflow;
} Search;

static void emit(Search *x, uint64_t s) {
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 64;
        uint64_t *out = realloc(x->out, x->cap * sizeof(uint64_t));
        if (!out) {
            x->overflow = 1;
            return;
        }
        x->out = out;
    }
    x->out[x->n++] = s;
}

static void seat(Search *x, int i, uint64_t s) {
    if (x->overflow) return;
    if (i == x->k) {
        emit(x, s);
        return;
    }
    for (int h = 0; h < MAXH; h++) {
        if ((x->allowed[i] >> h & 1) && x->left[h]) {
            x->left[h]--;
            seat(x, i + 1, s | (uint64_t)h << (3 * i));
            x->left[h]++;
        }
    }
}

static void send(Search *x, int i, uint64_t s) {
    if (x->overflow || x->moving > x->k - i) return;
    if (i == x->k) {
        emit(x, s);
        return;
    }
    int a = CODE(x->from, i);
    if (x->stay[i] >> a & 1) send(x, i + 1, s | (uint64_t)a << (3 * i));
    for (int b = 0; b < MAXH; b++) {
        if ((x->go[i][a] >> b & 1) && x->flow[a][b]) {
            x->flow[a][b]--;
            x->moving--;
            send(x, i + 1, s | (uint64_t)b << (3 * i));
            x->moving++;
            x->flow[a][b]++;
        }
    }
}

/* the index of state s in the hash of the layer being made (codes from `base`), added if new */
static long find(Scratch *sc, size_t base, uint64_t s, int *added) {
    Vec *t = &sc->table;
    size_t mask = sc->used - 1, h = (size_t)(s * 0x9E3779B97F4A7C15ULL >> 20) & mask;
    int64_t *slots = t->data;
    uint64_t *codes = sc->codes.data;
    while (slots[h] >= 0) {
        if (codes[base + slots[h]] == s) {
            *added = 0;
            return (long)slots[h];
        }
        h = (h + 1) & mask;
    }
    long index = (long)(sc->codes.size - base);
    slots[h] = index;
    *added = 1;
    return index;
}

/* an empty hash for about `want` states: only the slots in use are cleared */
static int clear_table(Scratch *sc, size_t want) {
    size_t used = 256;
    while (used < 2 * want) used *= 2;
    if (used > sc->table.cap) {
        void *data = realloc(sc->table.data, used * sizeof(int64_t));
        if (!data) return -1;
        sc->table.data = data;
        sc->table.cap = used;
    }
    sc->used = used;
    memset(sc->table.data, 0xff, used * sizeof(int64_t));
    return 0;
}

static size_t pick(Walk *w, const double *weights, size_t n) {
    double total = 0;
    for (size_t i = 0; i < n; i++) total += weights[i];
    double roll = uniform(w) * total;
    for (size_t i = 0; i < n; i++) {
        roll -= weights[i];
        if (roll < 0) return i;
    }
    for (size_t i = n; i-- > 0;)
        if (weights[i] > 0) return i;
    return 0;
}

/* one move on `block`; 0 done, 1 left alone (too many states), -1 out of memory */
static int redraw(Walk *w, Scratch *sc, const int *block, int k) {
    const int E = w->epochs, H = w->holders;
    const int8_t *old[MAXK];
    for (int i = 0; i < k; i++) old[i] = w->paths + (size_t)block[i] * E;
    /* the transfers where some card of the block moves, and the segments between them */
    int *active = malloc(sizeof(int) * (E + 1)), *bounds = malloc(sizeof(int) * (E + 2));
    int nact = 0;
    for (int t = 1; t < E; t++)
        for (int i = 0; i < k; i++)
            if (old[i][t - 1] != old[i][t]) {
                active[nact++] = t;
                break;
            }
    int nseg = nact + 1;
    bounds[0] = 0;
    for (int g = 0; g < nact; g++) bounds[g + 1] = active[g];
    bounds[nseg] = E;
    uint8_t *allowed = malloc((size_t)nseg * MAXK);
    for (int g = 0; g < nseg; g++) {
        uint8_t seats = 0;
        for (int i = 0; i < k; i++) seats |= 1 << old[i][bounds[g]];
        for (int i = 0; i < k; i++) {
            uint8_t ok = 0;
            for (int h = 0; h < H; h++)
                if ((seats >> h & 1) && stays(w, block[i], h, bounds[g], bounds[g + 1] - 1))
                    ok |= 1 << h;
            allowed[g * MAXK + i] = ok;
        }
    }
    /* the observations that bind the block, segment by segment */
    Check *checks = malloc(sizeof(Check) * (w->nobs + 1));
    int *seg_of = malloc(sizeof(int) * (w->nobs + 1)), nchecks = 0;
    uint64_t in_block = 0;
    for (int i = 0; i < k; i++) in_block |= 1ULL << block[i];
    for (int j = 0; j < w->nobs; j++) {
        if (!(w->obs_cards[j] & in_block)) continue;
        const int32_t *o = w->obs + 4 * j;
        uint32_t members = 0;
        int mine = 0, n = 0;
        for (int i = 0; i < k; i++)
            if (w->obs_cards[j] >> block[i] & 1) {
                members |= 1u << i;
                n++;
                mine += old[i][o[0]] == o[1];
            }
        int rest = w->value[j] - mine, lo = o[2] - rest, hi = o[3] - rest;
        if (lo <= 0 && hi >= n) continue;
        int g = 0;
        while (g < nact && active[g] <= o[0]) g++;
        checks[nchecks] = (Check){o[1], lo, hi, members};
        seg_of[nchecks++] = g;
    }
    /* checks sorted by segment: counting sort into `sorted` */
    Check *sorted = malloc(sizeof(Check) * (nchecks + 1));
    int *first = calloc(nseg + 1, sizeof(int));
    for (int j = 0; j < nchecks; j++) first[seg_of[j] + 1]++;
    for (int g = 0; g < nseg; g++) first[g + 1] += first[g];
    {
        int *at = malloc(sizeof(int) * (nseg + 1));
        memcpy(at, first, sizeof(int) * (nseg + 1));
        for (int j = 0; j < nchecks; j++) sorted[at[seg_of[j]]++] = checks[j];
        free(at);
    }
    size_t *layer_at = malloc(sizeof(size_t) * (nseg + 1));
    size_t *link_at = malloc(sizeof(size_t) * (nseg + 1));
    int status = 0;
    Search x;
    memset(&x, 0, sizeof x);
    x.k = k;
    sc->codes.size = sc->weights.size = sc->links.size = 0;
    /* the first segment: every seating */
    memset(x.left, 0, sizeof x.left);
    for (int i = 0; i < k; i++) x.left[old[i][0]]++;
    memcpy(x.allowed, allowed, MAXK);
    seat(&x, 0, 0);
    layer_at[0] = 0;
    for (size_t n = 0; n < x.n && !x.overflow; n++) {
        if (!passes(x.out[n], sorted + first[0], first[1] - first[0])) continue;
        if (vec_reserve(&sc->codes, sc->codes.size + 1) || vec_reserve(&sc->weights, sc->weights.size + 1)) {
            status = -1;
            break;
        }
        ((uint64_t *)sc->codes.data)[sc->codes.size++] = x.out[n];
        ((double *)sc->weights.data)[sc->weights.size++] = 1.0;
    }
    if (x.overflow) status = -1;
    if ((int64_t)sc->codes.size > w->most) status = 1;
    link_at[0] = 0;
    for (int g = 1; g <= nact && status == 0; g++) {
        int t = active[g - 1];
        size_t base = sc->codes.size, from = layer_at[g - 1];
        layer_at[g] = base;
        memset(x.flow, 0, sizeof x.flow);
        x.moving = 0;
        for (int i = 0; i < k; i++)
            if (old[i][t - 1] != old[i][t]) {
                x.flow[old[i][t - 1]][old[i][t]]++;
                x.moving++;
            }
        for (int i = 0; i < k; i++) {
            uint64_t step = w->steps[(size_t)block[i] * E + (t - 1)];
            uint8_t next = allowed[g * MAXK + i];
            x.stay[i] = 0;
            for (int a = 0; a < H; a++) {
                if ((next >> a & 1) && (step >> (a * 8 + a) & 1)) x.stay[i] |= 1 << a;
                x.go[i][a] = 0;
                for (int b = 0; b < H; b++)
                    if (x.flow[a][b] && (next >> b & 1) && (step >> (a * 8 + b) & 1))
                        x.go[i][a] |= 1 << b;
            }
        }
        if (clear_table(sc, base - from)) {
            status = -1;
            break;
        }
        for (size_t p = from; p < base && status == 0; p++) {
            x.n = 0;
            x.from = ((uint64_t *)sc->codes.data)[p];
            send(&x, 0, 0);
            if (x.overflow) {
                status = -1;
                break;
            }
            for (size_t n = 0; n < x.n; n++) {
                uint64_t s = x.out[n];
                if (!passes(s, sorted + first[g], first[g + 1] - first[g])) continue;
                if (vec_reserve(&sc->codes, sc->codes.size + 1) ||
                    vec_reserve(&sc->weights, sc->weights.size + 1) ||
                    vec_reserve(&sc->links, sc->links.size + 2)) {
                    status = -1;
                    break;
                }
                if (2 * (sc->codes.size - base + 1) > sc->used) {
                    /* grow the hash: insert the layer's states again */
                    size_t made = sc->codes.size - base;
                    if (clear_table(sc, 2 * made + 2)) {
                        status = -1;
                        break;
                    }
                    size_t keep = sc->codes.size;
                    sc->codes.size = base;
                    for (size_t q = 0; q < made; q++) {
                        int added;
                        find(sc, base, ((uint64_t *)sc->codes.data)[base + q], &added);
                        sc->codes.size++;
                    }
                    sc->codes.size = keep;
                }
                int added;
                long index = find(sc, base, s, &added);
                double weight = ((double *)sc->weights.data)[p];
                if (added) {
                    ((uint64_t *)sc->codes.data)[sc->codes.size++] = s;
                    ((double *)sc->weights.data)[sc->weights.size++] = weight;
                } else {
                    ((double *)sc->weights.data)[base + index] += weight;
                }
                int32_t *links = sc->links.data;
                links[sc->links.size++] = (int32_t)index;
                links[sc->links.size++] = (int32_t)(p - from);
            }
            if ((int64_t)(sc->codes.size - base) > w->most) status = 1;
        }
        link_at[g] = sc->links.size;
        if (status == 0 && sc->codes.size == base) status = -1; /* cannot happen */
        /* rescale: the weights only matter relative to each other within a layer */
        if (status == 0) {
            double *wt = (double *)sc->weights.data + base, top = 0;
            for (size_t q = 0; q < sc->codes.size - base; q++)
                if (wt[q] > top) top = wt[q];
            for (size_t q = 0; q < sc->codes.size - base; q++) wt[q] /= top;
        }
    }
    layer_at[nseg] = sc->codes.size;
    if (status == 0) {
        /* the law of the block's current holders given the rest */
        int64_t made = w->stats[0];
        size_t base = layer_at[nseg - 1], n = layer_at[nseg] - base;
        const uint64_t *codes = (uint64_t *)sc->codes.data + base;
        const double *wt = (double *)sc->weights.data + base;
        double total = 0;
        for (size_t q = 0; q < n; q++) total += wt[q];
        for (int i = 0; i < k; i++) {
            int c = block[i];
            w->sums[(size_t)c * H + old[i][E - 1]] += (double)(made - w->since[c]);
            w->since[c] = made + 1;
        }
        for (size_t q = 0; q < n; q++)
            for (int i = 0; i < k; i++)
                w->sums[(size_t)block[i] * H + CODE(codes[q], i)] += wt[q] / total;
        /* backward sampling */
        uint64_t *states = malloc(sizeof(uint64_t) * nseg);
        size_t chosen = pick(w, wt, n);
        states[nseg - 1] = codes[chosen];
        double *cand = NULL;
        size_t *cand_at = NULL, ncap = 0;
        for (int g = nseg - 1; g >= 1; g--) {
            const int32_t *links = (int32_t *)sc->links.data;
            const double *prev = (double *)sc->weights.data + layer_at[g - 1];
            size_t m = 0;
            for (size_t e = link_at[g - 1]; e < link_at[g]; e += 2) {
                if ((size_t)links[e] != chosen) continue;
                if (m == ncap) {
                    ncap = ncap ? 2 * ncap : 16;
                    cand = realloc(cand, ncap * sizeof(double));
                    cand_at = realloc(cand_at, ncap * sizeof(size_t));
                }
                cand[m] = prev[links[e + 1]];
                cand_at[m++] = (size_t)links[e + 1];
            }
            chosen = cand_at[pick(w, cand, m)];
            states[g - 1] = ((uint64_t *)sc->codes.data)[layer_at[g - 1] + chosen];
        }
        free(cand);
        free(cand_at);
        /* install the drawn paths */
        for (int i = 0; i < k; i++) {
            int c = block[i], changed = 0;
            int8_t *path = w->paths + (size_t)c * E;
            int8_t before_last = path[E - 1];
            for (int g = 0; g < nseg; g++) {
                int h = CODE(states[g], i);
                for (int e = bounds[g]; e < bounds[g + 1]; e++)
                    if (path[e] != h) {
                        if (!changed) {
                            /* take the old path's observations out first */
                            for (int q = w->of_start[c]; q < w->of_start[c + 1]; q++) {
                                const int32_t *o = w->obs + 4 * w->of_card[q];
                                w->value[w->of_card[q]] -= path[o[0]] == o[1];
                            }
                            changed = 1;
                        }
                        path[e] = (int8_t)h;
                    }
            }
            if (changed) {
                for (int q = w->of_start[c]; q < w->of_start[c + 1]; q++) {
                    const int32_t *o = w->obs + 4 * w->of_card[q];
                    w->value[w->of_card[q]] += path[o[0]] == o[1];
                }
                if (path[E - 1] == CULPRIT && before_last != CULPRIT && c != w->stats[2]) {
                    w->stats[2] = c;
                    w->stats[1]++;
                }
            }
        }
        free(states);
        w->stats[0] = made + 1;
    }
    free(x.out);
    free(active);
    free(bounds);
    free(allowed);
    free(checks);
    free(seg_of);
    free(sorted);
    free(first);
    free(layer_at);
    free(link_at);
    return status;
}

/* ---- the Python entry point ------------------------------------------------------- */

#define NARRAYS 16

static PyObject *run(PyObject *self, PyObject *args) {
    PyObject *arrays;
    long long moves, most;
    unsigned long long seed;
    double pool_share, join_share, culprit_share;
    int largest, fewest_random, most_random;
    if (!PyArg_ParseTuple(args, "O!LKdddiiiL", &PyTuple_Type, &arrays, &moves, &seed,
                          &pool_share, &join_share, &culprit_share, &largest, &fewest_random,
                          &most_random, &most))
        return NULL;
    if (PyTuple_GET_SIZE(arrays) != NARRAYS) {
        PyErr_SetString(PyExc_ValueError, "run: wrong number of arrays");
        return NULL;
    }
    Py_buffer views[NARRAYS];
    int got = 0;
    for (; got < NARRAYS; got++)
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(arrays, got), &views[got],
                               PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
            PyErr_Clear();
            if (PyObject_GetBuffer(PyTuple_GET_ITEM(arrays, got), &views[got], PyBUF_C_CONTIGUOUS) < 0)
                break;
        }
    if (got < NARRAYS) {
        for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
        return NULL;
    }
    const int32_t *shape = views[0].buf; /* cards, holders, epochs, nobs, nfree, npool */
    Walk w = {
        .cards = shape[0], .holders = shape[1], .epochs = shape[2], .nobs = shape[3],
        .nfree = shape[4], .npool = shape[5],
        .node_bad = views[1].buf, .stay_bad = views[2].buf, .steps = views[3].buf,
        .obs = views[4].buf, .obs_cards = views[5].buf, .of_start = views[6].buf,
        .of_card = views[7].buf, .free = views[8].buf, .pool_start = views[9].buf,
        .pool = views[10].buf, .paths = views[11].buf, .value = views[12].buf,
        .sums = views[13].buf, .since = views[14].buf, .stats = views[15].buf,
        .pool_share = pool_share, .join_share = join_share, .culprit_share = culprit_share,
        .largest = largest < MAXK ? largest : MAXK, .most = most, .rng = seed,
        .fewest_random = fewest_random, .most_random = most_random < MAXK ? most_random : MAXK,
    };
    int status = 0;
    Py_BEGIN_ALLOW_THREADS;
    Scratch sc;
    memset(&sc, 0, sizeof sc);
    sc.codes.item = sizeof(uint64_t);
    sc.weights.item = sizeof(double);
    sc.links.item = sizeof(int32_t);
    sc.table.item = sizeof(int64_t);
    int block[2 * MAXK + 64];
    for (long long m = 0; m < moves && status >= 0; m++) {
        int k = draw_block(&w, (int)w.stats[2], block);
        if (k < 2) {
            w.stats[0]++;
            continue;
        }
        status = redraw(&w, &sc, block, k);
        if (status == 1) {
            w.stats[0]++; /* left alone: the plain holders stand for this move */
            w.stats[3]++;
            status = 0;
        }
    }
    free(sc.codes.data);
    free(sc.weights.data);
    free(sc.links.data);
    free(sc.table.data);
    Py_END_ALLOW_THREADS;
    for (int i = 0; i < NARRAYS; i++) PyBuffer_Release(&views[i]);
    if (status < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"run", run, METH_VARARGS, "Make block Gibbs moves of one walk (see the module source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_gibbs",
                                    "Compiled block Gibbs moves (see gibbs.py).", -1, methods};

PyMODINIT_FUNC PyInit__gibbs(void) { return PyModule_Create(&module); }
