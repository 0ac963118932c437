#!/usr/bin/env node
// compare_with_duckdb: reads Parquet files through the project's extension (the stock sqlite3 shell with
// `.load build/parquet`) and through DuckDB, normalizes both to the value mapping of docs/reading.md,
// and compares them row by row in file order.
//
// Usage:
//   node tools/compare_with_duckdb.mjs [options] FILE.parquet...
//   node tools/compare_with_duckdb.mjs [options] --all
//
// Options:
//   --all                      every *.parquet under tests/data/parquet-testing/ (encrypted files
//                              end in .parquet.encrypted and are not included)
//   --ext PATH                 the extension (default: build/parquet.so beside this tools/ folder)
//   --sqlite3 PATH             the sqlite3 shell (default: sqlite3 on PATH)
//   --options 'k=v, ...'       table options added to CREATE VIRTUAL TABLE (e.g. decimal=text)
//   --expect-duckdb-fail A,B   files DuckDB is known not to read (DUCKDB-CANNOT-READ is then a pass)
//   --expect-ours-fail A[:T],B files the extension must refuse (with an error containing T, if given),
//                              e.g. deliberately corrupt checksums. Added automatically from
//                              shredded_variant/cases.json: the cases with an error_message must be
//                              refused; the *-INVALID files may be refused or read (then compared).
//   --max-diffs N              differences shown per file (default 5)
//   --duckdb-only              read with DuckDB only (no extension needed): which files DuckDB reads
// A file name in a list matches a file whose path ends with it ("map_no_value.parquet",
// "shredded_variant/case-041.parquet").
//
// Verdict per file: OK, MISMATCH (first differences), DUCKDB-CANNOT-READ (DuckDB's message),
// OURS-FAILED (the extension's message), EXPECTED-FAIL (ours refused a file it must refuse),
// UNEXPECTED-SUCCESS (ours read a file it must refuse). The exit code is 0 only when every file is OK,
// EXPECTED-FAIL, or DUCKDB-CANNOT-READ and listed in --expect-duckdb-fail. The last line is
// "N passed, M failed".
//
// How the two sides are made comparable:
// - Ours: the query selects, for each column c, typeof(c) and c itself, with BLOBs as hex(c) (the
//   sqlite3 shell's JSON mode writes a BLOB's raw bytes into a JSON string, which loses bytes that are
//   not UTF-8). typeof is checked against the SQLite type the mapping promises. The shell's JSON is
//   parsed keeping every number's text, so 64-bit integers stay exact; reals are printed with 20
//   significant digits, so doubles stay exact too. TEXT holding JSON (nested types, INTERVAL,
//   VARIANT) is parsed the same way.
// - DuckDB: values are normalized by tools/duckdb_dump.mjs, with DECIMAL kept as exact text.
// - Comparison follows DuckDB's column type: FLOAT compares as float32; DOUBLE exactly; DECIMAL exactly
//   against decimal text (decimal=text) or within a relative 1e-15 against a REAL; integers exactly
//   (a UINT64 above 2^63-1 read as REAL compares as a double); DATE and UUID as text; TIME and
//   TIMESTAMP as instants (nanoseconds), so "12:00:00.5" equals "12:00:00.500000", ours truncated to
//   DuckDB's unit when that is coarser (DuckDB reads INT96 as microseconds); BLOB as hex, or
//   inside JSON as a hex, base64 or UTF-8 string; MAP as an object keyed by the key's text; a STRUCT
//   field missing from our JSON equals NULL. VARIANT values compare structurally, numbers by value; a
//   nanosecond timestamp inside a VARIANT equals DuckDB's microseconds when DuckDB's is ours
//   truncated toward zero (DuckDB keeps only microseconds there).

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DuckDBTypeId } from '@duckdb/node-api';
import { isNestedType, mapKeyText, normalizeValue, parquetQuery, readWithDuckDB, sqlString }
  from './duckdb_dump.mjs';

