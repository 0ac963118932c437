#!/usr/bin/env node
// `make bench`: the benchmark suite of issue 7, one process per system.
//
//   node bench/run.mjs [EXTENSION]          (default build/parquet)
//   BENCH_ROWS=1000000 node bench/run.mjs   quick mode: a 1M-row table
//
// Environment: BENCH_ROWS (default 10000000), BENCH_REPS (runs per query, default 5), BENCH_ROW_GROUP
// (row_group_size of the project's file, default 1000000).
//
// What it does, in order:
//  1. The table (bench/gen_table.sql): generated once into bench/data/<rows>/native.sqlite by the
//     sqlite3 shell; kept while gen_table.sql and the row count are unchanged.
//  2. Exports, timed (bench/sqlite_bench.c, one process): parquet_export of the table into
//     project.parquet (zstd, page index, Bloom filter on hc; with threads=1, then again with the
//     default threads, which must write the same bytes), and CREATE TABLE ... AS SELECT into a new
//     SQLite file. Also writes wide.parquet (1,000 columns) for the open-time measurement, and
//     project_defaults.parquet (parquet_export without options) for the equality on name.
//  3. DuckDB (bench/duckdb_bench.mjs, one process, threads=1): loads project.parquet into memory, times
//     COPY TO duck.parquet (zstd), then runs the queries on both files.
//  4. The virtual table (one process): the queries on project.parquet and on duck.parquet, and the time
//     of CREATE VIRTUAL TABLE on wide.parquet.
//     4b. The same queries on project.parquet with the driver linked against a current SQLite
//     (NEW_SQLITE_PACKAGE below), where the extension may apply OFFSET itself.
//  5. Native SQLite (one process): the queries on the table in native.sqlite.
//  6. The floor: SELECT sum(value) FROM generate_series(1, rows) in the sqlite3 shell (.timer).
//  7. Peak memory (max RSS): one fresh process per full scan.
//  8. GROUP BY against SQLite's own, and equality on hc against DuckDB, in the same processes: GROUP BY on native SQLite
//     with a covering index in group order (grouped.sqlite, built once: no sorter, SQLite's own
//     cheapest GROUP BY), and the equality on hc on a project file with DuckDB's row group size.
//  9. Remote (bench/remote.mjs, its own process): the queries over HTTP from nginx on 127.0.0.1
//     through a proxy adding 20 ms per request, requests and bytes beside hyparquet's; BENCH_REMOTE=0
//     skips it.
// Each query runs BENCH_REPS times; the tables give medians. Every system's result (row count and first
// row) is checked against native SQLite's; a difference is printed and makes the exit status 1 (after
// the results are written). Everything is printed as one report and written to bench/results/latest.md.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH_DIR);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const ROW_GROUP = Number(process.env.BENCH_ROW_GROUP ?? 1_000_000);
// The row group size of DuckDB's writer (its default): a second project file is written with it, for
// the equality on hc (section "GROUP BY against SQLite's own, and equality on hc against DuckDB").
const SMALL_ROW_GROUP = 122_880;
const WIDE_COLUMNS = 1000;
const EXT = path.resolve(ROOT, process.argv[2] ?? 'build/parquet');
if (!Number.isInteger(ROWS) || ROWS < 100_000) throw new Error('BENCH_ROWS must be an integer >= 100000');
if (!Number.isInteger(REPS) || REPS < 1) throw new Error('BENCH_REPS must be a positive integer');

const DATA = path.join(BENCH_DIR, 'data', String(ROWS));
const RESULTS = path.join(BENCH_DIR, 'results');
mkdirSync(DATA, { recursive: true });
mkdirSync(RESULTS, { recursive: true });
const file = (name) => path.join(DATA, name);
const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;

function log(msg) { process.stderr.write(`bench: ${msg}\n`); }

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ').slice(0, 200)} failed (${r.status}):\n${r.stderr}`);
  }
  return r.stdout;
}

// ---------------------------------------------------------------------------------------------------
// The values the queries look for, worked out from the generator's formulas (bench/gen_table.sql).

