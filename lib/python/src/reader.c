/* lib/python/src/reader.c — koma._koma.Reader: the records of one input in any format
 * koma reads (a path, bytes, or a file object), one at a time, as Records or,
 * judged, as Verdicts. The reading and judging run with the GIL released. */
#include "kpy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define CHUNK (1 << 16)

enum { ON_ERROR_RAISE, ON_ERROR_SKIP, ON_ERROR_YIELD };

typedef struct {
    PyObject_HEAD
    koma_hub *hub;
    koma_format_reader *rs;
    koma_referee *ref;                 /* verdicts: the referee */
    koma_verdict *v;
    const koma_game *game;             /* game=: every record judged as this game */
    FILE *file;                        /* a path */
    PyObject *obj;                     /* a file object (its read) */
    Py_buffer data;                    /* bytes */
    size_t data_at;
    int has_data, at_end, done, busy, on_error;
    PyObject *name;                    /* the input's name, for verdicts and errors */
    const char *cname;
    char chunk[CHUNK];
} kreader;

static void reader_dealloc(kreader *self)
{
    koma_format_reader_free(self->rs);
    koma_hub_free(self->hub);
    koma_referee_free(self->ref);
    PyMem_Free(self->v);
    if (self->file) fclose(self->file);
    if (self->has_data) PyBuffer_Release(&self->data);
    Py_XDECREF(self->obj);
    Py_XDECREF(self->name);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int reader_init(kreader *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"source", "format", "encoding", "verdicts", "errors", "name", "game",
                             "declaration", NULL};
    PyObject *source, *name = NULL;
    const char *format = NULL, *encoding = NULL, *errors = "raise", *game = NULL, *declaration = NULL;
    int verdicts = 0;
    if (self->rs) {
        PyErr_SetString(PyExc_TypeError, "a Reader is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|zzpsOzz", kwlist, &source, &format, &encoding,
                                     &verdicts, &errors, &name, &game, &declaration))
        return -1;
    if (strcmp(errors, "raise") == 0) self->on_error = ON_ERROR_RAISE;
    else if (strcmp(errors, "skip") == 0) self->on_error = ON_ERROR_SKIP;
    else if (strcmp(errors, "yield") == 0) self->on_error = ON_ERROR_YIELD;
    else {
        PyErr_Format(PyExc_ValueError, "errors: 'raise', 'skip' or 'yield', not '%s'", errors);
        return -1;
    }
    koma_error err;
    koma_error_clear(&err);
    const koma_format *fmt = NULL;
    if (format && strcmp(format, "auto") != 0) {
        fmt = koma_format_find(format, strlen(format));
        if (fmt == NULL || !(koma_format_caps(fmt) & KOMA_FORMAT_READ)) {
            PyErr_Format(PyExc_ValueError, "koma does not read the format '%s' (koma.formats())", format);
            return -1;
        }
    }
    koma_declaration_rule rule = KOMA_DECLARE_DEFAULT;
    if (declaration) {
        if (strcmp(declaration, "27") == 0) rule = KOMA_DECLARE_27;
        else if (strcmp(declaration, "24") == 0) rule = KOMA_DECLARE_24;
        else if (strcmp(declaration, "try") == 0) rule = KOMA_DECLARE_TRY;
        else {
            PyErr_Format(PyExc_ValueError, "declaration: '27', '24' or 'try', not '%s'", declaration);
            return -1;
        }
    }
    if (game && (self->game = kpy_game(game, (Py_ssize_t)strlen(game))) == NULL) return -1;

    /* the source */
    if (PyUnicode_Check(source)) {
        PyObject *path;
        if (!PyUnicode_FSConverter(source, &path)) return -1;
        Py_BEGIN_ALLOW_THREADS
        self->file = fopen(PyBytes_AS_STRING(path), "rb");
        Py_END_ALLOW_THREADS
        if (self->file == NULL) {
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, source);
            Py_DECREF(path);
            return -1;
        }
        Py_DECREF(path);
        if (name == NULL || name == Py_None) name = source;
    } else if (PyObject_CheckBuffer(source)) {
        if (PyObject_GetBuffer(source, &self->data, PyBUF_SIMPLE) != 0) return -1;
        self->has_data = 1;
    } else if (PyObject_HasAttrString(source, "read")) {
        self->obj = PyObject_GetAttrString(source, "read");
        if (self->obj == NULL) return -1;
    } else {
        PyErr_SetString(PyExc_TypeError, "source: a path, bytes or a binary file object");
        return -1;
    }
    if (name == NULL || name == Py_None) {
        self->name = PyUnicode_FromString(self->has_data ? "<bytes>" : "<stream>");
    } else {
        self->name = PyObject_Str(name);
    }
    if (self->name == NULL || (self->cname = PyUnicode_AsUTF8(self->name)) == NULL) return -1;

    koma_format_reader_options ro = KOMA_FORMAT_READER_OPTIONS_INIT;
    if (encoding && (ro.encoding = koma_encoding_name(encoding, strlen(encoding))) == NULL) {
        PyErr_Format(PyExc_ValueError, "encoding: '%s' is not utf-8, shift_jis, euc-jp, utf-16le, utf-16be "
                     "or utf-16", encoding);
        return -1;
    }
    /* verdicts read a record only through the referee's accessors: no tree needed */
    if (verdicts) ro.pcn_flags |= KOMA_PCN_LIGHT;
    if (koma_hub_new(kpy_games, &self->hub, &err) != 0 ||
        koma_format_reader_new(self->hub, fmt, &ro, &self->rs, &err) != 0) {
        kpy_raise(&err);
        return -1;
    }
    if (verdicts) {
        koma_referee_options opt = KOMA_REFEREE_OPTIONS_INIT;
        opt.declaration = rule;
        if ((self->v = kpy_verdict_alloc()) == NULL) return -1;
        if (koma_referee_new(&opt, &self->ref, &err) != 0) {
            kpy_raise(&err);
            return -1;
        }
    }
    return 0;
}