const TOOLS_DIR = path.dirname(fileURLToPath(import.meta.url));
const PROJECT_DIR = path.dirname(TOOLS_DIR);
const TESTING_DIR = path.resolve(PROJECT_DIR, 'tests/data/parquet-testing');

// ---------------------------------------------------------------------------------------------------
// JSON that keeps numbers as their text.

/** A JSON number as written, so 64-bit integers and 20-digit reals survive parsing. */
export class JsonNumber {
  constructor(text) { this.text = text; }
  toJSON() { return Number(this.text); }
}

/** Parses JSON text; numbers become JsonNumber, objects have no prototype. Throws on bad JSON. */
export function parseJson(text) {
  let i = 0;
  const fail = (what) => { throw new SyntaxError(`${what} at offset ${i}`); };
  const skipSpace = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) ++i; };
  const parseString = () => {
    ++i;  // opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text[i++];
      if (c === '"') return out;
      if (c !== '\\') { out += c; continue; }
      const e = text[i++];
      const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (e in simple) {
        out += simple[e];
      } else if (e === 'u') {
        const hex = text.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));  // surrogate pairs join as UTF-16 units
        i += 4;
      } else {
        fail('bad escape');
      }
    }
  };
  const parseValue = () => {
    skipSpace();
    const c = text[i];
    if (c === '"') return parseString();
    if (c === '{') {
      ++i;
      const object = Object.create(null);
      skipSpace();
      if (text[i] === '}') { ++i; return object; }
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail('expected a key');
        const key = parseString();
        skipSpace();
        if (text[i++] !== ':') fail('expected :');
        object[key] = parseValue();
        skipSpace();
        const next = text[i++];
        if (next === '}') return object;
        if (next !== ',') fail('expected , or }');
      }
    }
    if (c === '[') {
      ++i;
      const array = [];
      skipSpace();
      if (text[i] === ']') { ++i; return array; }
      for (;;) {
        array.push(parseValue());
        skipSpace();
        const next = text[i++];
        if (next === ']') return array;
        if (next !== ',') fail('expected , or ]');
      }
    }
    for (const [word, value] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return value; }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail('unexpected character');
    i += m[0].length;
    return new JsonNumber(m[0]);
  };
  const value = parseValue();
  skipSpace();
  if (i !== text.length) fail('trailing text');
  return value;
}

/** Short display text of a parsed or normalized value. */
function show(v) {
  const s = JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? String(x) : x));
  return s === undefined ? String(v) : (s.length > 200 ? `${s.slice(0, 200)}...` : s);
}

/** Both sides of a difference; long texts are shown from a little before where they first differ. */
function showPair(ours, theirs) {
  let a = show(ours);
  let b = show(theirs);
  if (a.length > 80 || b.length > 80) {
    a = JSON.stringify(ours, (_, x) => (typeof x === 'bigint' ? String(x) : x)) ?? String(ours);
    b = JSON.stringify(theirs) ?? String(theirs);
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) ++i;
    const from = Math.max(0, i - 40);
    const cut = (s) => `${from > 0 ? `(char ${from}) ...` : ''}${s.slice(from, from + 160)}` +
                       `${s.length > from + 160 ? '...' : ''}`;
    a = cut(a);
    b = cut(b);
  }
  return `      ours:   ${a}\n      DuckDB: ${b}`;
}

// ---------------------------------------------------------------------------------------------------
// Dates and times as numbers.

export function daysFromCivil(year, month, day) {
  // Inverse of formatDate in duckdb_dump.mjs: years start on March 1 so the leap day comes last.
  const y = BigInt(year) - (month <= 2 ? 1n : 0n);
  const era = (y >= 0n ? y : y - 399n) / 400n;
  const yearOfEra = y - era * 400n;
  const m = BigInt(month);
  const dayOfYear = (153n * (m > 2n ? m - 3n : m + 9n) + 2n) / 5n + BigInt(day) - 1n;
  const dayOfEra = yearOfEra * 365n + yearOfEra / 4n - yearOfEra / 100n + dayOfYear;
  return era * 146_097n + dayOfEra - 719_468n;
}

