#!/usr/bin/env node
// duckdb_dump: reads a Parquet file with DuckDB, an independent reader, and prints every row as one JSON
// line, with values normalized to the project's Parquet-to-SQLite value mapping (docs/reading.md), so
// its output can be compared with what the extension returns.
//
// Usage:
//   node tools/duckdb_dump.mjs FILE.parquet [--columns] [--types]
//   node tools/duckdb_dump.mjs --sql "SELECT ... FROM read_parquet('f.parquet')" [--columns] [--types]
//
// --columns prints the column names (a JSON array) before the rows; --types prints DuckDB's column types
// (a JSON array of strings) before the rows. DuckDB runs single-threaded, so rows come in file order.
//
// Normalized values, one JSON array per row, one element per top-level column in file order:
//   NULL -> null                        BOOLEAN -> 0 / 1
//   integers -> number when |v| <= 2^53-1, else a string of digits
//   FLOAT, DOUBLE -> number (NaN -> null, +-infinity -> "Infinity" / "-Infinity")
//   DECIMAL -> number (the nearest double)   strings -> string   BLOB, GEOMETRY -> {"hex": "00ff..."}
//   DATE -> "YYYY-MM-DD"                TIME -> "HH:MM:SS[.fraction]"
//   TIMESTAMP (any unit, with or without time zone) -> "YYYY-MM-DD HH:MM:SS[.fraction]" in UTC
//     (the fraction has the column unit's digits with trailing zeros removed; none when zero)
//   UUID -> lower-case 8-4-4-4-12       INTERVAL -> {"months": m, "days": d, "millis": n}
//   LIST, ARRAY -> array    STRUCT -> object    MAP -> object keyed by the key's text    VARIANT -> its value
// Nested values are normalized the same way, recursively.
//
// The module also exports readWithDuckDB() and normalizeValue() for tools/compare_with_duckdb.mjs.

import { DuckDBInstance, DuckDBTypeId } from '@duckdb/node-api';
import {
  DuckDBArrayValue, DuckDBBitValue, DuckDBBlobValue, DuckDBDateValue, DuckDBDecimalValue,
  DuckDBGeometryValue, DuckDBIntervalValue, DuckDBListValue, DuckDBMapValue, DuckDBStructValue,
  DuckDBTimeNSValue, DuckDBTimeTZValue, DuckDBTimeValue, DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue, DuckDBTimestampSecondsValue, DuckDBTimestampTZValue,
  DuckDBTimestampValue, DuckDBUUIDValue, DuckDBUnionValue, DuckDBVariantValue,
} from '@duckdb/node-api';
import { pathToFileURL } from 'node:url';

const NANOS_PER_DAY = 86_400_000_000_000n;

/** SQL string literal for s. */
export function sqlString(s) {
  return `'${String(s).replaceAll("'", "''")}'`;
}

/**
 * Runs sql in a fresh single-threaded in-memory DuckDB (a fresh one per call: an internal error in
 * DuckDB invalidates its database), after the statements of `setup` (such as PRAGMA add_parquet_key),
 * and returns {names, types, rows} with rows of raw DuckDB values.
 * Throws DuckDB's error when it cannot run the query.
 */
