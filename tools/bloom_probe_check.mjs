#!/usr/bin/env node
// bloom_probe_check: compares the extension's parquet_bloom_probe with DuckDB's function of the same
// name (ext/index_functions.h) on values present in a file and values absent from it.
//
// Usage:
//   node tools/bloom_probe_check.mjs [options] [FILE.parquet...]
//
// Options:
//   --ext PATH        the extension (default: build/parquet.so beside this tools/ folder)
//   --sqlite3 PATH    the sqlite3 shell (default: sqlite3 on PATH)
//   --absent N        absent values probed per column (default 200)
//   --seed N          seed of the absent values (default 1)
//   --no-fixtures     only the files given. Otherwise two fixtures are written to a temporary folder
//                     and checked too: one by the extension (parquet_export with bloom_filter= on
//                     every column type it writes) and one by DuckDB (low-cardinality columns, for
//                     which DuckDB writes Bloom filters), so each reader also probes filters the
//                     other one wrote.
//
// For each file, every column whose chunks have a Bloom filter (parquet_metadata.has_bloom_filter) is
// probed with up to 300 distinct values read from the file through the extension (present) and with
// --absent generated values of the column's type that the file does not hold (absent). Each probe
// gives one answer per row group on each side: ours is 1 (excluded), 0 (may be present) or NULL (no
// filter); DuckDB's is true or false (false also when there is no filter).
//
// Verdicts:
// - ours 1 and DuckDB false, or ours 0 and DuckDB true: MISMATCH, except on the columns below.
// - a present value that ours excludes from every row group: WRONG (a Bloom filter never excludes a
//   value that is there), whatever DuckDB says.
// - DuckDB 1.5's parquet_bloom_probe is not a reference for some types, so on those columns only our
//   own answers are checked (present values never excluded everywhere) and DuckDB's are counted:
//   DECIMAL and BLOB (its probe reports values absent from files DuckDB itself wrote: its hash of the
//   probe value differs from its writer's), and UUID (it never excludes: false in every row group).
// The exit code is 0 only when there is no MISMATCH and no WRONG and every file could be read. The last
// line is "N columns checked, M failed".

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const TOOLS_DIR = path.dirname(fileURLToPath(import.meta.url));
const PROJECT_DIR = path.dirname(TOOLS_DIR);

/** DuckDB column types whose parquet_bloom_probe answers are not compared (see the header). */
function duckdbUnreliable(type) {
  return /^DECIMAL/.test(type) || type === 'BLOB' || type === 'UUID';
}

export function sqlString(s) {
  return `'${String(s).replaceAll("'", "''")}'`;
}