const TIME_RE = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|[+-]00(?::?00)?)?$/;
const TIMESTAMP_RE =
  /^(-?\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|[+-]00(?::?00)?)?$/;

function nanosOfDay(h, m, s, fraction) {
  return ((BigInt(h) * 60n + BigInt(m)) * 60n + BigInt(s)) * 1_000_000_000n +
         BigInt((fraction ?? '').padEnd(9, '0'));
}

/** Nanoseconds since midnight of "HH:MM:SS[.fraction]", or undefined. */
export function parseTime(text) {
  const m = typeof text === 'string' ? TIME_RE.exec(text) : null;
  return m ? nanosOfDay(m[1], m[2], m[3], m[4]) : undefined;
}

/** Nanoseconds since the Unix epoch (UTC) of "YYYY-MM-DD HH:MM:SS[.fraction]", or undefined. */
export function parseTimestamp(text) {
  if (text === 'infinity' || text === '-infinity') return text;
  const m = typeof text === 'string' ? TIMESTAMP_RE.exec(text) : null;
  if (!m) return undefined;
  return daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])) * 86_400_000_000_000n +
         nanosOfDay(m[4], m[5], m[6], m[7]);
}

// ---------------------------------------------------------------------------------------------------
// Numbers.

/** The number text of a parsed value (JsonNumber, JS number, boolean), or undefined. */
function numberText(v) {
  if (v instanceof JsonNumber) return v.text;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'string' && /^-?(Infinity|\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(v)) return v;
  return undefined;
}

const INTEGER_RE = /^-?\d+$/;

/** Exact decimal text in canonical form: no leading/trailing zeros, no "-0". Undefined if not one. */
function canonicalDecimal(text) {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m) return undefined;
  const whole = m[2].replace(/^0+/, '') || '0';
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const body = fraction ? `${whole}.${fraction}` : whole;
  return body === '0' ? '0' : `${m[1]}${body}`;
}

function closeEnough(a, b, relative) {
  if (a === b) return true;
  return Math.abs(a - b) <= relative * Math.max(Math.abs(a), Math.abs(b));
}

// ---------------------------------------------------------------------------------------------------
// Comparing one value. Each function returns undefined when ours equals theirs, else a short reason.

function blobDiff(ours, theirs) {
  const bytes = Buffer.from(theirs.hex, 'hex');
  if (ours && typeof ours === 'object' && typeof ours.hex === 'string') {
    return ours.hex.toLowerCase() === theirs.hex ? undefined : 'different bytes';
  }
  if (typeof ours === 'string' &&
      (ours.toLowerCase() === theirs.hex || ours === bytes.toString('base64') ||
       ours === bytes.toString('utf8'))) {
    return undefined;
  }
  return 'different bytes';
}

