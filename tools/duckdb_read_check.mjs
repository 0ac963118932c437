// Reads the files tests/format/writer/file_writer_test.cc (ExportFilesForIndependentReaders)
// writes with PQ_WRITER_EXPORT_DIR set, with DuckDB as an independent reader, and compares
// aggregates of every column with the values recomputed from the row numbers.
//
//   PQ_WRITER_EXPORT_DIR=/tmp/pqx build/test_format_writer --gtest_filter='*Export*'
//   node tools/duckdb_read_check.mjs /tmp/pqx/*.parquet
import { DuckDBInstance } from '@duckdb/node-api';

const N = 10000;
function expected() {
  let optCount = 0, optSum = 0, dSum = 0, sCount = 0, sLen = 0, uLen = 0, bTrue = 0, decSum = 0;
  let lNull = 0, lEmpty = 0, lElems = 0, lNullElems = 0, lSum = 0, tsMin = null, tsMax = null;
  for (let i = 0; i < N; i++) {
    if (i % 7 !== 0) { optCount++; optSum += i * 3 - 5000; }
    dSum += i * 0.5;
    if (i % 13 !== 0) { sCount++; sLen += ('str' + (i % 100)).length; }
    uLen += ('unique-' + i).length;
    if (i % 3 === 0) bTrue++;
    decSum += i * 7;
    if (i % 11 === 0) lNull++;
    else if (i % 5 === 0) lEmpty++;
    else for (let k = 0; k < i % 5; k++) { lElems++; if (k === 2) lNullElems++; else lSum += i + k; }
  }
  return {
    rows: N, id_sum: (N - 1) * N / 2, opt_count: optCount, opt_sum: optSum, d_sum: dSum,
    s_count: sCount, s_len: sLen, s_distinct: 100, u_len: uLen, u_distinct: N, b_true: bTrue,
    dec_sum: (decSum / 100).toFixed(2), l_null: lNull, l_empty: lEmpty, l_elems: lElems,
    l_null_elems: lNullElems, l_sum: lSum,
    ts_min: '2023-11-14 22:13:20+00', ts_max: '2023-11-14 22:13:29.999+00',
  };
}

const query = (file) => `
  SELECT count(*) AS rows, sum(id) AS id_sum, count(opt_i32) AS opt_count, sum(opt_i32) AS opt_sum,
         sum(d) AS d_sum, count(s) AS s_count, sum(length(s)) AS s_len, count(DISTINCT s) AS s_distinct,
         sum(length(u)) AS u_len, count(DISTINCT u) AS u_distinct, sum(b::INT) AS b_true,
         sum(dec)::VARCHAR AS dec_sum, count(*) FILTER (WHERE l IS NULL) AS l_null,
         count(*) FILTER (WHERE len(l) = 0) AS l_empty, sum(len(l)) AS l_elems,
         sum(len(list_filter(l, x -> x IS NULL))) AS l_null_elems, sum(list_sum(l)) AS l_sum,
         strftime(min(ts) AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S') || '+00' AS ts_min,
         strftime(max(ts) AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S.%g') || '+00' AS ts_max
  FROM read_parquet('${file}')`;

// edge_v*.parquet: all-null columns, DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT,
// RLE booleans, UUID, FLOAT16; 3000 rows.
const M = 3000;
function expectedEdge() {
  let delta = 0n, bss = 0;
  for (let i = 0; i < M; i++) { delta += BigInt(i * i - 1000); bss += i * 0.25; }
  return { rows: M, nul_i32: 0, nul_s: 0, delta_sum: delta, dba_distinct: 1000, bss_sum: bss,
           flag_true: 750, uuid_distinct: M, uuid_last: '00000000-0000-0000-0000-000000000bb7',
           half_sum: -1500 };
}
const edgeQuery = (file) => `
  SELECT count(*) AS rows, count(nul_i32) AS nul_i32, count(nul_s) AS nul_s, sum(delta_i64) AS delta_sum,
         count(DISTINCT dba) AS dba_distinct, sum(bss) AS bss_sum, sum(flag::INT) AS flag_true,
         count(DISTINCT uuid) AS uuid_distinct, max(uuid)::VARCHAR AS uuid_last, sum(half) AS half_sum
  FROM read_parquet('${file}')`;

const want = expected();
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
let failures = 0;
for (const file of process.argv.slice(2)) {
  const edge = /edge_[^/]*\.parquet$/.test(file);
  const wantHere = edge ? expectedEdge() : want;
  let got;
  try {
    const reader = await con.runAndReadAll(edge ? edgeQuery(file) : query(file));
    got = reader.getRowObjectsJson()[0];
  } catch (e) {
    console.log(`FAIL ${file}: ${e.message}`);
    failures++;
    continue;
  }
  const bad = Object.keys(wantHere).filter((k) => String(got[k]) !== String(wantHere[k]));
  if (bad.length) {
    failures++;
    console.log(`FAIL ${file}: ` + bad.map((k) => `${k}: got ${got[k]} want ${wantHere[k]}`).join('; '));
  } else if (edge) {
    console.log(`ok   ${file}`);
  } else {
    // Pruning metadata DuckDB reads too: a Bloom-filtered equality and the row group statistics.
    const hit = await con.runAndReadAll(`SELECT count(*) AS n FROM read_parquet('${file}') WHERE u = 'unique-4242'`);
    const meta = await con.runAndReadAll(
      `SELECT count(*) AS chunks, count(*) FILTER (WHERE bloom_filter_offset IS NOT NULL) AS blooms,
              min(stats_min_value) FILTER (WHERE path_in_schema = 'id') AS id_min
       FROM parquet_metadata('${file}')`);
    const m = meta.getRowObjectsJson()[0];
    console.log(`ok   ${file}  (u = 'unique-4242': ${hit.getRowObjectsJson()[0].n} row; chunks ${m.chunks}, ` +
                `with Bloom filter ${m.blooms}, id min ${m.id_min})`);
  }
}
process.exit(failures ? 1 : 0);
