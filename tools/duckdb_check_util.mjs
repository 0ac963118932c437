// What the checks of files the extension writes, read back by DuckDB, share
// (tools/export_duckdb_check.mjs, tools/nested_duckdb_check.mjs): the options every one takes, a
// seeded random source, the sqlite3 shell with and without the extension, parquet_export of a
// source table, and a work directory that --keep keeps. DuckDB itself is reached through
// tools/duckdb_dump.mjs (readWithDuckDB, normalizeValue).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqlString } from './duckdb_dump.mjs';

const TOOLS_DIR = path.dirname(fileURLToPath(import.meta.url));
const PROJECT_DIR = path.dirname(TOOLS_DIR);

/**
 * Parses `argv` ("--name value" pairs) into {ext, sqlite3, keep, maxDiffs, ...defaults}: --ext (the
 * extension, default build/parquet, made absolute because .load searches the library path for a
 * name without a slash), --sqlite3 (the shell), --keep DIR (keep the files there), --max-diffs N
 * (differences shown per file), and the options of `more`, an object mapping an option to
 * (value, args) => void that stores it. Throws on an unknown option or one without its value.
 */
export function parseCheckArgs(argv, defaults, more) {
  const a = { ext: path.join(PROJECT_DIR, 'build', 'parquet'), sqlite3: 'sqlite3', keep: null, maxDiffs: 5,
    ...defaults };
  const options = new Map(Object.entries({
    '--ext': (v) => { a.ext = v; },
    '--sqlite3': (v) => { a.sqlite3 = v; },
    '--keep': (v) => { a.keep = v; },
    '--max-diffs': (v) => { a.maxDiffs = Number(v); },
    ...more,
  }));
  for (let i = 0; i < argv.length; ++i) {
    const store = options.get(argv[i]);
    if (!store) throw new Error(`unknown argument ${argv[i]}`);
    if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
    store(argv[++i], a);
  }
  a.ext = path.resolve(a.ext);
  return a;
}

/** A deterministic source of numbers in [0, 1) from a 32-bit seed (mulberry32). */
export function seededRandom(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs cmd with args and `input` on stdin; returns spawnSync's result (utf8). Throws when it cannot start. */
export function run(cmd, args, input) {
  const r = spawnSync(cmd, args, { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return r;
}

/** Runs `sql` in the sqlite3 shell on database `db` (a path or ':memory:') with the extension loaded. */
export function runWithExtension(args, db, sql) {
  return run(args.sqlite3, ['-bail', '-cmd', `.load ${args.ext}`, db, sql]);
}

/**
 * Writes the rows of `query` on database `db` to `file` with parquet_export, giving `options` (may be
 * empty) and schema=`schema`. Returns null when the export reports `rows` rows, else the message
 * "export failed: ..." with what the shell said.
 */
export function exportWithExtension(args, db, file, query, options, schema, rows) {
  const allOptions = [options, `schema='${schema}'`].filter(Boolean).join(', ');
  const sql = `SELECT parquet_export(${sqlString(file)}, ${sqlString(query)}, ${sqlString(allOptions)});`;
  const r = runWithExtension(args, db, sql);
  if (r.status !== 0 || r.stdout.trim() !== String(rows)) return `export failed: ${(r.stderr || r.stdout).trim()}`;
  return null;
}

/**
 * Runs `body(dir)` in a work directory: args.keep (made when missing, kept afterwards), else a fresh
 * temporary directory named from `prefix`, removed afterwards whatever happens.
 */
export async function inWorkDir(args, prefix, body) {
  const dir = args.keep ?? mkdtempSync(path.join(os.tmpdir(), prefix));
  mkdirSync(dir, { recursive: true });
  try {
    return await body(dir);
  } finally {
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}