function untypedDiff(ours, theirs) {
  if (ours === null || theirs === null) return ours === theirs ? undefined : 'NULL vs not NULL';
  if (theirs && typeof theirs === 'object' && !Array.isArray(theirs) && Object.keys(theirs).length === 1 &&
      typeof theirs.hex === 'string') {
    return blobDiff(ours, theirs);
  }
  const ourNumber = numberText(ours);
  if (ourNumber !== undefined && typeof ours !== 'string') {
    const theirNumber = numberText(theirs);
    if (theirNumber === undefined) return 'number vs not a number';
    if (INTEGER_RE.test(ourNumber) && INTEGER_RE.test(theirNumber)) {
      return BigInt(ourNumber) === BigInt(theirNumber) ? undefined : 'different number';
    }
    return Number(ourNumber) === Number(theirNumber) ||
           canonicalDecimal(ourNumber) === canonicalDecimal(theirNumber) ? undefined : 'different number';
  }
  if (typeof ours === 'string') {
    if (ours === theirs) return undefined;
    const a = parseTimestamp(ours);
    const b = parseTimestamp(theirs);
    if (a !== undefined && a === b) return undefined;
    // Inside a VARIANT, DuckDB turns a nanosecond timestamp into microseconds, truncating the
    // instant toward zero (1957-...54.123456789 becomes ...54.123457); ours keeps the nanoseconds.
    if (typeof a === 'bigint' && typeof b === 'bigint' && /\.\d{7,9}$/.test(ours) &&
        !/\.\d{7,9}$/.test(theirs) && (a / 1000n) * 1000n === b) {
      return undefined;
    }
    const t = parseTime(ours);
    if (t !== undefined && t === parseTime(theirs)) return undefined;
    return 'different text';
  }
  if (Array.isArray(ours)) {
    if (!Array.isArray(theirs)) return 'array vs not an array';
    if (ours.length !== theirs.length) return `${ours.length} vs ${theirs.length} elements`;
    for (let i = 0; i < ours.length; ++i) {
      const d = untypedDiff(ours[i], theirs[i]);
      if (d) return `[${i}]: ${d}`;
    }
    return undefined;
  }
  if (typeof ours === 'object') {
    if (typeof theirs !== 'object' || Array.isArray(theirs)) return 'object vs not an object';
    const keys = new Set([...Object.keys(ours), ...Object.keys(theirs)]);
    for (const k of keys) {
      if (!(k in ours) || !(k in theirs)) return `key ${JSON.stringify(k)} on one side only`;
      const d = untypedDiff(ours[k], theirs[k]);
      if (d) return `.${k}: ${d}`;
    }
    return undefined;
  }
  return 'different value';
}

const INTEGER_TYPES = new Set([DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT, DuckDBTypeId.UTINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT]);
const TIMESTAMP_TYPES = new Set([DuckDBTypeId.TIMESTAMP, DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS, DuckDBTypeId.TIMESTAMP_NS, DuckDBTypeId.TIMESTAMP_TZ]);
const TIMESTAMP_UNIT_NANOS = new Map([[DuckDBTypeId.TIMESTAMP_S, 1_000_000_000n],
  [DuckDBTypeId.TIMESTAMP_MS, 1_000_000n], [DuckDBTypeId.TIMESTAMP, 1000n], [DuckDBTypeId.TIMESTAMP_TZ, 1000n],
  [DuckDBTypeId.TIMESTAMP_NS, 1n]]);
const TIME_TYPES = new Set([DuckDBTypeId.TIME, DuckDBTypeId.TIME_NS, DuckDBTypeId.TIME_TZ]);

