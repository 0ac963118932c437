#!/usr/bin/env node
// encryption_duckdb_check: encrypted files checked by an independent reader (ctest
// duckdb_encryption_check).
//
//   node tools/encryption_duckdb_check.mjs [--ext build/parquet] [--sqlite3 sqlite3] [--keep DIR]
//                                          [--max-diffs 5]
//
// 1. Files the extension encrypts: a generated table (integers, exact reals, text and BLOBs with
//    NULLs) is exported by parquet_export with uniform encryption (footer_key=, AES_GCM_V1, encrypted
//    footer: the mode DuckDB reads) in several configurations (128-bit keys, see CONFIGS; codecs;
//    data page v1 and v2; with and without dictionary, page index and Bloom filters). DuckDB
//    (@duckdb/node-api, PRAGMA add_parquet_key and read_parquet(..., encryption_config)) must read
//    every value as SQLite holds it; DuckDB with a wrong key must fail.
// 2. The conformance files (tests/data/parquet-testing/data/*.parquet.encrypted): wherever
//    DuckDB can read a file with the footer key alone, every column it reads must hold what the
//    extension reads with all the keys. A file or column DuckDB cannot read is listed, not failed.
// 3. A file DuckDB encrypts: refused with the error naming the AAD DuckDB leaves out (see
//    checkDuckDBWritten), or, should DuckDB write it as the spec says, read value for value.
// Exit status 0 when every check passes; otherwise each difference is printed and the status is 1.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportWithExtension, inWorkDir, parseCheckArgs, run, runWithExtension } from './duckdb_check_util.mjs';
import { readWithDuckDB, sqlString } from './duckdb_dump.mjs';

const TOOLS_DIR = path.dirname(fileURLToPath(import.meta.url));
const DATA_DIR = path.join(TOOLS_DIR, '..', 'tests', 'data', 'parquet-testing', 'data');
const ROWS = 3000;

// A value as both sides show it: integers as decimal text, reals as numbers, text as text, BLOBs as
// lower-case hex, NULL as null.
function norm(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return Number.isInteger(v) && !Object.is(v, -0) ? `${v}` : v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (typeof v === 'object' && v.bytes instanceof Uint8Array) return Buffer.from(v.bytes).toString('hex');
  return String(v);
}

// Rows of `sql` from the sqlite3 shell with the extension, BLOBs as hex (the query must hex() them).
function sqliteRows(args, sql, blobColumns = []) {
  const r = run(args.sqlite3, ['-bail', '-json', '-cmd', `.load ${args.ext}`, ':memory:', sql]);
  if (r.status !== 0) throw new Error((r.stderr || r.stdout).trim());
  const rows = r.stdout.trim() ? JSON.parse(r.stdout) : [];
  return rows.map((o) => Object.entries(o).map(([k, v]) => {
    if (v === null) return null;
    if (blobColumns.includes(k)) return String(v).toLowerCase();
    return norm(v);
  }));
}

// A time of day as both sides may show it: DuckDB adds +00 to a UTC-adjusted TIME and drops trailing
// zeros of the fraction; anything else is itself.
function timeOfDay(t) {
  const m = /^(\d\d:\d\d:\d\d)(\.\d+)?(\+00)?$/.exec(t);
  if (!m) return t;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  return m[1] + (fraction === '.' ? '' : fraction);
}

function compareRows(what, want, got, fail, maxDiffs) {
  if (want.length !== got.length) {
    fail.push(`${what}: ${got.length} rows, expected ${want.length}`);
    return;
  }
  let diffs = 0;
  for (let i = 0; i < want.length; ++i) {
    for (let k = 0; k < want[i].length; ++k) {
      const a = want[i][k];
      const b = got[i][k];
      const same = a === b || (typeof a === 'string' && typeof b === 'string' && timeOfDay(a) === timeOfDay(b)) || (typeof a === 'number' && typeof b === 'number' && Object.is(a, b)) ||
        (typeof a === 'number' && typeof b === 'string' && `${a}` === b) ||
        (typeof b === 'number' && typeof a === 'string' && `${b}` === a);
      if (!same && ++diffs <= maxDiffs) fail.push(`${what}: row ${i}, column ${k}: expected ${a}, got ${b}`);
    }
  }
  if (diffs > maxDiffs) fail.push(`${what}: ${diffs - maxDiffs} more differences`);
}

