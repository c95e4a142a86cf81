/* lib/python/src/kpy.h — what the modules of the extension koma._koma share.
 * Only libkoma's public headers (koma/koma.h) are used. */
#ifndef KPY_H
#define KPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <koma/koma.h>

/* The module's state: its exception and the built-in games, read-only once made
 * (shared by every object: the engines and referees are each object's own). */
extern PyObject *kpy_error;            /* koma.Error */
extern koma_game_set *kpy_games;

/* Raise the Python exception of a koma error (memory: MemoryError; otherwise
 * koma.Error with code, line, column, offset, message, source). Returns NULL. */
PyObject *kpy_raise(const koma_error *err);
/* A koma.Error instance for err (not raised); NULL with an exception set. */
PyObject *kpy_error_object(const koma_error *err);

/* A str from UTF-8 bytes, invalid bytes kept as surrogates. */
PyObject *kpy_str(const char *s, size_t len);
PyObject *kpy_cstr(const char *s);     /* NULL s: None */

/* The game of an id, or raise koma.Error (game.unknown). */
const koma_game *kpy_game(const char *id, Py_ssize_t len);

/* Types. */
extern PyTypeObject kpy_reader_type;
extern PyTypeObject kpy_record_type;
extern PyTypeObject kpy_verdict_type;
extern PyTypeObject kpy_position_type;
extern PyTypeObject kpy_writer_type;

/* A Record owning rec (NULL on failure: rec freed). */
PyObject *kpy_record_new(koma_pcn *rec, const char *format, PyObject *source, unsigned long line);
koma_pcn *kpy_record_pcn(PyObject *record);
/* A koma_verdict set up for libkoma (its size), on the Python heap (PyMem_Free);
 * NULL with MemoryError. */
koma_verdict *kpy_verdict_alloc(void);
/* A Verdict from v (source and line: where the record was read). */
PyObject *kpy_verdict_new(const koma_verdict *v, PyObject *source, unsigned long line);
/* A Position from a canonical FEEN of game g. */
PyObject *kpy_position_new(const char *feen, size_t len, const koma_game *g);

/* The functions of the module, by file. */
PyObject *kpy_validate(PyObject *self, PyObject *args, PyObject *kw);
PyObject *kpy_formats(PyObject *self, PyObject *noargs);
PyObject *kpy_record_helpers(PyObject *self, PyObject *args);

/* A referee judging one record at a time with the GIL released: the verdict
 * into *v, 0 judged, 1 not judgeable (err), -1 trouble (err). */
int kpy_judge(koma_referee *ref, const koma_pcn *rec, const koma_game *game, koma_verdict *v,
              koma_error *err);

int kpy_init_types(PyObject *m);

#endif
