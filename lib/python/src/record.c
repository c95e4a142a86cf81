/* lib/python/src/record.c — koma.Record (a game record read as PCN) and
 * koma._koma.Writer (records written in any format koma writes). */
#include "kpy.h"

#include <string.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD
    koma_pcn *rec;
    PyObject *format, *source, *line;  /* where it was read: its format, input, first line */
} krecord;

PyObject *kpy_record_new(koma_pcn *rec, const char *format, PyObject *source, unsigned long line)
{
    krecord *self = PyObject_New(krecord, &kpy_record_type);
    if (self == NULL) {
        koma_pcn_free(rec);
        return NULL;
    }
    self->rec = rec;
    self->format = kpy_cstr(format);
    self->source = Py_NewRef(source ? source : Py_None);
    self->line = line ? PyLong_FromUnsignedLong(line) : Py_NewRef(Py_None);
    if (self->format == NULL || self->line == NULL) Py_CLEAR(self);
    return (PyObject *)self;
}

koma_pcn *kpy_record_pcn(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &kpy_record_type)) {
        PyErr_SetString(PyExc_TypeError, "a koma.Record is needed");
        return NULL;
    }
    return ((krecord *)o)->rec;
}

static void record_dealloc(krecord *self)
{
    koma_pcn_free(self->rec);
    Py_XDECREF(self->format);
    Py_XDECREF(self->source);
    Py_XDECREF(self->line);
    PyObject_Free(self);
}

/* Record(text, format='pcn'): one record from its text (str or bytes). */
static PyObject *record_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"feen", NULL};
    const char *feen;
    Py_ssize_t len;
    (void)type;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s#", kwlist, &feen, &len)) return NULL;
    koma_error err;
    koma_error_clear(&err);
    koma_pcn *rec = NULL;
    koma_pcn_new(feen, (size_t)len, &rec, &err);
    if (rec == NULL) return kpy_raise(&err);
    return kpy_record_new(rec, NULL, NULL, 0);
}

static PyObject *get_feen(krecord *self, void *c)
{
    (void)c;
    size_t len;
    const char *s = koma_pcn_setup_feen(self->rec, &len);
    if (s == NULL) Py_RETURN_NONE;
    return kpy_str(s, len);
}

