#!/usr/bin/env node
// conformance_roundtrip_check: every conformance file DuckDB can read, read by the extension and
// exported again with a schema= derived from the file's own schema, must give a file DuckDB reads
// with the same column types and the same values (ctest duckdb_conformance_roundtrip).
//
//   node tools/conformance_roundtrip_check.mjs [--ext build/parquet] [--sqlite3 sqlite3] [--keep DIR]
//                                               FILE.parquet ...
//
// For each file:
//   1. DuckDB reads it (read_parquet). A file DuckDB cannot read is listed and skipped.
//   2. The extension's parquet_schema(FILE) gives the schema tree; each top-level field becomes a
//      schema= entry naming the writer's type for it (writerType below): the physical and logical
//      types as the writer spells them (INT32 -> INT32, TIMESTAMP(false, NANOS) ->
//      TIMESTAMP_NTZ(NANOS), FIXED_LEN_BYTE_ARRAY(12) INTERVAL -> INTERVAL, GEOMETRY(crs) ->
//      GEOMETRY('crs'), VARIANT -> VARIANT, LIST/MAP/structs nested, the legacy list forms and
//      unannotated repeated fields -> LIST<...>).
//   3. The extension reads the file (decimal=text and variant=binary, so that no value is rounded
//      or loses its Variant types; verify_checksums=0, as DuckDB reads without checking them) and
//      parquet_export writes it with that schema=.
//   4. DuckDB reads both files: every column must have the same name and type (DESCRIBE) and every
//      row the same values (exact decimals, doubles by value, BLOBs by bytes, nested values
//      recursively).
// What cannot hold is listed in EXCEPTIONS with the reason, and the check makes sure the exception
// is still needed (a listed file that round-trips is reported, so the list stays true).
// Exit status 0 when every file round-trips or is a listed exception; otherwise each difference is
// printed and the status is 1.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { inWorkDir, parseCheckArgs, run } from './duckdb_check_util.mjs';
import { normalizeValue, readWithDuckDB, sqlString } from './duckdb_dump.mjs';

const files = [];
const args = parseCheckArgs(process.argv.slice(2).filter((a, k, all) => {
  const isOption = a.startsWith('--') || (k > 0 && all[k - 1].startsWith('--'));
  if (!isOption) files.push(a);
  return isOption;
}), {}, {});
if (files.length === 0) {
  for (const sub of ['tests/data/parquet-testing/data', 'tests/data/parquet-testing/data/geospatial',
    'tests/data/parquet-testing/shredded_variant']) {
    for (const f of readdirSync(sub)) if (f.endsWith('.parquet')) files.push(path.join(sub, f));
  }
}

// File (its name) -> why it cannot round-trip. Each must still fail, for the reason given.
const EXCEPTIONS = {
  // Invalid shreddings (the conformance cases that expect an error, or that readers may refuse):
  // DuckDB reads them anyway; the extension refuses them, as the shredding spec lets readers do.
  'case-040.parquet': 'an invalid Variant shredding (conflicting value and typed_value) that the extension refuses to read',
  'case-042.parquet': 'an invalid Variant shredding (conflicting value and typed_value) that the extension refuses to read',
  'case-043-INVALID.parquet': 'an invalid Variant shredding (a field both shredded and in value) that the extension refuses to read',
  // NaN: the table reads a NaN as NULL (SQLite stores NaN as NULL), so the copy holds NULL there.
  'nan_in_stats.parquet': 'a NaN reads as NULL, so the copy holds NULL where the file holds NaN',
  'float16_nonzeros_and_nans.parquet': 'a NaN reads as NULL, so the copy holds NULL where the file holds NaN',
  'float16_zeros_and_nans.parquet': 'a NaN reads as NULL, so the copy holds NULL where the file holds NaN',
};

const report = { roundTripped: [], skipped: [], exceptions: [], failures: [] };

function sqliteJson(sql) {
  const r = run(args.sqlite3, ['-bail', '-json', '-cmd', `.load ${args.ext}`, ':memory:', sql]);
  if (r.status !== 0) throw new Error((r.stderr || r.stdout).trim());
  return r.stdout.trim() ? JSON.parse(r.stdout) : [];
}

// ---------------------------------------------------------------------------------------------------
// The schema tree and the writer's type names.

function buildTree(rows) {
  let i = 0;
  const node = () => {
    const r = rows[i++];
    const n = { ...r, children: [] };
    for (let k = 0; k < (r.num_children ?? 0); ++k) n.children.push(node());
    return n;
  };
  return node();
}

