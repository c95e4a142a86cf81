/* lib/python/src/position.c — koma.Position: a position of a game with rules, as
 * FEEN (immutable); its FID and SFEN, legal moves, a move made, perft (the GIL
 * released). */
#include "kpy.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    PyObject *feen;                    /* canonical FEEN (str) */
    const koma_game *game;
    koma_engine *engine;               /* made when first needed, on this position */
    int busy;                          /* the engine is in use (perft, another thread) */
} kposition;

PyObject *kpy_position_new(const char *feen, size_t len, const koma_game *g)
{
    kposition *self = PyObject_New(kposition, &kpy_position_type);
    if (self == NULL) return NULL;
    self->game = g;
    self->engine = NULL;
    self->busy = 0;
    if ((self->feen = kpy_str(feen, len)) == NULL) Py_CLEAR(self);
    return (PyObject *)self;
}

/* A position from a parsed pos (of game g, or the one it gives). */
static PyObject *from_position(koma_position *pos, const koma_game *g)
{
    koma_error err;
    koma_error_clear(&err);
    if (g == NULL && (g = koma_game_set_find_position(kpy_games, pos, &err)) == NULL) return kpy_raise(&err);
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t len = koma_feen_write(pos, feen, sizeof feen);
    if (len >= sizeof feen) {
        koma_error_set(&err, KOMA_E_FEEN_LENGTH, 0, "position too large");
        return kpy_raise(&err);
    }
    /* the position must fit its game as an engine needs */
    const koma_game *gg = g;
    koma_position check;
    koma_position_init(&check);
    int rc = koma_game_set_open_feen(kpy_games, feen, len, &check, &gg, &err);
    koma_position_cleanup(&check);
    if (rc != 0) return kpy_raise(&err);
    return kpy_position_new(feen, len, g);
}

/* A Position from text: FEEN (sfen 0, its game found from the FEEN unless named)
 * or SFEN (sfen 1); the arguments (text, game=None) named by kwlist. */
static PyObject *position_parsed(PyObject *args, PyObject *kw, char **kwlist, int sfen)
{
    const char *s, *game = NULL;
    Py_ssize_t len;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|z", kwlist, &s, &len, &game)) return NULL;
    const koma_game *g = NULL;
    if (game && (g = kpy_game(game, (Py_ssize_t)strlen(game))) == NULL) return NULL;
    koma_error err;
    koma_error_clear(&err);
    koma_position pos;
    koma_position_init(&pos);
    PyObject *out = NULL;
    int rc = sfen ? koma_sfen_parse(s, (size_t)len, &pos, &err)
                  : koma_game_set_open_feen(kpy_games, s, (size_t)len, &pos, &g, &err);
    if (rc != 0) kpy_raise(&err);
    else out = from_position(&pos, g);
    koma_position_cleanup(&pos);
    return out;
}

static PyObject *position_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"feen", "game", NULL};
    (void)type;
    return position_parsed(args, kw, kwlist, 0);
}

static PyObject *position_from_sfen(PyObject *cls, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"sfen", "game", NULL};
    (void)cls;
    return position_parsed(args, kw, kwlist, 1);
}

static PyObject *position_start(PyObject *cls, PyObject *arg)
{
    (void)cls;
    Py_ssize_t len;
    const char *id = PyUnicode_AsUTF8AndSize(arg, &len);
    if (id == NULL) return NULL;
    const koma_game *g = kpy_game(id, len);
    if (g == NULL) return NULL;
    koma_error err;
    koma_error_clear(&err);
    if (!koma_game_playable(g)) {
        koma_game_require_rules(g, &err);
        return kpy_raise(&err);
    }
    const char *feen = koma_game_start(g);
    return kpy_position_new(feen, strlen(feen), g);
}

static void position_dealloc(kposition *self)
{
    koma_engine_free(self->engine);
    Py_XDECREF(self->feen);
    PyObject_Free(self);
}

/* The engine on this position, made when first needed; NULL with an exception.
 * The caller marks it busy while it releases the GIL. */
