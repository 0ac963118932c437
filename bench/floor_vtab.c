/* bench_floor: a virtual table that does no work, to measure what the virtual-table interface itself
 * costs per row and per column. Part of bench/sqlite_bench (registered on its connection).
 *
 *   CREATE VIRTUAL TABLE temp.f USING bench_floor(SOURCE, ROWS, MODE)
 *
 * The table has SOURCE's columns (a table or view of the same connection, such as main.t) with their
 * declared types, and ROWS rows. Row i holds SOURCE's row (i mod C), where C is the first 4,096 rows of
 * SOURCE (fewer if it has fewer), read once when the table is created; so values have SOURCE's kinds,
 * lengths and NULLs, and xColumn only hands a value it already holds to SQLite:
 *   MODE 'copy'    text and blobs with SQLITE_TRANSIENT (SQLite copies them, as any reader whose memory
 *                  is bounded must have it do: the bytes are gone once it moves on)
 *   MODE 'static'  text and blobs with SQLITE_STATIC (no copy: legal only because this table holds its
 *                  values for as long as it lives; the lowest cost the interface has)
 * Nothing is filtered (xBestIndex uses no constraint), so SQLite evaluates every term.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

enum { kFloorCycle = 4096 };

typedef struct FloorValue {
  int type; /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL */
  sqlite3_int64 i;
  double d;
  char *bytes; /* NUL-terminated */
  int n;
  int nul_free; /* text without a NUL byte inside */
} FloorValue;

typedef struct FloorTable {
  sqlite3_vtab base;
  int ncol;
  int nrow;            /* rows held (the cycle) */
  sqlite3_int64 rows;  /* rows the table has */
  int copy;            /* 1: SQLITE_TRANSIENT, 0: SQLITE_STATIC */
  FloorValue *values;  /* nrow * ncol */
} FloorTable;

typedef struct FloorCursor {
  sqlite3_vtab_cursor base;
  sqlite3_int64 row;
  int slot; /* row mod nrow */
} FloorCursor;

static void FloorFree(FloorTable *t) {
  if (!t) return;
  if (t->values) {
    for (long k = 0; k < (long)t->nrow * t->ncol; ++k) free(t->values[k].bytes);
    free(t->values);
  }
  sqlite3_free(t);
}

/* Strips one pair of matching quotes from a module argument, in place. */
static char *Unquote(char *s) {
  size_t n = strlen(s);
  if (n >= 2 && (s[0] == '\'' || s[0] == '"') && s[n - 1] == s[0]) {
    s[n - 1] = 0;
    return s + 1;
  }
  return s;
}

static int FloorConnect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                        char **err) {
  (void)aux;
  if (argc != 6) {
    *err = sqlite3_mprintf("bench_floor(SOURCE, ROWS, 'copy'|'static')");
    return SQLITE_ERROR;
  }
  char *source = sqlite3_mprintf("%s", argv[3]);
  char *rows = sqlite3_mprintf("%s", argv[4]);
  char *mode = sqlite3_mprintf("%s", argv[5]);
  FloorTable *t = sqlite3_malloc(sizeof(FloorTable));
  sqlite3_stmt *stmt = NULL;
  sqlite3_str *decl = sqlite3_str_new(db);
  int rc = SQLITE_ERROR;
  if (!source || !rows || !mode || !t) goto done;
  memset(t, 0, sizeof(*t));
  t->rows = strtoll(Unquote(rows), NULL, 10);
  const char *m = Unquote(mode);
  if (strcmp(m, "copy") != 0 && strcmp(m, "static") != 0) {
    *err = sqlite3_mprintf("bench_floor: MODE is 'copy' or 'static', not %s", m);
    goto done;
  }
  t->copy = strcmp(m, "copy") == 0;
  char *sql = sqlite3_mprintf("SELECT * FROM %s LIMIT %d", Unquote(source), kFloorCycle);
  rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) {
    *err = sqlite3_mprintf("bench_floor: %s", sqlite3_errmsg(db));
    goto done;
  }
  t->ncol = sqlite3_column_count(stmt);
  t->values = calloc((size_t)kFloorCycle * (size_t)t->ncol, sizeof(FloorValue));
  sqlite3_str_appendall(decl, "CREATE TABLE x(");
  for (int c = 0; c < t->ncol; ++c) {
    const char *type = sqlite3_column_decltype(stmt, c);
    sqlite3_str_appendf(decl, "%s\"%w\" %s", c ? ", " : "", sqlite3_column_name(stmt, c), type ? type : "");
  }
  sqlite3_str_appendall(decl, ")");
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    FloorValue *row = t->values + (size_t)t->nrow * (size_t)t->ncol;
    for (int c = 0; c < t->ncol; ++c) {
      FloorValue *v = row + c;
      v->type = sqlite3_column_type(stmt, c);
      if (v->type == SQLITE_INTEGER) v->i = sqlite3_column_int64(stmt, c);
      if (v->type == SQLITE_FLOAT) v->d = sqlite3_column_double(stmt, c);
      if (v->type == SQLITE_TEXT || v->type == SQLITE_BLOB) {
        const void *p = v->type == SQLITE_TEXT ? (const void *)sqlite3_column_text(stmt, c)
                                               : sqlite3_column_blob(stmt, c);
        v->n = sqlite3_column_bytes(stmt, c);
        v->bytes = malloc((size_t)v->n + 1);
        if (v->n) memcpy(v->bytes, p, (size_t)v->n);
        v->bytes[v->n] = 0;
        v->nul_free = strlen(v->bytes) == (size_t)v->n;
      }
    }
    ++t->nrow;
  }
  if (rc != SQLITE_DONE) {
    *err = sqlite3_mprintf("bench_floor: %s", sqlite3_errmsg(db));
    rc = SQLITE_ERROR;
    goto done;
  }
  if (t->nrow == 0) t->rows = 0;
  char *text = sqlite3_str_finish(decl);
  decl = NULL;
  rc = text ? sqlite3_declare_vtab(db, text) : SQLITE_NOMEM;
  sqlite3_free(text);
