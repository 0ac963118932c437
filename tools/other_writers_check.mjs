#!/usr/bin/env node
// other_writers_check: Parquet files written by three other writers, read through the extension and
// checked against DuckDB and against a native SQLite copy of the same rows (ctest other_writers_check).
//
//   node tools/other_writers_check.mjs [--ext build/parquet.so] [--sqlite3 sqlite3] [--rows 2000]
//                                      [--terms 400] [--jobs 2] [--keep DIR] [--max-diffs 5]
//
// Why: the fixtures and the conformance files come from few writers, and every writer has its own
// page layouts, encodings, statistics and page index habits, and its own bugs. A reader that trusts
// metadata turns a writer's quirk into wrong answers that only a WHERE clause shows: nodejs-polars
// marks a page holding a NaN as a null page in its ColumnIndex (null_pages true, null_counts 0), and
// the extension skipped such pages for `f = 1.5` while a full scan read every value right. So this
// check looks both at values (full scans) and at filters (terms the extension pushes down).
//
// 1. Files, generated into a fresh temporary directory from fixed seeds (the same rows every run),
//    --rows rows each (default 2000), one column per type (flat tables) or lists, maps and structs
//    (nested tables); NULLs everywhere, extremes of every integer width, infinities, NaN, -0.0,
//    subnormals, long and non-ASCII text, columns always NULL:
//    - parquet-wasm 0.8.0 (arrow-rs) from apache-arrow 21.2.0 tables: every codec (LZ4 is the
//      deprecated codec, which arrow-rs frames the Hadoop way; LZ4_RAW the raw block) with data page
//      v1 and v2, dictionary on and off; statistics none / chunk / page with small row groups; tiny
//      pages and write batches; a dictionary that falls back to PLAIN; DELTA_BINARY_PACKED,
//      DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT forced per column; nested tables
//      with small pages; zero rows, one row, all NULL; durations.
//    - nodejs-polars 0.26.1: every codec, small row groups and pages with full statistics and without
//      statistics, nested tables, zero rows, and floats with NaN: a column with a NaN in every page,
//      columns with NaN in some pages only, and the three-row file that first showed the null-page
//      bug. Two more polars bugs the extension works around (statistics_range.cc):
//      - polars_nan_chunk_bounds: a chunk's min/max leave out the pages holding a NaN, so an
//        infinity beside a NaN lies outside the chunk's bounds (the row group was skipped).
//      - polars_dictionary_null_counts: with dictionary pages, every page's ColumnIndex null count
//        is the chunk's, and the chunk's is their sum (501 nulls in 500 rows), so IS NOT NULL
//        skipped the row group.
//      One is kept out of the data: a UINT64 above 2^63-1 gets a wrong chunk maximum (polars merges
//      page maxima with a signed compare); DuckDB is fooled the same way, no reader can tell. Polars
//      UINT64 values stay below 2^63.
//    - hyparquet-writer 0.17.0 (always data page v2): SNAPPY, GZIP, BROTLI and uncompressed; page
//      index, Bloom filters, statistics truncated to 4 bytes, no statistics, no dictionary, small row
//      groups and pages, DELTA_* and BYTE_STREAM_SPLIT per column; VARIANT (plain and shredded),
//      GEOMETRY and GEOGRAPHY.
// 2. Values: tools/compare_with_duckdb.mjs on every file (--ext and --sqlite3 passed through). DuckDB
//    cannot read LZ4 (Hadoop-framed), BYTE_STREAM_SPLIT on other types than FLOAT and DOUBLE, nor
//    hyparquet's VARIANT shredded by a given schema (see writeWithHyparquet): those files are given as
//    --expect-duckdb-fail, and instead the extension must read from each exactly what it reads from a
//    twin file holding the same rows in a form DuckDB checked.
// 3. Filters, on every flat table: about --terms WHERE terms per file, drawn with a fixed seed from
//    = < <= > >= != IS, IS NOT, IS NULL, IS NOT NULL, IN, NOT IN (with and without NULL), BETWEEN,
//    NOT BETWEEN, ranges, OR IS NULL, and LIKE / GLOB prefixes on text, with literals taken from the
//    data (min, max, median, rows at random), beside it (the next double up and down, +-1, text one
//    character longer or shorter or one code point higher, a blob one byte longer or shorter) and of
//    other types ('42' against integers, 'x' against reals, 5 against text, X'00' against anything).
//    Each term must select the same row ids from the parquet table as from `CREATE TABLE native AS
//    SELECT rowid, * FROM t`, where SQLite evaluates every term itself.
// 4. Shredded Variant fields, on hyparquet's VARIANT files: each hidden column `"v.<path>"` must hold
//    what `v ->> '$.<path>'` gives (value and type), and `=`, `<`, `>=` and IS against each of its
//    values must select the same rows as on `->>` (terms on the hidden column prune by the shredded
//    columns; the shredded_schema file has objects in `value` beside a null typed_value).
// Exit status 0 when every check passes; otherwise each failure is printed (the file, the query, and
// both answers) and the status is 1. The last line is "other_writers_check: N files, M failed (T s)".
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as A from 'apache-arrow';
import { parquetWriteFile } from 'hyparquet-writer';
import { inWorkDir, parseCheckArgs, seededRandom } from './duckdb_check_util.mjs';

const require = createRequire(import.meta.url);
const wasm = require('parquet-wasm/node');
const polars = require('nodejs-polars');

const TOOLS_DIR = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------------
// Arguments.

function parseArgs(argv) {
  const a = parseCheckArgs(argv, { rows: 2000, terms: 400, jobs: 2 }, {
    '--rows': (v, args) => { args.rows = Number(v); },
    '--terms': (v, args) => { args.terms = Number(v); },
    '--jobs': (v, args) => { args.jobs = Math.max(1, Number(v)); },
  });
  // compare_with_duckdb.mjs wants the library's file name; .load also takes it without ".so".
  if (!existsSync(a.ext) && existsSync(`${a.ext}.so`)) a.ext = `${a.ext}.so`;
  if (!existsSync(a.ext)) throw new Error(`extension ${a.ext} not found (build it first)`);
  return a;
}

// ---------------------------------------------------------------------------------------------------
// Data: Arrow tables (for parquet-wasm and polars) from a seeded random source.

/** A random unsigned BigInt of `bits` bits. */
function randomBits(random, bits) {
  let v = 0n;
  for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(Math.floor(random() * 65536));
  return v & ((1n << BigInt(bits)) - 1n);
}

/** An Arrow vector of `type` over `data`, each row NULL with probability `pNull` (all if allNull). */
function primitiveVector(type, data, n, random, pNull, allNull = false) {
  const bitmap = new Uint8Array(Math.ceil(n / 8));
  let nulls = 0;
  for (let i = 0; i < n; ++i) {
    if (!allNull && !(random() < pNull)) bitmap[i >> 3] |= 1 << (i & 7); else ++nulls;
  }
  return A.makeVector(A.makeData({ type, length: n, nullCount: nulls, nullBitmap: nulls ? bitmap : null, data }));
}

const TEXT_POOL = ['', 'a', 'héllo', 'naïve café', '日本語テキスト', '🦀 crab', 'zzz', 'A', 'aa', 'Ω≈ç√',
  ' lead', 'trail ', 'tab\tx', 'new\nline', 'quote"q', 'back\\slash', '100%_sure', 'star*[x]?'];

function texts(n, random, long) {
  const out = [];
  for (let i = 0; i < n; ++i) {
    const k = random();
    if (k < 0.1) out.push(null);
    else if (k < 0.45) out.push(TEXT_POOL[Math.floor(random() * TEXT_POOL.length)]);
    else if (k < 0.92) out.push(`s${Math.floor(random() * 1e9).toString(36)}`);
    else out.push('x'.repeat(Math.floor(random() * 200)) + i);
  }
  if (long && n > 3) out[3] = `${'L'.repeat(70000)}é`;  // longer than any page limit used here
  return out;
}

function blobs(n, random, width) {
  return Array.from({ length: n }, () => {
    if (random() < 0.1) return null;
    const b = new Uint8Array(width ?? Math.floor(random() * 20));
    for (let j = 0; j < b.length; ++j) b[j] = Math.floor(random() * 256);
    return b;
  });
}

