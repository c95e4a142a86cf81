/* lib/python/src/verdict.c — koma.Verdict: a judged record, with the members of
 * koma-replay --json (schemas/koma-replay.schema.json) as attributes. */
#include "kpy.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    PyObject *dict;                    /* the attributes, in the order of the JSON object */
} kverdict;

/* The members koma-replay --json leaves out when they do not apply. */
static const char *const optional[] = {"illegal", "claim", "clock", "extra", "notation", "recorded",
                                       NULL};

static int put(PyObject *d, const char *key, PyObject *value)
{
    if (value == NULL) return -1;
    int rc = PyDict_SetItemString(d, key, value);
    Py_DECREF(value);
    return rc;
}

static PyObject *side_name(int side)
{
    return PyUnicode_FromString(side == KOMA_FIRST ? "first" : "second");
}

static PyObject *illegal(const koma_verdict *v)
{
    PyObject *d = PyDict_New(), *legal = PyList_New(0);
    if (d == NULL || legal == NULL) goto fail;
    for (const char *p = v->legal; *p;) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        PyObject *s = kpy_str(p, n);
        if (s == NULL || PyList_Append(legal, s) != 0) {
            Py_XDECREF(s);
            goto fail;
        }
        Py_DECREF(s);
        p += n;
        if (*p == ' ') p++;
    }
    if (put(d, "ply", PyLong_FromSize_t(v->ply)) || put(d, "pmn", kpy_cstr(v->refused_text)) ||
        put(d, "code", PyUnicode_FromString(koma_code_name(v->refused_code))) ||
        put(d, "message", kpy_cstr(v->refused_message)) || put(d, "legal", legal))
        goto fail_d;
    return d;
fail:
    Py_XDECREF(legal);
fail_d:
    Py_XDECREF(d);
    return NULL;
}

static PyObject *pair(unsigned first, unsigned second)
{
    return Py_BuildValue("{sIsI}", "first", first, "second", second);
}

static PyObject *claim(const koma_verdict *v)
{
    static const char *const words[] = {"zone", "pieces", "check", "points", "try"};
    PyObject *d = PyDict_New(), *failed = PyList_New(0);
    if (d == NULL || failed == NULL) goto fail;
    for (unsigned b = 0; b < 5; b++)
        if (v->claim_failed & (1u << b)) {
            PyObject *w = PyUnicode_FromString(words[b]);
            if (w == NULL || PyList_Append(failed, w) != 0) {
                Py_XDECREF(w);
                goto fail;
            }
            Py_DECREF(w);
        }
    if (put(d, "kind", PyUnicode_FromString(v->claim == KOMA_CLAIM_IMPASSE ? "impasse" : "declaration")) ||
        put(d, "rule", PyUnicode_FromString(koma_verdict_claim_rule(v))))
        goto fail;
    if (v->claim == KOMA_CLAIM_DECLARATION &&
        (put(d, "declarer", side_name(v->declarer)) || put(d, "king_in_zone", PyBool_FromLong(v->king_in_zone)) ||
         put(d, "in_check", PyBool_FromLong(v->king_in_check)) ||
         put(d, "zone_pieces", PyLong_FromUnsignedLong(v->zone_pieces))))
        goto fail;
    if (put(d, "points", pair(v->points[0], v->points[1])) ||
        put(d, "handicap_points", pair(v->handicap_points[0], v->handicap_points[1])) ||
        (v->handicap_stated[0] &&
         (put(d, "handicap_stated", PyUnicode_FromString(v->handicap_stated)) ||
          put(d, "handicap_setup", pair(v->handicap_setup[0], v->handicap_setup[1])))) ||
        put(d, "needed", PyLong_FromUnsignedLong(v->points_needed)) || put(d, "failed", failed))
        goto fail_d;
    return d;
fail:
    Py_XDECREF(failed);
fail_d:
    Py_XDECREF(d);
    return NULL;
}

static PyObject *clock_object(const koma_verdict *v)
{
    static const char *const states[] = {"", "unchecked", "agrees", "time-left", "earlier"};
    PyObject *d = PyDict_New();
    if (d == NULL) return NULL;
    if (put(d, "checked", PyBool_FromLong(v->clock != KOMA_CLOCK_UNCHECKED)) ||
        put(d, "state", PyUnicode_FromString(states[v->clock])) || put(d, "side", side_name(v->clock_side)))
        goto fail;
    if (v->clock == KOMA_CLOCK_UNCHECKED) {
        if (put(d, "missing", kpy_cstr(v->clock_missing))) goto fail;
    } else {
        if (put(d, "left_ms", PyLong_FromLongLong(v->clock_left_ms)) ||
            put(d, "spent_ms", PyLong_FromLongLong(v->clock_spent_ms)))
            goto fail;
        if (v->clock == KOMA_CLOCK_EARLIER && put(d, "ply", PyLong_FromSize_t(v->clock_ply))) goto fail;
    }
    return d;
fail:
    Py_DECREF(d);
    return NULL;
}