// 128-bit keys only: DuckDB (1.5) fails on 192- and 256-bit files of other writers, and the files it
// encrypts itself follow its own layout (duckdb/duckdb#18524); the 192- and 256-bit ciphers are
// checked against the GCM specification's test vectors (tests/format/crypto/aes_cipher_test.cc).
// Keys are not base64 text, which DuckDB would decode.
// Files DuckDB cannot read because of its own limits say so (`duckdb`: the error it gives and why);
// the extension must still read them back exactly. DuckDB is held to every file whose column
// chunks have one data page each, in v1 pages and without Bloom filters.
const V2 = { error: /DecryptionTransport|crypto buffer|page size mismatch/,
  why: 'DuckDB decrypts the levels and values of a v2 page as two modules (duckdb/duckdb#24785)' };
const BLOOM = { error: /Computed AES tag differs/,
  why: 'DuckDB fails on encrypted chunks that have a Bloom filter (it reads their other columns; it ' +
    "cannot read parquet-mr's encrypted Bloom-filter conformance file either)" };
const MULTI = { error: /Computed AES tag differs/,
  why: 'DuckDB fails on encrypted chunks of more than one data page (so does it on the multi-page ' +
    "chunks of parquet-mr's Bloom-filter conformance file, which the extension reads with the same " +
    'page ordinals it writes; duckdb/duckdb#18524)' };
const CONFIGS = [
  { name: 'gcm-zstd', key: '0123456789112345', options: 'compression=zstd' },
  { name: 'gcm-snappy-nodict', key: 'abcdefghijklmno-', options: 'compression=snappy, dictionary=0, row_group_size=1000' },
  { name: 'gcm-gzip', key: '-bcdefghijklmnop', options: 'compression=gzip, row_group_size=1000' },
  // encoding_trial=0: dictionary pages, so that every chunk is one data page at page_size=1024
  // (the trial picks PLAIN or DELTA here, several pages a chunk, which DuckDB cannot read: MULTI).
  { name: 'gcm-uncompressed-no-index', key: 'abcdefghijklmnop',
    options: 'compression=uncompressed, page_index=0, checksums=0, row_group_size=700, page_size=1024, encoding_trial=0' },
  { name: 'gcm-brotli', key: 'ab-defghijklmnop', options: 'compression=brotli, row_group_size=1500' },
  { name: 'gcm-zstd-small-pages', key: 'abcdefghijklmnor', options: 'compression=zstd, page_size=512', duckdb: MULTI },
  { name: 'gcm-lz4-v2', key: 'abc-efghijklmnop', options: 'compression=lz4_raw, data_page_version=2', duckdb: V2 },
  { name: 'gcm-zstd-bloom', key: 'abcdefghijklmnoq', options: "compression=zstd, row_group_size=1000, bloom_filter='id, name'",
    duckdb: BLOOM },
];