/** DECIMAL(precision, scale) in 128 bits: the largest and smallest values, 0, -1, then random. */
function decimalVector(n, random, precision, scale) {
  const words = new Uint32Array(n * 4);
  const limit = 10n ** BigInt(precision);
  for (let i = 0; i < n; ++i) {
    let v = [limit - 1n, 1n - limit, 0n, -1n][i] ?? (randomBits(random, 128) % limit) * (random() < 0.5 ? -1n : 1n);
    if (i > 3 && random() < 0.3) v %= 100000n;
    const u = BigInt.asUintN(128, v);
    for (let w = 0; w < 4; ++w) words[i * 4 + w] = Number((u >> BigInt(32 * w)) & 0xffffffffn);
  }
  return primitiveVector(new A.Decimal(scale, precision, 128), words, n, random, 0.1);
}

/**
 * The flat table: one column per scalar Arrow type parquet-wasm and polars write. Options: long (one
 * 70,000-character text), durations, f16, nan (false: no NaN among the float specials), u64Signed
 * (UINT64 values below 2^63), drop (column names left out).
 */
function flatTable(n, seed, options = {}) {
  const random = seededRandom(seed);
  const pNull = options.pNull ?? 0.1;
  const cols = {};
  const fill = (Type, Array_, gen) => {
    const a = new Array_(n);
    for (let i = 0; i < n; ++i) a[i] = gen(i);
    return primitiveVector(new Type(), a, n, random, pNull);
  };
  cols.i8 = fill(A.Int8, Int8Array, (i) => [-128, 127][i] ?? Math.floor(random() * 256) - 128);
  cols.i16 = fill(A.Int16, Int16Array, (i) => [-32768, 32767][i] ?? Math.floor(random() * 65536) - 32768);
  cols.i32 = fill(A.Int32, Int32Array,
    (i) => [-2147483648, 2147483647][i] ?? Math.floor(random() * 4294967296) - 2147483648);
  cols.i64 = fill(A.Int64, BigInt64Array, (i) => [-(2n ** 63n), 2n ** 63n - 1n][i] ??
    BigInt.asIntN(64, randomBits(random, 64)) >> BigInt(Math.floor(random() * 60)));
  cols.u8 = fill(A.Uint8, Uint8Array, (i) => [255, 0][i] ?? Math.floor(random() * 256));
  cols.u16 = fill(A.Uint16, Uint16Array, (i) => [65535][i] ?? Math.floor(random() * 65536));
  cols.u32 = fill(A.Uint32, Uint32Array, (i) => [4294967295][i] ?? Math.floor(random() * 4294967296));
  cols.u64 = fill(A.Uint64, BigUint64Array, (i) => {
    const v = [2n ** 64n - 1n, 2n ** 63n][i] ?? randomBits(random, 64) >> BigInt(Math.floor(random() * 64));
    return options.u64Signed ? v & (2n ** 63n - 1n) : v;
  });
  const specials = [NaN, Infinity, -Infinity, -0, 0, 1e-310, Number.MAX_VALUE, Number.MIN_VALUE]
    .filter((v) => options.nan !== false || !Number.isNaN(v));
  const floats = (Array_, scale) => {
    const a = new Array_(n);
    for (let i = 0; i < n; ++i) {
      a[i] = random() < 0.05 ? specials[Math.floor(random() * specials.length)] : (random() - 0.5) * scale;
    }
    return a;
  };
  cols.f32 = primitiveVector(new A.Float32(), floats(Float32Array, 1e6), n, random, pNull);
  cols.f64 = primitiveVector(new A.Float64(), floats(Float64Array, 1e12), n, random, pNull);
  if (options.f16 !== false) {
    const a = new Uint16Array(n);
    // inf, -inf, -0, NaN, then random bits
    for (let i = 0; i < n; ++i) a[i] = [0x7c00, 0xfc00, 0x8000, 0x7e00][i] ?? Math.floor(random() * 65536);
    cols.f16 = primitiveVector(new A.Float16(), a, n, random, pNull);
  }
  cols.b = A.vectorFromArray(Array.from({ length: n }, () => (random() < pNull ? null : random() < 0.5)), new A.Bool());
  cols.s = A.vectorFromArray(texts(n, random, options.long), new A.Utf8());
  cols.ls = A.vectorFromArray(texts(n, random, false), new A.LargeUtf8());
  cols.bin = A.vectorFromArray(blobs(n, random), new A.Binary());
  cols.lbin = A.vectorFromArray(blobs(n, random), new A.LargeBinary());
  cols.fsb16 = A.vectorFromArray(blobs(n, random, 16), new A.FixedSizeBinary(16));
  cols.fsb3 = A.vectorFromArray(blobs(n, random, 3), new A.FixedSizeBinary(3));
  cols.d5_2 = decimalVector(n, random, 5, 2);
  cols.d9_0 = decimalVector(n, random, 9, 0);
  cols.d18_4 = decimalVector(n, random, 18, 4);
  cols.d20_3 = decimalVector(n, random, 20, 3);
  cols.d38_10 = decimalVector(n, random, 38, 10);
  cols.date32 = fill(A.DateDay, Int32Array, (i) => [-719162, 2932896][i] ?? Math.floor(random() * 40000) - 10000);
  cols.date64 = fill(A.DateMillisecond, BigInt64Array, () => BigInt(Math.floor(random() * 40000) - 10000) * 86400000n);
  cols.t32s = fill(A.TimeSecond, Int32Array, (i) => [86399, 0][i] ?? Math.floor(random() * 86400));
  cols.t32ms = fill(A.TimeMillisecond, Int32Array, (i) => [86399999][i] ?? Math.floor(random() * 86400000));
  cols.t64us = fill(A.TimeMicrosecond, BigInt64Array,
    (i) => [86399999999n][i] ?? BigInt(Math.floor(random() * 86400e6)));
  cols.t64ns = fill(A.TimeNanosecond, BigInt64Array, (i) => [86399999999999n][i] ??
    BigInt(Math.floor(random() * 86400e6)) * 1000n + BigInt(Math.floor(random() * 1000)));
  const timestamps = (perSecond) => (i) => {
    if (i === 0) return -BigInt(perSecond) * 62135596800n;  // 0001-01-01 00:00:00
    if (i === 1) return BigInt(perSecond) * 253402300799n;  // 9999-12-31 23:59:59
    return BigInt(Math.floor(random() * 4e9) - 1e9) * BigInt(perSecond) + BigInt(Math.floor(random() * perSecond));
  };
  const nanos = (i) => [-(2n ** 63n) + 10n ** 12n, 2n ** 63n - 10n ** 12n][i] ??
    BigInt(Math.floor(random() * 4e9) - 1e9) * 1000000000n + BigInt(Math.floor(random() * 1e9));
  cols.ts_s = fill(A.TimestampSecond, BigInt64Array, timestamps(1));
  cols.ts_ms = fill(A.TimestampMillisecond, BigInt64Array, timestamps(1000));
  cols.ts_us = fill(A.TimestampMicrosecond, BigInt64Array, timestamps(1000000));
  cols.ts_ns = fill(A.TimestampNanosecond, BigInt64Array, nanos);
  const zoned = (unit, zone, gen) => {
    const a = new BigInt64Array(n);
    for (let i = 0; i < n; ++i) a[i] = gen(i);
    return primitiveVector(new A.Timestamp(unit, zone), a, n, random, pNull);
  };
  cols.tsz_s = zoned(A.TimeUnit.SECOND, 'UTC', timestamps(1));
  cols.tsz_ms = zoned(A.TimeUnit.MILLISECOND, '+05:30', timestamps(1000));
  cols.tsz_us = zoned(A.TimeUnit.MICROSECOND, 'America/New_York', timestamps(1000000));
  cols.tsz_ns = zoned(A.TimeUnit.NANOSECOND, 'UTC', nanos);
  if (options.durations) {
    cols.dur_s = fill(A.DurationSecond, BigInt64Array, () => BigInt(Math.floor((random() - 0.5) * 1e9)));
    cols.dur_ms = fill(A.DurationMillisecond, BigInt64Array, () => BigInt(Math.floor((random() - 0.5) * 1e12)));
    cols.dur_us = fill(A.DurationMicrosecond, BigInt64Array, () => BigInt(Math.floor((random() - 0.5) * 1e15)));
    cols.dur_ns = fill(A.DurationNanosecond, BigInt64Array, () => BigInt.asIntN(64, randomBits(random, 64)));
  }
  const words = ['red', 'green', 'blue', '', 'ünïcödé', 'black'];
  cols.dict_s = A.vectorFromArray(
    Array.from({ length: n }, () => (random() < pNull ? null : words[Math.floor(random() * words.length)])),
    new A.Dictionary(new A.Utf8(), new A.Int32()));
  cols.allnull_i32 = primitiveVector(new A.Int32(), new Int32Array(n), n, random, 0, true);
  cols.allnull_s = A.vectorFromArray(Array.from({ length: n }, () => null), new A.Utf8());
  cols.sorted_i64 = fill(A.Int64, BigInt64Array, (i) => BigInt(i) * 3n - 1000n);
  cols.lowcard_i32 = fill(A.Int32, Int32Array, () => Math.floor(random() * 7) - 3);
  for (const name of options.drop ?? []) delete cols[name];
  for (const name of Object.keys(cols)) if (options.only && !options.only.includes(name)) delete cols[name];
  return new A.Table(cols);
}