static koma_engine *engine(kposition *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Position is in use by another thread");
        return NULL;
    }
    if (self->engine) return self->engine;
    koma_error err;
    koma_error_clear(&err);
    Py_ssize_t len;
    const char *feen = PyUnicode_AsUTF8AndSize(self->feen, &len);
    if (feen == NULL) return NULL;
    koma_engine *e;
    if (koma_engine_new(self->game, &e, &err) != 0) {
        kpy_raise(&err);
        return NULL;
    }
    if (koma_engine_set_feen(e, feen, (size_t)len, &err) != 0) {
        koma_engine_free(e);
        kpy_raise(&err);
        return NULL;
    }
    self->engine = e;
    return e;
}

static PyObject *get_feen(kposition *self, void *c)
{
    (void)c;
    return Py_NewRef(self->feen);
}

static PyObject *get_fid(kposition *self, void *c)
{
    (void)c;
    Py_ssize_t len;
    const char *feen = PyUnicode_AsUTF8AndSize(self->feen, &len);
    if (feen == NULL) return NULL;
    char fid[KOMA_FID_BUF];
    koma_fid_of(feen, (size_t)len, fid);
    return PyUnicode_FromStringAndSize(fid, KOMA_FID_LEN);
}

static PyObject *get_sfen(kposition *self, void *c)
{
    (void)c;
    koma_engine *e = engine(self);
    if (e == NULL) return NULL;
    koma_error err;
    koma_error_clear(&err);
    koma_position pos;
    koma_position_init(&pos);
    char buf[KOMA_FEEN_MAX_LEN + 64];
    PyObject *out = NULL;
    size_t n = 0;
    if (koma_engine_get_position(e, &pos, &err) == 0 &&
        (n = koma_sfen_write(&pos, 1, buf, sizeof buf, &err)) > 0 && n < sizeof buf)
        out = PyUnicode_FromStringAndSize(buf, (Py_ssize_t)n);
    else if (n >= sizeof buf)
        PyErr_SetString(PyExc_ValueError, "SFEN too long");
    else
        kpy_raise(&err);
    koma_position_cleanup(&pos);
    return out;
}

static PyObject *get_game(kposition *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(koma_game_id(self->game));
}

static PyObject *get_turn(kposition *self, void *c)
{
    (void)c;
    koma_engine *e = engine(self);
    if (e == NULL) return NULL;
    return PyUnicode_FromString(koma_engine_turn(e) == KOMA_FIRST ? "first" : "second");
}

static PyObject *get_in_check(kposition *self, void *c)
{
    (void)c;
    koma_engine *e = engine(self);
    if (e == NULL) return NULL;
    return PyBool_FromLong(koma_engine_in_check(e));
}

/* None, or (status, result) of the ending the position decides. */
static PyObject *get_ending(kposition *self, void *c)
{
    (void)c;
    koma_engine *e = engine(self);
    if (e == NULL) return NULL;
    koma_ending end;
    koma_engine_position_ending(e, &end);
    if (!end.over) Py_RETURN_NONE;
    return Py_BuildValue("(ss)", koma_cgsn_name(end.status), koma_result_name(end.result));
}

static PyObject *legal_moves(kposition *self, PyObject *noargs)
{
    (void)noargs;
    koma_engine *e = engine(self);
    if (e == NULL) return NULL;
    size_t max = koma_engine_max_moves(e);
    koma_emove *moves = PyMem_Malloc((max ? max : 1) * sizeof *moves);
    if (moves == NULL) return PyErr_NoMemory();
    size_t n = koma_engine_legal_moves(e, moves);
    PyObject *list = PyList_New((Py_ssize_t)n);
    char buf[KOMA_MOVE_TEXT_BUF];
    for (size_t i = 0; list && i < n; i++) {
        size_t len = koma_engine_move_text(e, moves[i], buf, sizeof buf);
        PyObject *s = len < sizeof buf ? PyUnicode_FromStringAndSize(buf, (Py_ssize_t)len) : NULL;
        if (s == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "move text too long");
            Py_CLEAR(list);
        } else {
            PyList_SET_ITEM(list, (Py_ssize_t)i, s);
        }
    }
    PyMem_Free(moves);
    if (list && PyList_Sort(list) != 0) Py_CLEAR(list);
    return list;
}