/** Compares our value with DuckDB's normalized value of DuckDB type `type`. */
export function valueDiff(ours, theirs, type) {
  if (ours === null || theirs === null) {
    return ours === theirs ? undefined : (ours === null ? 'ours NULL' : 'DuckDB NULL');
  }
  const id = type.typeId;
  if (id === DuckDBTypeId.BOOLEAN || INTEGER_TYPES.has(id)) {
    const text = numberText(ours);
    if (text === undefined || typeof ours === 'string') return 'not a number';
    if (INTEGER_RE.test(text)) return BigInt(text) === BigInt(theirs) ? undefined : 'different integer';
    // A UINT64 above 2^63-1 reads as REAL.
    return Number(text) === Number(theirs) ? undefined : 'different number';
  }
  if (id === DuckDBTypeId.FLOAT || id === DuckDBTypeId.DOUBLE) {
    const text = numberText(ours);
    if (text === undefined || typeof ours === 'string') return 'not a number';
    const a = Number(text);
    const b = Number(theirs);
    const equal = id === DuckDBTypeId.FLOAT ? Math.fround(a) === Math.fround(b) : a === b;
    return equal ? undefined : 'different number';
  }
  if (id === DuckDBTypeId.DECIMAL) {
    if (typeof ours === 'string') {
      return canonicalDecimal(ours) === canonicalDecimal(theirs) ? undefined : 'different decimal text';
    }
    const text = numberText(ours);
    if (text === undefined) return 'not a number';
    return closeEnough(Number(text), Number(theirs), 1e-15) ? undefined : 'different decimal';
  }
  if (id === DuckDBTypeId.BLOB || id === DuckDBTypeId.GEOMETRY) return blobDiff(ours, theirs);
  if (TIMESTAMP_TYPES.has(id)) {
    let a = parseTimestamp(ours);
    if (a === undefined) return 'not a timestamp';
    // DuckDB's type may be coarser than the file's (INT96 holds nanoseconds, DuckDB reads it as
    // TIMESTAMP in microseconds, dropping the rest): compare at DuckDB's precision. Before 1970
    // DuckDB drops the rest toward zero for some types (TIMESTAMP_NS with a time zone) and toward
    // the past for others: either matches.
    const unit = TIMESTAMP_UNIT_NANOS.get(id);
    const b = parseTimestamp(theirs);
    if (typeof a !== 'bigint') return a === b ? undefined : 'different instant';
    const floor = a - (((a % unit) + unit) % unit);
    return floor === b || a - (a % unit) === b ? undefined : 'different instant';
  }
  if (TIME_TYPES.has(id)) {
    const a = parseTime(ours);
    if (a === undefined) return 'not a time';
    return a === parseTime(theirs) ? undefined : 'different time';
  }
  if (id === DuckDBTypeId.INTERVAL) {
    if (typeof ours !== 'object' || Array.isArray(ours)) return 'not an interval object';
    return untypedDiff(ours, theirs);
  }
  if (id === DuckDBTypeId.LIST || id === DuckDBTypeId.ARRAY) {
    if (!Array.isArray(ours)) return 'not an array';
    if (ours.length !== theirs.length) return `${ours.length} vs ${theirs.length} elements`;
    for (let i = 0; i < ours.length; ++i) {
      const d = valueDiff(ours[i], theirs[i], type.valueType);
      if (d) return `[${i}]: ${d}`;
    }
    return undefined;
  }
  if (id === DuckDBTypeId.STRUCT) {
    if (typeof ours !== 'object' || Array.isArray(ours)) return 'not an object';
    for (const k of Object.keys(ours)) {
      if (!type.entryNames.includes(k)) return `extra field ${JSON.stringify(k)}`;
    }
    for (const [i, k] of type.entryNames.entries()) {
      const d = valueDiff(k in ours ? ours[k] : null, theirs[k], type.entryTypes[i]);
      if (d) return `.${k}: ${d}`;
    }
    return undefined;
  }
  if (id === DuckDBTypeId.MAP) {
    if (typeof ours !== 'object' || Array.isArray(ours)) return 'not an object';
    const ourKeys = Object.keys(ours).sort();
    const theirKeys = Object.keys(theirs).sort();
    if (ourKeys.join('\u0000') !== theirKeys.join('\u0000')) {
      return `keys ${show(ourKeys)} vs ${show(theirKeys)}`;
    }
    for (const k of ourKeys) {
      const d = valueDiff(ours[k], theirs[k], type.valueType);
      if (d) return `[${JSON.stringify(k)}]: ${d}`;
    }
    return undefined;
  }
  if (id === DuckDBTypeId.VARCHAR || id === DuckDBTypeId.ENUM || id === DuckDBTypeId.DATE ||
      id === DuckDBTypeId.UUID) {
    return ours === theirs ? undefined : 'different text';
  }
  return untypedDiff(ours, theirs);
}