function quoteName(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The logical type text's alternative ("TimestampType") and its fields. */
function logicalOf(n) {
  const text = n.logical_type ?? '';
  const m = /^(\w+)\((.*)\)$/.exec(text);
  return m ? { kind: m[1], text } : { kind: '', text };
}

class Unwritable extends Error {}

function unit(text) {
  if (/MILLIS/.test(text)) return 'MILLIS';
  if (/NANOS/.test(text)) return 'NANOS';
  return 'MICROS';
}

/** The writer's type name for a leaf (repetition aside). */
function leafType(n) {
  const lt = logicalOf(n);
  const ct = n.converted_type;
  const decimal = () => `DECIMAL(${n.precision},${n.scale})`;
  if (lt.kind === 'DecimalType' || ct === 'DECIMAL') return decimal();
  switch (n.type) {
    case 'BOOLEAN': return 'BOOLEAN';
    case 'INT32':
      if (lt.kind === 'DateType' || ct === 'DATE') return 'DATE';
      if (lt.kind === 'TimeType') return `${/isAdjustedToUTC=1/.test(lt.text) ? 'TIMETZ' : 'TIME'}(MILLIS)`;
      if (ct === 'TIME_MILLIS') return 'TIMETZ(MILLIS)';
      if (lt.kind === 'IntType' || /^U?INT_/.test(ct ?? '')) {
        const bits = lt.kind === 'IntType' ? Number(/bitWidth=(\d+)/.exec(lt.text)[1]) : Number(/(\d+)$/.exec(ct)[1]);
        const signed = lt.kind === 'IntType' ? /isSigned=1/.test(lt.text) : !ct.startsWith('U');
        return { 8: signed ? 'TINYINT' : 'UTINYINT', 16: signed ? 'SMALLINT' : 'USMALLINT', 32: signed ? 'INT32' : 'UINTEGER' }[bits];
      }
      if (lt.kind === 'NullType') return 'UNKNOWN';
      return 'INT32';
    case 'INT64':
      if (lt.kind === 'TimestampType') return `${/isAdjustedToUTC=1/.test(lt.text) ? 'TIMESTAMP' : 'TIMESTAMP_NTZ'}(${unit(lt.text)})`;
      if (ct === 'TIMESTAMP_MILLIS' || ct === 'TIMESTAMP_MICROS') return `TIMESTAMP(${ct.endsWith('MILLIS') ? 'MILLIS' : 'MICROS'})`;
      if (lt.kind === 'TimeType') return `${/isAdjustedToUTC=1/.test(lt.text) ? 'TIMETZ' : 'TIME'}(${unit(lt.text)})`;
      if (ct === 'TIME_MICROS') return 'TIMETZ(MICROS)';
      if ((lt.kind === 'IntType' && /isSigned=0/.test(lt.text)) || ct === 'UINT_64') return 'UBIGINT';
      return 'INTEGER';
    // DuckDB reads INT96 as TIMESTAMP (microseconds): the writer's local microsecond timestamp.
    case 'INT96': return 'TIMESTAMP_NTZ(MICROS)';
    case 'FLOAT': return 'FLOAT4';
    case 'DOUBLE': return 'REAL';
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      switch (lt.kind) {
        case 'StringType': return 'TEXT';
        case 'EnumType': return 'ENUM';
        case 'JsonType': return 'JSON';
        case 'BsonType': return 'BSON';
        case 'UUIDType': return 'UUID';
        case 'Float16Type': return 'FLOAT16';
        case 'GeometryType':
        case 'GeographyType': {
          const crs = /crs=(.*?)(, algorithm=|\)$)/.exec(lt.text)[1];
          const algorithm = /algorithm=(\w+)/.exec(lt.text)?.[1];
          const params = [];
          if (crs !== '<null>') params.push(sqlString(crs));
          if (algorithm && algorithm !== '<null>') params.push(algorithm);
          return `${lt.kind === 'GeometryType' ? 'GEOMETRY' : 'GEOGRAPHY'}${params.length ? `(${params.join(', ')})` : ''}`;
        }
        default: break;
      }
      if (ct === 'UTF8') return 'TEXT';
      if (ct === 'ENUM') return 'ENUM';
      if (ct === 'JSON') return 'JSON';
      if (ct === 'BSON') return 'BSON';
      if (ct === 'INTERVAL') return 'INTERVAL';
      if (lt.kind === 'NullType') throw new Unwritable('an UNKNOWN (always NULL) column');
      return 'BLOB';
    default: throw new Unwritable(`physical type ${n.type}`);
  }
}

