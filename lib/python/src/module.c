/* lib/python/src/module.c — the extension koma._koma: its errors, the built-in games,
 * the module table (the Python face is lib/python/koma/__init__.py). */
#include "kpy.h"

#include <string.h>

PyObject *kpy_error;
koma_game_set *kpy_games;

PyObject *kpy_str(const char *s, size_t len)
{
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "surrogateescape");
}

PyObject *kpy_cstr(const char *s)
{
    if (s == NULL) Py_RETURN_NONE;
    return kpy_str(s, strlen(s));
}

PyObject *kpy_error_object(const koma_error *err)
{
    const char *code = koma_code_name(err->code);
    PyObject *text;
    if (err->source)
        text = PyUnicode_FromFormat("%s:%lu:%lu: %s: %s", err->source, err->line, err->column,
                                    code, err->message);
    else
        text = PyUnicode_FromFormat("%lu:%lu: %s: %s", err->line, err->column, code, err->message);
    if (text == NULL) return NULL;
    PyObject *e = PyObject_CallOneArg(kpy_error, text);
    Py_DECREF(text);
    if (e == NULL) return NULL;
    PyObject *vals[] = {
        PyUnicode_FromString(code), PyLong_FromUnsignedLong(err->line),
        PyLong_FromUnsignedLong(err->column), PyLong_FromSize_t(err->offset),
        kpy_str(err->message, strlen(err->message)), kpy_cstr(err->source),
    };
    static const char *const names[] = {"code", "line", "column", "offset", "message", "source"};
    int bad = 0;
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        if (vals[i] == NULL || PyObject_SetAttrString(e, names[i], vals[i]) != 0) bad = 1;
        Py_XDECREF(vals[i]);
    }
    if (bad) {
        Py_DECREF(e);
        return NULL;
    }
    return e;
}

PyObject *kpy_raise(const koma_error *err)
{
    if (err->code == KOMA_E_MEMORY) return PyErr_NoMemory();
    PyObject *e = kpy_error_object(err);
    if (e == NULL) return NULL;
    PyErr_SetObject(kpy_error, e);
    Py_DECREF(e);
    return NULL;
}

const koma_game *kpy_game(const char *id, Py_ssize_t len)
{
    const koma_game *g;
    koma_error err;
    koma_error_clear(&err);
    if (koma_game_set_lookup(kpy_games, id, (size_t)len, &g, &err) != 0) {
        kpy_raise(&err);
        return NULL;
    }
    if (g == NULL) {
        koma_error_set(&err, KOMA_E_GAME_UNKNOWN, 0, "unknown game \"%.*s\"", (int)len, id);
        kpy_raise(&err);
    }
    return g;
}

static PyObject *games(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    koma_error err;
    koma_error_clear(&err);
    if (koma_game_set_load_all(kpy_games, &err) != 0) return kpy_raise(&err);
    size_t n = koma_game_set_count(kpy_games);
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < n; i++) {
        const koma_game *g = koma_game_set_at(kpy_games, i);
        if (!koma_game_playable(g)) continue;
        PyObject *id = PyUnicode_FromString(koma_game_id(g));
        if (id == NULL || PyList_Append(list, id) != 0) Py_CLEAR(list);
        Py_XDECREF(id);
    }
    return list;
}

static PyObject *code_text(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    if (name == NULL) return NULL;
    koma_code c = koma_code_from_name(name);
    if (c == KOMA_CODE_COUNT) return PyErr_Format(PyExc_ValueError, "no code \"%s\"", name);
    return PyUnicode_FromString(koma_strerror(c));
}

static PyMethodDef methods[] = {
    {"validate", (PyCFunction)(void (*)(void))kpy_validate, METH_VARARGS | METH_KEYWORDS,
     "validate(text, notation='feen', position=None): raise koma.Error when text is not valid"},
    {"formats", kpy_formats, METH_NOARGS,
     "formats() -> list of (name, kind, readable, writable, title)"},
    {"_record_helpers", kpy_record_helpers, METH_VARARGS, "the Python of Record.to and Record.as_dict"},
    {"games", games, METH_NOARGS, "games() -> the ids of the built-in games with rules"},
    {"code_text", code_text, METH_O, "code_text(code) -> the default English text of a code"},
    {NULL, NULL, 0, NULL},
};

static void module_free(void *m)
{
    (void)m;
    koma_game_set_free(kpy_games);
    kpy_games = NULL;
}

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "koma._koma", "libkoma's public API (see the package koma).", -1,
    methods, NULL, NULL, NULL, module_free,
};

PyMODINIT_FUNC PyInit__koma(void);
PyMODINIT_FUNC PyInit__koma(void)
{
    koma_error err;
    koma_error_clear(&err);
    /* jansson's allocator wrapped now, at import, before any thread of the
     * program reads a record (libkoma(3), THREAD SAFETY) */
    koma_json_init();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    kpy_error = PyErr_NewExceptionWithDoc(
        "koma.Error",
        "A koma diagnostic: .code (the dotted name), .line, .column, .offset, .message, .source",
        NULL, NULL);
    if (kpy_error == NULL || PyModule_AddObjectRef(m, "Error", kpy_error) != 0) goto fail;
    if (koma_game_set_new(&kpy_games, &err) != 0) {
        kpy_raise(&err);
        goto fail;
    }
    if (PyModule_AddStringConstant(m, "version", KOMA_VERSION) != 0 || kpy_init_types(m) != 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