/** The SQLite storage classes the value mapping allows for a column DuckDB reads as `type`. */
function allowedSqliteTypes(type, tableOptions) {
  const id = type.typeId;
  if (id === DuckDBTypeId.BOOLEAN || INTEGER_TYPES.has(id)) {
    return id === DuckDBTypeId.UBIGINT ? ['integer', 'real'] : ['integer'];
  }
  if (id === DuckDBTypeId.FLOAT || id === DuckDBTypeId.DOUBLE) return ['real'];
  if (id === DuckDBTypeId.DECIMAL) return /decimal\s*=\s*text/.test(tableOptions) ? ['text'] : ['real'];
  if (id === DuckDBTypeId.BLOB) {
    return /binary_as_string\s*=\s*(1|true|on)/.test(tableOptions) ? ['text'] : ['blob'];
  }
  if (id === DuckDBTypeId.GEOMETRY) return ['blob'];
  return ['text'];
}

// ---------------------------------------------------------------------------------------------------
// Reading a file through the extension with the sqlite3 shell.

function quoteIdentifier(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Runs the sqlite3 shell in JSON mode on script; returns the parsed rows or throws its error text. */
function runSqlite(options, script) {
  const result = spawnSync(options.sqlite3, ['-bail', '-json', ':memory:'], {
    input: script, encoding: 'utf8', maxBuffer: 1 << 30, timeout: 300_000,
  });
  if (result.error) throw new Error(`cannot run ${options.sqlite3}: ${result.error.message}`);
  if (result.status !== 0 || result.stderr.trim() !== '') {
    const signal = result.signal ? ` (killed by ${result.signal})` : '';
    throw new Error(`${result.stderr.trim() || `sqlite3 exited with ${result.status}`}${signal}`);
  }
  return result.stdout.trim() === '' ? [] : parseJson(result.stdout);
}

/**
 * Reads a file through the extension: {names, types, values} where types[r][c] is SQLite's typeof and
 * values[r][c] the parsed value (BLOBs as {hex}). Throws the extension's error.
 */
function readWithExtension(options, file) {
  const extra = options.tableOptions ? `, ${options.tableOptions}` : '';
  const setup = `.load ${options.ext} sqlite3_parquet_init\n` +
                `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)}${extra});\n`;
  const names = runSqlite(options, `${setup}SELECT name FROM pragma_table_info('t', 'temp');\n`)
    .map((row) => row.name);
  if (names.length === 0) return { names, types: [], values: [] };
  const select = names.map((name, i) => {
    const c = quoteIdentifier(name);
    return `typeof(${c}) AS t${i}, CASE typeof(${c}) WHEN 'blob' THEN hex(${c}) ELSE ${c} END AS v${i}`;
  }).join(', ');
  const rows = runSqlite(options, `${setup}SELECT ${select} FROM temp.t;\n`);
  const types = rows.map((row) => names.map((_, i) => row[`t${i}`]));
  const values = rows.map((row) => names.map((_, i) => {
    const v = row[`v${i}`];
    return row[`t${i}`] === 'blob' ? { hex: v.toLowerCase() } : v;
  }));
  return { names, types, values };
}

// ---------------------------------------------------------------------------------------------------
// Comparing a file.

/** Differences between our table and DuckDB's, at most maxDiffs of them. */
function tableDiffs(ours, theirs, options) {
  const diffs = [];
  const add = (text) => { if (diffs.length < options.maxDiffs) diffs.push(text); };
  if (ours.names.join('\u0000') !== theirs.names.join('\u0000')) {
    add(`columns: ours ${show(ours.names)} vs DuckDB ${show(theirs.names)}`);
    if (ours.names.length !== theirs.names.length) return diffs;
  }
  if (ours.values.length !== theirs.rows.length) {
    add(`row count: ours ${ours.values.length} vs DuckDB ${theirs.rows.length}`);
  }
  const rows = Math.min(ours.values.length, theirs.rows.length);
  let count = 0;
  for (let r = 0; r < rows; ++r) {
    for (let c = 0; c < theirs.names.length; ++c) {
      const type = theirs.types[c];
      const name = theirs.names[c];
      const theirValue = normalizeValue(theirs.rows[r][c], { decimalAsText: true });
      let ourValue = ours.values[r][c];
      const sqliteType = ours.types[r][c];
      let reason;
      if (sqliteType !== 'null' && !allowedSqliteTypes(type, options.tableOptions).includes(sqliteType)) {
        reason = `SQLite type ${sqliteType}, expected ${allowedSqliteTypes(type, options.tableOptions)}`;
      } else if (sqliteType === 'text' && (isNestedType(type) || type.typeId === DuckDBTypeId.INTERVAL)) {
        try {
          ourValue = parseJson(ourValue);
        } catch (e) {
          reason = `not JSON (${e.message})`;
        }
      }
      reason ??= valueDiff(ourValue, theirValue, type);
      if (reason) {
        ++count;
        add(`row ${r} column ${name} (${type}): ${reason}\n${showPair(ourValue, theirValue)}`);
      }
    }
  }
  if (count > options.maxDiffs) diffs.push(`... ${count} differing values in all`);
  return diffs;
}

function listed(list, file) {
  return list.find((entry) => file === entry.name || file.endsWith(`/${entry.name}`));
}

function firstLine(text) {
  return String(text).split('\n')[0];
}

/** {verdict, details, summary?, duckdbRead} for one file. */
async function compareFile(options, file) {
  let theirs;
  let duckdbError;
  try {
    theirs = await readWithDuckDB(parquetQuery(file));
  } catch (e) {
    duckdbError = firstLine(e.message);
  }
  return { ...compareSides(options, file, theirs, duckdbError), duckdbRead: duckdbError === undefined };
}

/** The verdict given DuckDB's table (or its error) and what the extension reads. */
function compareSides(options, file, theirs, duckdbError) {
  const expectedOursFail = listed(options.expectOursFail, file);
  if (options.duckdbOnly) {
    if (duckdbError) return { verdict: 'DUCKDB-CANNOT-READ', details: [duckdbError] };
    return { verdict: 'OK', details: [], summary: `${theirs.rows.length} rows, DuckDB only` };
  }
  let ours;
  let ourError;
  try {
    ours = readWithExtension(options, file);
  } catch (e) {
    ourError = e.message;
  }
  if (expectedOursFail && !(ourError === undefined && expectedOursFail.optional)) {
    // (A file a reader may either refuse or read, and that ours read, is compared like any other.)
    if (ourError === undefined) {
      return { verdict: 'UNEXPECTED-SUCCESS', details: [`read ${ours.values.length} rows, expected an error` +
        (expectedOursFail.text ? ` containing "${expectedOursFail.text}"` : '')] };
    }
    if (expectedOursFail.text && !ourError.includes(expectedOursFail.text)) {
      return { verdict: 'OURS-FAILED', details: [`expected an error containing "${expectedOursFail.text}"`,
        ourError] };
    }
    return { verdict: 'EXPECTED-FAIL', details: [ourError] };
  }
  if (duckdbError) {
    const ourSide = ourError ? `ours failed too: ${ourError}` : `ours read ${ours.values.length} rows`;
    return { verdict: 'DUCKDB-CANNOT-READ', details: [duckdbError, ourSide] };
  }
  if (ourError) return { verdict: 'OURS-FAILED', details: [ourError] };
  const diffs = tableDiffs(ours, theirs, options);
  if (diffs.length) return { verdict: 'MISMATCH', details: diffs };
  return { verdict: 'OK', details: [], summary: `${theirs.rows.length} rows, ${theirs.names.length} columns` };
}

// ---------------------------------------------------------------------------------------------------
// Command line.

function allConformanceFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.parquet')) files.push(full);
    }
  };
  walk(TESTING_DIR);
  return files;
}