static PyObject *get_plies(krecord *self, void *c)
{
    (void)c;
    size_t n = koma_pcn_ply_count(self->rec);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        size_t len = 0;
        const char *s = koma_pcn_ply_pmn(self->rec, i, &len);
        PyObject *t = s ? kpy_str(s, len) : Py_NewRef(Py_None);
        if (t == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    return list;
}

static PyObject *get_outcome(krecord *self, void *c)
{
    (void)c;
    if (!koma_pcn_has_outcome(self->rec)) Py_RETURN_NONE;
    PyObject *d = PyDict_New();
    uint64_t ply;
    const char *r = koma_pcn_outcome_result(self->rec), *s = koma_pcn_outcome_status(self->rec);
    PyObject *vals[] = {r ? kpy_cstr(r) : NULL, s ? kpy_cstr(s) : NULL,
                        koma_pcn_outcome_ply(self->rec, &ply) == 0 ? PyLong_FromUnsignedLongLong(ply) : NULL};
    static const char *const keys[] = {"result", "status", "ply"};
    for (int i = 0; i < 3; i++) {
        if (d && vals[i] && PyDict_SetItemString(d, keys[i], vals[i]) != 0) Py_CLEAR(d);
        Py_XDECREF(vals[i]);
    }
    return d;
}

static Py_ssize_t record_len(krecord *self)
{
    return (Py_ssize_t)koma_pcn_ply_count(self->rec);
}

/* A referee kept for Record.verdict and Record.positions: taken under the GIL,
 * given back after (a second thread meanwhile makes its own). */
static koma_referee *spare;

static koma_referee *referee_take(koma_declaration_rule rule)
{
    koma_error err;
    koma_referee *ref = spare;
    spare = NULL;
    if (ref == NULL) {
        koma_referee_options opt = KOMA_REFEREE_OPTIONS_INIT;
        opt.declaration = rule;
        if (koma_referee_new(&opt, &ref, &err) != 0) {
            kpy_raise(&err);
            return NULL;
        }
    }
    koma_referee_set_declaration(ref, rule);
    return ref;
}

static void referee_give(koma_referee *ref)
{
    if (spare == NULL) spare = ref;
    else koma_referee_free(ref);
}

static int judge_options(PyObject *args, PyObject *kw, const koma_game **game, koma_declaration_rule *rule)
{
    static char *kwlist[] = {"game", "declaration", NULL};
    const char *g = NULL, *d = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|zz", kwlist, &g, &d)) return -1;
    *game = NULL;
    *rule = KOMA_DECLARE_DEFAULT;
    if (g && (*game = kpy_game(g, (Py_ssize_t)strlen(g))) == NULL) return -1;
    if (d == NULL) return 0;
    if (strcmp(d, "27") == 0) *rule = KOMA_DECLARE_27;
    else if (strcmp(d, "24") == 0) *rule = KOMA_DECLARE_24;
    else if (strcmp(d, "try") == 0) *rule = KOMA_DECLARE_TRY;
    else {
        PyErr_Format(PyExc_ValueError, "declaration: '27', '24' or 'try', not '%s'", d);
        return -1;
    }
    return 0;
}

/* A record that cannot be judged: its error, at the member at fault. */
static PyObject *unjudged(const koma_verdict *v, koma_error *err)
{
    char msg[KOMA_ERROR_MESSAGE_MAX];
    snprintf(msg, sizeof msg, "%s: %s", v->unjudged_member, err->message);
    memcpy(err->message, msg, sizeof msg);
    return kpy_raise(err);
}

/* Judge self's record with the options of args/kw into a new *v (PyMem_Free
 * it), and when copy is not NULL also write the verdict into a copy of the
 * record (*copy, the caller's). 0 with the verdict; otherwise -1 with the
 * Python exception set (a record that cannot be judged: koma.Error). */
static int judged(krecord *self, PyObject *args, PyObject *kw, koma_verdict **vout, koma_pcn **copy)
{
    const koma_game *game;
    koma_declaration_rule rule;
    *vout = NULL;
    if (judge_options(args, kw, &game, &rule) != 0) return -1;
    koma_verdict *v = kpy_verdict_alloc();
    koma_referee *ref = v ? referee_take(rule) : NULL;
    if (ref == NULL) {
        PyMem_Free(v);
        return -1;
    }
    koma_error err;
    koma_error_clear(&err);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = koma_referee_pcn(ref, kpy_games, game, self->rec, NULL, v, &err);
    if (rc == 0 && copy &&
        (koma_pcn_copy(self->rec, copy, &err) != 0 || koma_verdict_outcome(v, *copy, &err) != 0))
        rc = -1;
    Py_END_ALLOW_THREADS
    referee_give(ref);
    if (rc != 0) {
        if (rc < 0) kpy_raise(&err);
        else unjudged(v, &err);
        PyMem_Free(v);
        if (copy) {
            koma_pcn_free(*copy);
            *copy = NULL;
        }
        return -1;
    }
    *vout = v;
    return 0;
}

static PyObject *record_verdict(krecord *self, PyObject *args, PyObject *kw)
{
    koma_verdict *v;
    if (judged(self, args, kw, &v, NULL) != 0) return NULL;
    PyObject *out = kpy_verdict_new(v, self->source, self->line == Py_None ? 1 : PyLong_AsUnsignedLong(self->line));
    PyMem_Free(v);
    return out;
}

/* Record.with_outcome(): a copy with the verdict written into its outcome
 * (koma-replay --write-outcome). */
static PyObject *record_with_outcome(krecord *self, PyObject *args, PyObject *kw)
{
    koma_verdict *v;
    koma_pcn *copy = NULL;
    if (judged(self, args, kw, &v, &copy) != 0) return NULL;
    PyMem_Free(v);
    return kpy_record_new(copy, NULL, self->source, self->line == Py_None ? 0 : PyLong_AsUnsignedLong(self->line));
}

/* Record.positions(): the setup position and the one after every applied ply. */
typedef struct {
    PyObject *list;
} walk;

static int walk_add(walk *w, koma_referee *ref)
{
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t len;
    koma_error err;
    if (koma_referee_feen(ref, feen, sizeof feen, &len, &err) != 0) {
        kpy_raise(&err);
        return -1;
    }
    PyObject *p = kpy_position_new(feen, len, koma_engine_game(koma_referee_engine(ref)));
    int rc = p ? PyList_Append(w->list, p) : -1;
    Py_XDECREF(p);
    return rc;
}

static int walk_begun(void *ctx, koma_referee *ref)
{
    return walk_add(ctx, ref);
}

static int walk_ply(void *ctx, koma_referee *ref, size_t index, int status, const koma_error *err)
{
    (void)index;
    (void)err;
    if (status != KOMA_PLY_PLAYED && status != KOMA_PLY_NOTATION) return 0;
    return walk_add(ctx, ref);
}

static PyObject *record_positions(krecord *self, PyObject *args, PyObject *kw)
{
    const koma_game *game;
    koma_declaration_rule rule;
    if (judge_options(args, kw, &game, &rule) != 0) return NULL;
    walk w = {PyList_New(0)};
    koma_verdict *v = w.list ? kpy_verdict_alloc() : NULL;
    koma_referee *ref = v ? referee_take(rule) : NULL;
    if (ref == NULL) {
        PyMem_Free(v);
        Py_XDECREF(w.list);
        return NULL;
    }
    koma_error err;
    koma_error_clear(&err);
    koma_referee_hooks hooks = {walk_begun, walk_ply, &w};
    int rc = koma_referee_pcn(ref, kpy_games, game, self->rec, &hooks, v, &err);
    referee_give(ref);
    if (rc != 0) {
        if (!PyErr_Occurred()) {
            if (rc < 0) kpy_raise(&err);
            else unjudged(v, &err);
        }
        Py_CLEAR(w.list);
    }
    PyMem_Free(v);
    return w.list;
}

static PyObject *record_repr(krecord *self)
{
    PyObject *feen = get_feen(self, NULL);
    if (feen == NULL) return NULL;
    PyObject *r = PyUnicode_FromFormat("<koma.Record %R, %zu plies>", feen, koma_pcn_ply_count(self->rec));
    Py_DECREF(feen);
    return r;
}

static PyObject *record_copy(krecord *self, PyObject *noargs)
{
    (void)noargs;
    koma_error err;
    koma_pcn *p = NULL;
    koma_pcn_copy(self->rec, &p, &err);
    if (p == NULL) return kpy_raise(&err);
    return kpy_record_new(p, NULL, self->source, self->line == Py_None ? 0 : PyLong_AsUnsignedLong(self->line));
}

static PyObject *record_append(krecord *self, PyObject *arg)
{
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(arg, &len);
    koma_error err;
    koma_error_clear(&err);
    if (s == NULL) return NULL;
    if (koma_pcn_append_ply(self->rec, s, (size_t)len, &err) != 0) return kpy_raise(&err);
    Py_RETURN_NONE;
}

static PyObject *record_eq(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &kpy_record_type)) Py_RETURN_NOTIMPLEMENTED;
    int eq = koma_pcn_equal(((krecord *)a)->rec, ((krecord *)b)->rec);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* Record.to and Record.as_dict are the package's Python (koma.write's options):
 * given to the extension by koma/__init__.py (_koma._record_helpers). */