async function checkExports(args, dir, failures) {
  const db = path.join(dir, 'src.sqlite');
  rmSync(db, { force: true });
  const make = `CREATE TABLE src AS WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${ROWS - 1}) ` +
    "SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'name ' || (i * 7919 % 1000) END AS name, " +
    'i * 0.25 - 100 AS x, CASE WHEN i % 5 = 0 THEN NULL ELSE randomblob(1 + i % 9) END AS b, ' +
    '(i * 2654435761) % 1000000007 AS hc FROM k;';
  let r = runWithExtension(args, db, make);
  if (r.status !== 0) throw new Error(r.stderr);
  const want = sqliteRows(args, `ATTACH ${sqlString(db)} AS s; SELECT id, name, x, CASE WHEN b IS NULL THEN NULL ELSE hex(b) END AS b, hc FROM s.src ORDER BY id;`, ['b']);
  for (const cfg of CONFIGS) {
    const fail = [];
    const notes = [];
    const file = path.join(dir, `${cfg.name}.parquet`);
    rmSync(file, { force: true });
    const err = exportWithExtension(args, db, file, 'SELECT * FROM src ORDER BY id', `${cfg.options}, footer_key='text:${cfg.key}'`,
      'id INTEGER, name TEXT, x REAL, b BLOB, hc INTEGER', ROWS);
    if (err) {
      fail.push(err);
    } else {
      try {
        const res = await readWithDuckDB(`SELECT id, name, x, b, hc FROM read_parquet(${sqlString(file)}, encryption_config = {footer_key: 'k'}) ORDER BY id`,
          [`PRAGMA add_parquet_key('k', ${sqlString(cfg.key)})`]);
        compareRows('DuckDB', want, res.rows.map((row) => row.map(norm)), fail, args.maxDiffs);
      } catch (e) {
        if (cfg.duckdb?.error.test(e.message)) notes.push(`DuckDB cannot read it: ${cfg.duckdb.why}`);
        else fail.push(`DuckDB cannot read the file: ${e.message}`);
      }
      // Our own reading with the key gives the same rows.
      const ours = sqliteRows(args, `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)}, footer_key='text:${cfg.key}'); ` +
        'SELECT id, name, x, CASE WHEN b IS NULL THEN NULL ELSE hex(b) END AS b, hc FROM t ORDER BY id;', ['b']);
      compareRows('extension', want, ours, fail, args.maxDiffs);
      // A wrong key is refused by DuckDB too.
      const wrong = cfg.key.slice(0, -1) + (cfg.key.endsWith('0') ? '1' : '0');
      try {
        await readWithDuckDB(`SELECT count(*) FROM read_parquet(${sqlString(file)}, encryption_config = {footer_key: 'k'})`,
          [`PRAGMA add_parquet_key('k', ${sqlString(wrong)})`]);
        fail.push('DuckDB read the file with a wrong key');
      } catch { /* expected */ }
    }
    report(cfg.name, fail, failures, notes);
  }
}

const KEYS = "footer_key='0123456789012345', column_keys='double_field:1234567890123450, float_field:1234567890123451'";

async function checkConformance(args, failures) {
  if (!existsSync(DATA_DIR)) throw new Error(`no conformance data at ${DATA_DIR}`);
  const files = readdirSync(DATA_DIR).filter((f) => f.endsWith('.parquet.encrypted') && !f.startsWith('external_key_material'));
  if (files.length < 5) throw new Error(`only ${files.length} encrypted conformance files found`);
  let compared = 0;
  for (const f of files.sort()) {
    const file = path.join(DATA_DIR, f);
    const fail = [];
    const aad = f.includes('_aad') ? ", aad_prefix='tester'" : '';
    // The columns the extension declares INTEGER, REAL or TEXT (INT96 timestamps and BLOBs are left
    // out: DuckDB shows them in other forms).
    const open = `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)}, ${KEYS}${aad});`;
    let meta = [];
    try {
      meta = sqliteRows(args, `${open} SELECT name, type FROM pragma_table_info('t');`);
    } catch (e) {
      fail.push(`the extension cannot open it: ${e.message}`);
    }
    const columns = meta.filter(([n, t]) => ['INTEGER', 'REAL', 'TEXT'].includes(t) && !n.startsWith('int96')).map(([n]) => n);
    const notes = [];
    // Columns DuckDB can read with the footer key alone.
    const readable = [];
    for (const c of columns) {
      try {
        await readWithDuckDB(`SELECT "${c}" FROM read_parquet(${sqlString(file)}, encryption_config = {footer_key: 'k'}) LIMIT 1`,
          ["PRAGMA add_parquet_key('k', '0123456789012345')"]);
        readable.push(c);
      } catch (e) {
        notes.push(`${c}: DuckDB cannot read it (${e.message.split('\n')[0].slice(0, 100)})`);
      }
    }
    if (readable.length) {
      const list = readable.map((c) => `"${c}"`).join(', ');
      let ours;
      try {
        ours = sqliteRows(args, `${open} SELECT ${list} FROM t;`);
      } catch (e) {
        fail.push(`the extension cannot read it: ${e.message}`);
      }
      if (ours) {
        const res = await readWithDuckDB(`SELECT ${list} FROM read_parquet(${sqlString(file)}, encryption_config = {footer_key: 'k'})`,
          ["PRAGMA add_parquet_key('k', '0123456789012345')"]);
        compareRows(f, ours, res.rows.map((row) => row.map(norm)), fail, args.maxDiffs);
        ++compared;
      }
    }
    report(`${f} (${readable.length} of ${columns.length} columns compared)`, fail, failures, notes);
  }
  if (compared === 0) failures.push('DuckDB could read no conformance file');
}