/**
 * The shredded-variant cases that must be refused (cases.json gives an error_message) or may be
 * refused (the file name says INVALID and the notes let readers either refuse or read it).
 */
function invalidVariantCases() {
  const casesFile = path.join(TESTING_DIR, 'shredded_variant', 'cases.json');
  if (!existsSync(casesFile)) return [];
  return JSON.parse(readFileSync(casesFile, 'utf8'))
    .filter((c) => c.parquet_file && (c.error_message || /INVALID/.test(c.parquet_file)))
    .map((c) => ({ name: `shredded_variant/${c.parquet_file}`, text: '', optional: !c.error_message }));
}

function parseList(text, withText) {
  return text.split(',').map((s) => s.trim()).filter(Boolean).map((entry) => {
    const colon = withText ? entry.indexOf(':') : -1;
    return colon < 0 ? { name: entry, text: '' } : { name: entry.slice(0, colon), text: entry.slice(colon + 1) };
  });
}

function parseArgs(argv) {
  const options = {
    files: [], all: false, ext: path.join(PROJECT_DIR, 'build', 'parquet.so'), sqlite3: 'sqlite3',
    tableOptions: '', expectDuckdbFail: [], expectOursFail: [], maxDiffs: 5, duckdbOnly: false,
  };
  const value = (i) => {
    if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    switch (a) {
      case '--all': options.all = true; break;
      case '--duckdb-only': options.duckdbOnly = true; break;
      case '--ext': options.ext = path.resolve(value(i)); ++i; break;
      case '--sqlite3': options.sqlite3 = value(i); ++i; break;
      case '--options': options.tableOptions = value(i); ++i; break;
      case '--expect-duckdb-fail': options.expectDuckdbFail.push(...parseList(value(i), false)); ++i; break;
      case '--expect-ours-fail': options.expectOursFail.push(...parseList(value(i), true)); ++i; break;
      case '--max-diffs': options.maxDiffs = Number(value(i)); ++i; break;
      default:
        if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
        if (!existsSync(a)) throw new Error(`no such file: ${a}`);
        options.files.push(path.resolve(a));
    }
  }
  if (options.all) options.files.push(...allConformanceFiles());
  if (options.files.length === 0) throw new Error('no files: give FILE.parquet... or --all');
  options.expectOursFail.push(...invalidVariantCases());
  return options;
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`compare_with_duckdb: ${e.message}\nusage: node tools/compare_with_duckdb.mjs ` +
      '[--ext PATH] [--options K=V,...] [--expect-duckdb-fail A,B] [--expect-ours-fail A[:TEXT],B] ' +
      '[--duckdb-only] (--all | FILE.parquet...)\n');
    process.exit(2);
  }
  if (!options.duckdbOnly && !existsSync(options.ext)) {
    process.stderr.write(`compare_with_duckdb: extension ${options.ext} not found (build it first, or ` +
      'use --duckdb-only)\n');
    process.exit(2);
  }
  if (!options.duckdbOnly) {
    try {
      runSqlite(options, `.load ${options.ext} sqlite3_parquet_init\n`);
    } catch (e) {
      process.stderr.write(`compare_with_duckdb: cannot load the extension: ${e.message}\n`);
      process.exit(2);
    }
  }
  let passed = 0;
  let failed = 0;
  const counts = {};
  for (const file of options.files) {
    const shown = path.relative(TESTING_DIR, file).startsWith('..') ? file : path.relative(TESTING_DIR, file);
    const result = await compareFile(options, file);
    let ok = ['OK', 'EXPECTED-FAIL'].includes(result.verdict);
    let note = '';
    if (result.verdict === 'DUCKDB-CANNOT-READ') {
      ok = Boolean(listed(options.expectDuckdbFail, file));
      if (!ok) note = ' (not in --expect-duckdb-fail)';
    } else if (result.duckdbRead && listed(options.expectDuckdbFail, file)) {
      note = ' (listed in --expect-duckdb-fail, but DuckDB read it)';
    }
    counts[result.verdict] = (counts[result.verdict] ?? 0) + 1;
    if (ok) ++passed; else ++failed;
    const summary = result.summary ? ` (${result.summary})` : '';
    process.stdout.write(`${result.verdict.padEnd(18)} ${shown}${summary}${note}\n`);
    for (const d of result.details) process.stdout.write(`    ${d}\n`);
  }
  process.stdout.write(`${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')}\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