export async function readWithDuckDB(sql, setup = []) {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    for (const statement of setup) await connection.run(statement);
    const reader = await connection.runAndReadAll(sql);
    return { names: reader.columnNames(), types: reader.columnTypes(), rows: reader.getRows() };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The query that reads every top-level column of a Parquet file in file order. */
export function parquetQuery(path) {
  return `SELECT * FROM read_parquet(${sqlString(path)})`;
}

function floorDiv(a, b) {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function pad(n, width) {
  const s = String(n < 0 ? -n : n).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

/** "YYYY-MM-DD" of a day count from 1970-01-01 in the proleptic Gregorian calendar. */
export function formatDate(days) {
  // Shift to days since 0000-03-01 and split into 400-year eras, so leap days fall at the end of a year.
  let z = BigInt(days) + 719_468n;
  const era = floorDiv(z, 146_097n);
  const dayOfEra = z - era * 146_097n;                                              // [0, 146096]
  const yearOfEra = (dayOfEra - dayOfEra / 1460n + dayOfEra / 36_524n - dayOfEra / 146_096n) / 365n;
  const dayOfYear = dayOfEra - (365n * yearOfEra + yearOfEra / 4n - yearOfEra / 100n);  // from March 1
  const monthFromMarch = (5n * dayOfYear + 2n) / 153n;                                  // [0, 11]
  const day = dayOfYear - (153n * monthFromMarch + 2n) / 5n + 1n;
  const month = monthFromMarch < 10n ? monthFromMarch + 3n : monthFromMarch - 9n;
  const year = yearOfEra + era * 400n + (month <= 2n ? 1n : 0n);
  return `${pad(Number(year), 4)}-${pad(Number(month), 2)}-${pad(Number(day), 2)}`;
}

/** "HH:MM:SS[.fraction]" of nanoseconds since midnight; fractionDigits is the unit's (0, 3, 6 or 9). */
export function formatTimeOfDay(nanos, fractionDigits) {
  nanos = BigInt(nanos);
  const seconds = nanos / 1_000_000_000n;
  let text = `${pad(Number(seconds / 3600n), 2)}:${pad(Number((seconds / 60n) % 60n), 2)}:` +
             pad(Number(seconds % 60n), 2);
  const fraction = String(nanos % 1_000_000_000n).padStart(9, '0').slice(0, fractionDigits)
    .replace(/0+$/, '');
  if (fraction) text += `.${fraction}`;
  return text;
}

/** "YYYY-MM-DD HH:MM:SS[.fraction]" (UTC) of nanoseconds since the Unix epoch. */
export function formatTimestamp(nanos, fractionDigits) {
  nanos = BigInt(nanos);
  const days = floorDiv(nanos, NANOS_PER_DAY);
  return `${formatDate(days)} ${formatTimeOfDay(nanos - days * NANOS_PER_DAY, fractionDigits)}`;
}

function hexOf(bytes) {
  return Buffer.from(bytes).toString('hex');
}

function normalizeNumber(n) {
  if (Number.isNaN(n)) return null;
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return n;
}

function normalizeBigInt(n) {
  return (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)) ? Number(n)
                                                                                        : String(n);
}

function normalizeTimestamp(value, nanos, fractionDigits) {
  if (!value.isFinite) return nanos > 0n ? 'infinity' : '-infinity';
  return formatTimestamp(nanos, fractionDigits);
}

/** Text of a normalized map key: strings as they are, anything else as its JSON text. */
export function mapKeyText(normalizedKey) {
  return typeof normalizedKey === 'string' ? normalizedKey : JSON.stringify(normalizedKey);
}

/**
 * The project's normalized JSON form of one DuckDB value (see the table at the top of this file).
 * options.decimalAsText: DECIMAL as its exact decimal text instead of a number (for comparisons).
 */
export function normalizeValue(value, options = {}) {
  const recurse = (v) => normalizeValue(v, options);
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean': return value ? 1 : 0;
    case 'number': return normalizeNumber(value);
    case 'bigint': return normalizeBigInt(value);
    case 'string': return value;
    default: break;
  }
  if (value instanceof DuckDBBlobValue || value instanceof DuckDBGeometryValue) {
    return { hex: hexOf(value.bytes) };
  }
  if (value instanceof DuckDBDecimalValue) {
    return options.decimalAsText ? value.toString() : normalizeNumber(value.toDouble());
  }
  if (value instanceof DuckDBDateValue) {
    if (!value.isFinite) return value.days > 0 ? 'infinity' : '-infinity';
    return formatDate(value.days);
  }
  if (value instanceof DuckDBTimeValue) return formatTimeOfDay(value.micros * 1000n, 6);
  if (value instanceof DuckDBTimeNSValue) return formatTimeOfDay(value.nanos, 9);
  if (value instanceof DuckDBTimeTZValue) {
    // Parquet TIME adjusted to UTC reads as TIMETZ with offset 0; shift any other offset to UTC.
    const utc = value.micros * 1000n - BigInt(value.offset) * 1_000_000_000n;
    return formatTimeOfDay(((utc % NANOS_PER_DAY) + NANOS_PER_DAY) % NANOS_PER_DAY, 6);
  }
  if (value instanceof DuckDBTimestampSecondsValue) {
    return normalizeTimestamp(value, value.seconds * 1_000_000_000n, 0);
  }
  if (value instanceof DuckDBTimestampMillisecondsValue) {
    return normalizeTimestamp(value, value.millis * 1_000_000n, 3);
  }
  if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) {
    return normalizeTimestamp(value, value.micros * 1000n, 6);
  }
  if (value instanceof DuckDBTimestampNanosecondsValue) return normalizeTimestamp(value, value.nanos, 9);
  if (value instanceof DuckDBUUIDValue) return value.toString().toLowerCase();
  if (value instanceof DuckDBIntervalValue) {
    // Parquet INTERVAL counts milliseconds, so DuckDB's microseconds are whole milliseconds.
    return { months: value.months, days: value.days, millis: normalizeBigInt(value.micros / 1000n) };
  }
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
    return value.items.map(recurse);
  }
  if (value instanceof DuckDBStructValue) {
    const object = {};
    for (const [name, v] of Object.entries(value.entries)) object[name] = recurse(v);
    return object;
  }
  if (value instanceof DuckDBMapValue) {
    const object = {};
    for (const { key, value: v } of value.entries) object[mapKeyText(recurse(key))] = recurse(v);
    return object;
  }
  if (value instanceof DuckDBVariantValue || value instanceof DuckDBUnionValue) return recurse(value.value);
  if (value instanceof DuckDBBitValue) return value.toString();
  throw new Error(`duckdb_dump: no normalization for ${value?.constructor?.name ?? typeof value}`);
}

