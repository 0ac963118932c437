#!/usr/bin/env node
// A stand-in for `sqlite3` that checks compare_with_duckdb.mjs itself, without the extension.
//
// It reads the script compare_with_duckdb.mjs sends (".load ...", "CREATE VIRTUAL TABLE temp.t USING
// parquet('F')", a query), reads F with DuckDB instead, stores every value in a plain temp table the
// way the value mapping in docs/reading.md says the extension returns it, and runs the rest of the
// script in the real sqlite3 shell. Comparing through it must give OK for every file DuckDB reads;
// with FAKE_MUTATE=1 one value per file is changed, and the comparison must report MISMATCH.
//
//   node tools/compare_with_duckdb.mjs --sqlite3 tools/selfcheck/fake_sqlite3.sh --ext /dev/null --all

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DuckDBTypeId } from '@duckdb/node-api';
import { isNestedType, normalizeValue, parquetQuery, readWithDuckDB, sqlString } from '../duckdb_dump.mjs';

/** JSON text in which digit strings standing for big integers are written as numbers. */
function jsonText(v, type) {
  if (v === null) return 'null';
  if (typeof v === 'string' && /^-?\d+$/.test(v) && type && isIntegerType(type)) return v;
  if (Array.isArray(v)) return `[${v.map((x) => jsonText(x, type?.valueType)).join(',')}]`;
  if (typeof v === 'object' && typeof v.hex === 'string' && Object.keys(v).length === 1) {
    return JSON.stringify(v.hex);
  }
  if (typeof v === 'object') {
    const fieldType = (k) => (type?.typeId === DuckDBTypeId.STRUCT ? type.typeForEntry(k)
      : type?.typeId === DuckDBTypeId.MAP ? type.valueType : undefined);
    return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x, fieldType(k))}`).join(',')}}`;
  }
  if (v === 'Infinity' || v === '-Infinity') return v === 'Infinity' ? '1e999' : '-1e999';
  return JSON.stringify(v);
}

function isIntegerType(type) {
  return [DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER, DuckDBTypeId.BIGINT,
    DuckDBTypeId.UTINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER, DuckDBTypeId.UBIGINT]
    .includes(type.typeId);
}

function realLiteral(n) {
  if (n === 'Infinity') return '1e999';
  if (n === '-Infinity') return '-1e999';
  const text = Number(n).toPrecision(17);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** The SQL literal of a normalized DuckDB value as the extension would return it. */
function sqlLiteral(v, type, mutate) {
  if (v === null) return 'NULL';
  const id = type.typeId;
  if (id === DuckDBTypeId.BOOLEAN || isIntegerType(type)) {
    let n = BigInt(v);
    if (mutate) n += 1n;
    return n > 9223372036854775807n ? realLiteral(Number(n)) : String(n);
  }
  if ([DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE, DuckDBTypeId.DECIMAL].includes(id)) {
    return realLiteral(mutate ? Number(v) + 1 : v);
  }
  if (id === DuckDBTypeId.BLOB || id === DuckDBTypeId.GEOMETRY) return `X'${v.hex}${mutate ? 'ff' : ''}'`;
  if (isNestedType(type) || id === DuckDBTypeId.INTERVAL) {
    return sqlString(jsonText(mutate ? [v] : v, mutate ? { typeId: DuckDBTypeId.LIST, valueType: type } : type));
  }
  return sqlString(mutate ? `${v}x` : v);
}

const script = readFileSync(0, 'utf8');
const create = /CREATE VIRTUAL TABLE temp\.t USING parquet\('((?:[^']|'')*)'\);\n/.exec(script);
let sql = script.replace(/^\.load .*\n/, '');
if (create) {
  const file = create[1].replaceAll("''", "'");
  let table;
  try {
    table = await readWithDuckDB(parquetQuery(file));
  } catch (e) {
    process.stderr.write(`Parse error near line 2: fake: DuckDB cannot read it: ${e.message.split('\n')[0]}\n`);
    process.exit(1);
  }
  const columns = table.names.map((n) => `"${n.replaceAll('"', '""')}"`);
  const statements = [`CREATE TEMP TABLE t(${columns.join(', ')});`];
  const mutateRow = process.env.FAKE_MUTATE ? table.rows.length - 1 : -1;
  table.rows.forEach((row, r) => {
    let mutate = r === mutateRow;
    const literals = row.map((raw, c) => {
      const v = normalizeValue(raw);
      const literal = sqlLiteral(v, table.types[c], mutate && v !== null);
      if (v !== null) mutate = false;
      return literal;
    });
    statements.push(`INSERT INTO temp.t VALUES (${literals.join(', ')});`);
  });
  sql = sql.replace(create[0], `BEGIN;\n${statements.join('\n')}\nCOMMIT;\n`);
}
const result = spawnSync('sqlite3', process.argv.slice(2), { input: sql, encoding: 'utf8', maxBuffer: 1 << 30 });
// Set the exit code rather than calling process.exit(), which would cut off output still in the pipe.
process.stdout.write(result.stdout ?? '');
process.stderr.write(result.stderr ?? '');
process.exitCode = result.status ?? 1;