function quoteIdentifier(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
export function makeRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------------
// The two sides.

/** Runs the sqlite3 shell (JSON mode) on SQL after loading the extension; rows, or throws its error. */
function runOurs(options, sql) {
  const result = spawnSync(options.sqlite3, ['-bail', '-json', ':memory:'], {
    input: `.load ${options.ext} sqlite3_parquet_init\n${sql}\n`,
    encoding: 'utf8', maxBuffer: 1 << 28, timeout: 300_000,
  });
  if (result.error) throw new Error(`cannot run ${options.sqlite3}: ${result.error.message}`);
  if (result.status !== 0 || result.stderr.trim() !== '') {
    throw new Error(result.stderr.trim() || `sqlite3 exited with ${result.status}`);
  }
  const out = result.stdout.trim();
  return out === '' ? [] : JSON.parse(out);
}

/** Our answers for each value: Map<rowGroup, 0|1|null> per value, or an Error per value. */
function probeOurs(options, file, column, values) {
  if (values.length === 0) return [];
  const table = values.map((v, k) => `(${k}, ${v.ours})`).join(',\n');
  const sql = `WITH v(k, value) AS (VALUES ${table})\n` +
    'SELECT v.k AS k, b.row_group_id AS rg, b.bloom_filter_excludes AS x ' +
    `FROM v, parquet_bloom_probe(${sqlString(file)}, ${sqlString(column)}, v.value) AS b;`;
  const answers = values.map(() => new Map());
  try {
    for (const row of runOurs(options, sql)) answers[row.k].set(row.rg, row.x);
    return answers;
  } catch {
    // One value failed: probe them one by one to tell which.
    return values.map((v) => {
      try {
        const rows = runOurs(options, 'SELECT row_group_id AS rg, bloom_filter_excludes AS x ' +
          `FROM parquet_bloom_probe(${sqlString(file)}, ${sqlString(column)}, ${v.ours});`);
        return new Map(rows.map((row) => [row.rg, row.x]));
      } catch (e) {
        return e;
      }
    });
  }
}

/** DuckDB's answer for one value: Map<rowGroup, boolean>, or an Error. */
async function probeDuckDB(connection, file, column, value) {
  try {
    const reader = await connection.runAndReadAll(
      `SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${sqlString(file)}, ` +
      `${sqlString(column)}, ${value.duck})`);
    return new Map(reader.getRows().map(([rg, x]) => [Number(rg), x]));
  } catch (e) {
    return e;
  }
}

// ---------------------------------------------------------------------------------------------------
// Values: literals for both sides.

function pad(n, width) {
  return String(n).padStart(width, '0');
}

function isoDate(days) {
  const d = new Date(days * 86400000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

function isoTimestamp(seconds) {
  const d = new Date(seconds * 1000);
  return `${isoDate(Math.floor(seconds / 86400))} ${pad(d.getUTCHours(), 2)}:` +
    `${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
}

function hexBytes(random, n) {
  let s = '';
  for (let i = 0; i < n; ++i) s += pad(Math.floor(random() * 256).toString(16), 2);
  return s;
}

/**
 * A value for both sides from what the extension returns for it: {key, ours, duck}, where key
 * identifies the value (to keep generated absent values away from present ones), ours and duck are
 * SQL expressions. `type` is DuckDB's column type. Null when the value cannot be written for both.
 */
function literalFor(type, sqliteType, text) {
  if (sqliteType === 'integer') return { key: text, ours: text, duck: text };
  if (sqliteType === 'real') {
    const n = Number(text);
    if (!Number.isFinite(n)) return null;
    const shortest = String(n);
    // A DECIMAL as its shortest decimal text, anything else as the exact double.
    if (/^DECIMAL/.test(type)) return { key: shortest, ours: shortest, duck: sqlString(shortest) };
    return { key: shortest, ours: text, duck: `CAST(${sqlString(text)} AS DOUBLE)` };
  }
  if (sqliteType === 'blob') {
    return { key: text.toLowerCase(), ours: `x'${text}'`, duck: `unhex(${sqlString(text)})` };
  }
  // TEXT: a timestamp of an adjusted-to-UTC column gets an explicit offset for DuckDB.
  const duck = type === 'TIMESTAMP WITH TIME ZONE' ? sqlString(`${text}+00`) : sqlString(text);
  return { key: text, ours: sqlString(text), duck };
}

/** `count` values of DuckDB type `type` that are not in `present` (keys), or null for a type not handled. */
function absentValues(type, count, present, random) {
  const out = [];
  const seen = new Set(present);
  const add = (v) => {
    if (v && !seen.has(v.key)) {
      seen.add(v.key);
      out.push(v);
    }
  };
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const ranges = {
    TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INTEGER: [-(2 ** 31), 2 ** 31 - 1],
    BIGINT: [-(2 ** 53), 2 ** 53], UTINYINT: [0, 255], USMALLINT: [0, 65535],
    UINTEGER: [0, 2 ** 32 - 1], UBIGINT: [0, 2 ** 53],
  };
  for (let attempt = 0; out.length < count && attempt < count * 20; ++attempt) {
    if (ranges[type]) {
      const [lo, hi] = ranges[type];
      const n = attempt % 2 === 0 ? int(Math.max(lo, -100000), Math.min(hi, 100000)) : int(lo, hi);
      add(literalFor(type, 'integer', String(n)));
    } else if (type === 'DOUBLE' || type === 'FLOAT') {
      let n = (random() - 0.5) * 10 ** int(0, 8);
      if (type === 'FLOAT') n = Math.fround(n);
      add(literalFor(type, 'real', n.toPrecision(17)));
    } else if (type === 'VARCHAR') {
      add(literalFor(type, 'text', `absent-${hexBytes(random, 6)}`));
    } else if (type === 'BLOB') {
      add(literalFor(type, 'blob', hexBytes(random, int(1, 12))));
    } else if (type === 'DATE') {
      add(literalFor(type, 'text', isoDate(int(-60000, 120000))));
    } else if (type === 'TIMESTAMP' || type === 'TIMESTAMP WITH TIME ZONE') {
      add(literalFor(type, 'text', isoTimestamp(int(-2e9, 4e9))));
    } else if (/^DECIMAL\((\d+),(\d+)\)$/.test(type)) {
      const [, p, s] = type.match(/^DECIMAL\((\d+),(\d+)\)$/).map(Number);
      const digits = Math.min(p, 15);
      const unscaled = int(-(10 ** digits) + 1, 10 ** digits - 1);
      const sign = unscaled < 0 ? '-' : '';
      const abs = pad(Math.abs(unscaled), s + 1);
      const text = s === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -s)}.${abs.slice(-s)}`;
      add({ key: String(Number(text)), ours: sqlString(text), duck: sqlString(text) });
    } else if (type === 'UUID') {
      const h = hexBytes(random, 16);
      const text = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      add(literalFor(type, 'text', text));
    } else {
      return null;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Checking a file.

function describe(answer) {
  if (answer instanceof Error) return `error: ${answer.message.split('\n')[0]}`;
  return `[${[...answer.entries()].map(([rg, x]) => `${rg}:${x}`).join(' ')}]`;
}

/** Checks one column; returns {failures: [text], summary: text}. */
async function checkColumn(options, connection, file, column, type, random) {
  const rows = runOurs(options,
    `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)});\n` +
    `SELECT DISTINCT typeof(c) AS ty, CASE typeof(c) WHEN 'real' THEN printf('%!.17g', c) ` +
    `WHEN 'blob' THEN hex(c) ELSE CAST(c AS TEXT) END AS v FROM ` +
    `(SELECT ${quoteIdentifier(column)} AS c FROM temp.t) WHERE c IS NOT NULL;`);
  const present = rows.slice(0, 300).map((r) => literalFor(type, r.ty, r.v)).filter((v) => v !== null);
  const absent = absentValues(type, options.absent, present.map((v) => v.key), random);
  if (absent === null) return { failures: [], summary: `type ${type} not handled, skipped` };
  const failures = [];
  const fail = (text) => { if (failures.length < 10) failures.push(text); };
  const compareWithDuckDB = !duckdbUnreliable(type);
  const counts = { probes: 0, excluded: 0, duckExcluded: 0 };
  for (const [kind, values] of [['present', present], ['absent', absent]]) {
    const ours = probeOurs(options, file, column, values);
    for (let k = 0; k < values.length; ++k) {
      const mine = ours[k];
      const theirs = await probeDuckDB(connection, file, column, values[k]);
      const where = `${kind} value ${values[k].ours}`;
      if (mine instanceof Error) {
        if (!(theirs instanceof Error)) fail(`${where}: ours ${describe(mine)}, DuckDB ${describe(theirs)}`);
        continue;
      }
      if (kind === 'present' && mine.size > 0 && [...mine.values()].every((x) => x === 1)) {
        fail(`WRONG: ${where} is excluded from every row group: ${describe(mine)}`);
      }
      for (const x of mine.values()) {
        ++counts.probes;
        if (x === 1) ++counts.excluded;
      }
      if (theirs instanceof Error) {
        if (compareWithDuckDB) fail(`${where}: ours ${describe(mine)}, DuckDB ${describe(theirs)}`);
        continue;
      }
      for (const x of theirs.values()) if (x === true) ++counts.duckExcluded;
      if (!compareWithDuckDB) continue;
      const same = mine.size === theirs.size &&
        [...mine.entries()].every(([rg, x]) => theirs.has(rg) && (x === 1) === theirs.get(rg));
      if (!same) fail(`MISMATCH: ${where}: ours ${describe(mine)}, DuckDB ${describe(theirs)}`);
    }
  }
  const note = compareWithDuckDB ? '' : ' (DuckDB not compared for this type)';
  return {
    failures,
    summary: `${present.length} present, ${absent.length} absent values; ` +
      `${counts.excluded}/${counts.probes} row-group answers excluded by ours, ` +
      `${counts.duckExcluded} by DuckDB${note}`,
  };
}

async function checkFile(options, connection, file, random) {
  let columns;
  try {
    const described = await connection.runAndReadAll(
      `DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`);
    const types = new Map(described.getRows().map((r) => [String(r[0]), String(r[1])]));
    columns = runOurs(options, 'SELECT DISTINCT path_in_schema AS c FROM ' +
      `parquet_metadata(${sqlString(file)}) WHERE has_bloom_filter ORDER BY column_id;`)
      .map((r) => ({ name: r.c, type: types.get(r.c) }))
      .filter((c) => c.type !== undefined);  // nested leaves are not probed here
  } catch (e) {
    console.log(`FAILED ${file}: ${e.message.split('\n')[0]}`);
    return { checked: 0, failed: 1 };
  }
  if (columns.length === 0) {
    console.log(`FAILED ${file}: no top-level column has a Bloom filter`);
    return { checked: 0, failed: 1 };
  }
  let failed = 0;
  for (const { name, type } of columns) {
    const { failures, summary } = await checkColumn(options, connection, file, name, type, random);
    console.log(`${failures.length ? 'FAILED' : 'OK'} ${path.basename(file)} ${name} (${type}): ${summary}`);
    for (const f of failures) console.log(`  ${f}`);
    if (failures.length) ++failed;
  }
  return { checked: columns.length, failed };
}

// ---------------------------------------------------------------------------------------------------
// Fixtures.

/** A file written by the extension with a Bloom filter on a column of every type it writes. */
function writeOurFixture(options, file) {
  const columns = ['i INTEGER', 'r REAL', 't TEXT', 'b BLOB', 'd DATE', 'ts TIMESTAMP',
    'dec DECIMAL(10,2)', 'big DECIMAL(30,3)', 's SMALLINT', 'u UINTEGER', 'id UUID'];
  const names = columns.map((c) => c.split(' ')[0]);
  runOurs(options,
    `CREATE TABLE s(${columns.join(', ')});\n` +
    'WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 1999)\n' +
    'INSERT INTO s SELECT\n' +
    "  CASE WHEN x % 17 = 0 THEN NULL ELSE (x * 7919) % 100003 - 50000 END,\n" +
    '  CASE x % 5 WHEN 0 THEN -0.0 WHEN 1 THEN x * 0.25 - 100 ELSE x / 3.0 END,\n' +
    "  CASE WHEN x % 13 = 0 THEN '' ELSE 'str' || (x % 700) END,\n" +
    "  CAST('b' || x AS BLOB),\n" +
    "  date('2000-01-01', '+' || (x * 3) || ' days'),\n" +
    "  datetime(1600000000 + x * 3607, 'unixepoch'),\n" +
    '  (x % 400) * 1.25 - 100,\n' +
    "  (x * 1000003) || '.125',\n" +
    '  x % 300 - 150,\n' +
    '  3000000000 + x,\n' +
    "  printf('%08x-0000-4000-8000-%012x', x * 2654435761 % 4294967296, x)\n" +
    'FROM n;\n' +
    `SELECT parquet_export(${sqlString(file)}, 'SELECT * FROM s', ` +
    `'row_group_size=500, bloom_filter=''${names.join(',')}''');`);
}

/**
 * A file written by DuckDB: low-cardinality columns, so that it writes Bloom filters. Its DECIMAL,
 * BLOB and UUID columns check our probe against filters an independent writer hashed (DuckDB's own
 * probe is not compared on them).
 */
async function writeDuckDBFixture(connection, file) {
  await connection.run(`COPY (SELECT
      (i % 40 + 40 * (i // 20000))::BIGINT AS i64,
      (i % 40 - 20)::INTEGER AS i32,
      ((i % 40) * 0.5)::FLOAT AS f32,
      ((i % 40) / 3.0)::DOUBLE AS f64,
      'v' || (i % 40 + 40 * (i // 20000)) AS s,
      DATE '2020-01-01' + (i % 40)::INTEGER AS d,
      TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i % 40 * 3601) AS ts,
      ((i % 40) * 1.25 - 20)::DECIMAL(10,2) AS dec,
      ((i % 40) * 1000003.125)::DECIMAL(30,3) AS big,
      ('\\xAB' || (i % 40)::VARCHAR)::BLOB AS b,
      ('00000000-0000-4000-8000-' || lpad((i % 40)::VARCHAR, 12, '0'))::UUID AS id
    FROM range(60000) r(i)) TO ${sqlString(file)} (FORMAT parquet, ROW_GROUP_SIZE 20480)`);
}

// ---------------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const options = {
    ext: path.join(PROJECT_DIR, 'build', 'parquet.so'), sqlite3: 'sqlite3', absent: 200, seed: 1,
    fixtures: true, files: [],
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--ext') options.ext = next();
    else if (a === '--sqlite3') options.sqlite3 = next();
    else if (a === '--absent') options.absent = Number(next());
    else if (a === '--seed') options.seed = Number(next());
    else if (a === '--no-fixtures') options.fixtures = false;
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else options.files.push(a);
  }
  if (!options.fixtures && options.files.length === 0) throw new Error('no files to check');
  return options;
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`bloom_probe_check: ${e.message}\n` +
      'usage: node tools/bloom_probe_check.mjs [--ext PATH] [--sqlite3 PATH] [--absent N] ' +
      '[--seed N] [--no-fixtures] [FILE.parquet...]\n');
    process.exit(2);
  }
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  const files = [...options.files];
  let tmp = null;
  let failed = 0;
  let checked = 0;
  try {
    if (options.fixtures) {
      tmp = mkdtempSync(path.join(os.tmpdir(), 'bloom-probe-'));
      const ours = path.join(tmp, 'written_by_extension.parquet');
      const theirs = path.join(tmp, 'written_by_duckdb.parquet');
      try {
        writeOurFixture(options, ours);
        files.push(ours);
      } catch (e) {
        console.log(`FAILED writing ${ours}: ${e.message.split('\n')[0]}`);
        ++failed;
      }
      await writeDuckDBFixture(connection, theirs);
      files.push(theirs);
    }
    const random = makeRandom(options.seed);
    for (const file of files) {
      const result = await checkFile(options, connection, file, random);
      checked += result.checked;
      failed += result.failed;
    }
  } finally {
    connection.closeSync();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`${checked} columns checked, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
