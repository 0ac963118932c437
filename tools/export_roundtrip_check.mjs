#!/usr/bin/env node
// export_roundtrip_check: a file read through a parquet table and exported again with no schema=
// must give DuckDB the same schema and the same values (ctest duckdb_export_roundtrip).
//
//   node tools/export_roundtrip_check.mjs [--ext build/parquet] [--sqlite3 sqlite3] [--rows 20000]
//                                         [--keep DIR] [--max-diffs 5]
//
// 1. DuckDB (@duckdb/node-api) writes source files of --rows rows (several row groups) from its own
//    functions: every integer width signed and unsigned, FLOAT, DOUBLE, BOOLEAN, VARCHAR, BLOB, JSON,
//    UUID, DATE, TIME, TIMESTAMP in each unit, TIMESTAMP WITH TIME ZONE, INTERVAL, DECIMAL held in INT32, INT64
//    and FIXED_LEN_BYTE_ARRAY (DECIMAL(38,4) with values a double cannot hold, such as
//    549757628845.2392), LIST, MAP and STRUCT of those, nested in each other, with NULLs; plus the
//    fixture tests/data/types.parquet (DuckDB's, legacy annotations) without its UINT64 column
//    (values above 2^63-1 read as REAL, which no integer type takes back); and the conformance file float16_nonzeros_and_nans.parquet
//    (FLOAT16, which DuckDB reads as FLOAT, comes back as FLOAT; NaN reads as NULL through SQLite, so
//    the source's NaNs are compared as NULLs).
// 2. The extension reads each through a table and exports it:
//      CREATE VIRTUAL TABLE temp.t USING parquet('a.parquet');
//      SELECT parquet_export('b.parquet', 'SELECT * FROM t');
//    once with the default table options and once with decimal=text, timestamp=integer.
// 3. DuckDB reads both files: DESCRIBE must list the same column names and types, and every row
//    (to_json of the whole row, in file order) must be the same; DECIMAL sums must be equal to the
//    last digit.
// Exit status 0 when every check passes; otherwise the differences are printed and the status is 1.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { inWorkDir, parseCheckArgs, runWithExtension } from './duckdb_check_util.mjs';
import { sqlString } from './duckdb_dump.mjs';

function parseArgs(argv) {
  const a = parseCheckArgs(argv, { rows: 20000 }, {
    '--rows': (v, args) => { args.rows = Number(v); },
  });
  if (!Number.isInteger(a.rows) || a.rows < 100) throw new Error('--rows must be an integer >= 100');
  return a;
}

// The source files: name -> the SELECT DuckDB writes (over range(rows) AS r(i)). Every column is
// NULL on some rows.
function sources(rows) {
  const n = (e) => `CASE WHEN i % 13 = 7 THEN NULL ELSE ${e} END`;
  const flat = [
    `${n('(i % 256 - 128)::TINYINT')} AS i8`, `${n('(i * 7 % 65536 - 32768)::SMALLINT')} AS i16`,
    `${n('(i * 2654435761 % 4294967296 - 2147483648)::INTEGER')} AS i32`,
    `${n('((hash(i) >> 1)::BIGINT - 4611686018427387904) * 2 + (i % 2)')} AS i64`, `${n('(i % 256)::UTINYINT')} AS u8`,
    `${n('(i * 7 % 65536)::USMALLINT')} AS u16`, `${n('(i * 2654435761 % 4294967296)::UINTEGER')} AS u32`,
    `${n('(hash(i) >> 1)::UBIGINT')} AS u64`,
    `${n('(i / 7.0 - 1000)::FLOAT')} AS f32`, `${n('(i / 3.0 - 1e6)::DOUBLE')} AS f64`,
    `${n('i % 3 = 0')} AS flag`, `${n("'name ' || (i * 16807 % 5000)")} AS name`,
    `${n("('\\x' || lpad(to_hex(i % 65536), 4, '0'))::BLOB")} AS bytes`,
    `${n("('{\"a\":' || i || ',\"b\":[1,2]}')::JSON")} AS doc`,
    `${n("('00000000-0000-4000-8000-' || lpad(to_hex(i * 2654435761 % 281474976710656), 12, '0'))::UUID")} AS id`,
    `${n("DATE '1969-06-01' + (i * 37 % 40000)::INTEGER")} AS day`,
    `${n("TIME '00:00:00' + to_microseconds((i * 1234567891 % 86400000000)::BIGINT)")} AS tod`,
    `${n("make_timestamp((i * 1234567891234 % 4000000000000000)::BIGINT)")} AS ts_us`,
    `${n("make_timestamp((i * 1234567891234 % 4000000000000000)::BIGINT)::TIMESTAMP_MS")} AS ts_ms`,
    `${n("make_timestamp_ns((hash(i) % 4000000000000000000)::BIGINT)")} AS ts_ns`,
    `${n("make_timestamp((i * 987654321987 % 4000000000000000)::BIGINT)::TIMESTAMPTZ")} AS ts_tz`,
    `${n('((i * 7919 % 19999) - 9999) / 100')}::DECIMAL(4,2) AS dec4`,
    `${n('((i * 104729 % 1999999999999) - 999999999999) / 1000')}::DECIMAL(18,3) AS dec18`,
    `${n("(549757628845.2392 + i * 1000003.0001 - 5000000000)")}::DECIMAL(38,4) AS dec38`,
    `${n("to_months((i % 500)::INTEGER) + to_days((i * 7 % 40)::INTEGER) + to_milliseconds((i * 7919 % 90000000)::BIGINT)")} AS span`,
  ];
  const nested = [
    `${n('[i, NULL, i * 2]')} AS ints`,
    `${n("[{'at': make_timestamp((i * 86400000000)::BIGINT)::TIMESTAMPTZ, 'price': (i / 100)::DECIMAL(10,2)}, NULL]")} AS events`,
    `${n("MAP {'k' || (i % 5): i / 4.0, 'z': NULL}")} AS scores`,
    `${n("{'day': DATE '2024-01-01' + (i % 366)::INTEGER, 'tags': ['x', NULL, 'y' || i], 'u': ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::UUID}")} AS info`,
    `${n('[[i], [], NULL, [i + 1, NULL]]')} AS lists`,
  ];
  return {
    'flat.parquet': `SELECT i AS row_id, ${flat.join(', ')} FROM range(${rows}) AS r(i)`,
    'nested.parquet': `SELECT i AS row_id, ${nested.join(', ')} FROM range(${rows}) AS r(i)`,
  };
}