const HC_MULT = 2654435761n, HC_MOD = 1000000007n;
const hcOf = (i) => Number((BigInt(i) * HC_MULT) % HC_MOD);
function modPow(b, e, m) {
  let r = 1n;
  for (b %= m; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
}
// hc is i * HC_MULT mod a prime, so a value v is present iff v / HC_MULT mod HC_MOD is a row number.
const HC_INV = modPow(HC_MULT, HC_MOD - 2n, HC_MOD);
function absentHc() {
  for (let v = 123456789n; ; ++v) {
    const i = (v * HC_INV) % HC_MOD;
    if (i < 1n || i > BigInt(ROWS)) return Number(v);
  }
}
const tsOf = (i) => new Date((1704067200 + 3 * i) * 1000).toISOString().replace('T', ' ').slice(0, 19);

const ID_POINT = Math.floor(ROWS / 2) + 7;
const HC_PRESENT = hcOf(Math.floor(ROWS / 3) + 1);
const HC_ABSENT = absentHc();
const RANGE_START = Math.floor(ROWS * 0.4);
const TS_FROM = tsOf(RANGE_START), TS_TO = tsOf(RANGE_START + 10_000);
const OFFSET = Math.floor(ROWS / 2);
const NAME = 'name_04242';
const IDS = [0.1, 0.35, 0.6, 0.9].map((f, k) => Math.floor(ROWS * f) + 3 + 8 * k);

// sql(t, duck): the query on table t; duck is true for DuckDB, whose ts is a TIMESTAMP WITH TIME ZONE.
const QUERIES = [
  { key: 'count', label: 'count(*)', sql: (t) => `SELECT count(*) FROM ${t}` },
  { key: 'sum', label: 'sum(value)', sql: (t) => `SELECT sum(value) FROM ${t}` },
  { key: 'group', label: 'GROUP BY category (20 groups)',
    sql: (t) => `SELECT category, count(*), sum(value) FROM ${t} GROUP BY category ORDER BY category` },
  { key: 'wide', label: 'all ten columns (12 aggregates)',
    sql: (t, duck) => FULL_SCAN(t).replace('sum(flag)', duck ? 'sum(flag::INTEGER)' : 'sum(flag)') },
  { key: 'point_id', label: `point lookup id = ${ID_POINT}`, sql: (t) => `SELECT * FROM ${t} WHERE id = ${ID_POINT}` },
  { key: 'hc_eq', label: `hc = ${HC_PRESENT} (present)`, sql: (t) => `SELECT * FROM ${t} WHERE hc = ${HC_PRESENT}` },
  { key: 'hc_absent', label: `hc = ${HC_ABSENT} (absent)`, sql: (t) => `SELECT * FROM ${t} WHERE hc = ${HC_ABSENT}` },
  { key: 'ts_range', label: '10,000-row range on ts',
    sql: (t, duck) => duck
      ? `SELECT * FROM ${t} WHERE ts >= TIMESTAMPTZ '${TS_FROM}+00' AND ts < TIMESTAMPTZ '${TS_TO}+00'`
      : `SELECT * FROM ${t} WHERE ts >= '${TS_FROM}' AND ts < '${TS_TO}'` },
  { key: 'offset', label: `LIMIT 10 OFFSET ${OFFSET}`, sql: (t) => `SELECT * FROM ${t} LIMIT 10 OFFSET ${OFFSET}` },
  { key: 'name_eq', label: `name = '${NAME}'`, sql: (t) => `SELECT * FROM ${t} WHERE name = '${NAME}'` },
  { key: 'id_in', label: 'id IN (4 ids)', sql: (t) => `SELECT * FROM ${t} WHERE id IN (${IDS.join(', ')})` },
];
// parquet_export's threads= default (ext/export_writer.h, DefaultExportThreads).
const DEFAULT_EXPORT_THREADS = Math.max(1, Math.min(os.cpus().length, 4));
// The queries also run with threads=2: those that decompress many pages.
const THREADED = ['sum', 'group', 'wide', 'hc_eq', 'name_eq'];
// The lookups also run with page_cache=0: every run decompresses its pages, as the first run of a
// query on a fresh table does (with the cache, runs 2 to REPS find them decompressed).
const COLD = ['point_id', 'hc_eq', 'ts_range', 'id_in'];
// The queries also run on the project file written with SMALL_ROW_GROUP.
const SMALL_RG = ['hc_eq', 'hc_absent'];
// SQLite's own cheapest GROUP BY: native rows in a covering index on (category, value), read in
// group order, so no sorter; and the same scan of the index without grouping.
const GROUP_INDEXED = 'SELECT category, count(*), sum(value) FROM gi.g GROUP BY category ORDER BY category';
const SUM_INDEXED = 'SELECT sum(value) FROM gi.g INDEXED BY g_category_value';
const FULL_SCAN = (t) => `SELECT count(*), sum(id), min(ts), max(ts), sum(hc), max(category), max(name), ` +
  `sum(value), sum(small), sum(price), sum(flag), count(maybe) FROM ${t}`;

// Per kind of column: one aggregate that reads every value of one column through the table (threads=1)
// and the same aggregate over the same values in a native table, so that each kind's cost per value is
// visible. vt: the table (ours: project.parquet; ours_dt: the same with decimal=text; ours_ti: with
// timestamp=integer; kinds: kinds.parquet, the kinds the bench table lacks); nat: the native table (t,
// or k in kinds.sqlite, which holds the same values as kinds.parquet as SQLite stores them). `flat`:
// the kinds held to 1.2x the floor (integers, doubles, dictionary text).
const KINDS = [
  { key: 'k_id', label: 'sorted INT64', vt: 'ours', sql: 'sum(id)', nat: 't', nsql: 'sum(id)', flat: true },
  { key: 'k_hc', label: 'unsorted INT64', vt: 'ours', sql: 'sum(hc)', nat: 't', nsql: 'sum(hc)', flat: true },
  { key: 'k_value', label: 'DOUBLE', vt: 'ours', sql: 'sum(value)', nat: 't', nsql: 'sum(value)', flat: true },
  { key: 'k_price', label: 'DECIMAL(12,2) as REAL', vt: 'ours', sql: 'sum(price)', nat: 't', nsql: 'sum(price)' },
  { key: 'k_price_text', label: 'DECIMAL(12,2) as TEXT', vt: 'ours_dt', sql: 'sum(length(price))',
    nat: 'k', nsql: 'sum(length(price_text))' },
  { key: 'k_flag', label: 'BOOLEAN', vt: 'ours', sql: 'sum(flag)', nat: 't', nsql: 'sum(flag)' },
  { key: 'k_category', label: 'dictionary TEXT, 20 values', vt: 'ours', sql: 'sum(length(category))', nat: 't',
    nsql: 'sum(length(category))', flat: true },
  // name in names_dict.parquet, written RLE_DICTIONARY (in project.parquet zstd makes PLAIN smaller).
  { key: 'k_name', label: 'dictionary TEXT, 100,000 values', vt: 'names_dict', sql: 'sum(length(name))', nat: 't',
    nsql: 'sum(length(name))', flat: true },
  { key: 'k_name_plain', label: 'TEXT, 100,000 values, PLAIN', vt: 'ours', sql: 'sum(length(name))', nat: 't',
    nsql: 'sum(length(name))' },
  { key: 'k_txt', label: 'plain TEXT (all distinct)', vt: 'kinds', sql: 'sum(length(txt))', nat: 'k', nsql: 'sum(length(txt))' },
  { key: 'k_maybe', label: 'nullable TEXT (half NULL)', vt: 'ours', sql: 'sum(length(maybe))', nat: 't',
    nsql: 'sum(length(maybe))' },
  { key: 'k_ts', label: 'TIMESTAMP as text', vt: 'ours', sql: 'sum(length(ts))', nat: 't', nsql: 'sum(length(ts))' },
  { key: 'k_ts_int', label: 'TIMESTAMP as integer', vt: 'ours_ti', sql: 'total(ts)', nat: 'k', nsql: 'total(ts_int)' },
  { key: 'k_d', label: 'DATE', vt: 'kinds', sql: 'sum(length(d))', nat: 'k', nsql: 'sum(length(d))' },
  { key: 'k_lst', label: 'LIST<INTEGER> as JSON', vt: 'kinds', sql: 'sum(length(lst))', nat: 'k', nsql: 'sum(length(lst))' },
];
// shapes.sqlite's table s: other shapes for the export comparison: long text (100 to 300 bytes), an
// integer NULL in 9 rows of 10, DECIMAL(38,6) with up to 32 digits (held as TEXT, as SQLite keeps such
// decimals exactly), timestamps declared TIMESTAMP.
const SHAPES_TABLE = 'CREATE TABLE s(id INTEGER, note TEXT, sparse INTEGER, amount TEXT, at TIMESTAMP); ' +
  "INSERT INTO s SELECT id, printf('%.*c', 100 + id % 201, 'x') || id, CASE WHEN id % 10 = 0 THEN id END, " +
  "CAST(hc AS TEXT) || printf('%016d', id * 7919) || '.' || printf('%06d', id % 1000000), ts FROM n.t";
const SHAPES_SCHEMA = 'id INTEGER, note TEXT, sparse INTEGER, amount DECIMAL(38,6), at TIMESTAMP';

// kinds.sqlite's table k, from the bench table: the values of the kinds above that t lacks.
const KINDS_TABLE = 'CREATE TABLE k AS SELECT printf(\'%.2f\', price) AS price_text, ' +
  "name || '-' || hc AS txt, (unixepoch(ts) * 1000000) AS ts_int, date(ts) AS d, " +
  'json_array(small, small + 1, small + 2) AS lst FROM n.t';

// ---------------------------------------------------------------------------------------------------
// Drivers.

const DRIVER = file('sqlite_bench');
// The same driver linked with a current SQLite: the amalgamation that the npm package better-sqlite3
// ships (only its deps/sqlite3 sources are used; nothing of the package is run). SQLite releases
// before 3.4x offer LIMIT/OFFSET to virtual tables wrongly (ext/parquet_vtab.cc,
// LimitOffsetCanBeApplied), so the extension applies OFFSET itself only on a newer library; this
// driver measures that case. BENCH_NEW_SQLITE=0 skips it.
const NEW_SQLITE_PACKAGE = 'better-sqlite3@13.2.0';
const NEW_SQLITE_DIR = path.join(BENCH_DIR, 'data', 'sqlite-amalgamation');
const NEW_DRIVER = path.join(NEW_SQLITE_DIR, 'sqlite_bench');

// The driver's sources: the script runner and the floor table it registers (bench/floor_vtab.c).
const DRIVER_SOURCES = ['sqlite_bench.c', 'floor_vtab.c'].map((f) => path.join(BENCH_DIR, f));
const newerThanSources = (exe) => existsSync(exe) &&
  DRIVER_SOURCES.every((src) => statSync(exe).mtimeMs >= statSync(src).mtimeMs);

function buildDriver() {
  if (newerThanSources(DRIVER)) return;
  let flags = ['-lsqlite3'];
  try {
    flags = run('pkg-config', ['--cflags', '--libs', 'sqlite3']).trim().split(/\s+/).filter(Boolean);
  } catch { /* plain -lsqlite3 */ }
  run('cc', ['-O2', '-o', DRIVER, ...DRIVER_SOURCES, ...flags]);
}

// Builds NEW_DRIVER (once); false, with the reason logged, when the amalgamation cannot be had.
function buildNewDriver() {
  if (process.env.BENCH_NEW_SQLITE === '0') return false;
  if (newerThanSources(NEW_DRIVER)) return true;
  try {
    mkdirSync(NEW_SQLITE_DIR, { recursive: true });
    const amalgamation = path.join(NEW_SQLITE_DIR, 'package', 'deps', 'sqlite3', 'sqlite3.c');
    if (!existsSync(amalgamation)) {
      log(`current SQLite: fetching ${NEW_SQLITE_PACKAGE} from the npm registry for its amalgamation`);
      const tgz = run('npm', ['pack', NEW_SQLITE_PACKAGE, '--silent', '--pack-destination', NEW_SQLITE_DIR],
        { cwd: NEW_SQLITE_DIR }).trim().split('\n').pop();
      run('tar', ['xzf', path.join(NEW_SQLITE_DIR, tgz), '-C', NEW_SQLITE_DIR, 'package/deps/sqlite3']);
    }
    const obj = path.join(NEW_SQLITE_DIR, 'sqlite3.o');
    if (!existsSync(obj)) {
      log('current SQLite: compiling the amalgamation (about a minute)');
      run('cc', ['-O2', '-c', amalgamation, '-o', obj, '-DSQLITE_THREADSAFE=1']);
    }
    run('cc', ['-O2', '-I', path.dirname(amalgamation), '-o', NEW_DRIVER, ...DRIVER_SOURCES, obj, '-lpthread', '-ldl', '-lm']);
    return true;
  } catch (e) {
    log(`current SQLite: not measured (${String(e.message).split('\n')[0]})`);
    return false;
  }
}

function parseLines(out) {
  const steps = {};
  let maxRss = null;
  for (const line of out.split('\n')) {
    if (!line.trim()) continue;
    const o = JSON.parse(line);
    if ('max_rss_kb' in o) maxRss = o.max_rss_kb; else steps[o.name] = o;
  }
  return { steps, maxRss };
}

// steps: [{kind: 'load'|'exec'|'time', name, reps, sql}] run by sqlite_bench in one process on db.
function runSqlite(db, steps, tag, driver = DRIVER) {
  const script = file(`${tag}.script`);
  const lines = steps.map((s) => {
    if (s.kind === 'load') return `load\t${s.path}`;
    if (/[\t\n]/.test(s.sql)) throw new Error(`step ${s.name}: SQL holds a TAB or newline`);
    return s.kind === 'exec' ? `exec\t${s.name}\t${s.sql}` : `time\t${s.name}\t${s.reps}\t${s.sql}`;
  });
  writeFileSync(script, `${lines.join('\n')}\n`);
  return parseLines(run(driver, [db, script], { cwd: ROOT }));
}

function runDuckDB(steps, tag) {
  const script = file(`${tag}.json`);
  writeFileSync(script, JSON.stringify({ steps }));
  return parseLines(run(process.execPath, [path.join(BENCH_DIR, 'duckdb_bench.mjs'), script], { cwd: ROOT }));
}

// The sqlite3 shell with .timer on: returns [{wall_ms, cpu_ms}] per statement.
function runShellTimed(sql, reps) {
  const input = `.timer on\n${Array(reps).fill(`${sql};`).join('\n')}\n`;
  const out = run('sqlite3', [':memory:'], { input });
  return [...out.matchAll(/Run Time: real ([\d.]+) user ([\d.]+) sys ([\d.]+)/g)]
    .map((m) => ({ wall_ms: Number(m[1]) * 1e3, cpu_ms: (Number(m[2]) + Number(m[3])) * 1e3 }));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const size = (p) => (existsSync(p) ? statSync(p).size : null);

// ---------------------------------------------------------------------------------------------------
// 1. The table.

function generateTable() {
  const sqlText = readFileSync(path.join(BENCH_DIR, 'gen_table.sql'), 'utf8').replaceAll('@ROWS@', String(ROWS));
  const stamp = createHash('sha256').update(sqlText).digest('hex');
  const db = file('native.sqlite');
  const stampFile = file('native.stamp');
  if (existsSync(db) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    log(`table: reusing ${path.relative(ROOT, db)}`);
    return null;
  }
  log(`table: generating ${ROWS} rows into ${path.relative(ROOT, db)}`);
  const tmp = `${db}.tmp`;
  rmSync(tmp, { force: true });
  const t0 = performance.now();
  run('sqlite3', [tmp], { input: sqlText });
  const ms = performance.now() - t0;
  renameSync(tmp, db);
  writeFileSync(stampFile, stamp);
  return ms;
}

// grouped.sqlite: category and value of every row in a table with a covering index on (category,
// value). Built once per native table (same stamp).
function generateGrouped(native) {
  const db = file('grouped.sqlite');
  const stampFile = file('grouped.stamp');
  const stamp = readFileSync(file('native.stamp'), 'utf8');
  if (existsSync(db) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return db;
  log('grouped.sqlite: native rows with a covering index on (category, value)');
  const tmp = `${db}.tmp`;
  rmSync(tmp, { force: true });
  run('sqlite3', [tmp], { input: `PRAGMA journal_mode = OFF; ATTACH ${sqlString(native)} AS n;\n` +
    'CREATE TABLE g(category TEXT, value REAL);\nINSERT INTO g SELECT category, value FROM n.t;\n' +
    'CREATE INDEX g_category_value ON g(category, value);\n' });
  renameSync(tmp, db);
  writeFileSync(stampFile, stamp);
  return db;
}

// <name>.sqlite made by `sql` from the bench table (attached as n). Built once per native table and sql.
// Reads a file through once, so that the timed step after it finds the file in the page cache: the
// first of two exports of a source database that other steps pushed out of the cache would
// otherwise pay for reading it from disk (seen as threads=1 exports twice as slow as the same
// export run again).
function warmFile(p) {
  const fd = openSync(p, 'r');
  const buf = Buffer.allocUnsafe(16 << 20);
  try {
    while (readSync(fd, buf, 0, buf.length, null) > 0) { /* read on */ }
  } finally {
    closeSync(fd);
  }
}

function generateDerived(native, name, sql) {
  const db = file(`${name}.sqlite`);
  const stampFile = file(`${name}.stamp`);
  const stamp = readFileSync(file('native.stamp'), 'utf8') + sql;
  if (existsSync(db) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return db;
  log(`${name}.sqlite: from the bench table`);
  const tmp = `${db}.tmp`;
  rmSync(tmp, { force: true });
  run('sqlite3', [tmp], { input: `PRAGMA journal_mode = OFF; ATTACH ${sqlString(native)} AS n;\n${sql};\n` });
  renameSync(tmp, db);
  writeFileSync(stampFile, stamp);
  return db;
}

// A query of WIDE_COLUMNS columns over 1,000 rows (integers, reals and text in turn).
function wideQuery() {
  const cols = [];
  for (let k = 0; k < WIDE_COLUMNS; ++k) {
    const e = k % 3 === 0 ? `v + ${k}` : k % 3 === 1 ? `(v + ${k}) * 0.5` : `'s' || (v + ${k})`;
    cols.push(`${e} AS c${k}`);
  }
  return `WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 1000) ` +
         `SELECT ${cols.join(', ')} FROM s`;
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(`${EXT}.so`) && !existsSync(EXT)) throw new Error(`no extension at ${EXT}(.so): run make build`);
  const started = new Date();
  const loadBefore = os.loadavg();
  buildDriver();
  const genMs = generateTable();
  const native = file('native.sqlite');
  const project = file('project.parquet');
  const duck = file('duck.parquet');
  const wide = file('wide.parquet');
  const ctas = file('ctas.sqlite');
  const projectT2 = file('project_threads2.parquet');
  const projectSmall = file('project_small_rg.parquet');
  // The table exported with parquet_export's defaults (snappy, no options): the file a user gets.
  const projectDefaults = file('project_defaults.parquet');
  // The name column alone, dictionary-encoded: the per-kind row of high-cardinality dictionary text.
  const namesDict = file('names_dict.parquet');
  const grouped = generateGrouped(native);
  const kindsDb = generateDerived(native, 'kinds', KINDS_TABLE);
  const kinds = file('kinds.parquet');
  const shapesDb = generateDerived(native, 'shapes', SHAPES_TABLE);
  const shapes = file('shapes.parquet');
  const shapesDuck = file('shapes_duck.parquet');
  const exportOptions = `compression=zstd, bloom_filter=hc, row_group_size=${ROW_GROUP}`;

  // 2. Exports from native SQLite.
  log('exports: parquet_export and CREATE TABLE AS SELECT');
  for (const p of [project, projectT2, projectSmall, projectDefaults, namesDict, ctas, `${ctas}-journal`, wide]) rmSync(p, { force: true });
  warmFile(native);
  const exp = runSqlite(native, [
    { kind: 'load', path: EXT },
    { kind: 'exec', name: 'parquet_export',
      sql: `SELECT parquet_export(${sqlString(project)}, 'SELECT * FROM t', ${sqlString(`${exportOptions}, threads=1`)})` },
    // The same export with the default threads (encoding beside the thread reading rows); the file
    // must be the same.
    { kind: 'exec', name: 'parquet_export_t2',
      sql: `SELECT parquet_export(${sqlString(projectT2)}, 'SELECT * FROM t', ${sqlString(exportOptions)})` },
    { kind: 'exec', name: 'ctas',
      sql: `ATTACH ${sqlString(ctas)} AS o; CREATE TABLE o.t AS SELECT * FROM main.t; DETACH o` },
    { kind: 'exec', name: 'wide',
      sql: `SELECT parquet_export(${sqlString(wide)}, ${sqlString(wideQuery())}, 'compression=zstd')` },
    { kind: 'exec', name: 'small_rg',
      sql: `SELECT parquet_export(${sqlString(projectSmall)}, 'SELECT * FROM t', ` +
        `${sqlString(`compression=zstd, bloom_filter=hc, row_group_size=${SMALL_ROW_GROUP}`)})` },
    { kind: 'exec', name: 'defaults', sql: `SELECT parquet_export(${sqlString(projectDefaults)}, 'SELECT * FROM t')` },
    { kind: 'exec', name: 'names_dict', sql: `SELECT parquet_export(${sqlString(namesDict)}, 'SELECT name FROM t', ` +
      `${sqlString(`compression=zstd, row_group_size=${ROW_GROUP}, encoding='name:RLE_DICTIONARY'`)})` },
  ], 'exports');
  const ctasBytes = size(ctas);
  rmSync(ctas, { force: true });
  if (!readFileSync(project).equals(readFileSync(projectT2))) {
    throw new Error('parquet_export with the default threads wrote a different file than with threads=1');
  }
  const projectT2Bytes = size(projectT2);
  rmSync(projectT2, { force: true });
  rmSync(kinds, { force: true });
  rmSync(shapes, { force: true });
  const shapesOptions = `compression=zstd, row_group_size=${ROW_GROUP}, schema='${SHAPES_SCHEMA}'`;
  warmFile(shapesDb);
  const expShapes = runSqlite(shapesDb, [{ kind: 'load', path: EXT },
    { kind: 'exec', name: 'export_t1',
      sql: `SELECT parquet_export(${sqlString(shapes)}, 'SELECT * FROM s', ${sqlString(`${shapesOptions}, threads=1`)})` },
    { kind: 'exec', name: 'export',
      sql: `SELECT parquet_export(${sqlString(shapes)}, 'SELECT * FROM s', ${sqlString(shapesOptions)})` }],
  'exports_shapes');
  runSqlite(kindsDb, [{ kind: 'load', path: EXT }, { kind: 'exec', name: 'kinds',
    sql: `SELECT parquet_export(${sqlString(kinds)}, 'SELECT txt, d, lst FROM k', ` +
      `${sqlString(`compression=zstd, row_group_size=${ROW_GROUP}, schema='txt TEXT, d DATE, lst LIST<INTEGER>'`)})` }],
  'exports_kinds');

  // 3. DuckDB.
  log('DuckDB: COPY TO and queries (threads=1)');
  const duckSteps = [
    { kind: 'exec', name: 'load', sql: `CREATE TABLE src AS SELECT * FROM read_parquet(${sqlString(project)})` },
    { kind: 'exec', name: 'copy', sql: `COPY src TO ${sqlString(duck)} (FORMAT parquet, COMPRESSION zstd)` },
    { kind: 'exec', name: 'drop', sql: 'DROP TABLE src' },
    { kind: 'exec', name: 'version', sql: 'SELECT version()' },
    { kind: 'exec', name: 'view_ours', sql: `CREATE VIEW ours AS SELECT * FROM read_parquet(${sqlString(project)})` },
    { kind: 'exec', name: 'view_theirs', sql: `CREATE VIEW theirs AS SELECT * FROM read_parquet(${sqlString(duck)})` },
  ];
  duckSteps.push(
    { kind: 'exec', name: 'load_shapes', sql: `CREATE TABLE shapes AS SELECT * FROM read_parquet(${sqlString(shapes)})` },
    { kind: 'exec', name: 'copy_shapes', sql: `COPY shapes TO ${sqlString(shapesDuck)} (FORMAT parquet, COMPRESSION zstd)` },
    { kind: 'exec', name: 'drop_shapes', sql: 'DROP TABLE shapes' });
  for (const t of ['ours', 'theirs']) {
    for (const q of QUERIES) duckSteps.push({ kind: 'time', name: `${q.key}@${t}`, reps: REPS, sql: q.sql(t, true) });
  }
  duckSteps.push({ kind: 'exec', name: 'view_defaults', sql: `CREATE VIEW defaults AS SELECT * FROM read_parquet(${sqlString(projectDefaults)})` });
  duckSteps.push({ kind: 'time', name: 'name_eq@defaults', reps: REPS, sql: QUERIES.find((q) => q.key === 'name_eq').sql('defaults', true) });
  duckSteps.push({ kind: 'exec', name: 'view_small', sql: `CREATE VIEW small AS SELECT * FROM read_parquet(${sqlString(projectSmall)})` });
  for (const q of QUERIES.filter((x) => SMALL_RG.includes(x.key))) {
    duckSteps.push({ kind: 'time', name: `${q.key}@small`, reps: REPS, sql: q.sql('small', true) });
  }
  const dk = runDuckDB(duckSteps, 'duckdb');

  // 4. The virtual table.
  log('virtual table: queries on both files, open time of a 1,000-column file');
  const vtSteps = [
    { kind: 'load', path: EXT },
    { kind: 'exec', name: 'open_ours', sql: `CREATE VIRTUAL TABLE temp.ours USING parquet(${sqlString(project)}, threads=1)` },
    { kind: 'exec', name: 'open_theirs', sql: `CREATE VIRTUAL TABLE temp.theirs USING parquet(${sqlString(duck)}, threads=1)` },
  ];
  for (const t of ['ours', 'theirs']) {
    for (const q of QUERIES) {
      vtSteps.push({ kind: 'time', name: `${q.key}@${t}`, reps: REPS, sql: q.sql(t, false) });
      // What the last run read (pushdown table of the report).
      vtSteps.push({ kind: 'exec', name: `stats_${q.key}@${t}`, sql: `SELECT parquet_scan_stats('${t}')` });
    }
  }
  // The same file with threads=2 (one worker decompressing pages ahead): the queries that scan.
  vtSteps.push({ kind: 'exec', name: 'open_ours_t2',
    sql: `CREATE VIRTUAL TABLE temp.ours_t2 USING parquet(${sqlString(project)}, threads=2)` });
  for (const q of QUERIES.filter((x) => THREADED.includes(x.key))) {
    vtSteps.push({ kind: 'time', name: `${q.key}@ours_t2`, reps: REPS, sql: q.sql('ours_t2', false) });
  }
  vtSteps.push({ kind: 'exec', name: 'open_ours_cold',
    sql: `CREATE VIRTUAL TABLE temp.ours_cold USING parquet(${sqlString(project)}, page_cache=0, threads=1)` });
  for (const q of QUERIES.filter((x) => COLD.includes(x.key))) {
    vtSteps.push({ kind: 'time', name: `${q.key}@ours_cold`, reps: REPS, sql: q.sql('ours_cold', false) });
  }
  // The equality on name on the file of parquet_export's defaults, with threads=1 and the default.
  const nameEq = QUERIES.find((q) => q.key === 'name_eq');
  vtSteps.push({ kind: 'exec', name: 'open_defaults',
    sql: `CREATE VIRTUAL TABLE temp.defaults USING parquet(${sqlString(projectDefaults)}, threads=1)` });
  vtSteps.push({ kind: 'exec', name: 'open_defaults_t2',
    sql: `CREATE VIRTUAL TABLE temp.defaults_t2 USING parquet(${sqlString(projectDefaults)})` });
  vtSteps.push({ kind: 'time', name: 'name_eq@defaults', reps: REPS, sql: nameEq.sql('defaults', false) });
  vtSteps.push({ kind: 'exec', name: 'stats_name_eq@defaults', sql: "SELECT parquet_scan_stats('defaults')" });
  vtSteps.push({ kind: 'time', name: 'name_eq@defaults_t2', reps: REPS, sql: nameEq.sql('defaults_t2', false) });
  for (const [key, p] of [['ours', project], ['theirs', duck], ['defaults', projectDefaults]]) {
    vtSteps.push({ kind: 'exec', name: `name_encodings@${key}`,
      sql: `SELECT group_concat(e, ' / ') FROM (SELECT DISTINCT encodings AS e FROM parquet_metadata(${sqlString(p)}) ` +
        "WHERE path_in_schema = 'name')" });
  }
  vtSteps.push({ kind: 'exec', name: 'open_small',
    sql: `CREATE VIRTUAL TABLE temp.small USING parquet(${sqlString(projectSmall)}, threads=1)` });
  for (const q of QUERIES.filter((x) => SMALL_RG.includes(x.key))) {
    vtSteps.push({ kind: 'time', name: `${q.key}@small`, reps: REPS, sql: q.sql('small', false) });
  }
  // Per kind of column (KINDS).
  for (const [name, p, opts] of [['ours_dt', project, ', decimal=text'], ['ours_ti', project, ', timestamp=integer'],
    ['kinds', kinds, ''], ['names_dict', namesDict, '']]) {
    vtSteps.push({ kind: 'exec', name: `open_${name}`,
      sql: `CREATE VIRTUAL TABLE temp.${name} USING parquet(${sqlString(p)}, threads=1${opts})` });
    vtSteps.push({ kind: 'exec', name: `open_${name}_t2`,
      sql: `CREATE VIRTUAL TABLE temp.${name}_t2 USING parquet(${sqlString(p)}, threads=2${opts})` });
  }
  for (const k of KINDS) vtSteps.push({ kind: 'time', name: `${k.key}@vt`, reps: REPS, sql: `SELECT ${k.sql} FROM ${k.vt}` });
  // The same with threads=2 (the default on this machine), for the wall-clock time a user waits.
  for (const k of KINDS) {
    vtSteps.push({ kind: 'time', name: `${k.key}@vt2`, reps: REPS, sql: `SELECT ${k.sql} FROM ${k.vt}_t2` });
  }
  vtSteps.push({ kind: 'time', name: 'full@ours', reps: 1, sql: FULL_SCAN('ours') });
  vtSteps.push({ kind: 'exec', name: 'stats_full@ours', sql: "SELECT parquet_scan_stats('ours')" });
  vtSteps.push({ kind: 'time', name: 'open_wide', reps: Math.max(REPS, 10),
    sql: `CREATE VIRTUAL TABLE temp.wide USING parquet(${sqlString(wide)}); DROP TABLE temp.wide` });
  vtSteps.push({ kind: 'exec', name: 'meta_ours', sql: metaQuery(project) });
  vtSteps.push({ kind: 'exec', name: 'meta_theirs', sql: metaQuery(duck) });
  const vt = runSqlite(':memory:', vtSteps, 'vtab');

  // 4b. The virtual table on a current SQLite, when one can be built.
  let vtNew = null;
  if (buildNewDriver()) {
    log('virtual table on a current SQLite: queries on the project file');
    const steps = [{ kind: 'load', path: EXT }, { kind: 'exec', name: 'version', sql: 'SELECT sqlite_version()' },
      { kind: 'exec', name: 'open_ours', sql: `CREATE VIRTUAL TABLE temp.ours USING parquet(${sqlString(project)}, threads=1)` }];
    for (const q of QUERIES) {
      steps.push({ kind: 'time', name: `${q.key}@ours`, reps: REPS, sql: q.sql('ours', false) });
      steps.push({ kind: 'exec', name: `stats_${q.key}@ours`, sql: "SELECT parquet_scan_stats('ours')" });
    }
    vtNew = runSqlite(':memory:', steps, 'vtab_new', NEW_DRIVER);
  }

  // 5. Native SQLite.
  log('native SQLite: queries');
  const nt = runSqlite(native, [
    ...QUERIES.map((q) => ({ kind: 'time', name: `${q.key}@t`, reps: REPS, sql: q.sql('t', false) })),
    { kind: 'exec', name: 'attach_grouped', sql: `ATTACH ${sqlString(grouped)} AS gi` },
    { kind: 'time', name: 'group@indexed', reps: REPS, sql: GROUP_INDEXED },
    { kind: 'time', name: 'sum@indexed', reps: REPS, sql: SUM_INDEXED },
    { kind: 'exec', name: 'plan@indexed', sql: `EXPLAIN QUERY PLAN ${GROUP_INDEXED}` },
    { kind: 'exec', name: 'attach_kinds', sql: `ATTACH ${sqlString(kindsDb)} AS kd` },
    ...KINDS.map((k) => ({ kind: 'time', name: `${k.key}@nat`, reps: REPS,
      sql: `SELECT ${k.nsql} FROM ${k.nat === 'k' ? 'kd.k' : k.nat}` })),
    // The interface's floor (bench/floor_vtab.c): a virtual table of t's (or k's) columns that hands
    // over values it already holds, the same queries on it.
    { kind: 'exec', name: 'open_floor_t', sql: `CREATE VIRTUAL TABLE temp.floor_t USING bench_floor('main.t', ${ROWS}, 'copy')` },
    { kind: 'exec', name: 'open_floor_ts', sql: `CREATE VIRTUAL TABLE temp.floor_ts USING bench_floor('main.t', ${ROWS}, 'static')` },
    { kind: 'exec', name: 'open_floor_k', sql: `CREATE VIRTUAL TABLE temp.floor_k USING bench_floor('kd.k', ${ROWS}, 'copy')` },
    { kind: 'time', name: 'wide@floor', reps: REPS, sql: FULL_SCAN('floor_t') },
    { kind: 'time', name: 'wide@floor_static', reps: REPS, sql: FULL_SCAN('floor_ts') },
    ...KINDS.map((k) => ({ kind: 'time', name: `${k.key}@floor`, reps: REPS, sql: `SELECT ${k.nsql} FROM floor_${k.nat}` })),
  ], 'native');

  // 6. The floor.
  log('floor: generate_series in the sqlite3 shell');
  const floorRuns = runShellTimed(`SELECT sum(value) FROM generate_series(1, ${ROWS})`, REPS);

  // 7. Peak memory of full scans, one process each.
  log('peak memory of full scans');
  const memRun = (db, steps, tag) => {
    const r = runSqlite(db, steps, tag);
    return { rss: r.maxRss, ms: r.steps.scan?.wall_ms[0] ?? null };
  };
  const openOurs = { kind: 'exec', name: 'open', sql: `CREATE VIRTUAL TABLE temp.p USING parquet(${sqlString(project)})` };
  const openTheirs = { kind: 'exec', name: 'open', sql: `CREATE VIRTUAL TABLE temp.p USING parquet(${sqlString(duck)})` };
  const mem = {
    baseline: memRun(':memory:', [{ kind: 'load', path: EXT }, openOurs, { kind: 'exec', name: 'one', sql: 'SELECT 1' }], 'mem0'),
    ours: memRun(':memory:', [{ kind: 'load', path: EXT }, openOurs, { kind: 'exec', name: 'scan', sql: FULL_SCAN('p') }], 'mem1'),
    theirs: memRun(':memory:', [{ kind: 'load', path: EXT }, openTheirs, { kind: 'exec', name: 'scan', sql: FULL_SCAN('p') }], 'mem2'),
    native: memRun(native, [{ kind: 'exec', name: 'scan', sql: FULL_SCAN('t') }], 'mem3'),
  };

  // 9. Remote.
  let remote = null;
  if (process.env.BENCH_REMOTE !== '0') {
    log('remote: the queries over HTTP through a proxy adding 20 ms per request (bench/remote.mjs)');
    const out = file('remote.json');
    rmSync(out, { force: true });
    const values = { idPoint: ID_POINT, rangeStart: RANGE_START, hcPresent: HC_PRESENT, name: NAME };
    run(process.execPath, ['--max-old-space-size=12288', path.join(BENCH_DIR, 'remote.mjs'), EXT, '--json', out,
      '--values', JSON.stringify(values)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    remote = JSON.parse(readFileSync(out, 'utf8'));
  }

  // Results.
  const report = buildReport({ started, loadBefore, genMs, exp, expShapes, ctasBytes, projectT2Bytes, dk, vt, vtNew, nt, floorRuns, mem,
    files: { native, project, duck, wide, projectSmall, projectDefaults, shapes, shapesDuck } });
  if (remote) {
    report.text += `\n\n${remote.text}`;
    report.mismatches.push(...remote.mismatches);
  }
  process.stdout.write(`\n${report.text}\n`);
  writeFileSync(path.join(RESULTS, 'latest.md'), `${report.text}\n`);
  log(`written to ${path.relative(ROOT, path.join(RESULTS, 'latest.md'))}`);
  if (report.mismatches.length) {
    log(`${report.mismatches.length} result mismatch(es): see above`);
    process.exit(1);
  }
}

function metaQuery(p) {
  return `SELECT count(DISTINCT row_group_id), max(row_group_num_rows), sum(has_page_index), sum(has_bloom_filter), ` +
         `group_concat(DISTINCT compression) FROM parquet_metadata(${sqlString(p)})`;
}

// ---------------------------------------------------------------------------------------------------
// Checking and printing.

function sameValue(a, b) {
  if (a === null || b === null) return a === b;
  const x = Number(a), y = Number(b);
  if (typeof a !== 'boolean' && String(a).trim() !== '' && String(b).trim() !== '' &&
      Number.isFinite(x) && Number.isFinite(y)) {
    return x === y || Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
  }
  return String(a) === String(b);
}

function checkResult(expected, got, what) {
  if (!got) return `${what}: no result`;
  if (got.rows !== expected.rows) return `${what}: ${got.rows} rows, native SQLite has ${expected.rows}`;
  const e = expected.first ?? [], g = got.first ?? [];
  if (e.length !== g.length || e.some((v, i) => !sameValue(v, g[i]))) {
    return `${what}: first row ${JSON.stringify(g)}, native SQLite has ${JSON.stringify(e)}`;
  }
  return null;
}

function table(header, rows, align) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const cell = (v, i) => (align[i] === 'r' ? String(v).padStart(widths[i]) : String(v).padEnd(widths[i]));
  const lines = [`| ${header.map(cell).join(' | ')} |`,
    `|${widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`];
  for (const r of rows) lines.push(`| ${r.map(cell).join(' | ')} |`);
  return lines.join('\n');
}

const fmtMs = (ms) => (ms === null || ms === undefined ? 'n/a'
  : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const fmtRatio = (a, b) => (a == null || b == null || b === 0 ? 'n/a'
  : a / b >= 10 ? `${(a / b).toFixed(0)}x` : `${(a / b).toFixed(2)}x`);
const fmtBytes = (n) => (n == null ? 'n/a' : `${(n / 1048576).toFixed(1)} MiB`);
const fmtInt = (n) => Number(n).toLocaleString('en-US');

function buildReport(r) {
  const mismatches = [];
  const med = (res, key, field = 'wall_ms') => (res.steps[key] ? median(res.steps[key][field]) : null);
  const floorWall = median(r.floorRuns.map((x) => x.wall_ms));
  const floorCpu = median(r.floorRuns.map((x) => x.cpu_ms));

  for (const q of QUERIES) {
    const ref = r.nt.steps[`${q.key}@t`];
    for (const [res, key, what] of [[r.vt, `${q.key}@ours`, 'vtab on project.parquet'],
      [r.vt, `${q.key}@theirs`, "vtab on DuckDB's file"], [r.dk, `${q.key}@ours`, 'DuckDB on project.parquet'],
      [r.dk, `${q.key}@theirs`, "DuckDB on its file"]]) {
      const m = checkResult(ref, res.steps[key], `${q.key}: ${what}`);
      if (m) mismatches.push(m);
    }
    if (r.vtNew) {
      const m = checkResult(ref, r.vtNew.steps[`${q.key}@ours`], `${q.key}: vtab on project.parquet, current SQLite`);
      if (m) mismatches.push(m);
    }
    if (THREADED.includes(q.key)) {
      const m = checkResult(ref, r.vt.steps[`${q.key}@ours_t2`], `${q.key}: vtab on project.parquet, threads=2`);
      if (m) mismatches.push(m);
    }
    if (COLD.includes(q.key)) {
      const m = checkResult(ref, r.vt.steps[`${q.key}@ours_cold`], `${q.key}: vtab on project.parquet, page_cache=0`);
      if (m) mismatches.push(m);
    }
  }

  for (const [res, key, ref, what] of [[r.nt, 'group@indexed', 'group@t', 'native GROUP BY through a covering index'],
    ...SMALL_RG.flatMap((k) => [[r.vt, `${k}@small`, `${k}@t`, `${k}: vtab on the file with ${fmtInt(SMALL_ROW_GROUP)}-row groups`],
      [r.dk, `${k}@small`, `${k}@t`, `${k}: DuckDB on the file with ${fmtInt(SMALL_ROW_GROUP)}-row groups`]])]) {
    const m = checkResult(r.nt.steps[ref], res.steps[key], what);
    if (m) mismatches.push(m);
  }

  for (const k of KINDS) {
    for (const [key, what] of [[`${k.key}@vt`, 'vtab'], [`${k.key}@vt2`, 'vtab, threads=2']]) {
      const m = checkResult(r.nt.steps[`${k.key}@nat`], r.vt.steps[key], `${k.label}: ${what}`);
      if (m) mismatches.push(m);
    }
  }
  for (const [res, key, what] of [[r.vt, 'name_eq@defaults', 'vtab on the defaults file'],
    [r.vt, 'name_eq@defaults_t2', 'vtab on the defaults file, default threads'], [r.dk, 'name_eq@defaults', 'DuckDB on the defaults file']]) {
    const m = checkResult(r.nt.steps['name_eq@t'], res.steps[key], `name_eq: ${what}`);
    if (m) mismatches.push(m);
  }

  const out = [];
  const rowsText = fmtInt(ROWS);
  out.push(`# Benchmark: ${rowsText} rows, median of ${REPS} runs`);
  out.push('');
  out.push(`${r.started.toISOString()} on ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? '?'}), ` +
    `load average ${r.loadBefore.map((x) => x.toFixed(1)).join(' ')} at start, ` +
    `${os.loadavg().map((x) => x.toFixed(1)).join(' ')} at end. SQLite ${run('sqlite3', ['--version']).split(' ')[0]}, ` +
    `DuckDB ${r.dk.steps.version?.first?.[0] ?? "?"} (threads=1). Project file: ${exportOptionsText()}; ` +
    `${describeMeta(r.vt.steps.meta_ours)}. DuckDB's file: ${describeMeta(r.vt.steps.meta_theirs)}. ` +
    'Native: the same rows in a SQLite table without indexes.');
  out.push('');
  out.push('## Queries (wall-clock milliseconds; ratios > 1 mean the virtual table is slower)');
  out.push('');
  const header = ['query', 'rows', 'vtab', "vtab, DuckDB's file", 'native', 'DuckDB', 'DuckDB, own file',
    'vtab/native', 'vtab/floor', 'vtab/DuckDB', "vtab/DuckDB (own file)"];
  const rowsFor = (field, floor) => QUERIES.map((q) => {
    const v = med(r.vt, `${q.key}@ours`, field);
    const vd = med(r.vt, `${q.key}@theirs`, field);
    const n = med(r.nt, `${q.key}@t`, field);
    const d = med(r.dk, `${q.key}@ours`, field);
    const dd = med(r.dk, `${q.key}@theirs`, field);
    return [q.label, fmtInt(r.nt.steps[`${q.key}@t`]?.rows ?? 0), fmtMs(v), fmtMs(vd), fmtMs(n), fmtMs(d), fmtMs(dd),
      fmtRatio(v, n), fmtRatio(v, floor), fmtRatio(v, d), fmtRatio(v, dd)];
  });
  const align = ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'];
  const floorRow = (f) => [`floor: sum(value) FROM generate_series(1,${ROWS})`, '1', '', '', fmtMs(f), '', '', '', '', '', ''];
  out.push(table(header, [...rowsFor('wall_ms', floorWall), floorRow(floorWall)], align));
  out.push('');
  out.push('The same in CPU milliseconds (user + system of the process; steadier when the machine is busy):');
  out.push('');
  out.push(table(header, [...rowsFor('cpu_ms', floorCpu), floorRow(floorCpu)], align));
  out.push('');
  out.push('## Per kind of column (CPU milliseconds)');
  out.push('');
  out.push('One aggregate reading every value of one column through the table (threads=1) and the same ' +
    'aggregate over the same values in a native SQLite table; /floor is against the generate_series sum above. ' +
    'Targets: every kind at most 1.0x native SQLite; the flat kinds (integers, doubles, dictionary text) at ' +
    'most 1.2x the interface floor of their kind. The kind\'s floor is the native query on bench_floor ' +
    '(bench/floor_vtab.c), a virtual table of the same columns that only hands SQLite values it already holds ' +
    '(text NUL-terminated and copied by SQLite, as a reader whose memory is bounded must have it copied; row i is ' +
    'the source\'s row i mod 4,096): what the interface and the aggregate cost for that kind before any reading ' +
    'or decoding. For the integers and doubles it is the generate_series floor within a few per cent; for text ' +
    'it adds what SQLite spends copying and measuring each text, which no reader avoids.');
  out.push('');
  out.push(table(['kind', 'query', 'vtab', 'native', "kind's floor", 'vtab/native', 'vtab/floor', "vtab/kind's floor",
    'target'],
    KINDS.map((k) => {
      const v = med(r.vt, `${k.key}@vt`, 'cpu_ms'), n = med(r.nt, `${k.key}@nat`, 'cpu_ms');
      const kf = med(r.nt, `${k.key}@floor`, 'cpu_ms');
      const met = v !== null && n !== null && v <= n && (!k.flat || (kf !== null && v <= 1.2 * kf));
      return [k.label, k.sql, fmtMs(v), fmtMs(n), fmtMs(kf), fmtRatio(v, n), fmtRatio(v, floorCpu), fmtRatio(v, kf),
        `${k.flat ? "<=1.0x native, <=1.2x kind's floor" : '<=1.0x native'}: ${met ? 'met' : 'missed'}`];
    }), ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l']));
  out.push('');
  out.push('The same aggregates with threads=2 (the default on a machine with 2 or more hardware threads: a worker ' +
    'reads the next row group and decompresses the next page of each column while the calling thread decodes), ' +
    'in wall-clock milliseconds, which is what a user waits, against the native query and the floor in ' +
    'wall-clock milliseconds; CPU time counts both threads.');
  out.push('');
  out.push(table(['kind', 'vtab, threads=1 (wall)', 'vtab, threads=2 (wall)', 'threads=2 (CPU)', 'native (wall)',
    "kind's floor (wall)", 'threads=2/native', 'threads=2/floor', "threads=2/kind's floor", 'target (threads=2, wall)'],
    KINDS.map((k) => {
      const w1 = med(r.vt, `${k.key}@vt`), w2 = med(r.vt, `${k.key}@vt2`), c2 = med(r.vt, `${k.key}@vt2`, 'cpu_ms');
      const n = med(r.nt, `${k.key}@nat`), kf = med(r.nt, `${k.key}@floor`);
      const met = w2 !== null && n !== null && w2 <= n && (!k.flat || (kf !== null && w2 <= 1.2 * kf));
      return [k.label, fmtMs(w1), fmtMs(w2), fmtMs(c2), fmtMs(n), fmtMs(kf), fmtRatio(w2, n), fmtRatio(w2, floorWall),
        fmtRatio(w2, kf), `${k.flat ? "<=1.0x native, <=1.2x kind's floor" : '<=1.0x native'}: ${met ? 'met' : 'missed'}`];
    }), ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l']));
  out.push('');
  out.push('## All ten columns against the interface\'s floor');
  out.push('');
  {
    const n = med(r.nt, 'wide@t'), f = med(r.nt, 'wide@floor'), fs = med(r.nt, 'wide@floor_static');
    const v1 = med(r.vt, 'wide@ours'), v2 = med(r.vt, 'wide@ours_t2');
    out.push('"All ten columns (12 aggregates)" on bench_floor, the virtual table that does no work (above): ' +
      'every value is one SQLite already holds, so its time is what the 12 aggregates and the values of ten ' +
      `columns of ${rowsText} rows through xColumn cost, with no reading at all. Text copied as a reader ` +
      'whose memory is bounded must have it copied (copy), and handed over without a copy (static, legal only ' +
      'for a table that keeps all its values as long as it lives). Wall-clock ms.');
    out.push('');
    out.push(table(['scan', 'ms', '/native', '/floor (copy)'], [
      ['native SQLite table', fmtMs(n), fmtRatio(n, n), fmtRatio(n, f)],
      ['bench_floor, copy', fmtMs(f), fmtRatio(f, n), fmtRatio(f, f)],
      ['bench_floor, static', fmtMs(fs), fmtRatio(fs, n), fmtRatio(fs, f)],
      ['vtab, threads=1', fmtMs(v1), fmtRatio(v1, n), fmtRatio(v1, f)],
      ['vtab, threads=2', fmtMs(v2), fmtRatio(v2, n), fmtRatio(v2, f)],
    ], ['l', 'r', 'r', 'r']));
    out.push('');
    const target = 0.8 * n;
    out.push(`Target 0.8x native: ${fmtMs(target)} ms. The floor with copied text takes ${fmtRatio(f, n)} native ` +
      `(${f > target ? 'above the target: no reader that streams the file reaches it on this SQLite' : 'below the target'}), ` +
      `the floor without copies ${fmtRatio(fs, n)}. What the extension adds to the interface is the vtab row less ` +
      `the floor: ${fmtMs(v1 - f)} ms with threads=1.`);
  }
  out.push('');
  out.push('## The virtual table with threads=2');
  out.push('');
  out.push('The queries that decompress many pages, on project.parquet with the table option threads=2 (the default ' +
    'on a machine with 2 or more hardware threads; every other table of this report is given threads=1): one ' +
    'worker thread checks and decompresses each column\'s next page while the calling thread decodes the ' +
    'current one, and the calling thread loads queued pages itself rather than wait. Wall-clock time is what the user waits; CPU time counts both threads.');
  out.push('');
  out.push(table(['query', 'wall, threads=1', 'wall, threads=2', 'CPU, threads=1', 'CPU, threads=2', 'native (wall)',
    'floor (wall)', 'DuckDB (wall)', 'threads=2/native', 'threads=2/floor', 'threads=2/DuckDB'],
  QUERIES.filter((q) => THREADED.includes(q.key)).map((q) => {
    const w1 = med(r.vt, `${q.key}@ours`), w2 = med(r.vt, `${q.key}@ours_t2`);
    const n = med(r.nt, `${q.key}@t`), d = med(r.dk, `${q.key}@ours`);
    return [q.label, fmtMs(w1), fmtMs(w2), fmtMs(med(r.vt, `${q.key}@ours`, 'cpu_ms')),
      fmtMs(med(r.vt, `${q.key}@ours_t2`, 'cpu_ms')), fmtMs(n), fmtMs(floorWall), fmtMs(d),
      fmtRatio(w2, n), fmtRatio(w2, floorWall), fmtRatio(w2, d)];
  }), ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
  out.push('');
  out.push('## Lookups without the page cache');
  out.push('');
  out.push('The table keeps the pages a lookup decompressed (table option page_cache, default 32 MiB), so ' +
    `runs 2 to ${REPS} of a lookup above find them ready. Here the same lookups on a table with page_cache=0: ` +
    'every run reads, checks and decompresses its pages, as the first lookup on a fresh table does. CPU ms.');
  out.push('');
  out.push(table(['query', 'vtab (page cache)', 'vtab, page_cache=0', 'DuckDB', 'page cache/DuckDB', 'page_cache=0/DuckDB'],
    QUERIES.filter((q) => COLD.includes(q.key)).map((q) => {
      const warm = med(r.vt, `${q.key}@ours`, 'cpu_ms'), cold = med(r.vt, `${q.key}@ours_cold`, 'cpu_ms');
      const d = med(r.dk, `${q.key}@ours`, 'cpu_ms');
      return [q.label, fmtMs(warm), fmtMs(cold), fmtMs(d), fmtRatio(warm, d), fmtRatio(cold, d)];
    }), ['l', 'r', 'r', 'r', 'r', 'r']));
  out.push('');
  if (r.vtNew) {
    const version = r.vtNew.steps.version?.first?.[0] ?? '?';
    out.push(`## The virtual table on SQLite ${version} (CPU milliseconds)`);
    out.push('');
    out.push(`The same queries on project.parquet through the same driver linked with SQLite ${version} (the ` +
      `amalgamation of npm ${NEW_SQLITE_PACKAGE}). This SQLite offers LIMIT/OFFSET to virtual tables correctly, ` +
      'so the extension applies OFFSET itself (rows skipped by row groups and pages, never stepped over).');
    out.push('');
    const statsNew = (key) => {
      const first = r.vtNew.steps[`stats_${key}@ours`]?.first?.[0];
      try { return first ? JSON.parse(first) : null; } catch { return null; }
    };
    out.push(table(['query', `vtab, SQLite ${version}`, 'vtab, system SQLite', 'DuckDB', `vtab ${version}/DuckDB`,
      'rows stepped by SQLite', 'values decoded'],
    QUERIES.map((q) => {
      const v = med(r.vtNew, `${q.key}@ours`, 'cpu_ms');
      const s = statsNew(q.key);
      return [q.label, fmtMs(v), fmtMs(med(r.vt, `${q.key}@ours`, 'cpu_ms')), fmtMs(med(r.dk, `${q.key}@ours`, 'cpu_ms')),
        fmtRatio(v, med(r.dk, `${q.key}@ours`, 'cpu_ms')), s ? fmtInt(s.rows_produced) : 'n/a',
        s ? fmtInt(s.values_decoded) : 'n/a'];
    }), ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
    out.push('');
  }
  out.push('## What the virtual table read (project.parquet, parquet_scan_stats of the last run)');
  out.push('');
  out.push('Bytes are column data, dictionaries, Bloom filters and page indexes read; ratios are against the ' +
    'full scan of all ten columns (last row).');
  out.push('');
  const statsOf = (key) => {
    const first = r.vt.steps[`stats_${key}@ours`]?.first?.[0];
    try { return first ? JSON.parse(first) : null; } catch { return null; }
  };
  const full = statsOf('full');
  const fullMs = med(r.vt, 'full@ours');
  const readRow = (label, key) => {
    const s = statsOf(key);
    const ms = med(r.vt, `${key}@ours`);
    if (!s) return [label, fmtMs(ms), 'n/a', '', '', '', '', ''];
    return [label, fmtMs(ms), fmtInt(s.bytes_read), fmtInt(s.row_groups_read), fmtInt(s.pages_read),
      fmtInt(s.values_decoded), fmtRatio(ms, fullMs), full ? fmtRatio(s.bytes_read, full.bytes_read) : 'n/a'];
  };
  out.push(table(['query', 'ms', 'bytes read', 'row groups read', 'pages read', 'values decoded',
    'time / full scan', 'bytes / full scan'],
  [...QUERIES.map((q) => readRow(q.label, q.key)), readRow('full scan of all ten columns', 'full')],
  ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
  out.push('');
  out.push(`## Equality on name in three files`);
  out.push('');
  out.push(`${QUERIES.find((q) => q.key === 'name_eq').label} (one row in 100,000, in every row group) on the project file, ` +
    "on DuckDB's file of the same rows, and on the table exported with parquet_export's defaults (no options: snappy, " +
    "the encoding trial), the file a user gets from SELECT parquet_export('t.parquet', 'SELECT * FROM t'). How a file " +
    'stores name decides the work: PLAIN values are compared one by one; on dictionary-coded pages the term is ' +
    "evaluated once per entry and the matching entry's index is looked for in the packed runs (64 indices at a " +
    'time, unpacked only in blocks that hold it). The names repeat only after ' +
    "100,000 rows, so the writer's trial sees all-distinct values; with snappy the chunk switches to a dictionary " +
    'once the repeats show (docs/writing.md, Encodings), with zstd PLAIN stays smaller. Wall-clock ms; target: the ' +
    'virtual table at most 0.25x DuckDB on the same file.');
  out.push('');
  {
    const enc = (k) => r.vt.steps[`name_encodings@${k}`]?.first?.[0] ?? 'n/a';
    const rows = [];
    for (const [label, k, file, t1, t2, dkKey] of [
      ['project file (zstd)', 'ours', r.files.project, 'name_eq@ours', 'name_eq@ours_t2', 'name_eq@ours'],
      ["DuckDB's file", 'theirs', r.files.duck, 'name_eq@theirs', null, 'name_eq@theirs'],
      ['parquet_export defaults (snappy)', 'defaults', r.files.projectDefaults, 'name_eq@defaults', 'name_eq@defaults_t2', 'name_eq@defaults']]) {
      const v1 = med(r.vt, t1), v2 = t2 ? med(r.vt, t2) : null, d = med(r.dk, dkKey);
      rows.push([label, enc(k), fmtBytes(size(file)), fmtMs(v1), v2 == null ? '' : fmtMs(v2), fmtMs(d),
        fmtRatio(v1, d), v2 == null ? '' : fmtRatio(v2, d)]);
    }
    out.push(table(['file', "name's encodings", 'size', 'vtab, threads=1', 'vtab, default threads', 'DuckDB',
      'vtab/DuckDB (threads=1)', 'vtab/DuckDB (default)'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']));
  }
  out.push('');
  out.push('## GROUP BY against SQLite\'s own, and equality on hc against DuckDB');
  out.push('');
  const plan = r.nt.steps['plan@indexed']?.first?.slice(-1)[0] ?? 'n/a';
  out.push('GROUP BY: SQLite aggregates every row the virtual table hands it, and no interface lets a virtual ' +
    'table hand over groups instead of rows. The cheapest GROUP BY SQLite itself has is over rows already in ' +
    'group order: here native SQLite through a covering index on (category, value) in grouped.sqlite ' +
    `(plan: ${plan}), next to the same index scanned without grouping. The difference is what SQLite spends ` +
    `grouping ${rowsText} rows, on top of the floor any scan through the interface costs. Target: the ` +
    'virtual table\'s GROUP BY at most 1.2x that GROUP BY over the covering index (column /index).');
  out.push('');
  out.push(`Equality on hc: an unsorted column gives the page index nothing to prune, so a value the Bloom filter ` +
    'lets through costs the decoding of the whole hc chunk of its row group. The same equality on a project file ' +
    `written with DuckDB's row group size (${fmtInt(SMALL_ROW_GROUP)} rows, ${fmtBytes(size(r.files.projectSmall))}): ` +
    'both readers decode less, and the ratio is the measure of what is left. Wall-clock ms.');
  out.push('');
  {
    const gIdx = med(r.nt, 'group@indexed'), sIdx = med(r.nt, 'sum@indexed');
    const gVt = med(r.vt, 'group@ours'), gT2 = med(r.vt, 'group@ours_t2');
    const met = (v) => (v <= 1.2 * gIdx ? ' (<=1.2x: met)' : ' (<=1.2x: missed)');
    const rows = [
      ['floor: sum(value) FROM generate_series', fmtMs(floorWall), '1.00x', '', '', ''],
      ['GROUP BY category: vtab, threads=1 (sorted scan, no sorter)', fmtMs(gVt), fmtRatio(gVt, floorWall),
        fmtRatio(gVt, gIdx) + met(gVt), '', fmtRatio(gVt, med(r.dk, 'group@ours'))],
      ['GROUP BY category: vtab, threads=2', fmtMs(gT2), fmtRatio(gT2, floorWall), fmtRatio(gT2, gIdx) + met(gT2), '',
        fmtRatio(gT2, med(r.dk, 'group@ours'))],
      ['GROUP BY category: native SQLite, covering index in group order', fmtMs(gIdx), fmtRatio(gIdx, floorWall), '1.00x', '', ''],
      ['sum(value): native SQLite, the same index without grouping', fmtMs(sIdx), fmtRatio(sIdx, floorWall), '', '', ''],
      ['what grouping costs SQLite (the two rows above)', fmtMs(gIdx - sIdx), fmtRatio(gIdx - sIdx, floorWall), '', '', ''],
    ];
    for (const k of SMALL_RG) {
      const label = QUERIES.find((q) => q.key === k).label;
      for (const [file, key, dkKey] of [[`${fmtInt(ROW_GROUP)}-row groups`, `${k}@ours`, `${k}@ours`],
        [`${fmtInt(SMALL_ROW_GROUP)}-row groups`, `${k}@small`, `${k}@small`]]) {
        const v = med(r.vt, key), d = med(r.dk, dkKey);
        rows.push([`${label}, file with ${file}`, fmtMs(v), '', '', fmtMs(d), fmtRatio(v, d)]);
      }
    }
    out.push(table(['measure', 'ms', '/floor', '/index', 'DuckDB, same file', 'vtab/DuckDB'], rows,
      ['l', 'r', 'r', 'r', 'r', 'r']));
  }
  out.push('');
  out.push(`## Export of the ${rowsText} rows`);
  out.push('');
  const ex = (res, key, field = 'wall_ms') => (res.steps[key] ? res.steps[key][field][0] / 1e3 : null);
  const secs = (s) => (s == null ? 'n/a' : s.toFixed(2));
  out.push(table(['writer', 'seconds', 'CPU seconds', 'file size'], [
    [`parquet_export (${exportOptionsText()}), threads=1`, secs(ex(r.exp, 'parquet_export')),
      secs(ex(r.exp, 'parquet_export', 'cpu_ms')), fmtBytes(size(r.files.project))],
    [`the same with the default threads=${DEFAULT_EXPORT_THREADS} (the machine's hardware threads, at most 4; the same file, byte for byte)`,
      secs(ex(r.exp, 'parquet_export_t2')),
      secs(ex(r.exp, 'parquet_export_t2', 'cpu_ms')), fmtBytes(r.projectT2Bytes)],
    ['SQLite CREATE TABLE ... AS SELECT into a new database file', secs(ex(r.exp, 'ctas')),
      secs(ex(r.exp, 'ctas', 'cpu_ms')), fmtBytes(r.ctasBytes)],
    ['DuckDB COPY TO parquet (zstd, threads=1, from an in-memory table)', secs(ex(r.dk, 'copy')),
      secs(ex(r.dk, 'copy', 'cpu_ms')), fmtBytes(size(r.files.duck))],
    ['(the source: native SQLite database, bench/gen_table.sql)',
      r.genMs == null ? 'reused' : secs(r.genMs / 1e3), '', fmtBytes(size(r.files.native))],
  ], ['l', 'r', 'r', 'r']));
  out.push('');
  out.push(`Other shapes (shapes.sqlite, the same ${rowsText} rows: text of 100 to 300 bytes, an integer NULL in 9 ` +
    'rows of 10, DECIMAL(38,6), timestamps declared TIMESTAMP); DuckDB copies the rows of our file from an ' +
    'in-memory table. Target: parquet_export at most DuckDB\'s COPY TO.');
  out.push('');
  const dkCopy = ex(r.dk, 'copy_shapes');
  out.push(table(['writer', 'seconds', 'CPU seconds', 'file size', '/DuckDB'], [
    ['parquet_export, threads=1', secs(ex(r.expShapes, 'export_t1')), secs(ex(r.expShapes, 'export_t1', 'cpu_ms')), '',
      fmtRatio(ex(r.expShapes, 'export_t1'), dkCopy)],
    [`parquet_export, default threads=${DEFAULT_EXPORT_THREADS}`, secs(ex(r.expShapes, 'export')),
      secs(ex(r.expShapes, 'export', 'cpu_ms')), fmtBytes(size(r.files.shapes)), fmtRatio(ex(r.expShapes, 'export'), dkCopy)],
    ['DuckDB COPY TO parquet (zstd, threads=1)', secs(dkCopy), secs(ex(r.dk, 'copy_shapes', 'cpu_ms')),
      fmtBytes(size(r.files.shapesDuck)), ''],
  ], ['l', 'r', 'r', 'r', 'r']));
  out.push('');
  out.push('## Memory and open time');
  out.push('');
  const kb = (x) => (x == null ? 'n/a' : `${(x / 1024).toFixed(1)} MiB`);
  out.push(table(['measure', 'value'], [
    ['peak RSS, full scan of all 10 columns, vtab on project.parquet', `${kb(r.mem.ours.rss)} (${fmtMs(r.mem.ours.ms)} ms)`],
    ["peak RSS, full scan, vtab on DuckDB's file", `${kb(r.mem.theirs.rss)} (${fmtMs(r.mem.theirs.ms)} ms)`],
    ['peak RSS, same scan on native SQLite', `${kb(r.mem.native.rss)} (${fmtMs(r.mem.native.ms)} ms)`],
    ['peak RSS, extension loaded and table opened, no scan', kb(r.mem.baseline.rss)],
    [`CREATE VIRTUAL TABLE on a ${WIDE_COLUMNS}-column file (${fmtBytes(size(r.files.wide))}), median`,
      `${fmtMs(med(r.vt, 'open_wide'))} ms`],
  ], ['l', 'r']));
  out.push('');
  if (mismatches.length) {
    out.push('## RESULT MISMATCHES');
    out.push('');
    for (const m of mismatches) out.push(`- ${m}`);
  } else {
    out.push('Every system returned the same row count and first row as native SQLite for every query.');
  }
  return { text: out.join('\n'), mismatches };
}

function exportOptionsText() {
  return `zstd, page index, Bloom filter on hc, row groups of ${fmtInt(ROW_GROUP)} rows`;
}

function describeMeta(step) {
  if (!step?.first) return 'n/a';
  const [groups, maxRows, pageIndex, bloom, codecs] = step.first;
  return `${groups} row groups of up to ${fmtInt(maxRows)} rows, ${codecs}, page index on ${pageIndex} column chunks, ` +
    `Bloom filters on ${bloom}`;
}

await main();