/** The writer's type of node n (a field, element or value), repetition included. */
function writerType(n) {
  const lt = logicalOf(n);
  const repeatedAlone = n.repetition_type === 'REPEATED';
  let inner;
  if (n.children.length === 0) {
    inner = leafType(n);
  } else if (lt.kind === 'VariantType') {
    inner = 'VARIANT';
  } else if (lt.kind === 'ListType' || n.converted_type === 'LIST') {
    const r = n.children[0];
    // The 3-level form, or a legacy one whose repeated field is itself the element (the spec's
    // backward-compatibility rules).
    const threeLevel = r.children.length === 1 && r.children[0].repetition_type !== 'REPEATED' &&
                       r.name !== 'array' && r.name !== `${n.name}_tuple`;
    const element = threeLevel ? r.children[0] : { ...r, repetition_type: 'REQUIRED' };
    inner = `LIST<${writerType(element)}>`;
  } else if (lt.kind === 'MapType' || n.converted_type === 'MAP' || n.converted_type === 'MAP_KEY_VALUE') {
    const kv = n.children[0];
    if (kv.children.length !== 2) throw new Unwritable('a MAP without a value field');
    inner = `MAP<${writerType(kv.children[0])}, ${writerType(kv.children[1])}>`;
  } else {
    inner = `STRUCT<${n.children.map((c) => `${quoteName(c.name)} ${writerType(c)}`).join(', ')}>`;
  }
  return repeatedAlone ? `LIST<${inner}>` : inner;
}

// ---------------------------------------------------------------------------------------------------

async function duckRows(file) {
  const r = await readWithDuckDB(`SELECT * FROM read_parquet(${sqlString(file)})`);
  return {
    names: r.names,
    types: r.types.map(String),
    // NaN stays NaN (normalizeValue makes it null, as SQLite would): the copy must keep it apart
    // from NULL.
    rows: r.rows.map((row) => row.map((v) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN'
                                                                                          : normalizeValue(v, { decimalAsText: true })))),
  };
}

async function roundTrip(file, out) {
  const name = path.basename(file);
  let source;
  try {
    source = await duckRows(file);
  } catch (e) {
    report.skipped.push(`${file}: DuckDB cannot read it (${e.message.split('\n')[0]})`);
    return;
  }
  const problems = [];
  try {
    const tree = buildTree(sqliteJson(`SELECT * FROM parquet_schema(${sqlString(file)});`));
    const entries = tree.children.map((f) => `${quoteName(f.name)} ${writerType(f)}`);
    const columns = tree.children.map((f) => quoteName(f.name)).join(', ');
    const schema = entries.join(', ');
    // verify_checksums=0: DuckDB reads the files with damaged checksums; so does the copy.
    sqliteJson(`CREATE VIRTUAL TABLE temp.s USING parquet(${sqlString(file)}, decimal=text, variant=binary, verify_checksums=0);
SELECT parquet_export(${sqlString(out)}, ${sqlString(`SELECT ${columns} FROM s`)}, ${sqlString(`schema='${schema.replaceAll("'", "''")}'`)});`);
    const copy = await duckRows(out);
    if (JSON.stringify(copy.names) !== JSON.stringify(source.names)) {
      problems.push(`columns ${JSON.stringify(copy.names)}, the file has ${JSON.stringify(source.names)}`);
    }
    source.types.forEach((t, k) => {
      if (copy.types[k] !== t) problems.push(`column ${source.names[k]}: type ${copy.types[k]}, the file's is ${t}`);
    });
    if (copy.rows.length !== source.rows.length) problems.push(`${copy.rows.length} rows, the file has ${source.rows.length}`);
    for (let r = 0; r < Math.min(copy.rows.length, source.rows.length) && problems.length < 5; ++r) {
      const a = JSON.stringify(source.rows[r]), b = JSON.stringify(copy.rows[r]);
      if (a !== b) problems.push(`row ${r}: ${b.slice(0, 300)}, the file has ${a.slice(0, 300)}`);
    }
  } catch (e) {
    problems.push(e instanceof Unwritable ? `no writer type: ${e.message}` : e.message.split('\n')[0]);
  }
  const why = EXCEPTIONS[name];
  if (why) {
    if (problems.length) {
      report.exceptions.push(`${file}: ${why} (${problems[0].slice(0, 160)})`);
    } else {
      report.failures.push(`${file}: listed as an exception (${why}) but round-trips: remove it from EXCEPTIONS`);
    }
  } else if (problems.length) {
    report.failures.push(`${file}:\n    ${problems.join('\n    ')}`);
  } else {
    report.roundTripped.push(file);
  }
}

await inWorkDir(args, 'pq-roundtrip-', async (dir) => {
  let k = 0;
  for (const file of files) await roundTrip(file, path.join(dir, `copy_${k++}.parquet`));
});
console.log(`${report.roundTripped.length} files round-trip with the same types and values`);
console.log(`${report.skipped.length} files DuckDB cannot read:`);
for (const s of report.skipped) console.log(`  ${s}`);
console.log(`${report.exceptions.length} listed exceptions:`);
for (const s of report.exceptions) console.log(`  ${s}`);
console.log(`${report.failures.length} failures`);
for (const s of report.failures) console.log(`  ${s}`);
process.exit(report.failures.length ? 1 : 0);