async function withDuckDB(body) {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    return await body(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function rowsOf(connection, sql) {
  return (await connection.runAndReadAll(sql)).getRows();
}

// The differences between DuckDB's view of file a and of file b (empty: the same).
async function compareFiles(connection, a, b, maxDiffs) {
  const diffs = [];
  const describe = async (f) => (await rowsOf(connection, `DESCRIBE SELECT * FROM read_parquet(${sqlString(f)})`))
    .map((r) => `${r[0]} ${r[1]}`);
  const [da, db] = [await describe(a), await describe(b)];
  if (da.join('\n') !== db.join('\n')) {
    diffs.push(`schemas differ:\n    ${path.basename(a)}: ${da.join(', ')}\n    ${path.basename(b)}: ${db.join(', ')}`);
    return diffs;
  }
  // NaN reads as NULL through SQLite (the value mapping), so the source's NaNs are compared as NULLs.
  const columns = da.map((d) => {
    const [name, type] = d.split(' ');
    return type === 'FLOAT' || type === 'DOUBLE' ? `CASE WHEN isnan("${name}") THEN NULL ELSE "${name}" END AS "${name}"` : `"${name}"`;
  }).join(', ');
  const json = async (f) => (await rowsOf(connection,
    `SELECT to_json(t)::VARCHAR FROM (SELECT ${columns} FROM read_parquet(${sqlString(f)})) t`)).map((r) => r[0]);
  const [ja, jb] = [await json(a), await json(b)];
  if (ja.length !== jb.length) diffs.push(`${ja.length} rows, then ${jb.length}`);
  for (let r = 0; r < Math.min(ja.length, jb.length) && diffs.length < maxDiffs; ++r) {
    if (ja[r] !== jb[r]) diffs.push(`row ${r}:\n    ${ja[r]}\n    ${jb[r]}`);
  }
  for (const [name, type] of db.map((d) => d.split(' '))) {
    if (!/^DECIMAL/.test(type)) continue;
    const sum = async (f) => String((await rowsOf(connection, `SELECT sum(${name})::VARCHAR FROM read_parquet(${sqlString(f)})`))[0][0]);
    const [sa, sb] = [await sum(a), await sum(b)];
    if (sa !== sb) diffs.push(`sum(${name}): ${sa}, then ${sb}`);
  }
  return diffs;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let failed = 0;
  let passed = 0;
  await inWorkDir(args, 'pq-export-roundtrip-', async (dir) => {
    await withDuckDB(async (connection) => {
      const files = [];
      for (const [name, query] of Object.entries(sources(args.rows))) {
        const file = path.join(dir, name);
        await connection.run(`COPY (${query}) TO ${sqlString(file)} (FORMAT parquet, ROW_GROUP_SIZE 6000)`);
        files.push({ file });
      }
      const fixture = path.resolve('tests/data/types.parquet');
      const kept = (await rowsOf(connection, `DESCRIBE SELECT * FROM read_parquet(${sqlString(fixture)})`))
        .map((r) => String(r[0])).filter((c) => c !== 'u64');
      // DuckDB reads the fixture's kept columns from a copy of just those, so both sides hold them.
      const fixtureCopy = path.join(dir, 'types.parquet');
      await connection.run(`COPY (SELECT ${kept.join(', ')} FROM read_parquet(${sqlString(fixture)})) TO ${sqlString(fixtureCopy)} (FORMAT parquet)`);
      files.push({ file: fixtureCopy });
      // FLOAT16 (which DuckDB reads as FLOAT, and does not write) is written back as FLOAT.
      files.push({ file: path.resolve('tests/data/parquet-testing/data/float16_nonzeros_and_nans.parquet') });
      for (const options of ['', ", decimal=text, timestamp=integer"]) {
        for (const { file } of files) {
          const out = path.join(dir, path.basename(file).replace(/\.parquet$/, `.again${options ? '-options' : ''}.parquet`));
          const label = `${path.basename(file)}${options ? ` (${options.slice(2)})` : ''}`;
          const r = runWithExtension(args, ':memory:',
            `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)}${options});\n` +
            `SELECT parquet_export(${sqlString(out)}, 'SELECT * FROM t');`);
          if (r.status !== 0) {
            console.log(`FAIL ${label}: export failed: ${(r.stderr || r.stdout).trim()}`);
            ++failed;
            continue;
          }
          const diffs = await compareFiles(connection, file, out, args.maxDiffs);
          if (diffs.length) {
            console.log(`FAIL ${label}:\n  ${diffs.join('\n  ')}`);
            ++failed;
          } else {
            console.log(`ok   ${label}: ${r.stdout.trim()} rows, same schema and values`);
            ++passed;
          }
        }
      }
    });
  });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