/* More input into the stream: 0, or -1 with an exception. */
static int refill(kreader *self)
{
    koma_error err;
    koma_error_clear(&err);
    const char *data = NULL;
    size_t n = 0;
    PyObject *bytes = NULL;
    if (self->file) {
        int failed;
        Py_BEGIN_ALLOW_THREADS
        n = fread(self->chunk, 1, CHUNK, self->file);
        failed = n == 0 && ferror(self->file);
        Py_END_ALLOW_THREADS
        if (failed) {
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, self->name);
            return -1;
        }
        data = self->chunk;
    } else if (self->has_data) {
        n = (size_t)self->data.len - self->data_at;
        if (n > 16 * CHUNK) n = 16 * CHUNK;
        data = (const char *)self->data.buf + self->data_at;
        self->data_at += n;
    } else {
        bytes = PyObject_CallFunction(self->obj, "i", CHUNK);
        if (bytes == NULL) return -1;
        if (!PyBytes_Check(bytes)) {
            Py_DECREF(bytes);
            PyErr_SetString(PyExc_TypeError, "source: read() must return bytes (open the file in binary mode)");
            return -1;
        }
        data = PyBytes_AS_STRING(bytes);
        n = (size_t)PyBytes_GET_SIZE(bytes);
    }
    int rc = 0;
    if (n == 0) {
        koma_format_reader_finish(self->rs);
        self->at_end = 1;
    } else {
        Py_BEGIN_ALLOW_THREADS
        rc = koma_format_reader_feed(self->rs, data, n, &err);
        Py_END_ALLOW_THREADS
    }
    Py_XDECREF(bytes);
    if (rc != 0) {
        err.source = self->cname;
        kpy_raise(&err);
        return -1;
    }
    return 0;
}

/* An error about the current record, as the Reader's errors= says: NULL with the
 * exception raised, the error object (yield), or NULL without one (skip). */
static PyObject *record_error(kreader *self, koma_error *err, int *skip)
{
    err->source = self->cname;
    if (err->code == KOMA_E_MEMORY || self->on_error == ON_ERROR_RAISE) return kpy_raise(err);
    if (self->on_error == ON_ERROR_YIELD) return kpy_error_object(err);
    *skip = 1;
    return NULL;
}