/** True when t is one of DuckDB's nested types (their SQLite form is JSON text). */
export function isNestedType(type) {
  return [DuckDBTypeId.LIST, DuckDBTypeId.ARRAY, DuckDBTypeId.STRUCT, DuckDBTypeId.MAP,
    DuckDBTypeId.VARIANT, DuckDBTypeId.UNION].includes(type.typeId);
}

function parseArgs(argv) {
  const args = { file: null, sql: null, columns: false, types: false };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--sql') {
      if (i + 1 >= argv.length) throw new Error('--sql needs a query');
      args.sql = argv[++i];
    } else if (a === '--columns') {
      args.columns = true;
    } else if (a === '--types') {
      args.types = true;
    } else if (a.startsWith('--')) {
      throw new Error(`unknown option ${a}`);
    } else if (args.file === null) {
      args.file = a;
    } else {
      throw new Error(`unexpected argument ${a}`);
    }
  }
  if ((args.file === null) === (args.sql === null)) throw new Error('give either FILE or --sql QUERY');
  return args;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`duckdb_dump: ${e.message}\n` +
      'usage: node tools/duckdb_dump.mjs (FILE.parquet | --sql QUERY) [--columns] [--types]\n');
    process.exit(2);
  }
  let result;
  try {
    result = await readWithDuckDB(args.sql ?? parquetQuery(args.file));
  } catch (e) {
    process.stderr.write(`duckdb_dump: DuckDB error: ${e.message}\n`);
    process.exit(1);
  }
  const out = [];
  if (args.columns) out.push(JSON.stringify(result.names));
  if (args.types) out.push(JSON.stringify(result.types.map(String)));
  for (const row of result.rows) out.push(JSON.stringify(row.map((v) => normalizeValue(v))));
  process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