/**
 * The nested table: lists (of lists, structs, text, blobs, dates, timestamps, decimals), maps, structs;
 * infinities, NaN and -0.0 inside them.
 */
function nestedTable(n, seed, pNull = 0.15) {
  const random = seededRandom(seed);
  const maybe = (f) => (random() < pNull ? null : f());
  const length = () => { const x = random(); return x < 0.2 ? 0 : Math.floor(x * 6); };
  const list = (f) => Array.from({ length: length() }, f);
  const ints = () => list(() => maybe(() => Math.floor((random() - 0.5) * 2000)));
  const rows = (f) => Array.from({ length: n }, f);
  const real = () => (random() < 0.1 ? [Infinity, -Infinity, NaN, -0][Math.floor(random() * 4)] : random() * 100);
  const field = (name, type, nullable = true) => new A.Field(name, type, nullable);
  const cols = {};
  cols.l_i32 = A.vectorFromArray(rows(() => maybe(ints)), new A.List(field('item', new A.Int32())));
  cols.ll_s = A.vectorFromArray(rows(() => maybe(() => list(() => maybe(() => `v${Math.floor(random() * 100)}`)))),
    new A.LargeList(field('item', new A.Utf8())));
  cols.l_struct = A.vectorFromArray(rows(() => maybe(() => list(() => maybe(() => ({
    a: maybe(() => Math.floor(random() * 100)), b: maybe(() => `b${Math.floor(random() * 10)}`) }))))),
  new A.List(field('item', new A.Struct([field('a', new A.Int32()), field('b', new A.Utf8())]))));
  cols.st_list = A.vectorFromArray(rows(() => maybe(() => ({
    x: maybe(() => ints().map((v) => (v === null ? null : BigInt(v)))), y: maybe(real) }))),
  new A.Struct([field('x', new A.List(field('item', new A.Int64()))), field('y', new A.Float64())]));
  cols.m = A.vectorFromArray(rows(() => maybe(() => {
    const m = new Map();
    for (let j = length(); j > 0; --j) {
      m.set(`k${j}_${Math.floor(random() * 10)}`, random() < pNull ? null : Math.floor(random() * 1000));
    }
    return m;
  })), new A.Map_(field('entries', new A.Struct([field('key', new A.Utf8(), false), field('value', new A.Int32())]),
    false)));
  cols.ll_i32 = A.vectorFromArray(rows(() => maybe(() => list(() => maybe(ints)))),
    new A.List(field('item', new A.List(field('item', new A.Int32())))));
  cols.st_st = A.vectorFromArray(rows(() => maybe(() => ({
    inner: maybe(() => ({ p: maybe(() => Math.floor(random() * 9)), q: maybe(() => random() < 0.5) })),
    z: maybe(() => `z${Math.floor(random() * 5)}`) }))),
  new A.Struct([field('inner', new A.Struct([field('p', new A.Int16()), field('q', new A.Bool())])),
    field('z', new A.Utf8())]));
  cols.fsl_f32 = A.vectorFromArray(rows(() => maybe(() => [real(), random(), maybe(real)])),
    new A.FixedSizeList(3, field('item', new A.Float32())));
  cols.l_notnull = A.vectorFromArray(rows(() => list(() => Math.floor(random() * 10))),
    new A.List(field('item', new A.Int32(), false)));
  const bytes = () => Uint8Array.from([0xff, 0x00, Math.floor(random() * 256)]);
  cols.l_bin = A.vectorFromArray(rows(() => maybe(() => list(() => maybe(bytes)))),
    new A.List(field('item', new A.Binary())));
  const date = () => new Date(Date.UTC(2000, 0, 1 + Math.floor(random() * 9000)));
  cols.l_date = A.vectorFromArray(rows(() => maybe(() => list(() => maybe(date)))),
    new A.List(field('item', new A.DateDay())));
  cols.l_ts = A.vectorFromArray(rows(() => maybe(() => list(() => maybe(() => Math.floor(random() * 2e12))))),
    new A.List(field('item', new A.TimestampMicrosecond())));
  cols.l_dec = A.vectorFromArray(rows(() => maybe(() => list(() => maybe(() => {
    const v = BigInt.asUintN(128, BigInt(Math.floor((random() - 0.5) * 1e9)));
    return Uint32Array.from([0, 1, 2, 3].map((w) => Number((v >> BigInt(32 * w)) & 0xffffffffn)));
  })))), new A.List(field('item', new A.Decimal(2, 10, 128))));
  return new A.Table(cols);
}

// ---------------------------------------------------------------------------------------------------
// Writers. Each returns the files it wrote: {file, flat, duckdbCannotRead, twin}. `flat` files get the
// filter check; `twin` names a file with the same rows that DuckDB reads (for duckdbCannotRead files).