static PyObject *helper_to, *helper_as_dict;

PyObject *kpy_record_helpers(PyObject *self, PyObject *args)
{
    PyObject *to, *as_dict;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &to, &as_dict)) return NULL;
    Py_XSETREF(helper_to, Py_NewRef(to));
    Py_XSETREF(helper_as_dict, Py_NewRef(as_dict));
    Py_RETURN_NONE;
}

static PyObject *call_helper(PyObject *helper, PyObject *self, PyObject *args, PyObject *kw)
{
    if (helper == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "import koma, not koma._koma");
        return NULL;
    }
    PyObject *all = PyTuple_New(PyTuple_GET_SIZE(args) + 1);
    if (all == NULL) return NULL;
    PyTuple_SET_ITEM(all, 0, Py_NewRef(self));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++)
        PyTuple_SET_ITEM(all, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
    PyObject *out = PyObject_Call(helper, all, kw);
    Py_DECREF(all);
    return out;
}

static PyObject *record_to(PyObject *self, PyObject *args, PyObject *kw)
{
    return call_helper(helper_to, self, args, kw);
}

static PyObject *record_as_dict(PyObject *self, PyObject *args, PyObject *kw)
{
    return call_helper(helper_as_dict, self, args, kw);
}

static PyMethodDef record_methods[] = {
    {"to", (PyCFunction)(void (*)(void))record_to, METH_VARARGS | METH_KEYWORDS,
     "to(format='pcn', encoding=None, pretty=False, each=False, times=True, variations=True) -> "
     "the record written in format (str; bytes with encoding='shift_jis')"},
    {"as_dict", (PyCFunction)(void (*)(void))record_as_dict, METH_VARARGS | METH_KEYWORDS,
     "as_dict() -> the record as a PCN object (dict)"},
    {"verdict", (PyCFunction)(void (*)(void))record_verdict, METH_VARARGS | METH_KEYWORDS,
     "verdict(game=None, declaration=None) -> Verdict: the record judged under its game's rules"},
    {"with_outcome", (PyCFunction)(void (*)(void))record_with_outcome, METH_VARARGS | METH_KEYWORDS,
     "with_outcome(game=None, declaration=None) -> Record: a copy whose outcome is the verdict's "
     "(koma-replay --write-outcome)"},
    {"positions", (PyCFunction)(void (*)(void))record_positions, METH_VARARGS | METH_KEYWORDS,
     "positions(game=None) -> [Position]: the setup and the position after every applied ply"},
    {"copy", (PyCFunction)record_copy, METH_NOARGS, "copy() -> Record"},
    {"append", (PyCFunction)record_append, METH_O, "append(pmn): add a ply"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef record_getset[] = {
    {"feen", (getter)get_feen, NULL, "the setup position (FEEN)", NULL},
    {"plies", (getter)get_plies, NULL, "the plies' PMN, in order", NULL},
    {"outcome", (getter)get_outcome, NULL, "the record's own outcome (result, status, ply), or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef record_members[] = {
    {"format", T_OBJECT, offsetof(krecord, format), READONLY, "the format it was read from, or None"},
    {"source", T_OBJECT, offsetof(krecord, source), READONLY, "the input it was read from, or None"},
    {"line", T_OBJECT, offsetof(krecord, line), READONLY, "its first line in that input, or None"},
    {NULL, 0, 0, 0, NULL},
};

static PySequenceMethods record_seq = {.sq_length = (lenfunc)record_len};

PyTypeObject kpy_record_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "koma.Record",
    .tp_basicsize = sizeof(krecord),
    .tp_dealloc = (destructor)record_dealloc,
    .tp_repr = (reprfunc)record_repr,
    .tp_as_sequence = &record_seq,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Record(feen): a game record (PCN) from a setup position; koma.read gives the records "
              "of a file",
    .tp_richcompare = record_eq,
    .tp_methods = record_methods,
    .tp_members = record_members,
    .tp_getset = record_getset,
    .tp_new = record_new,
};

/* ---- Writer ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    koma_hub *hub;
    koma_format_writer *ws;
    koma_buffer out;
} kwriter;

static void writer_dealloc(kwriter *self)
{
    koma_format_writer_free(self->ws);
    koma_hub_free(self->hub);
    koma_buffer_cleanup(&self->out);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int writer_init(kwriter *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"format", "flags", NULL};
    const char *format;
    unsigned flags = 0;
    if (self->ws) {
        PyErr_SetString(PyExc_TypeError, "a Writer is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|I", kwlist, &format, &flags)) return -1;
    const koma_format *fmt = koma_format_find(format, strlen(format));
    if (fmt == NULL || !(koma_format_caps(fmt) & KOMA_FORMAT_WRITE)) {
        PyErr_Format(PyExc_ValueError, "koma does not write the format '%s' (koma.formats())", format);
        return -1;
    }
    koma_error err;
    koma_error_clear(&err);
    if (koma_hub_new(kpy_games, &self->hub, &err) != 0 ||
        koma_format_writer_new(self->hub, fmt, flags, &self->ws, &err) != 0) {
        kpy_raise(&err);
        return -1;
    }
    return 0;
}

static PyObject *writer_write(kwriter *self, PyObject *record)
{
    koma_pcn *rec = kpy_record_pcn(record);
    if (rec == NULL) return NULL;
    koma_error err;
    koma_error_clear(&err);
    self->out.len = 0;
    if (koma_format_writer_record(self->ws, rec, &self->out, &err) != 0) return kpy_raise(&err);
    return PyBytes_FromStringAndSize(self->out.data, (Py_ssize_t)self->out.len);
}

static PyMethodDef writer_methods[] = {
    {"write", (PyCFunction)writer_write, METH_O, "write(record) -> bytes: the record's text"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject kpy_writer_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "koma._koma.Writer",
    .tp_basicsize = sizeof(kwriter),
    .tp_dealloc = (destructor)writer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Writer(format, flags=0): records written one after the other (write(record) -> bytes)",
    .tp_methods = writer_methods,
    .tp_init = (initproc)writer_init,
    .tp_new = PyType_GenericNew,
};