done:
  sqlite3_finalize(stmt);
  if (decl) sqlite3_free(sqlite3_str_finish(decl));
  sqlite3_free(source);
  sqlite3_free(rows);
  sqlite3_free(mode);
  if (rc != SQLITE_OK) {
    FloorFree(t);
    return rc;
  }
  *out = &t->base;
  return SQLITE_OK;
}

static int FloorBestIndex(sqlite3_vtab *vtab, sqlite3_index_info *info) {
  FloorTable *t = (FloorTable *)vtab;
  info->estimatedRows = t->rows;
  info->estimatedCost = (double)t->rows;
  return SQLITE_OK;
}

static int FloorDisconnect(sqlite3_vtab *vtab) {
  FloorFree((FloorTable *)vtab);
  return SQLITE_OK;
}

static int FloorOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out) {
  (void)vtab;
  FloorCursor *c = sqlite3_malloc(sizeof(FloorCursor));
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof(*c));
  *out = &c->base;
  return SQLITE_OK;
}

static int FloorClose(sqlite3_vtab_cursor *cur) {
  sqlite3_free(cur);
  return SQLITE_OK;
}

static int FloorFilter(sqlite3_vtab_cursor *cur, int idx, const char *idx_str, int argc, sqlite3_value **argv) {
  (void)idx;
  (void)idx_str;
  (void)argc;
  (void)argv;
  FloorCursor *c = (FloorCursor *)cur;
  c->row = 0;
  c->slot = 0;
  return SQLITE_OK;
}

static int FloorNext(sqlite3_vtab_cursor *cur) {
  FloorCursor *c = (FloorCursor *)cur;
  const FloorTable *t = (const FloorTable *)cur->pVtab;
  ++c->row;
  if (++c->slot == t->nrow) c->slot = 0;
  return SQLITE_OK;
}

static int FloorEof(sqlite3_vtab_cursor *cur) {
  const FloorCursor *c = (const FloorCursor *)cur;
  return c->row >= ((const FloorTable *)cur->pVtab)->rows;
}

static int FloorColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col) {
  const FloorCursor *c = (const FloorCursor *)cur;
  const FloorTable *t = (const FloorTable *)cur->pVtab;
  const FloorValue *v = t->values + (size_t)c->slot * (size_t)t->ncol + (size_t)col;
  switch (v->type) {
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, v->i); break;
    case SQLITE_FLOAT: sqlite3_result_double(ctx, v->d); break;
    case SQLITE_TEXT:
      /* Length -1: SQLite measures the text and knows it is NUL-terminated, so functions that read
       * it as a C string (length(), comparisons) need not copy it again to terminate it. */
      sqlite3_result_text(ctx, v->bytes, v->nul_free ? -1 : v->n, t->copy ? SQLITE_TRANSIENT : SQLITE_STATIC);
      break;
    case SQLITE_BLOB: sqlite3_result_blob(ctx, v->bytes, v->n, t->copy ? SQLITE_TRANSIENT : SQLITE_STATIC); break;
    default: sqlite3_result_null(ctx); break;
  }
  return SQLITE_OK;
}

static int FloorRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
  *rowid = ((const FloorCursor *)cur)->row + 1;
  return SQLITE_OK;
}

static sqlite3_module floor_module = {
    .iVersion = 0,
    .xCreate = FloorConnect,
    .xConnect = FloorConnect,
    .xBestIndex = FloorBestIndex,
    .xDisconnect = FloorDisconnect,
    .xDestroy = FloorDisconnect,
    .xOpen = FloorOpen,
    .xClose = FloorClose,
    .xFilter = FloorFilter,
    .xNext = FloorNext,
    .xEof = FloorEof,
    .xColumn = FloorColumn,
    .xRowid = FloorRowid,
};

int FloorVtabRegister(sqlite3 *db) { return sqlite3_create_module(db, "bench_floor", &floor_module, NULL); }