/* play(move) -> Position: the position after a legal move (PMN). */
static PyObject *play(kposition *self, PyObject *arg)
{
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(arg, &len);
    if (s == NULL) return NULL;
    koma_engine *e = engine(self);
    if (e == NULL) return NULL;
    koma_error err;
    koma_error_clear(&err);
    koma_emove m;
    if (koma_engine_parse_move(e, s, (size_t)len, &m, &err) != 0 || koma_engine_make(e, m, &err) != 0)
        return kpy_raise(&err);
    char feen[KOMA_FEEN_MAX_LEN + 1];
    size_t flen;
    int rc = koma_engine_feen(e, feen, sizeof feen, &flen, &err);
    koma_engine_unmake(e);
    if (rc != 0) return kpy_raise(&err);
    return kpy_position_new(feen, flen, self->game);
}

static PyObject *perft(kposition *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"depth", "divide", NULL};
    unsigned depth;
    int divide = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "I|p", kwlist, &depth, &divide)) return NULL;
    koma_engine *e = engine(self);
    if (e == NULL) return NULL;
    koma_error err;
    koma_error_clear(&err);
    uint64_t nodes = 0;
    koma_perft_entry *entries = NULL;
    size_t count = 0;
    int rc;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    if (divide && depth > 0) rc = koma_engine_perft_divide(e, depth, &entries, &count, NULL, NULL, &err);
    else rc = koma_engine_perft(e, depth, &nodes, &err);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (rc != 0) return kpy_raise(&err);
    if (!divide) return PyLong_FromUnsignedLongLong(nodes);
    PyObject *d = PyDict_New();
    for (size_t i = 0; d && i < count; i++) {
        PyObject *n = PyLong_FromUnsignedLongLong(entries[i].nodes);
        if (n == NULL || PyDict_SetItemString(d, entries[i].pmn, n) != 0) Py_CLEAR(d);
        Py_XDECREF(n);
    }
    free(entries);
    return d;
}

static PyObject *position_repr(kposition *self)
{
    return PyUnicode_FromFormat("Position(%R)", self->feen);
}

static PyObject *position_str(kposition *self)
{
    return Py_NewRef(self->feen);
}

static Py_hash_t position_hash(kposition *self)
{
    return PyObject_Hash(self->feen);
}

static PyObject *position_eq(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &kpy_position_type)) Py_RETURN_NOTIMPLEMENTED;
    return PyObject_RichCompare(((kposition *)a)->feen, ((kposition *)b)->feen, op);
}

static PyMethodDef position_methods[] = {
    {"legal_moves", (PyCFunction)legal_moves, METH_NOARGS, "legal_moves() -> sorted list of canonical PMN"},
    {"play", (PyCFunction)play, METH_O, "play(pmn) -> Position: the position after a legal move"},
    {"perft", (PyCFunction)(void (*)(void))perft, METH_VARARGS | METH_KEYWORDS,
     "perft(depth, divide=False) -> int (leaves of the legal-move tree), or with divide a dict "
     "{root move: leaves}"},
    {"from_sfen", (PyCFunction)(void (*)(void))position_from_sfen, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Position.from_sfen(sfen, game=None) -> Position"},
    {"start", (PyCFunction)position_start, METH_O | METH_CLASS, "Position.start(game) -> its start position"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef position_getset[] = {
    {"feen", (getter)get_feen, NULL, "canonical FEEN", NULL},
    {"fid", (getter)get_fid, NULL, "FID: the SHA-256 of the FEEN, in hex", NULL},
    {"sfen", (getter)get_sfen, NULL, "SFEN (a 9x9 shogi-world position), move number 1", NULL},
    {"game", (getter)get_game, NULL, "the game's id", NULL},
    {"turn", (getter)get_turn, NULL, "the side to move: 'first' or 'second'", NULL},
    {"in_check", (getter)get_in_check, NULL, "the side to move's royal piece is attacked", NULL},
    {"ending", (getter)get_ending, NULL, "None, or (status, result) when the position ends the game", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject kpy_position_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "koma.Position",
    .tp_basicsize = sizeof(kposition),
    .tp_dealloc = (destructor)position_dealloc,
    .tp_repr = (reprfunc)position_repr,
    .tp_str = (reprfunc)position_str,
    .tp_hash = (hashfunc)position_hash,
    .tp_richcompare = position_eq,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Position(feen, game=None): a position of a game with rules (the game from the FEEN's "
              "style and board unless given); immutable",
    .tp_methods = position_methods,
    .tp_getset = position_getset,
    .tp_new = position_new,
};
