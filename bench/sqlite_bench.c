/* sqlite_bench: runs a benchmark script against one SQLite connection and prints one JSON line per step.
 *
 *   sqlite_bench DATABASE SCRIPT
 *
 * The script has one step per line, fields separated by a TAB (blank lines and lines starting with
 * '#' are skipped):
 *   load  <path>                       load an extension (sqlite3_load_extension, default entry point)
 *   exec  <name>  <sql>                run once, untimed; rows are stepped and dropped
 *   time  <name>  <reps>  <sql>        run <reps> times; every row of every run is stepped and every
 *                                      column read with sqlite3_column_value (the values are produced,
 *                                      not converted)
 * Output, one line per exec/time step:
 *   {"name":..,"wall_ms":[..],"cpu_ms":[..],"rows":N,"first":[..]}
 * wall_ms is CLOCK_MONOTONIC per run, cpu_ms is user+system time of this process per run (getrusage),
 * rows the row count of the last run and first the first row as text (NULL as null). The last line is
 *   {"max_rss_kb":N}
 * the peak resident set size of the process: VmHWM of /proc/self/status, the high-water mark of this
 * program's own memory (getrusage's ru_maxrss also counts the memory of the process that forked it,
 * as it was when this program was started: a driver started by a large node process would report
 * node's size), or ru_maxrss where /proc is missing. Any SQL error prints the message to
 * stderr and exits with status 1.
 *
 * The connection also has the module bench_floor (bench/floor_vtab.c): a virtual table that does no
 * work, for the interface's own cost.
 *
 * Build: cc -O2 -o sqlite_bench bench/sqlite_bench.c bench/floor_vtab.c -lsqlite3
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

int FloorVtabRegister(sqlite3 *db); /* floor_vtab.c */

static double WallMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double CpuMs(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* Prints s as a JSON string. */
static void PrintJsonString(const char *s) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    if (*p == '"' || *p == '\\') {
      printf("\\%c", *p);
    } else if (*p < 0x20) {
      printf("\\u%04x", *p);
    } else {
      putchar(*p);
    }
  }
  putchar('"');
}

static void Fail(sqlite3 *db, const char *what, const char *name) {
  fprintf(stderr, "sqlite_bench: %s %s: %s\n", what, name, sqlite3_errmsg(db));
  exit(1);
}

/* Runs sql once, stepping every row. Returns the row count; keeps the first row's text in *first
 * (a malloc'ed JSON array) when first is not NULL. */
static long long RunOnce(sqlite3 *db, const char *name, const char *sql, char **first) {
  sqlite3_stmt *stmt = NULL;
  long long rows = 0;
  const char *tail = sql;
  while (tail && *tail) {
    if (sqlite3_prepare_v2(db, tail, -1, &stmt, &tail) != SQLITE_OK) Fail(db, "prepare", name);
    if (!stmt) break; /* only spaces or comments left */
    const int ncol = sqlite3_column_count(stmt);
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      for (int i = 0; i < ncol; ++i) (void)sqlite3_column_value(stmt, i);
      if (rows == 0 && first) {
        size_t cap = 64, len = 0;
        char *buf = malloc(cap);
        buf[len++] = '[';
        for (int i = 0; i < ncol; ++i) {
          const char *text = (const char *)sqlite3_column_text(stmt, i);
          const char *v = text ? text : "null";
          size_t need = len + strlen(v) * 6 + 8;
          if (need > cap) {
            while (need > cap) cap *= 2;
            buf = realloc(buf, cap);
          }
          if (i) buf[len++] = ',';
          if (!text) {
            memcpy(buf + len, "null", 4);
            len += 4;
            continue;
          }
          buf[len++] = '"';
          for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
            if (*p == '"' || *p == '\\') {
              buf[len++] = '\\';
              buf[len++] = (char)*p;
            } else if (*p < 0x20) {
              len += (size_t)sprintf(buf + len, "\\u%04x", *p);
            } else {
              buf[len++] = (char)*p;
            }
          }
          buf[len++] = '"';
        }
        buf[len++] = ']';
        buf[len] = 0;
        free(*first);
        *first = buf;
      }
      ++rows;
    }
    if (rc != SQLITE_DONE) Fail(db, "step", name);
    sqlite3_finalize(stmt);
    stmt = NULL;
  }
  return rows;
}