function writeWithParquetWasm(dir, rows) {
  const files = [];
  const C = wasm.Compression;
  const E = wasm.Encoding;
  const write = (name, table, configure, extra = {}) => {
    let builder = new wasm.WriterPropertiesBuilder();
    builder = configure ? configure(builder) : builder;  // builder methods consume the builder
    const bytes = wasm.writeParquet(wasm.Table.fromIPCStream(A.tableToIPC(table, 'stream')), builder.build());
    const file = path.join(dir, `wasm_${name}.parquet`);
    writeFileSync(file, bytes);
    files.push({ file, flat: false, ...extra });
    return file;
  };
  const flat = flatTable(rows, 1, { long: true });
  const nested = nestedTable(rows, 2);
  const plainTwin = write('flat_unc_v1_plain', flat,
    (b) => b.setCompression(C.UNCOMPRESSED).setDictionaryEnabled(false), { flat: true });
  const codecs = {
    unc: C.UNCOMPRESSED, snappy: C.SNAPPY, gzip: C.GZIP, brotli: C.BROTLI, lz4: C.LZ4, zstd: C.ZSTD, lz4raw: C.LZ4_RAW,
  };
  for (const [codecName, codec] of Object.entries(codecs)) {
    const layouts = codecName === 'unc' ? [[0, true], [1, true], [1, false]] : [[0, true], [1, false]];
    for (const [version, dictionary] of layouts) {
      // DuckDB refuses the LZ4 codec id; arrow-rs writes it with Hadoop's framing.
      const lz4 = codec === C.LZ4 ? { duckdbCannotRead: true, twin: plainTwin } : {};
      write(`flat_${codecName}_v${version + 1}_${dictionary ? 'dict' : 'plain'}`, flat,
        (b) => b.setCompression(codec).setWriterVersion(version).setDictionaryEnabled(dictionary),
        { flat: true, ...lz4 });
    }
  }
  for (const [name, level] of Object.entries({ none: 0, chunk: 1, page: 2 })) {
    write(`flat_stats_${name}_rg500`, flat, (b) => b.setStatisticsEnabled(level).setMaxRowGroupSize(500),
      { flat: true });
  }
  for (const version of [0, 1]) {
    write(`flat_smallpages_v${version + 1}`, flat, (b) => b.setWriterVersion(version).setDataPageSizeLimit(200)
      .setWriteBatchSize(37).setMaxRowGroupSize(700).setDictionaryPageSizeLimit(300), { flat: true });
    write(`flat_dictfallback_v${version + 1}`, flat, (b) => b.setWriterVersion(version).setDictionaryPageSizeLimit(64)
      .setDataPageSizeLimit(1024), { flat: true });
  }
  const intColumns = ['i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 'date32', 'date64', 't32s', 't32ms',
    't64us', 't64ns', 'ts_s', 'ts_ms', 'ts_us', 'ts_ns', 'tsz_s', 'tsz_ms', 'tsz_us', 'tsz_ns', 'sorted_i64',
    'lowcard_i32', 'allnull_i32', 'd5_2', 'd9_0', 'd18_4'];
  const byteArrayColumns = ['s', 'ls', 'bin', 'lbin', 'allnull_s'];
  const fixedColumns = ['fsb16', 'fsb3', 'd20_3', 'd38_10'];
  const encode = (b, columns, encoding) => columns.reduce((acc, c) => acc.setColumnEncoding(c, encoding), b);
  for (const version of [0, 1]) {
    write(`flat_delta_v${version + 1}`, flat, (b) => {
      let x = b.setWriterVersion(version).setDictionaryEnabled(false).setMaxRowGroupSize(1500)
        .setDataPageSizeLimit(4096);
      x = encode(x, intColumns, E.DELTA_BINARY_PACKED);
      x = encode(x, byteArrayColumns, E.DELTA_LENGTH_BYTE_ARRAY);
      x = encode(x, fixedColumns, E.DELTA_BYTE_ARRAY);
      return encode(x, ['f32', 'f64'], E.BYTE_STREAM_SPLIT);
    }, { flat: true });
    write(`flat_dba_v${version + 1}`, flat, (b) => {
      let x = b.setWriterVersion(version).setDictionaryEnabled(false).setMaxRowGroupSize(1500)
        .setDataPageSizeLimit(2048);
      x = encode(x, byteArrayColumns, E.DELTA_BYTE_ARRAY);
      return encode(x, ['f32', 'f64'], E.BYTE_STREAM_SPLIT);
    }, { flat: true });
  }
  // BYTE_STREAM_SPLIT on integers, FIXED_LEN_BYTE_ARRAY and FLOAT16: legal since format 2.11; DuckDB
  // reads it only on FLOAT and DOUBLE.
  write('flat_bss_all_v2', flat,
    (b) => encode(b.setWriterVersion(1).setDictionaryEnabled(false).setMaxRowGroupSize(1500),
      [...intColumns, ...fixedColumns, 'f16', 'f32', 'f64'], E.BYTE_STREAM_SPLIT),
    { flat: true, duckdbCannotRead: true, twin: plainTwin });
  for (const version of [0, 1]) {
    for (const dictionary of [true, false]) {
      const suffix = `v${version + 1}_${dictionary ? 'dict' : 'plain'}`;
      write(`nested_zstd_${suffix}`, nested,
        (b) => b.setCompression(C.ZSTD).setWriterVersion(version).setDictionaryEnabled(dictionary));
      write(`nested_smallpages_${suffix}`, nested, (b) => b.setWriterVersion(version).setDictionaryEnabled(dictionary)
        .setDataPageSizeLimit(256).setWriteBatchSize(64).setMaxRowGroupSize(700));
    }
  }
  write('durations', flatTable(500, 9, { durations: true, only: ['dur_s', 'dur_ms', 'dur_us', 'dur_ns', 'i32'] }), null,
    { flat: true });
  write('flat_zero_rows', flatTable(0, 3));
  write('nested_zero_rows', nestedTable(0, 3));
  write('flat_one_row', flatTable(1, 4, { pNull: 0, f16: false }), null, { flat: true });
  write('flat_all_null', flatTable(300, 5, { pNull: 1, f16: false }), null, { flat: true });
  write('nested_all_null', nestedTable(300, 6, 1));
  return files;
}

/** An Arrow table as a polars DataFrame, column by column through Arrow IPC. */
function toPolars(table) {
  return polars.DataFrame(table.schema.fields.map((f) => {
    const one = new A.Table({ [f.name]: table.getChild(f.name) });
    return polars.readIPC(Buffer.from(A.tableToIPC(one, 'file'))).getColumn(f.name);
  }));
}

async function writeWithPolars(dir, rows) {
  const files = [];
  const target = (name, extra) => {
    const file = path.join(dir, `polars_${name}.parquet`);
    files.push({ file, flat: false, ...extra });
    return file;
  };
  const sink = (df, name, options, extra) => df.lazy().sinkParquet(target(name, extra), options).collect();
  // No NaN and no UINT64 above 2^63-1 in the flat table (see the header: polars' chunk statistics are
  // wrong for those). '+05:30' is not a time zone polars takes.
  const flat = toPolars(flatTable(rows, 11,
    { long: true, durations: true, f16: false, nan: false, u64Signed: true, drop: ['tsz_ms'] }));
  const smallGroups = { statistics: 'full', rowGroupSize: 500, dataPagesizeLimit: 1024 };
  const nested = toPolars(nestedTable(rows, 12));
  for (const codec of ['uncompressed', 'snappy', 'gzip', 'brotli', 'lz4', 'zstd']) {
    flat.writeParquet(target(`flat_${codec}`, { flat: true }), { compression: codec });
  }
  for (const codec of ['zstd', 'lz4']) nested.writeParquet(target(`nested_${codec}`), { compression: codec });
  await sink(flat, 'flat_rg500_stats', { ...smallGroups, compression: 'zstd' }, { flat: true });
  await sink(flat, 'flat_rg377_nostats',
    { compression: 'snappy', statistics: false, rowGroupSize: 377, dataPagesizeLimit: 300 }, { flat: true });
  await sink(nested, 'nested_rg500_stats', { statistics: 'full', rowGroupSize: 500, dataPagesizeLimit: 256 });
  await sink(flat.head(0), 'flat_zero_rows', {}, { flat: true });
  // NaN: polars writes a page holding a NaN with no min/max and null_pages true in the ColumnIndex.
  // every_page: a NaN in every page (all pages "null pages"); some_pages: NaN in the first 30 rows of
  // each 500-row group only, other rows cycling through 41 values, so every page holds the smallest
  // and largest value and the chunk's min/max stay true.
  const cycle = [NaN, -0, 0, Infinity, -Infinity, 1.5, null];
  const series = (name, type, f) => polars.Series(name, Array.from({ length: rows }, (_, i) => f(i)), type);
  const nan = polars.DataFrame({
    id: series('id', polars.Int32, (i) => i),
    every_page: series('every_page', polars.Float64, (i) => cycle[i % cycle.length]),
    some_pages: series('some_pages', polars.Float64, (i) => (i % 500 < 30 ? NaN : ((i * 13) % 41) - 20.5)),
    some_pages_f32: series('some_pages_f32', polars.Float32, (i) => (i % 500 < 30 ? NaN : ((i * 7) % 41) / 4)),
  });
  await sink(nan, 'nan_rg500_pages', smallGroups, { flat: true });
  nan.writeParquet(target('nan_default', { flat: true }));
  const threeRows = {
    f: polars.Series('f', [1.5, NaN, 2.5], polars.Float64), i: polars.Series('i', [1, 2, 3], polars.Int32),
  };
  polars.DataFrame(threeRows).writeParquet(target('nan_three_rows', { flat: true }));
  // Dictionary-encoded columns in several pages: each page's ColumnIndex null count is the chunk's,
  // and the chunk's null count is their sum (501 of 500 rows).
  const dictionary = polars.DataFrame({
    s: series('s', polars.String, (i) => (i % 3 === 0 ? null : `k${i % 97}`)),
    cat: series('cat', polars.String, (i) => ['a', 'b', null, 'ü', ''][i % 5]).cast(polars.Categorical),
  });
  await sink(dictionary, 'dictionary_null_counts', smallGroups, { flat: true });
  // NaN beside infinities: the chunk's min/max leave out the pages holding a NaN.
  const specials = toPolars(flatTable(rows, 13, { only: ['f32', 'f64'] }));
  await sink(specials, 'nan_chunk_bounds', smallGroups, { flat: true });
  return files;
}