// 3. A file DuckDB encrypts (uniform, footer key): DuckDB seals its modules without the AAD the
// Parquet spec requires and stores no aad_file_unique, so the extension must refuse it saying so, not
// "wrong key"; with a wrong key it must say authentication failed. (Should a DuckDB write conforming
// files, the extension must read every value instead.)
async function checkDuckDBWritten(args, dir, failures) {
  const file = path.join(dir, 'duckdb_encrypted.parquet');
  const key = '0123456789012345';
  const fail = [];
  // Writing needs mbedtls's encryption, which this DuckDB build only allows with force_mbedtls_unsafe.
  await readWithDuckDB(`COPY (SELECT i AS id, 'v' || i AS txt FROM range(100) r(i)) TO ${sqlString(file)} ` +
    "(FORMAT parquet, ENCRYPTION_CONFIG {footer_key: 'k'})",
    ["SET force_mbedtls_unsafe = 'true'", `PRAGMA add_parquet_key('k', ${sqlString(key)})`]);
  const open = (k) => `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)}, footer_key=${sqlString(k)});`;
  let ours = null;
  let error = '';
  try {
    ours = sqliteRows(args, `${open(key)} SELECT id, txt FROM t;`);
  } catch (e) {
    error = e.message;
  }
  if (ours) {
    const res = await readWithDuckDB(`SELECT id, txt FROM read_parquet(${sqlString(file)}, encryption_config = {footer_key: 'k'})`,
      [`PRAGMA add_parquet_key('k', ${sqlString(key)})`]);
    compareRows('duckdb_encrypted.parquet', ours, res.rows.map((row) => row.map(norm)), fail, args.maxDiffs);
  } else if (!error.includes('without the additional authenticated data (AAD) the Parquet spec requires')) {
    fail.push(`the extension's error does not say the AAD is missing: ${error}`);
  }
  try {
    sqliteRows(args, `${open('abcdefghijklmnop')} SELECT id FROM t;`);
    fail.push('the extension read it with a wrong key');
  } catch (e) {
    if (!e.message.includes('authentication failed for footer')) fail.push(`wrong key: ${e.message}`);
  }
  report(`a file DuckDB encrypted (${ours ? 'read and compared' : 'refused as written without the AAD'})`, fail, failures);
}

function report(name, fail, failures, notes = []) {
  if (fail.length) {
    failures.push(name);
    process.stdout.write(`FAIL ${name}\n${fail.map((f) => `  ${f}`).join('\n')}\n`);
  } else {
    process.stdout.write(`ok   ${name}${notes.map((n) => `\n     note: ${n}`).join('')}\n`);
  }
}

async function main() {
  const args = parseCheckArgs(process.argv.slice(2), {}, {});
  const failures = [];
  await inWorkDir(args, 'pq-encryption-check-', async (dir) => {
    await checkExports(args, dir, failures);
    await checkDuckDBWritten(args, dir, failures);
  });
  await checkConformance(args, failures);
  process.stdout.write(`${failures.length} failed\n`);
  process.exit(failures.length ? 1 : 0);
}

await main();