static PyObject *recorded(const koma_recorded *rec)
{
    PyObject *d = PyDict_New();
    if (d == NULL) return NULL;
    if ((rec->has_result && put(d, "result", kpy_cstr(rec->result))) ||
        (rec->has_status && put(d, "status", PyUnicode_FromString(koma_cgsn_name(rec->status)))) ||
        (rec->has_ply && put(d, "ply", PyLong_FromUnsignedLongLong(rec->ply)))) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *none(void) { Py_RETURN_NONE; }

/* The members, in the order koma-replay --json writes them. */
static int fill(PyObject *d, const koma_verdict *v, PyObject *source, unsigned long line)
{
    char fid[KOMA_FID_BUF], reason[1024];
    koma_fid_of(v->feen, strlen(v->feen), fid);
    Py_INCREF(source);
    if (put(d, "file", source) || put(d, "line", PyLong_FromUnsignedLong(line)) ||
        put(d, "game", PyUnicode_FromString(koma_game_id(v->game))) ||
        put(d, "result", PyUnicode_FromString(v->result_text)) ||
        put(d, "status", v->has_status ? PyUnicode_FromString(koma_cgsn_name(v->status)) : none()) ||
        put(d, "ply", v->has_ply ? PyLong_FromSize_t(v->ply) : none()) ||
        put(d, "played", PyLong_FromSize_t(v->played)) || put(d, "plies", PyLong_FromSize_t(v->plies)) ||
        put(d, "feen", kpy_cstr(v->feen)) || put(d, "fid", PyUnicode_FromString(fid)))
        return -1;
    size_t n = koma_verdict_reason(v, reason, sizeof reason);
    PyObject *text;
    if (n < sizeof reason) {
        text = kpy_str(reason, n);
    } else {                           /* a longer sentence: its whole length */
        char *big = PyMem_Malloc(n + 1);
        if (big == NULL) return PyErr_NoMemory(), -1;
        koma_verdict_reason(v, big, n + 1);
        text = kpy_str(big, n);
        PyMem_Free(big);
    }
    if (put(d, "reason", text) || put(d, "disputed", PyBool_FromLong(v->disputes != 0)) ||
        put(d, "illegal", v->illegal ? illegal(v) : none()) ||
        put(d, "claim", v->kind == KOMA_VERDICT_CLAIM ? claim(v) : none()) ||
        put(d, "clock", v->clock != KOMA_CLOCK_NONE ? clock_object(v) : none()) ||
        put(d, "extra", v->extra ? PyLong_FromSize_t(v->extra) : none()) ||
        put(d, "notation", v->notation_faults ? PyLong_FromSize_t(v->notation_faults) : none()) ||
        put(d, "recorded", v->has_recorded ? recorded(&v->recorded) : none()))
        return -1;
    return 0;
}

koma_verdict *kpy_verdict_alloc(void)
{
    koma_verdict *v = PyMem_Malloc(sizeof *v);
    if (v == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    *v = (koma_verdict)KOMA_VERDICT_INIT;
    return v;
}

PyObject *kpy_verdict_new(const koma_verdict *v, PyObject *source, unsigned long line)
{
    kverdict *self = PyObject_New(kverdict, &kpy_verdict_type);
    if (self == NULL) return NULL;
    if ((self->dict = PyDict_New()) == NULL || fill(self->dict, v, source, line) != 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void dealloc(kverdict *self)
{
    Py_XDECREF(self->dict);
    PyObject_Free(self);
}

static PyObject *getattro(kverdict *self, PyObject *name)
{
    PyObject *value = PyDict_GetItemWithError(self->dict, name);
    if (value) return Py_NewRef(value);
    if (PyErr_Occurred()) return NULL;
    return PyObject_GenericGetAttr((PyObject *)self, name);
}

/* The JSON object of koma-replay --json, as a dict (the members that do not
 * apply left out). */
static PyObject *as_dict(kverdict *self, PyObject *noargs)
{
    (void)noargs;
    PyObject *d = PyDict_Copy(self->dict);
    for (size_t i = 0; d && optional[i]; i++) {
        PyObject *value = PyDict_GetItemString(d, optional[i]);
        if (value == Py_None && PyDict_DelItemString(d, optional[i]) != 0) Py_CLEAR(d);
    }
    return d;
}

static PyObject *repr(kverdict *self)
{
    return PyUnicode_FromFormat("<koma.Verdict %S %S ply=%S feen=%R>", PyDict_GetItemString(self->dict, "result"),
                                PyDict_GetItemString(self->dict, "status"),
                                PyDict_GetItemString(self->dict, "ply"),
                                PyDict_GetItemString(self->dict, "feen"));
}

static PyObject *dir_(kverdict *self, PyObject *noargs)
{
    (void)noargs;
    return PyDict_Keys(self->dict);
}

static PyMethodDef methods[] = {
    {"as_dict", (PyCFunction)as_dict, METH_NOARGS,
     "as_dict() -> the verdict as koma-replay --json writes it (members that do not apply left out)"},
    {"__dir__", (PyCFunction)dir_, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject kpy_verdict_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "koma.Verdict",
    .tp_basicsize = sizeof(kverdict),
    .tp_dealloc = (destructor)dealloc,
    .tp_repr = (reprfunc)repr,
    .tp_getattro = (getattrofunc)getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A record judged under the rules of its game: file, line, game, result, status, ply, "
              "played, plies, feen, fid, reason, disputed, and illegal, claim, clock, extra, notation, "
              "recorded (None when they do not apply), as koma-replay --json gives them.",
    .tp_methods = methods,
};