function writeWithHyparquet(dir, rows) {
  const files = [];
  const random = seededRandom(77);
  const maybe = (p, f) => (random() < p ? null : f());
  const P = 0.1;
  const column = (f) => Array.from({ length: rows }, (_, i) => maybe(P, () => f(i)));
  const prefixes = ['https://example.com/some/long/path/', 'aaaaaaaaaaaaaaa€', 'zzzzzzzzzzzzzzz\u{10FFFF}\u{10FFFF}',
    '\u{10FFFF}'.repeat(5), 'short', '', 'ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ', '日本語日本語日本語日本語'];
  const floatSpecials = [NaN, Infinity, -Infinity, -0, 0, 5e-324, 1.7976931348623157e308];
  const float = (scale) => (random() < 0.05 ? floatSpecials[Math.floor(random() * floatSpecials.length)]
    : (random() - 0.5) * scale);
  const bits = (n) => randomBits(random, n);
  const col = {
    b: column(() => random() < 0.5),
    i32: column((i) => [-2147483648, 2147483647][i] ?? Math.floor(random() * 4294967296) - 2147483648),
    i64: column((i) => [-(2n ** 63n), 2n ** 63n - 1n][i] ??
      BigInt.asIntN(64, bits(64)) >> BigInt(Math.floor(random() * 63))),
    i8: column(() => Math.floor(random() * 256) - 128),
    u8: column(() => Math.floor(random() * 256)),
    u16: column(() => Math.floor(random() * 65536)),
    u32: column((i) => [4294967295][i] ?? Math.floor(random() * 4294967296)),
    u64: column((i) => [2n ** 64n - 1n][i] ?? bits(64) >> BigInt(Math.floor(random() * 64))),
    f: column(() => Math.fround(float(1e6))),
    d: column(() => float(1e12)),
    s: column((i) => {
      if (i === 5) return 'L'.repeat(70000);
      const p = prefixes[Math.floor(random() * prefixes.length)];
      return random() < 0.5 ? p : p + Math.floor(random() * 1000);
    }),
    bin: column(() => {
      const b = new Uint8Array(Math.floor(random() * 24));
      const high = random() < 0.3;
      for (let j = 0; j < b.length; ++j) b[j] = high ? 0xff - Math.floor(random() * 2) : Math.floor(random() * 256);
      return b;
    }),
    j: column((i) => ({ k: i, v: [1, 'x', null, { z: true }], s: 'é' })),
    ts: column(() => new Date(Math.floor((random() - 0.3) * 4e12))),
    ts_us: column(() => BigInt(Math.floor((random() - 0.3) * 4e12)) * 1000n + BigInt(Math.floor(random() * 1000))),
    ts_ns: column(() => BigInt(Math.floor((random() - 0.3) * 4e12)) * 1000000n + BigInt(Math.floor(random() * 1e6))),
    date: column(() => Math.floor((random() - 0.5) * 100000)),
    time_ms: column(() => Math.floor(random() * 86400000)),
    time_us: column(() => BigInt(Math.floor(random() * 86400e6))),
    time_ns: column(() => BigInt(Math.floor(random() * 86400e6)) * 1000n + 999n),
    dec32: column(() => BigInt(Math.floor((random() - 0.5) * 1.9e9))),
    dec64: column(() => BigInt.asIntN(64, bits(64)) % (10n ** 18n)),
    decf: column(() => (random() < 0.5 ? -1n : 1n) * (bits(128) % (10n ** 38n))),
    decb: column((i) => (i === 2 ? 0n : (random() < 0.5 ? -1n : 1n) * (bits(80) % (10n ** 20n)))),
    uuid: column(() => Uint8Array.from({ length: 16 }, () => Math.floor(random() * 256))),
    f16: column((i) => [NaN, Infinity, -0, 65504][i] ?? Math.round((random() - 0.5) * 2000) / 8),
    ivl: column(() => {
      const b = new Uint8Array(12);
      const v = new DataView(b.buffer);
      v.setUint32(0, Math.floor(random() * 1000), true);
      v.setUint32(4, Math.floor(random() * 1000), true);
      v.setUint32(8, Math.floor(random() * 1e8), true);
      return b;
    }),
    en: column(() => new TextEncoder().encode(['A', 'B', 'Ç'][Math.floor(random() * 3)])),  // ENUM: bytes
    lst: column(() => Array.from({ length: Math.floor(random() * 4) },
      () => maybe(0.2, () => Math.floor(random() * 100)))),
    mp: column(() => Array.from({ length: Math.floor(random() * 3) },
      (_, k) => ({ key: `k${k}`, value: maybe(0.2, () => Math.floor(random() * 9)) }))),
    st: column(() => ({
      x: maybe(0.2, () => Math.floor(random() * 9)), y: maybe(0.2, () => `y${Math.floor(random() * 9)}`),
    })),
    req: Array.from({ length: rows }, (_, i) => i * 7 - 100),
  };
  const leaf = (name, type, extra = {}) => ({ name, type, repetition_type: 'OPTIONAL', ...extra });
  const schema = [
    { name: 'root', num_children: Object.keys(col).length },
    leaf('b', 'BOOLEAN'), leaf('i32', 'INT32'), leaf('i64', 'INT64'),
    leaf('i8', 'INT32', { converted_type: 'INT_8' }), leaf('u8', 'INT32', { converted_type: 'UINT_8' }),
    leaf('u16', 'INT32', { converted_type: 'UINT_16' }), leaf('u32', 'INT32', { converted_type: 'UINT_32' }),
    leaf('u64', 'INT64', { converted_type: 'UINT_64' }), leaf('f', 'FLOAT'), leaf('d', 'DOUBLE'),
    leaf('s', 'BYTE_ARRAY', { converted_type: 'UTF8' }), leaf('bin', 'BYTE_ARRAY'),
    leaf('j', 'BYTE_ARRAY', { converted_type: 'JSON' }),
    leaf('ts', 'INT64', { converted_type: 'TIMESTAMP_MILLIS' }),
    leaf('ts_us', 'INT64', { logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } }),
    leaf('ts_ns', 'INT64', { logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'NANOS' } }),
    leaf('date', 'INT32', { converted_type: 'DATE' }), leaf('time_ms', 'INT32', { converted_type: 'TIME_MILLIS' }),
    leaf('time_us', 'INT64', { converted_type: 'TIME_MICROS' }),
    leaf('time_ns', 'INT64', { logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: 'NANOS' } }),
    leaf('dec32', 'INT32', { converted_type: 'DECIMAL', precision: 9, scale: 2 }),
    leaf('dec64', 'INT64', { converted_type: 'DECIMAL', precision: 18, scale: 6 }),
    leaf('decf', 'FIXED_LEN_BYTE_ARRAY', { type_length: 16, converted_type: 'DECIMAL', precision: 38, scale: 5 }),
    leaf('decb', 'BYTE_ARRAY', { converted_type: 'DECIMAL', precision: 20, scale: 4 }),
    leaf('uuid', 'FIXED_LEN_BYTE_ARRAY', { type_length: 16, logical_type: { type: 'UUID' } }),
    leaf('f16', 'FIXED_LEN_BYTE_ARRAY', { type_length: 2, logical_type: { type: 'FLOAT16' } }),
    leaf('ivl', 'FIXED_LEN_BYTE_ARRAY', { type_length: 12, converted_type: 'INTERVAL' }),
    leaf('en', 'BYTE_ARRAY', { converted_type: 'ENUM' }),
    { name: 'lst', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL' },
    { name: 'mp', repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1 },
    { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
    { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'value', type: 'INT32', repetition_type: 'OPTIONAL' },
    { name: 'st', repetition_type: 'OPTIONAL', num_children: 2 },
    leaf('x', 'INT32'), leaf('y', 'BYTE_ARRAY', { converted_type: 'UTF8' }),
    { name: 'req', type: 'INT32', repetition_type: 'REQUIRED' },
  ];
  const write = (name, options = {}, perColumn = {}, extra = {}) => {
    const file = path.join(dir, `hyp_${name}.parquet`);
    const columnData = Object.keys(col).map((k) => ({ name: k, data: col[k], ...perColumn.all, ...perColumn[k] }));
    parquetWriteFile({ filename: file, columnData, schema, ...options });
    files.push({ file, flat: true, ...extra });
    return file;
  };
  const compressors = { GZIP: (b) => zlib.gzipSync(b), BROTLI: (b) => zlib.brotliCompressSync(b) };
  const pageIndex = { all: { columnIndex: true } };
  const twin = write('default');
  write('uncompressed_rg500_pages_ci', { codec: 'UNCOMPRESSED', rowGroupSize: 500, pageSize: 512 }, pageIndex);
  write('gzip_ci_bloom', { codec: 'GZIP', compressors, rowGroupSize: [100, 1000] },
    { all: { columnIndex: true, bloomFilter: true } });
  write('brotli_trunc4',
    { codec: 'BROTLI', compressors, statisticsTruncateLength: 4, rowGroupSize: 700, pageSize: 2048 }, pageIndex);
  write('nostats', { statistics: false, rowGroupSize: 1000 }, pageIndex);
  write('nodict', { dictionarySize: 0, rowGroupSize: 1500, pageSize: 1024 }, pageIndex);
  const ints = ['i32', 'i64', 'i8', 'u8', 'u16', 'u32', 'u64', 'ts', 'ts_us', 'ts_ns', 'date', 'time_ms', 'time_us',
    'time_ns', 'dec32', 'dec64', 'req'];
  const byteArrays = ['s', 'bin', 'j', 'decb', 'en'];
  const fixedAndFloats = ['f', 'd', 'decf', 'uuid', 'f16', 'ivl'];
  const encodings = (encoding, columns) => Object.fromEntries(columns.map((c) => [c, { encoding, columnIndex: true }]));
  write('delta', { rowGroupSize: 1200, pageSize: 1024 }, { ...pageIndex, ...encodings('DELTA_BINARY_PACKED', ints),
    ...encodings('DELTA_BYTE_ARRAY', byteArrays), ...encodings('BYTE_STREAM_SPLIT', ['f', 'd']) });
  write('dlba_bss', { rowGroupSize: 1200, pageSize: 1024 }, {
    ...pageIndex, ...encodings('BYTE_STREAM_SPLIT', [...ints, ...fixedAndFloats]),
    ...encodings('DELTA_LENGTH_BYTE_ARRAY', byteArrays), b: { encoding: 'RLE', columnIndex: true },
  }, { duckdbCannotRead: true, twin });

  // VARIANT (plain, shredded by inference, shredded by a given schema), GEOMETRY and GEOGRAPHY.
  const n = Math.min(rows, 1000);
  const variants = Array.from({ length: n }, (_, i) => [
    null,
    { type: 'login', user: `u${i % 13}`, n: i, ok: i % 2 === 0, score: random() * 100,
      when: new Date(1700000000000 + i * 1000) },
    [1, 'two', { three: 3 }, null, [4.5]],
    'plain string é',
    i * 1000003,
    random(),
    { type: 'click', x: i, nested: { a: [1, 2, { b: 'c' }], e: null } },
    true,
    { type: i % 2 ? 'login' : 7, user: i % 3 ? 'x' : 12345678901234 },
  ][i % 9]);
  const shapes = Array.from({ length: n }, (_, i) => [
    null,
    { type: 'Point', coordinates: [random() * 10, random() * 10] },
    { type: 'LineString', coordinates: [[0, 0], [1, random()], [2, 2]] },
    { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] },
    { type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] },
  ][i % 5]);
  const shredding = {
    plain: undefined,
    shredded_auto: true,
    shredded_schema: { type: 'STRING', user: 'STRING', n: 'INT64', ok: 'BOOLEAN', score: 'DOUBLE', when: 'TIMESTAMP',
      x: 'INT32', nested: { a: ['INT32'] } },
  };
  let plainVariant = null;
  for (const [name, shred] of Object.entries(shredding)) {
    const file = path.join(dir, `hyp_variant_${name}.parquet`);
    parquetWriteFile({ filename: file, rowGroupSize: 400, columnData: [
      { name: 'id', data: Array.from({ length: n }, (_, i) => i), type: 'INT32' },
      { name: 'v', data: variants, type: 'VARIANT', ...(shred ? { shredding: shred } : {}) },
      { name: 'g', data: shapes, type: 'GEOMETRY' },
      { name: 'gg', data: shapes, type: 'GEOGRAPHY' },
    ] });
    // With a shredding schema hyparquet-writer leaves some objects in `value` with `typed_value` NULL,
    // which the spec forbids (VariantShredding, Objects) and DuckDB refuses; the extension reads the
    // object from `value`, so it must read what the unshredded file holds.
    const invalid = name === 'shredded_schema' ? { duckdbCannotRead: true, twin: plainVariant } : {};
    files.push({ file, flat: false, ...invalid });
    plainVariant ??= file;
  }
  return files;
}