/* A record that cannot be judged: its error located at the member at fault. */
static void unjudged(kreader *self, koma_error *err)
{
    unsigned long line = 0, col = 0;
    if (koma_format_reader_locate(self->rs, self->v->unjudged_member, &line, &col) == 0) {
        err->line = line;
        err->column = col;
    } else {
        err->line = koma_format_reader_line(self->rs);
        err->column = 1;
    }
}

static PyObject *reader_next(kreader *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Reader is in use by another thread");
        return NULL;
    }
    self->busy = 1;
    PyObject *out = NULL;
    while (!self->done) {
        koma_error err;
        koma_error_clear(&err);
        koma_pcn *rec = NULL;
        int st, judged = 0;
        Py_BEGIN_ALLOW_THREADS
        st = koma_format_reader_next(self->rs, &rec, &err);
        if (st == KOMA_PCN_RECORD && self->ref) {
            judged = koma_referee_pcn(self->ref, kpy_games, self->game, rec, NULL, self->v, &err);
            koma_pcn_free(rec);
            rec = NULL;
        }
        Py_END_ALLOW_THREADS
        int skip = 0;
        if (st == KOMA_PCN_AGAIN) {
            if (self->at_end || refill(self) != 0) break;
            continue;
        }
        if (st == KOMA_PCN_END) {
            self->done = 1;
            break;
        }
        if (st == KOMA_PCN_FATAL) {
            self->done = 1;
            err.source = self->cname;
            kpy_raise(&err);
            break;
        }
        unsigned long line = koma_format_reader_line(self->rs);
        if (st == KOMA_PCN_INVALID) {
            out = record_error(self, &err, &skip);
        } else if (self->ref == NULL) {
            const koma_format *f = koma_format_reader_format(self->rs);
            out = kpy_record_new(rec, f ? koma_format_name(f) : NULL, self->name, line);
        } else if (judged < 0) {
            err.source = self->cname;
            kpy_raise(&err);
            self->done = 1;
        } else if (judged > 0) {
            unjudged(self, &err);
            out = record_error(self, &err, &skip);
        } else if (self->v->kind == KOMA_VERDICT_UNREADABLE) {
            koma_error_clear(&err);
            koma_error_set(&err, self->v->refused_code, 0, "ply %zu \"%s\": %s", self->v->refused_ply,
                           self->v->refused_text, self->v->refused_message);
            /* located at the ply's text, as koma-replay locates it */
            char ptr[48];
            unsigned long pl = 0, pc = 0;
            snprintf(ptr, sizeof ptr, "/plies/%zu/pmn", self->v->refused_ply ? self->v->refused_ply - 1 : 0);
            if (self->v->refused_ply && koma_format_reader_locate(self->rs, ptr, &pl, &pc) == 0) {
                err.line = pl;
                err.column = pc;
            } else {
                err.line = line;
                err.column = 1;
            }
            out = record_error(self, &err, &skip);
        } else {
            out = kpy_verdict_new(self->v, self->name, line);
        }
        if (skip) continue;
        break;
    }
    self->busy = 0;
    return out;
}

static PyObject *reader_format(kreader *self, void *closure)
{
    (void)closure;
    const koma_format *f = koma_format_reader_format(self->rs);
    return kpy_cstr(f ? koma_format_name(f) : NULL);
}

static PyGetSetDef getset[] = {
    {"format", (getter)reader_format, NULL, "the format being read (None before the first record)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject kpy_reader_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "koma._koma.Reader",
    .tp_basicsize = sizeof(kreader),
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reader(source, format=None, encoding=None, verdicts=False, errors='raise', name=None, "
              "game=None, declaration=None): the records of source (a path, bytes or a binary file "
              "object), as Records, or judged (verdicts=True) as Verdicts.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)reader_next,
    .tp_getset = getset,
    .tp_init = (initproc)reader_init,
    .tp_new = PyType_GenericNew,
};