static void Report(const char *name, const double *wall, const double *cpu, int reps, long long rows,
                   const char *first) {
  printf("{\"name\":");
  PrintJsonString(name);
  printf(",\"wall_ms\":[");
  for (int i = 0; i < reps; ++i) printf("%s%.4f", i ? "," : "", wall[i]);
  printf("],\"cpu_ms\":[");
  for (int i = 0; i < reps; ++i) printf("%s%.4f", i ? "," : "", cpu[i]);
  printf("],\"rows\":%lld,\"first\":%s}\n", rows, first ? first : "null");
  fflush(stdout);
}

/* Peak resident set size of this program in KiB (see the header). */
static long PeakRssKb(void) {
  FILE* status = fopen("/proc/self/status", "r");
  if (status != NULL) {
    char row[256];
    long kb = -1;
    while (fgets(row, sizeof row, status) != NULL) {
      if (strncmp(row, "VmHWM:", 6) == 0) {
        kb = strtol(row + 6, NULL, 10);
        break;
      }
    }
    fclose(status);
    if (kb >= 0) return kb;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: sqlite_bench DATABASE SCRIPT\n");
    return 2;
  }
  FILE *script = fopen(argv[2], "r");
  if (!script) {
    perror(argv[2]);
    return 2;
  }
  sqlite3 *db = NULL;
  if (sqlite3_open(argv[1], &db) != SQLITE_OK) Fail(db, "open", argv[1]);
  sqlite3_enable_load_extension(db, 1);
  if (FloorVtabRegister(db) != SQLITE_OK) Fail(db, "register", "bench_floor");

  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, script)) >= 0) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    if (n == 0 || line[0] == '#') continue;
    char *fields[4] = {0};
    int nf = 0;
    char *p = line;
    while (nf < 4) {
      fields[nf++] = p;
      char *tab = nf < 4 ? strchr(p, '\t') : NULL;
      if (!tab) break;
      *tab = 0;
      p = tab + 1;
    }
    if (strcmp(fields[0], "load") == 0 && nf == 2) {
      char *err = NULL;
      if (sqlite3_load_extension(db, fields[1], NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "sqlite_bench: cannot load %s: %s\n", fields[1], err ? err : "?");
        return 1;
      }
    } else if (strcmp(fields[0], "exec") == 0 && nf == 3) {
      char *first = NULL;
      double w0 = WallMs(), c0 = CpuMs();
      long long rows = RunOnce(db, fields[1], fields[2], &first);
      double wall = WallMs() - w0, cpu = CpuMs() - c0;
      Report(fields[1], &wall, &cpu, 1, rows, first);
      free(first);
    } else if (strcmp(fields[0], "time") == 0 && nf == 4) {
      int reps = atoi(fields[2]);
      if (reps < 1 || reps > 1000) {
        fprintf(stderr, "sqlite_bench: bad repeat count in step %s\n", fields[1]);
        return 2;
      }
      double *wall = calloc((size_t)reps, sizeof(double));
      double *cpu = calloc((size_t)reps, sizeof(double));
      char *first = NULL;
      long long rows = 0;
      for (int r = 0; r < reps; ++r) {
        double w0 = WallMs(), c0 = CpuMs();
        rows = RunOnce(db, fields[1], fields[3], r == 0 ? &first : NULL);
        wall[r] = WallMs() - w0;
        cpu[r] = CpuMs() - c0;
      }
      Report(fields[1], wall, cpu, reps, rows, first);
      free(wall);
      free(cpu);
      free(first);
    } else {
      fprintf(stderr, "sqlite_bench: bad script line: %s\n", fields[0]);
      return 2;
    }
  }
  free(line);
  fclose(script);
  sqlite3_close(db);
  printf("{\"max_rss_kb\":%ld}\n", PeakRssKb());
  return 0;
}