// ---------------------------------------------------------------------------------------------------
// Processes.

/** Runs cmd with args and `input` on stdin, without blocking; resolves to {status, stdout, stderr}. */
function runAsync(cmd, args, input = '') {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) => resolve({
      status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'),
    }));
    child.stdin.on('error', () => {});  // a shell that exits early closes its stdin; its status says why
    child.stdin.end(input);
  });
}

/** Runs the sqlite3 shell on an in-memory database with `script` on stdin (the extension loaded first). */
function sqlite(args, script) {
  return runAsync(args.sqlite3, [':memory:'], `.load ${args.ext}\n${script}`);
}

/** Calls `work(item)` for every item, at most `jobs` at a time; resolves to the results in order. */
async function inPool(items, jobs, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => { while (next < items.length) { const i = next++; results[i] = await work(items[i]); } };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;
const sqlName = (s) => `"${String(s).replaceAll('"', '""')}"`;

// ---------------------------------------------------------------------------------------------------
// Twins: a file DuckDB cannot read must read exactly like a file with the same rows that DuckDB checked.

async function compareWithTwin(args, entry) {
  const dump = (file) => sqlite(args,
    `.mode quote\nCREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)});\nSELECT * FROM t;\n`);
  const [a, b] = await Promise.all([dump(entry.file), dump(entry.twin)]);
  const name = path.basename(entry.file);
  const twinName = path.basename(entry.twin);
  const failed = (who, r) => [`TWIN-FAILED ${who}: ${(r.stderr || `exit ${r.status}`).trim()}`];
  if (a.status !== 0 || a.stderr) return failed(name, a);
  if (b.status !== 0 || b.stderr) return failed(twinName, b);
  if (a.stdout === b.stdout) return [];
  const la = a.stdout.split('\n');
  const lb = b.stdout.split('\n');
  let i = 0;
  while (i < la.length && la[i] === lb[i]) ++i;
  const cut = (s) => (s === undefined ? '(no row)' : s.length > 300 ? `${s.slice(0, 300)}...` : s);
  return [`TWIN-MISMATCH ${name} differs from ${twinName} at output line ${i + 1}:`,
    `    ${name}: ${cut(la[i])}`, `    ${twinName}: ${cut(lb[i])}`];
}

// ---------------------------------------------------------------------------------------------------
// Shredded Variant fields: the hidden columns against `->>`.

/** Checks the hidden columns of the shredded fields of VARIANT column `v` in `file`. */
async function checkShreddedColumns(args, file) {
  const name = path.basename(file);
  const setup = `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)});\n`;
  const listed = await sqlite(args, `${setup}SELECT name FROM pragma_table_xinfo('t') WHERE hidden AND name LIKE 'v.%';\n`);
  if (listed.status !== 0 || listed.stderr) {
    return { columns: 0, failures: [`SHREDDED-FAILED ${name}: ${(listed.stderr || `exit ${listed.status}`).trim()}`] };
  }
  const columns = listed.stdout.split('\n').filter(Boolean);
  let script = setup;
  for (const column of columns) {
    const hidden = `"${column.replaceAll('"', '""')}"`;
    const extract = `(v ->> ${sqlString(column === 'v.$' ? '$' : `$${column.slice(1)}`)})`;
    script += `SELECT ${sqlString(column)}, 'values', count(*) FROM t WHERE ${hidden} IS NOT ${extract} ` +
      `OR typeof(${hidden}) <> typeof${extract};\n`;
    for (const op of ['=', '<', '>=', 'IS']) {
      const rows = (lhs) => `(SELECT group_concat(rowid) FROM (SELECT rowid FROM t WHERE ${lhs} ${op} o.k ORDER BY rowid))`;
      script += `SELECT ${sqlString(column)}, ${sqlString(op)}, count(*) FROM (SELECT DISTINCT ${hidden} AS k FROM t LIMIT 40) o ` +
        `WHERE ${rows(hidden)} IS NOT ${rows(extract)};\n`;
    }
  }
  const r = await sqlite(args, script);
  if (r.status !== 0 || r.stderr) {
    return { columns: columns.length, failures: [`SHREDDED-FAILED ${name}: ${(r.stderr || `exit ${r.status}`).trim()}`] };
  }
  const failures = r.stdout.split('\n').filter((l) => l && !l.endsWith('|0'))
    .map((l) => `SHREDDED-MISMATCH ${name}: column|check|values that differ: ${l}`);
  return { columns: columns.length, failures };
}

// ---------------------------------------------------------------------------------------------------
// Filters: WHERE terms on the parquet table against a native copy.

const TABLE_SETUP = (file) => `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)});
CREATE TABLE native AS SELECT rowid AS pq_rowid, * FROM t;
`;

/** Literals of other types than the column's, and edge values of its own. */
const EXTRA_LITERALS = {
  INTEGER: ['0', '-1', "'42'", '1.5', '-0.0', '9223372036854775807', '-9223372036854775808', '1e19', "'abc'", "X'00'"],
  REAL: ['0', '-0.0', '1e308', '-1e308', '9e999', '-9e999', "'1.5'", '5e-324', "'x'", "X'00'"],
  TEXT: ["''", "'a'", "'A'", "'2000-01-01'", "'2000-01-01 00:00:00'", "'2000-01-01T00:00:00'", "'1970'", "'12:00:00'",
    "'s'", "'é'", '5', '0.5', "X'61'"],
  BLOB: ["X''", "X'00'", "X'FF'", "'a'", '1'],
};

/** The double next to x toward +infinity (dir 1) or -infinity (dir -1). */
function nextDouble(x, dir) {
  if (!Number.isFinite(x)) return x;
  if (x === 0) return dir * Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const bits = new BigInt64Array(f.buffer);
  bits[0] += (x > 0) === (dir > 0) ? 1n : -1n;
  return f[0];
}

/** SQL text of a double that reads back as exactly x. */
const realLiteral = (x) => (x === Infinity ? '9e999' : x === -Infinity ? '-9e999' : Object.is(x, -0) ? '-0.0' :
  Number.isInteger(x) && Math.abs(x) < 1e21 ? `${x}.0` : String(x));

/** Literals beside a literal from the data: the values just above and below it, in its own type. */
function besideLiterals(literal) {
  if (/^-?\d+$/.test(literal)) return [String(BigInt(literal) + 1n), String(BigInt(literal) - 1n)];
  if (/^X'/i.test(literal)) {
    const hex = literal.slice(2, -1);
    const out = [`X'${hex}00'`];
    if (hex.length >= 2) {
      out.push(`X'${hex.slice(0, -2)}'`);
      const last = parseInt(hex.slice(-2), 16);
      if (last < 255) out.push(`X'${hex.slice(0, -2)}${(last + 1).toString(16).padStart(2, '0')}'`);
    }
    return out;
  }
  if (literal.startsWith("'")) {
    const text = literal.slice(1, -1).replaceAll("''", "'");
    const chars = [...text];
    const out = [sqlString(`${text} `), sqlString(`${text}~`)];
    if (chars.length > 0) {
      out.push(sqlString(chars.slice(0, -1).join('')));
      const last = chars[chars.length - 1].codePointAt(0);
      if (last < 0x10ffff && !(last >= 0xd7ff && last < 0xe000)) {
        out.push(sqlString(chars.slice(0, -1).join('') + String.fromCodePoint(last + 1)));
      }
    }
    return out;
  }
  const x = Number(literal);
  if (Number.isNaN(x)) return [];
  return [realLiteral(nextDouble(x, 1)), realLiteral(nextDouble(x, -1)), realLiteral(x + 0.5)];
}

/** Picks `count` distinct items of `list` at random (all of them when it is shorter). */
function pick(list, count, random) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; --i) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, count);
}

