/* The silence law's likelihood of one history, compiled: the same sum as silence.py.
 *
 * log_likelihood(arrays, log_stay, anything) reads one history (each card's holder at
 * every epoch) and the law's arrays (see silence.py, class Silence, for their layout),
 * and returns the log of the chance of the others' silence and questions in it: one
 * pass over the questions in the log's order, each opponent's sheet kept as a mask of
 * the cards it has not crossed out, the waiting questions counted (a sheet of one card,
 * not yet accused) and each told question's chance from its asker's sheet.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define NARRAYS 12
#define MAXO 8 /* opponents: the int8 holders of a table of at most eight */

static int count_bits(uint64_t x) { return __builtin_popcountll(x); }

/* The chance that a paper player with `sheet` asks the told question (module doc). */
static double asking(uint64_t sheet, int64_t card, int64_t trait, const uint64_t *traits,
                     int ntraits, int cards, double anything) {
    int size = count_bits(sheet);
    int many = size > 1;
    double notepad, any;
    if (card >= 0) {
        notepad = many && ((sheet >> card) & 1u) ? 0.5 / size : 0.0;
        any = 0.5 / cards;
    } else {
        notepad = 0.0;
        if (trait >= 0) {
            int best = 1 << 30, tied = 0, mine = 0;
            for (int t = 0; t < ntraits; t++) {
                int off = abs(2 * count_bits(sheet & traits[t]) - size);
                if (off < best) best = off, tied = 0;
                if (off == best) tied++;
            }
            mine = abs(2 * count_bits(sheet & traits[trait]) - size) == best;
            notepad = (many ? 0.5 : 1.0) * mine / tied;
        }
        any = 0.5 / ntraits;
    }
    return (1 - anything) * notepad + anything * any;
}

static PyObject *log_likelihood(PyObject *self, PyObject *args) {
    PyObject *arrays;
    double log_stay, anything;
    if (!PyArg_ParseTuple(args, "O!dd", &PyTuple_Type, &arrays, &log_stay, &anything))
        return NULL;
    if (PyTuple_GET_SIZE(arrays) != NARRAYS) {
        PyErr_SetString(PyExc_ValueError, "log_likelihood: wrong number of arrays");
        return NULL;
    }
    Py_buffer v[NARRAYS];
    int got = 0;
    for (; got < NARRAYS; got++)
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(arrays, got), &v[got], PyBUF_C_CONTIGUOUS) < 0)
            break;
    if (got < NARRAYS) {
        for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
        return NULL;
    }
    const int32_t *shape = v[0].buf; /* cards, epochs, opponents, questions, told, traits */
    int cards = shape[0], epochs = shape[1], nopp = shape[2], nq = shape[3], told = shape[4];
    int ntraits = shape[5];
    const int8_t *history = v[1].buf;  /* [cards][epochs] */
    const int8_t *players = v[2].buf;  /* [nopp]: their holder indices */
    const int64_t *epoch = v[3].buf;   /* [nq]: non-decreasing */
    const uint64_t *crossed = v[4].buf; /* [nq] */
    const uint64_t *shown = v[5].buf;   /* [nq][nopp] */
    const uint8_t *silent = v[6].buf;   /* [nq][nopp] */
    const int64_t *asked_q = v[7].buf, *asked_by = v[8].buf; /* [told]: asked_q sorted */
    const int64_t *asked_card = v[9].buf, *asked_trait = v[10].buf;
    const uint64_t *traits = v[11].buf; /* [ntraits] */
    double value = 0.0;
    long long waiting = 0;
    if (nopp <= MAXO) {
        Py_BEGIN_ALLOW_THREADS;
        uint64_t seen[MAXO + 1] = {0}; /* the last: every holder but the opponents */
        int of_holder[256];             /* a holder's opponent index, else MAXO */
        for (int h = 0; h < 256; h++) of_holder[h] = MAXO;
        for (int o = 0; o < nopp; o++) of_holder[(uint8_t)players[o]] = o;
        uint64_t full = cards >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << cards) - 1);
        int next_epoch = 0, k = 0;
        for (int q = 0; q < nq; q++) {
            for (; next_epoch <= epoch[q] && next_epoch < epochs; next_epoch++)
                for (int c = 0; c < cards; c++)
                    seen[of_holder[(uint8_t)history[(size_t)c * epochs + next_epoch]]] |=
                        (uint64_t)1 << c;
            uint64_t sheets[MAXO];
            for (int o = 0; o < nopp; o++) {
                sheets[o] = full & ~(seen[o] | shown[(size_t)q * nopp + o] | crossed[q]);
                waiting += count_bits(sheets[o]) == 1 && silent[(size_t)q * nopp + o];
            }
            for (; k < told && asked_q[k] == q; k++)
                value += log(asking(sheets[asked_by[k]], asked_card[k], asked_trait[k], traits,
                                    ntraits, cards, anything));
        }
        Py_END_ALLOW_THREADS;
    }
    for (int i = 0; i < NARRAYS; i++) PyBuffer_Release(&v[i]);
    if (nopp > MAXO) {
        PyErr_SetString(PyExc_ValueError, "log_likelihood: too many opponents");
        return NULL;
    }
    return PyFloat_FromDouble(waiting * log_stay + value);
}

static PyMethodDef methods[] = {
    {"log_likelihood", log_likelihood, METH_VARARGS,
     "The log of the chance of the others' silence and questions in one history."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_silence",
                                    "The silence law's likelihood, compiled (see silence.py).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__silence(void) { return PyModule_Create(&module); }
