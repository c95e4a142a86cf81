/* lib/python/src/validate.c — koma.validate: one text of any notation checked
 * (koma-validate(1)'s types), and koma.formats. */
#include "kpy.h"

#include <string.h>

/* Check s[0..len) as `notation`: 0, -1 with err, -2 when the notation is unknown. */
static int check(const char *notation, const char *s, size_t len, koma_error *err)
{
    if (strcmp(notation, "feen") == 0) {
        koma_position pos;
        koma_position_init(&pos);
        int rc = koma_feen_parse(s, len, 0, &pos, err);
        koma_position_cleanup(&pos);
        return rc;
    }
    if (strcmp(notation, "sfen") == 0 || strcmp(notation, "fen") == 0) {
        koma_position pos;
        koma_position_init(&pos);
        int rc = notation[0] == 's' ? koma_sfen_parse(s, len, &pos, err) : koma_fen_parse(s, len, &pos, err);
        koma_position_cleanup(&pos);
        return rc;
    }
    if (strcmp(notation, "pmn") == 0) {   /* a move, or a chain of them (Ko shogi) */
        koma_chain c;
        return koma_chain_parse(s, len, &c, err);
    }
    if (strcmp(notation, "cgsn") == 0) {
        koma_status st;
        return koma_cgsn_parse(s, len, &st, err);
    }
    if (strcmp(notation, "cell") == 0) {
        koma_cell c;
        return koma_cell_parse(s, len, &c, err);
    }
    if (strcmp(notation, "pin") == 0 || strcmp(notation, "epin") == 0) {
        koma_piece p;
        return notation[0] == 'p' ? koma_pin_parse(s, len, &p, err) : koma_epin_parse(s, len, &p, err);
    }
    if (strcmp(notation, "sin") == 0) {
        char c;
        return koma_sin_parse(s, len, &c, err);
    }
    if (strcmp(notation, "snn") == 0) {
        char name[KOMA_SNN_MAX_LEN + 1];
        return koma_snn_parse(s, len, name, err);
    }
    if (strcmp(notation, "qpi") == 0) {
        koma_qpi q;
        return koma_qpi_parse(s, len, &q, err);
    }
    if (strcmp(notation, "fid") == 0) return koma_fid_parse(s, len, err);
    if (strcmp(notation, "ggn") == 0) {
        koma_ggn *g = NULL;
        koma_ggn_load(s, len, &g, err);
        koma_ggn_free(g);
        return g ? 0 : -1;
    }
    if (strncmp(notation, "pcn", 3) == 0 &&
        (!notation[3] || !strcmp(notation + 3, "-json") || !strcmp(notation + 3, "-yaml"))) {
        /* pcn: JSON when the text starts with '{', else YAML */
        size_t i = koma_bom_len(s, len);
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
        koma_pcn_format f = notation[3] ? (notation[4] == 'j' ? KOMA_PCN_JSON : KOMA_PCN_YAML)
                            : i < len && s[i] == '{' ? KOMA_PCN_JSON : KOMA_PCN_YAML;
        koma_pcn *p = NULL;
        koma_pcn_parse(f, s, len, 0, &p, err);
        koma_pcn_free(p);
        return p ? 0 : -1;
    }
    return -2;
}

/* A move checked against a position: legal there, in canonical form. */
static int check_move(PyObject *position, const char *s, size_t len, koma_error *err)
{
    PyObject *feen = PyObject_Str(position);
    if (feen == NULL) return -3;
    Py_ssize_t flen;
    const char *f = PyUnicode_AsUTF8AndSize(feen, &flen);
    int rc = -3;
    const koma_game *g = NULL;
    koma_position pos;
    koma_position_init(&pos);
    koma_engine *e = NULL;
    koma_emove m;
    if (f && koma_game_set_open_feen(kpy_games, f, (size_t)flen, &pos, &g, err) != 0) rc = -4;
    else if (f && koma_engine_new(g, &e, err) != 0) rc = -4;
    else if (f) rc = koma_engine_set_position(e, &pos, err) != 0 ? -4
                     : koma_engine_parse_move(e, s, len, &m, err) != 0 ? -1 : 0;
    koma_engine_free(e);
    koma_position_cleanup(&pos);
    Py_DECREF(feen);
    return rc;
}

PyObject *kpy_validate(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"text", "notation", "position", NULL};
    const char *notation = "feen";
    PyObject *text, *position = Py_None;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|sO", kwlist, &text, &notation, &position)) return NULL;
    const char *s;
    Py_ssize_t len;
    if (PyUnicode_Check(text)) {
        if ((s = PyUnicode_AsUTF8AndSize(text, &len)) == NULL) return NULL;
    } else if (PyBytes_Check(text)) {
        s = PyBytes_AS_STRING(text);
        len = PyBytes_GET_SIZE(text);
    } else {
        PyErr_SetString(PyExc_TypeError, "text: str or bytes");
        return NULL;
    }
    koma_error err;
    koma_error_clear(&err);
    int rc;
    if (position != Py_None) {
        if (strcmp(notation, "pmn") != 0) {
            PyErr_SetString(PyExc_ValueError, "position: for a pmn move only");
            return NULL;
        }
        rc = check_move(position, s, (size_t)len, &err);
        if (rc == -3) return NULL;
        if (rc == -4) {
            PyErr_Format(PyExc_ValueError, "position: %s: %s", koma_code_name(err.code), err.message);
            return NULL;
        }
    } else {
        Py_BEGIN_ALLOW_THREADS
        rc = check(notation, s, (size_t)len, &err);
        Py_END_ALLOW_THREADS
    }
    if (rc == -2)
        return PyErr_Format(PyExc_ValueError, "notation: one of feen, pmn, cgsn, sfen, fen, pcn, pcn-json, "
                            "pcn-yaml, ggn, cell, pin, epin, sin, snn, qpi, fid; not '%s'", notation);
    if (rc != 0) return kpy_raise(&err);
    Py_RETURN_NONE;
}

PyObject *kpy_formats(PyObject *self, PyObject *noargs)
{
    /* indexed by koma_format_kind: one name for each of its values */
    static const char *const kinds[KOMA_FORMAT_NOTATION + 1] = {"position", "moves", "record", "detect",
                                                                "notation"};
    (void)self;
    (void)noargs;
    size_t n = koma_format_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        const koma_format *f = koma_format_at(i);
        unsigned caps = koma_format_caps(f);
        koma_format_kind kind = koma_format_kind_of(f);
        const char *kind_name = (size_t)kind < sizeof kinds / sizeof kinds[0] ? kinds[kind] : "other";
        PyObject *t = Py_BuildValue("(ssNNs)", koma_format_name(f), kind_name,
                                    PyBool_FromLong((caps & KOMA_FORMAT_READ) != 0),
                                    PyBool_FromLong((caps & KOMA_FORMAT_WRITE) != 0), koma_format_title(f));
        if (t == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    return list;
}

int kpy_init_types(PyObject *m)
{
    PyTypeObject *types[] = {&kpy_reader_type, &kpy_record_type, &kpy_verdict_type, &kpy_position_type,
                             &kpy_writer_type};
    static const char *const names[] = {"Reader", "Record", "Verdict", "Position", "Writer"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyType_Ready(types[i]) != 0 || PyModule_AddObjectRef(m, names[i], (PyObject *)types[i]) != 0)
            return -1;
    return 0;
}