/** Every candidate term on column `name` of declared `type` with literals `samples` from its data. */
function candidateTerms(name, type, samples) {
  const c = sqlName(name);
  const beside = samples.flatMap(besideLiterals);
  const values = [...new Set([...samples, ...beside, ...(EXTRA_LITERALS[type] ?? EXTRA_LITERALS.TEXT)])];
  const terms = [];
  for (const v of values) {
    for (const op of ['=', '<', '<=', '>', '>=', '!=', 'IS', 'IS NOT']) terms.push(`${c} ${op} ${v}`);
  }
  for (const v of samples) terms.push(`${v} < ${c}`, `${v} >= ${c}`);
  if (samples.length >= 2) {
    const [lo, hi] = [samples[0], samples[1]];  // the minimum and the maximum
    const mid = samples.slice(2);
    terms.push(`${c} BETWEEN ${lo} AND ${hi}`, `${c} NOT BETWEEN ${lo} AND ${hi}`, `${c} > ${lo} AND ${c} < ${hi}`);
    for (const v of mid) {
      terms.push(`${c} BETWEEN ${lo} AND ${v}`, `${c} BETWEEN ${v} AND ${hi}`, `${c} = ${v} OR ${c} IS NULL`);
    }
    terms.push(`${c} IN (${samples.join(', ')})`, `${c} IN (${[...mid, ...beside.slice(0, 4)].join(', ') || lo}, NULL)`,
      `${c} NOT IN (${samples.join(', ')})`, `${c} NOT IN (${beside.slice(0, 6).join(', ') || lo})`,
      `${c} IN (${beside.join(', ') || lo})`);
  }
  if (type === 'TEXT') {
    for (const p of ["'s%'", "'S%'", "'é%'", "'1%'", "'20%'", "'x_'", "'ü%'", "'日%'"]) terms.push(`${c} LIKE ${p}`);
    for (const p of ["'s*'", "'S*'", "'1*'", "'2000-0*'", "'[a-c]*'"]) terms.push(`${c} GLOB ${p}`);
    for (const v of samples.filter((s) => s.startsWith("'"))) {
      const chars = [...v.slice(1, -1).replaceAll("''", "'")];
      for (const k of [1, 3, 6]) {
        if (chars.length < k) continue;
        const prefix = chars.slice(0, k).join('');
        terms.push(`${c} LIKE ${sqlString(`${prefix}%`)}`, `${c} GLOB ${sqlString(`${prefix}*`)}`);
      }
    }
  }
  return terms;
}

/** A 32-bit seed from a name, so every file draws its own terms, the same every run. */
function seedOf(name) {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.codePointAt(0), 16777619);
  return h >>> 0;
}

/**
 * The filter check on one file: samples literals from each column of the native copy, draws about
 * args.terms terms, and runs each on both tables. Returns {terms: how many, failed: how many differ or
 * fail, failures: the report's lines (the first --max-diffs differences in full)}.
 */
