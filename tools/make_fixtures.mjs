#!/usr/bin/env node
// make_fixtures: writes the Parquet files under tests/data/ that the SQL tests read, with DuckDB (an
// independent writer), for types the conformance files do not hold: unsigned integers, UUID, TIME and
// TIMESTAMP in every unit, INTERVAL, ENUM, JSON, decimals on INT32/INT64/FIXED_LEN_BYTE_ARRAY, nested
// lists, maps and structs; and a file in DuckDB's PARQUET_VERSION V2 with its quirks (below). The
// files are committed; run this again only to change them:
//   node tools/make_fixtures.mjs
import { DuckDBInstance } from '@duckdb/node-api';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = (name) => path.join(root, 'tests', 'data', name);

const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const db = await instance.connect();
await db.run(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`);
await db.run(`
CREATE TABLE types AS SELECT * FROM (VALUES
  (1, 255::UTINYINT, 65535::USMALLINT, 4294967295::UINTEGER, 18446744073709551615::UBIGINT,
   (-128)::TINYINT, (-32768)::SMALLINT,
   12.34::DECIMAL(4,2), -123456789012.345::DECIMAL(18,3), 12345678901234567890.1234567890::DECIMAL(38,10),
   '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID, DATE '2024-02-29', TIME '13:45:30.123456',
   TIMESTAMP_MS '2024-02-29 13:45:30.123', TIMESTAMP '2024-02-29 13:45:30.123456',
   TIMESTAMP_NS '2024-02-29 13:45:30.123456789', TIMESTAMPTZ '2024-02-29 13:45:30.5+00',
   INTERVAL '1 year 2 months 3 days 4 seconds', 'happy'::mood, '{"a": [1, 2]}'::JSON,
   'héllo', '\\x00\\xFF'::BLOB, 1.5::FLOAT, 2.25::DOUBLE, true),
  (2, 0::UTINYINT, 0::USMALLINT, 0::UINTEGER, 9223372036854775807::UBIGINT,
   127::TINYINT, 32767::SMALLINT,
   -0.05::DECIMAL(4,2), 0::DECIMAL(18,3), -0.0000000001::DECIMAL(38,10),
   '00000000-0000-0000-0000-000000000000'::UUID, DATE '1969-12-31', TIME '00:00:00',
   TIMESTAMP_MS '1969-12-31 23:59:59.999', TIMESTAMP '1970-01-01 00:00:00',
   TIMESTAMP_NS '1900-01-01 00:00:00.000000001', TIMESTAMPTZ '2000-01-01 00:00:00+00',
   INTERVAL '0 days', 'sad'::mood, '[]'::JSON,
   '', ''::BLOB, 'NaN'::FLOAT, '-inf'::DOUBLE, false),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
) v(id, u8, u16, u32, u64, i8, i16, dec_i32, dec_i64, dec_flba, uuid, d, t, ts_ms, ts_us, ts_ns, ts_tz,
    iv, mood, js, s, b, f, dbl, bool)`);
await db.run(`COPY types TO '${out('types.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);

await db.run(`
CREATE TABLE nested AS SELECT * FROM (VALUES
  (1, [1, 2, NULL], ['a', 'b'], {'x': 1, 'y': 'one'}, MAP {'k1': 10, 'k2': NULL}, [[1], [], NULL, [2, 3]],
   [{'p': 1, 'q': [true, false]}], MAP {1: 'int key'}),
  (2, [], NULL, {'x': NULL, 'y': NULL}, MAP {}, NULL, [], NULL),
  (3, NULL, [NULL], NULL, NULL, [[]], [NULL, {'p': NULL, 'q': NULL}], MAP {-5: NULL})
) v(id, ints, strs, st, mp, lol, los, intmap)`);
await db.run(`COPY nested TO '${out('nested.parquet')}' (FORMAT parquet)`);
// What DuckDB writes with PARQUET_VERSION V2 and for fixed-size ARRAYs: INT32 columns delta-encoded
// with 33-bit miniblocks (its deltas are computed in 64 bits), a NULL ARRAY written as one level
// entry per array position, and infinities inside lists.
await db.run(`
CREATE TABLE v2 AS SELECT
  i AS id,
  CASE WHEN i % 2 = 0 THEN -2147483648 + i ELSE 2147483647 - i END::INTEGER AS i32,
  (i * 2654435761 % 4294967296)::UINTEGER AS u32,
  (CASE WHEN i % 5 = 1 THEN NULL ELSE [i, -i] END)::INTEGER[2] AS arr,
  (CASE WHEN i % 7 = 3 THEN NULL
        ELSE [CASE WHEN i % 3 = 0 THEN NULL ELSE [i, i + 1] END, [i * 2, NULL]] END)::INTEGER[2][] AS arrs,
  CASE WHEN i % 4 = 0 THEN ['inf'::DOUBLE, -0.5, '-inf'::DOUBLE] WHEN i % 4 = 1 THEN ['nan'::DOUBLE] ELSE [i / 8] END AS dbls,
  'text ' || (i * 7 % 100) AS s
FROM range(1000) t(i)`);
await db.run(`COPY v2 TO '${out('duckdb_v2.parquet')}' (FORMAT parquet, PARQUET_VERSION V2, COMPRESSION zstd)`);
console.log('wrote tests/data/types.parquet, tests/data/nested.parquet and tests/data/duckdb_v2.parquet');