async function checkFilters(args, file) {
  const name = path.basename(file);
  const random = seededRandom(seedOf(name));
  const columnsRun = await sqlite(args, `${TABLE_SETUP(file)}.mode list\n` +
    "SELECT name, type FROM pragma_table_xinfo('t') WHERE hidden = 0;\nSELECT count(*) FROM native;\n");
  const setupFailed = (r) => ({
    terms: 0, failed: 1, failures: [`FILTER-SETUP-FAILED ${name}: ${(r.stderr || `exit ${r.status}`).trim()}`],
  });
  if (columnsRun.status !== 0 || columnsRun.stderr) return setupFailed(columnsRun);
  const lines = columnsRun.stdout.trim().split('\n');
  const rowCount = Number(lines.pop());
  const columns = lines.map((l) => l.split('|'));

  // Literals from the data: min, max, the median, and rows at random (quote() gives SQL literals).
  let sampleScript = `${TABLE_SETUP(file)}.mode list\n`;
  for (const [column] of columns) {
    const c = sqlName(column);
    const nth = (order, offset) =>
      `(SELECT ${c} FROM native WHERE ${c} IS NOT NULL ORDER BY ${order} LIMIT 1 OFFSET ${offset})`;
    const picks = [`(SELECT min(${c}) FROM native)`, `(SELECT max(${c}) FROM native)`,
      nth(c, `(SELECT count(${c}) / 2 FROM native)`),
      ...[0, 1, 2].map(() => nth('pq_rowid', Math.floor(random() * Math.max(1, rowCount * 0.9))))];
    for (const p of picks) sampleScript += `SELECT json_array(${sqlString(column)}, quote(${p}));\n`;
  }
  const sampleRun = await sqlite(args, sampleScript);
  if (sampleRun.status !== 0 || sampleRun.stderr) return setupFailed(sampleRun);
  const samples = new Map(columns.map(([c]) => [c, []]));
  for (const line of sampleRun.stdout.split('\n').filter(Boolean)) {
    const [column, literal] = JSON.parse(line);
    const fixed = literal === 'Inf' ? '9e999' : literal === '-Inf' ? '-9e999' : literal;
    if (fixed !== 'NULL' && !samples.get(column).includes(fixed)) samples.get(column).push(fixed);
  }

  // Terms: IS NULL and IS NOT NULL on every column, the rest drawn at random.
  const perColumn = Math.max(8, Math.ceil(args.terms / Math.max(1, columns.length)));
  const terms = [];
  for (const [column, type] of columns) {
    const c = sqlName(column);
    terms.push(`${c} IS NULL`, `${c} IS NOT NULL`,
      ...pick(candidateTerms(column, type, samples.get(column)), perColumn - 2, random));
  }
  // Each side answers with a digest of the row ids it selects (count, sum, sum of squares mod a prime).
  const digest = (id, table, term) =>
    `(SELECT count(*) || ':' || total(${id}) || ':' || total(${id} * ${id} % 1000003) FROM ${table} WHERE ${term})`;
  let script = `${TABLE_SETUP(file)}.mode list\n`;
  terms.forEach((term, k) => {
    script += `SELECT ${k}, ${digest('rowid', 't', term)}, ${digest('pq_rowid', 'native', term)};\n`;
  });
  const run = await sqlite(args, script);
  const answered = new Set();
  const differing = [];
  for (const line of run.stdout.split('\n').filter(Boolean)) {
    const [k, ours, native] = line.split('|');
    answered.add(Number(k));
    if (ours !== native) differing.push(Number(k));
  }
  const failures = [];
  const unanswered = terms.filter((_, k) => !answered.has(k));
  for (const term of unanswered.slice(0, args.maxDiffs)) {
    failures.push(`FILTER-ERROR ${name}: no answer to WHERE ${term}`);
  }
  if (unanswered.length > 0) {
    failures.push(`FILTER-ERROR ${name}: ${unanswered.length} terms unanswered (exit ${run.status}); ` +
      'the shell said:\n' +
      `    ${run.stderr.trim().split('\n').slice(0, 20).join('\n    ')}`);
  }
  if (differing.length > 0) {
    // The row ids of each side, for the report.
    let detail = `${TABLE_SETUP(file)}.mode list\n`;
    for (const k of differing.slice(0, args.maxDiffs)) {
      const ids = (id, table) =>
        `(SELECT group_concat(${id}, ',') FROM (SELECT ${id} FROM ${table} WHERE ${terms[k]} ORDER BY ${id}))`;
      detail += `SELECT ${k}, ${ids('rowid', 't')}, ${ids('pq_rowid', 'native')};\n`;
    }
    const detailRun = await sqlite(args, detail);
    for (const line of detailRun.stdout.split('\n').filter(Boolean)) {
      const [k, ours, native] = line.split('|');
      const a = ours ? ours.split(',') : [];
      const b = native ? native.split(',') : [];
      const show = (ids) => `${ids.slice(0, 20).join(',') || '-'}${ids.length > 20 ? ',...' : ''} ` +
        `(${ids.length} row${ids.length === 1 ? '' : 's'})`;
      const onlyOurs = a.filter((id) => !b.includes(id));
      const onlyNative = b.filter((id) => !a.includes(id));
      failures.push(`FILTER-MISMATCH ${name}: SELECT rowid FROM t WHERE ${terms[Number(k)].slice(0, 400)}\n` +
        `    parquet table: ${show(a)}\n    native copy:   ${show(b)}\n` +
        `    only in the parquet table: ${show(onlyOurs)}; only in the native copy: ${show(onlyNative)}`);
    }
    if (differing.length > args.maxDiffs) {
      failures.push(`FILTER-MISMATCH ${name}: ${differing.length - args.maxDiffs} more terms differ`);
    }
  }
  return { terms: terms.length, failed: differing.length + terms.length - answered.size, failures };
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`other_writers_check: ${e.message}\nusage: node tools/other_writers_check.mjs [--ext PATH] ` +
      '[--sqlite3 PATH] [--rows N] [--terms N] [--jobs N] [--keep DIR] [--max-diffs N]\n');
    process.exit(2);
  }
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  await inWorkDir(args, 'other-writers-', async (dir) => {
    const files = [
      ...writeWithParquetWasm(dir, args.rows),
      ...await writeWithPolars(dir, args.rows),
      ...writeWithHyparquet(dir, args.rows),
    ];
    process.stdout.write(`wrote ${files.length} files into ${dir} (${seconds()})\n`);
    let failed = 0;

    // Values against DuckDB, in one process beside the filter checks.
    const cannotRead = files.filter((f) => f.duckdbCannotRead).map((f) => path.basename(f.file));
    const compareArgs = [path.join(TOOLS_DIR, 'compare_with_duckdb.mjs'), '--ext', args.ext,
      '--sqlite3', args.sqlite3, '--max-diffs', String(args.maxDiffs), '--expect-duckdb-fail', cannotRead.join(','),
      ...files.map((f) => f.file)];
    const comparing = runAsync(process.execPath, compareArgs);

    const twins = await inPool(files.filter((f) => f.twin), args.jobs, (entry) => compareWithTwin(args, entry));
    for (const lines of twins) {
      if (lines.length > 0) ++failed;
      for (const line of lines) process.stdout.write(`${line}\n`);
    }
    const twinsDiffering = twins.filter((l) => l.length > 0).length;
    process.stdout.write(`twins: ${twins.length} files compared, ${twinsDiffering} differ (${seconds()})\n`);

    const variantFiles = files.filter((f) => path.basename(f.file).startsWith('hyp_variant_'));
    const shredded = await inPool(variantFiles, args.jobs, (entry) => checkShreddedColumns(args, entry.file));
    for (const result of shredded) {
      if (result.failures.length > 0) ++failed;
      for (const line of result.failures) process.stdout.write(`${line}\n`);
    }
    const hiddenColumns = shredded.reduce((sum, r) => sum + r.columns, 0);
    process.stdout.write(`shredded fields: ${shredded.length} files, ${hiddenColumns} hidden columns, ` +
      `${shredded.filter((r) => r.failures.length > 0).length} files with failures (${seconds()})\n`);
    if (hiddenColumns === 0) {
      process.stdout.write('SHREDDED-FAILED: no hidden columns of shredded fields in the VARIANT files\n');
      ++failed;
    }

    const flatFiles = files.filter((f) => f.flat);
    const filterResults = await inPool(flatFiles, args.jobs, (entry) => checkFilters(args, entry.file));
    let terms = 0;
    for (const result of filterResults) {
      terms += result.terms;
      failed += result.failed;
      for (const line of result.failures) process.stdout.write(`${line}\n`);
    }
    process.stdout.write(`filters: ${filterResults.length} files, ${terms} terms, ` +
      `${filterResults.filter((r) => r.failed > 0).length} files with failures (${seconds()})\n`);

    const compared = await comparing;
    // Every verdict but OK, with its details, and the totals.
    const notOk = compared.stdout.split('\n').filter((l) => l && !l.startsWith('OK '));
    process.stdout.write(notOk.map((l) => `duckdb: ${l}\n`).join(''));
    if (compared.stderr.trim()) process.stdout.write(`duckdb: ${compared.stderr.trim()}\n`);
    if (compared.status !== 0) {
      const last = /(\d+) passed, (\d+) failed\s*$/.exec(compared.stdout);
      failed += last ? Math.max(1, Number(last[2])) : 1;
    }
    process.stdout.write(`duckdb comparison done (${seconds()})\n`);
    process.stdout.write(`other_writers_check: ${files.length} files, ${failed} failed (${seconds()})\n`);
    process.exitCode = failed === 0 ? 0 : 1;
  });
}

await main();
