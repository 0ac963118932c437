#!/usr/bin/env node
// export_duckdb_check: the extension's writer checked by an independent reader (ctest
// duckdb_export_check).
//
//   node tools/export_duckdb_check.mjs [--ext build/parquet] [--sqlite3 sqlite3] [--rows 2500]
//                                      [--only NAME[,NAME...]] [--keep DIR] [--max-diffs 5]
//
// 1. Source tables, made in SQLite databases by the sqlite3 shell:
//    - `types`, --rows rows, one column per writable type: integers of every width, signed and unsigned
//      (extremes included), REAL (infinities, -0.0, subnormals), TEXT (empty, non-ASCII, longer than a
//      page, bounds longer than the writer's 64-byte statistics limit), BLOB, BOOLEAN, DATE, TIME and
//      TIMESTAMP in every unit, DECIMAL held in INT32, INT64 and FIXED_LEN_BYTE_ARRAY of 9 and 16
//      bytes, UUID and JSON; NULLs in every column, a column NULL in a whole row group and one always
//      NULL. Values come from a fixed-seed generator, in several source spellings (ISO text with 'T'
//      and 'Z', integers for timestamps, reals and integers for decimals, upper-case UUIDs, 16-byte
//      BLOBs for UUIDs).
//    - `fallback`, 400,000 rows of distinct values, so dictionaries pass the writer's 1 MiB limit and
//      fall back to PLAIN inside a column chunk (the check fails if no chunk does).
//    - `cycle`, 300,000 rows of names that repeat after 30,000 rows, so the writer starts PLAIN and
//      switches to a dictionary inside a column chunk (the check fails if no chunk does).
// 2. The extension exports them (SELECT parquet_export(...) in the sqlite3 shell, schema= giving every
//    type) once per configuration of a matrix of writer options: every codec x data page version 1/2
//    x dictionary on/off with 1 KiB pages; the per-column encodings DELTA_BINARY_PACKED,
//    DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE and PLAIN wherever they are
//    legal, each under four codec / page version / dictionary combinations; 64-byte pages; defaults;
//    no page index and no checksums; compression levels; Bloom filters.
// 3. For every file, DuckDB (@duckdb/node-api):
//    - reads every value; each must equal what SQLite holds (read back from the source database: the
//      truth is what SQLite had, not what the generator meant; doubles compared by their bits), after
//      the conversions of docs/writing.md;
//    - reports parquet_metadata(file): the codec of every chunk, each requested encoding among the
//      chunk's encodings, no dictionary with dictionary=0; per row group and column, stats_null_count
//      must equal the true null count and stats_min_value / stats_max_value the true min / max in the
//      column's sort order (a bound flagged inexact must still bound the values; a max of only 0xFF
//      bytes longer than 64 bytes may be left out, as statistics_builder.h says);
//    - for the Bloom filter files, parquet_bloom_probe(file, column, value) must report no present value
//      as excluded from its row group, and exclude at least 90% of absent values.
//    The Bloom filters are also probed by this script itself (split-block filter and xxHash64 as in the
//    spec, on the plain encoding of each value) for every present value and 300 absent ones per
//    column, because DuckDB's probe is wrong or blind for some types: it excludes present values of
//    DECIMAL stored as INT32 / INT64 even in files DuckDB wrote itself, damages BLOBs that are not
//    UTF-8, and never excludes anything in FIXED_LEN_BYTE_ARRAY columns. There only this probe decides.
//    Where DuckDB cannot show a value, the comparison is made at what DuckDB shows: it reads
//    TIMESTAMP(NANOS) adjusted to UTC as microseconds, shows no min/max when a bound is infinite, and
//    reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE (files with it on integers and
//    FIXED_LEN_BYTE_ARRAY get their metadata and statistics checked, not their values).
// The shell must have ieee754_to_blob (the sqlite3 shell has since 3.32). Exit status 0 when every
// check passes; otherwise every difference is printed (file, table, options, row group, column, row,
// value) and the status is 1.
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  exportWithExtension, inWorkDir, parseCheckArgs, run, runWithExtension, seededRandom,
} from './duckdb_check_util.mjs';
import { normalizeValue, readWithDuckDB, sqlString } from './duckdb_dump.mjs';

// ---------------------------------------------------------------------------------------------------
// Arguments.

function parseArgs(argv) {
  const a = parseCheckArgs(argv, { rows: 2500, only: null }, {
    '--rows': (v, args) => { args.rows = Number(v); },
    '--only': (v, args) => { args.only = v.split(','); },
  });
  if (!Number.isInteger(a.rows) || a.rows < 2100) throw new Error('--rows must be an integer >= 2100');
  return a;
}

// ---------------------------------------------------------------------------------------------------
// Deterministic values.

function makeRandom(seed) {
  const next = seededRandom(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));  // lo..hi, |hi - lo| < 2^53
  const big = (lo, hi) => {  // BigInt lo..hi
    const span = hi - lo + 1n;
    let r = 0n;
    for (let k = 0; k < 3; ++k) r = (r << 32n) | BigInt(Math.floor(next() * 4294967296));
    return lo + (r % span);
  };
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  return { next, int, big, pick };
}

const pad = (n, w) => String(n).padStart(w, '0');

// Days since 1970-01-01 <-> civil date (proleptic Gregorian).
function civilFromDays(days) {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}
function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
const dateText = (days) => { const [y, m, d] = civilFromDays(days); return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`; };

const NANOS_PER_DAY = 86_400_000_000_000n;
// "HH:MM:SS.fffffffff" with `digits` fraction digits (0: none) of nanoseconds since midnight.
function timeText(nanos, digits) {
  const s = nanos / 1_000_000_000n;
  let t = `${pad(s / 3600n, 2)}:${pad((s / 60n) % 60n, 2)}:${pad(s % 60n, 2)}`;
  if (digits) t += `.${pad(nanos % 1_000_000_000n, 9).slice(0, digits)}`;
  return t;
}
function floorDiv(a, b) { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; }
function timestampText(nanos, digits, sep = ' ', zulu = '') {
  const days = floorDiv(nanos, NANOS_PER_DAY);
  return `${dateText(Number(days))}${sep}${timeText(nanos - days * NANOS_PER_DAY, digits)}${zulu}`;
}

// Parsing what SQLite and DuckDB print.
function parseTimeNanos(text) {
  const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/.exec(text.replace(/[+-]\d{2}(:\d{2})?$/, ''));
  if (!m) throw new Error(`not a time: ${text}`);
  return ((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n + BigInt(m[3] ?? 0)) * 1_000_000_000n +
         BigInt((m[4] ?? '').padEnd(9, '0'));
}
function parseTimestampNanos(text) {
  const m = /^(\d{4,})-(\d{2})-(\d{2})(?:[ T](.*?))?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text);
  if (!m) throw new Error(`not a timestamp: ${text}`);
  if (m[5] && m[5] !== 'Z' && !/^[+-]00(:?00)?$/.test(m[5])) throw new Error(`timestamp not in UTC: ${text}`);
  const days = BigInt(daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])));
  return days * NANOS_PER_DAY + (m[4] ? parseTimeNanos(m[4]) : 0n);
}
// Decimal text (or a number's shortest text, exponent allowed) as an unscaled BigInt at `scale`.
function parseDecimal(text, scale) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(String(text).trim());
  if (!m) throw new Error(`not a decimal: ${text}`);
  let digits = (m[2] || '0') + (m[3] ?? '');
  let exp = -(m[3] ?? '').length + Number(m[4] ?? 0) + scale;
  if (exp >= 0) digits += '0'.repeat(exp);
  else {
    const cut = digits.length + exp;
    if (/[1-9]/.test(digits.slice(Math.max(cut, 0)))) throw new Error(`${text} has more than ${scale} decimals`);
    digits = cut > 0 ? digits.slice(0, cut) : '0';
  }
  const v = BigInt(digits);
  return m[1] === '-' ? -v : v;
}
// A REAL as SQLite's ieee754_to_blob gives it (16 hex digits, big-endian).
const parseSqliteReal = (hex) => Buffer.from(hex, 'hex').readDoubleBE(0);
// DuckDB's text of a BLOB: printable ASCII as is, other bytes as \xHH.
function unescapeDuckBlob(text) {
  const out = [];
  for (let i = 0; i < text.length;) {
    if (text[i] === '\\' && text[i + 1] === 'x' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 2, i + 4))) {
      out.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      out.push(...Buffer.from(text[i], 'utf8'));
      i += 1;
    }
  }
  return Buffer.from(out).toString('hex');
}
const uuidFromHex = (h) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

// ---------------------------------------------------------------------------------------------------
// The columns. kind decides how values are compared; type is the schema= type; phys the Parquet
// physical type (for the Bloom filter hash); gen(row, rnd) gives the SQL literal of a value (null: NULL).

const NULL_EVERY = 11;
function columns(rows) {
  const r = makeRandom(20251122);
  const pool = (make, n = 40) => { const p = []; for (let k = 0; k < n; ++k) p.push(make()); return p; };
  // Half the values from a small pool (dictionary pages), half fresh; specials at fixed rows.
  const mixed = (make, specials = {}) => {
    const p = pool(make);
    return (row) => (row in specials ? specials[row] : r.next() < 0.5 ? r.pick(p) : make());
  };
  const intCol = (name, type, lo, hi, phys, extra = {}) => ({
    name, type, kind: 'int', phys,
    gen: mixed(() => String(r.big(lo, hi)), { 3: String(lo), 4: String(hi), 5: '0', ...extra }),
  });
  const realLiteral = (x) => {
    if (Object.is(x, -0)) return '-0.0';
    if (x === Infinity) return '9e999';
    if (x === -Infinity) return '-9e999';
    const s = String(x);
    return /[.eE]/.test(s) ? s : `${s}.0`;
  };
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-\'"\\%éüß日本語🎉';
  const chars = [...alphabet];
  const randomText = (lo, hi) => { let s = ''; for (let n = r.int(lo, hi); n > 0; --n) s += r.pick(chars); return s; };
  const textLiteral = (s) => `'${s.replaceAll("'", "''")}'`;
  const randomHex = (n) => { let s = ''; for (let k = 0; k < n; ++k) s += pad(r.int(0, 255).toString(16), 2); return s; };
  const timeNanos = () => r.big(0n, NANOS_PER_DAY - 1n);
  const dayLo = daysFromCivil(1, 1, 1), dayHi = daysFromCivil(9999, 12, 31);
  const tsRange = (y0, y1) => [BigInt(daysFromCivil(y0, 1, 1)) * NANOS_PER_DAY, BigInt(daysFromCivil(y1, 12, 31)) * NANOS_PER_DAY];
  const decimalText = (p, s) => {
    const max = 10n ** BigInt(p) - 1n;
    const v = r.next() < 0.3 ? r.big(-1000n * 10n ** BigInt(s), 1000n * 10n ** BigInt(s)) : r.big(-max, max);
    const neg = v < 0n, a = (neg ? -v : v).toString().padStart(s + 1, '0');
    return `'${neg ? '-' : ''}${s ? `${a.slice(0, a.length - s)}.${a.slice(a.length - s)}` : a}'`;
  };

  const cols = [
    intCol('i', 'INTEGER', -(2n ** 63n), 2n ** 63n - 1n, 'INT64'),
    intCol('i32', 'INT32', -(2n ** 31n), 2n ** 31n - 1n, 'INT32'),
    intCol('small', 'SMALLINT', -32768n, 32767n, 'INT32'),
    intCol('tiny', 'TINYINT', -128n, 127n, 'INT32'),
    intCol('u8', 'UTINYINT', 0n, 255n, 'INT32'),
    intCol('u16', 'USMALLINT', 0n, 65535n, 'INT32'),
    intCol('u32', 'UINTEGER', 0n, 2n ** 32n - 1n, 'INT32', { 6: '2147483648', 7: '2147483647' }),
    intCol('u64', 'UBIGINT', 0n, 2n ** 63n - 1n, 'INT64'),
    { name: 'r', type: 'REAL', kind: 'double', phys: 'DOUBLE',
      gen: mixed(() => realLiteral(r.next() < 0.3 ? r.int(-1000, 1000) / 8
        : (r.next() - 0.5) * 10 ** r.int(-30, 30)),
      { 3: '-0.0', 4: '0.0', 5: '5e-324', 6: '1.7976931348623157e308', 7: '-2.2250738585072014e-308',
        [rows - 3]: '9e999', [rows - 2]: '-9e999' }) },
    { name: 't', type: 'TEXT', kind: 'string', phys: 'BYTE_ARRAY',
      gen: mixed(() => {
        const x = r.next();
        return textLiteral(x < 0.02 ? randomText(1500, 3000) : x < 0.1 ? randomText(65, 300) : randomText(1, 30));
      }, { 3: "''", 4: "'é'", 5: "'🎉🎉'",
        // Bounds longer than the writer's 64-byte limit: truncated, flagged inexact.
        1003: textLiteral(' '.repeat(100)), 1004: textLiteral('🧿'.repeat(30)), 2004: textLiteral(`${'🧿'.repeat(20)}${'x'.repeat(50)}`) }) },
    { name: 'b', type: 'BLOB', kind: 'blob', phys: 'BYTE_ARRAY',
      gen: mixed(() => `X'${randomHex(r.next() < 0.05 ? r.int(70, 200) : r.int(0, 24))}'`,
        { 3: "X''", 4: "X'00'", 5: "X'ff'", 6: "CAST('printable' AS BLOB)",
          1005: `X'${'ff'.repeat(100)}'`, 2005: `X'fe${'00'.repeat(99)}'` }) },
    { name: 'flag', type: 'BOOLEAN', kind: 'bool', phys: 'BOOLEAN',
      gen: () => r.pick(['0', '1', '1', "'true'", "'false'"]) },
    { name: 'd', type: 'DATE', kind: 'date', phys: 'INT32',
      gen: mixed(() => `'${dateText(r.int(dayLo, dayHi))}'`,
        { 3: "'0001-01-01'", 4: "'9999-12-31'", 5: "'1970-01-01'", 6: "'1969-12-31'", 7: "'2000-02-29'" }) },
    { name: 'tm', type: 'TIME', kind: 'time', phys: 'INT64',
      gen: mixed(() => (r.next() < 0.1 ? `'${timeText(timeNanos(), 0).slice(0, 5)}'` : `'${timeText(timeNanos(), 6)}'`),
        { 3: "'00:00:00'", 4: "'23:59:59.999999'" }) },
    { name: 'tm_ms', type: 'TIME(MILLIS)', kind: 'time', phys: 'INT32',
      gen: mixed(() => `'${timeText(timeNanos(), 3)}'`, { 3: "'00:00:00.000'", 4: "'23:59:59.999'" }) },
    { name: 'tm_ns', type: 'TIME(NANOS)', kind: 'time', phys: 'INT64',
      gen: mixed(() => `'${timeText(timeNanos(), 9)}'`, { 3: "'00:00:00'", 4: "'23:59:59.999999999'" }) },
  ];
  for (const [name, unit, digits, unitNanos, years] of [
    ['ts', 'MICROS', 6, 1000n, [1, 9999]], ['ts_ms', 'MILLIS', 3, 1_000_000n, [1, 9999]],
    ['ts_ns', 'NANOS', 9, 1n, [1678, 2261]]]) {
    const [lo, hi] = tsRange(...years);
    const gen = () => {
      const v = r.big(lo / unitNanos, hi / unitNanos) * unitNanos;
      const x = r.next();
      if (x < 0.1) return String(v / unitNanos);                               // units since 1970
      if (x < 0.2) return `'${timestampText(v, digits, 'T', 'Z')}'`;
      if (x < 0.25) return `'${timestampText(v - ((v % NANOS_PER_DAY) + NANOS_PER_DAY) % NANOS_PER_DAY, 0).slice(0, 10)}'`;
      return `'${timestampText(v, digits)}'`;
    };
    cols.push({ name, type: `TIMESTAMP(${unit})`, kind: 'timestamp', unitNanos, phys: 'INT64',
      gen: mixed(gen, { 3: "'1970-01-01 00:00:00'", 4: "'1969-12-31 23:59:59'" }) });
  }
  for (const [name, p, s] of [['dec_s', 9, 2], ['dec_m', 18, 6], ['dec_p', 20, 3], ['dec_l', 38, 10]]) {
    const phys = p <= 9 ? 'INT32' : p <= 18 ? 'INT64' : 'FIXED_LEN_BYTE_ARRAY';
    const max = `${'9'.repeat(p - s)}${s ? `.${'9'.repeat(s)}` : ''}`;
    const specials = { 3: `'${max}'`, 4: `'-${max}'`, 5: "'0'" };
    if (p === 9) Object.assign(specials, { 6: '12.5', 7: '-0.25', 8: '1234567' });   // REAL and INTEGER sources
    cols.push({ name, type: `DECIMAL(${p},${s})`, kind: 'decimal', scale: s, precision: p, phys,
      bytes: phys === 'FIXED_LEN_BYTE_ARRAY' ? decimalBytes(p) : 0, gen: mixed(() => decimalText(p, s), specials) });
  }
  cols.push({ name: 'u', type: 'UUID', kind: 'uuid', phys: 'FIXED_LEN_BYTE_ARRAY',
    gen: mixed(() => {
      const h = randomHex(16), x = r.next();
      if (x < 0.1) return `X'${h}'`;
      const t = uuidFromHex(h);
      return `'${x < 0.2 ? t.toUpperCase() : t}'`;
    }, { 3: "'00000000-0000-0000-0000-000000000000'", 4: "'ffffffff-ffff-ffff-ffff-ffffffffffff'" }) });
  const jsonPool = ['{}', '[]', '"s"', 'null', 'true', '1.5', '{"a":[1,2,{"b":null}]}', '{"k":"日本"}'];
  cols.push({ name: 'j', type: 'JSON', kind: 'json', phys: 'BYTE_ARRAY',
    gen: mixed(() => (r.next() < 0.3 ? textLiteral(r.pick(jsonPool))
      : textLiteral(JSON.stringify({ n: r.int(-1e6, 1e6), s: randomText(0, 12), l: [r.next()] }))),
    { 1006: textLiteral(JSON.stringify({ ['z'.repeat(100)]: 1 })) }) });
  cols.push({ name: 'sparse', type: 'TEXT', kind: 'string', phys: 'BYTE_ARRAY',
    gen: (row) => (row < 1000 || row % 10 !== 0 ? null : textLiteral(`sparse ${row % 37}`)) });
  cols.push({ name: 'allnull', type: 'INTEGER', kind: 'int', phys: 'INT64', gen: () => null });
  return cols;
}

function decimalBytes(p) {
  let n = 1;
  while (2n ** BigInt(8 * n - 1) <= 10n ** BigInt(p) - 1n) ++n;
  return n;
}

// ---------------------------------------------------------------------------------------------------
// The option matrix.

const CODECS = ['uncompressed', 'snappy', 'gzip', 'zstd', 'brotli', 'lz4_raw'];
function configurations(cols) {
  const names = (pred) => cols.filter(pred).map((c) => c.name);
  const enc = (list, e) => list.map((c) => `${c}:${e}`);
  const intCols = names((c) => ['INT32', 'INT64'].includes(c.phys) && c.name !== 'allnull');
  const byteArrayCols = names((c) => c.phys === 'BYTE_ARRAY');
  const flbaCols = names((c) => c.phys === 'FIXED_LEN_BYTE_ARRAY');
  const encodingSets = {
    delta: [...enc(intCols, 'DELTA_BINARY_PACKED'), ...enc(byteArrayCols, 'DELTA_LENGTH_BYTE_ARRAY'),
      'r:BYTE_STREAM_SPLIT', 'flag:RLE'],
    delta_byte_array: enc([...byteArrayCols, ...flbaCols], 'DELTA_BYTE_ARRAY'),
    byte_stream_split: ['r:BYTE_STREAM_SPLIT'],
    // Legal since format 2.11, but DuckDB reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE: these
    // files get their metadata and statistics checked, their values only if DuckDB can read them.
    byte_stream_split_all: enc(['r', ...intCols, ...flbaCols], 'BYTE_STREAM_SPLIT'),
    plain: [...enc(cols.map((c) => c.name), 'PLAIN').filter((e) => !e.startsWith('flag:')), 'flag:RLE'],
  };
  const base = 'page_size=1024, row_group_size=1000';
  const out = [];
  for (const codec of CODECS) {
    for (const v of [1, 2]) {
      for (const dict of [1, 0]) {
        out.push({ name: `${codec}-v${v}-dict${dict}`,
          options: `compression=${codec}, data_page_version=${v}, dictionary=${dict}, ${base}` });
      }
    }
  }
  const combos = [['zstd', 1, 1], ['snappy', 2, 0], ['uncompressed', 2, 1], ['gzip', 1, 0]];
  for (const [setName, list] of Object.entries(encodingSets)) {
    for (const [codec, v, dict] of combos) {
      out.push({ name: `${setName}-${codec}-v${v}-dict${dict}`,
        duckdbCannotRead: setName === 'byte_stream_split_all' ? /BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE/ : null,
        options: `compression=${codec}, data_page_version=${v}, dictionary=${dict}, ${base}, encoding='${list.join(', ')}'` });
    }
  }
  out.push({ name: 'tiny-pages-v1', options: 'compression=zstd, page_size=64, row_group_size=1000' });
  out.push({ name: 'tiny-pages-v2', options: 'compression=lz4_raw, data_page_version=2, page_size=64, row_group_size=1000' });
  out.push({ name: 'defaults', options: '' });
  out.push({ name: 'no-page-index-no-checksums', options: 'page_index=0, checksums=0, row_group_size=1000, compression=brotli' });
  out.push({ name: 'levels', options: 'compression=gzip, compression_level=9, row_group_size=700, page_size=4096' });
  const bloomCols = ['i', 'i32', 'u32', 'r', 't', 'b', 'd', 'ts', 'dec_s', 'dec_m', 'dec_l', 'u', 'j'];
  out.push({ name: 'bloom-dict', bloom: bloomCols,
    options: `compression=zstd, row_group_size=1000, bloom_filter='${bloomCols.join(', ')}'` });
  out.push({ name: 'bloom-nodict-v2', bloom: bloomCols,
    options: `compression=snappy, dictionary=0, data_page_version=2, page_size=1024, row_group_size=1000, bloom_filter='${bloomCols.join(', ')}', bloom_fpp=0.001` });
  return out;
}

// The value SQLite holds, in the form comparisons use (compare()).
function expectedValue(col, type, text) {
  if (type === 'null') return null;
  switch (col.kind) {
    case 'int': return BigInt(text);
    case 'double': return type === 'real' ? parseSqliteReal(text) : Number(text);
    case 'bool': return type === 'text' ? (text.toLowerCase() === 'true' ? 1 : 0) : Number(text) ? 1 : 0;
    case 'string': case 'json': case 'date': return text;
    case 'blob': return text.toLowerCase();
    case 'time': return parseTimeNanos(text);
    case 'timestamp': return type === 'integer' ? BigInt(text) * col.unitNanos : parseTimestampNanos(text);
    case 'decimal': return parseDecimal(type === 'real' ? String(parseSqliteReal(text)) : text, col.scale);
    case 'uuid': return type === 'blob' ? uuidFromHex(text.toLowerCase()) : text.toLowerCase();
    default: throw new Error(`kind ${col.kind}`);
  }
}

// DuckDB's normalized value (tools/duckdb_dump.mjs, DECIMAL as text) in the same form.
function duckValue(col, v) {
  if (v === null) return null;
  switch (col.kind) {
    case 'int': return BigInt(String(v));
    case 'double': return v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : Number(v);
    case 'bool': return v;
    case 'string': case 'json': case 'date': case 'uuid': return v;
    case 'blob': return v.hex.toLowerCase();
    case 'time': return parseTimeNanos(v);
    case 'timestamp': return parseTimestampNanos(v);
    case 'decimal': return parseDecimal(v, col.scale);
    default: throw new Error(`kind ${col.kind}`);
  }
}

// DuckDB's text of a statistic (parquet_metadata stats_min_value / stats_max_value) in the same form.
function duckStat(col, text) {
  if (text === null) return null;
  switch (col.kind) {
    case 'int': return BigInt(text);
    case 'double': return /^-?inf/i.test(text) ? (text.startsWith('-') ? -Infinity : Infinity) : Number(text);
    case 'bool': return text === 'true' ? 1 : 0;
    case 'string': case 'json': case 'date': return text;
    case 'uuid': return text.toLowerCase();
    case 'blob': return unescapeDuckBlob(text);
    case 'time': return parseTimeNanos(text);
    case 'timestamp': return parseTimestampNanos(text);
    case 'decimal': return parseDecimal(text, col.scale);
    default: throw new Error(`kind ${col.kind}`);
  }
}

// DuckDB reads TIMESTAMP(NANOS) adjusted to UTC as microseconds: compare at what DuckDB shows.
const duckShowsMicros = (col) => col.kind === 'timestamp' && col.unitNanos === 1n;
// True when DuckDB's value d is the true value t as DuckDB shows it (truncated to microseconds toward
// zero or toward minus infinity).
function shownAs(col, d, t) {
  if (!duckShowsMicros(col)) return d === t;
  return d === floorDiv(t, 1000n) * 1000n || d === (t / 1000n) * 1000n;
}

// Equality of DuckDB's value d and the true value t of a column, exact (doubles by bits).
function sameValue(col, d, t) {
  if (d === null || t === null) return d === t;
  if (col.kind === 'double') return Object.is(d, t);
  return shownAs(col, d, t);
}

// Order of a column's values in its Parquet sort order.
function compareValues(col, a, b) {
  switch (col.kind) {
    case 'string': case 'json': return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
    case 'blob': return Buffer.compare(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
    case 'uuid': case 'date': return a < b ? -1 : a > b ? 1 : 0;
    default: return a < b ? -1 : a > b ? 1 : 0;  // numbers and BigInts (unsigned columns hold no negatives)
  }
}

const show = (v) => (typeof v === 'bigint' ? `${v}` : Object.is(v, -0) ? '-0' : JSON.stringify(v));

// ---------------------------------------------------------------------------------------------------
// The Bloom filter, probed here: split-block filter (spec: BloomFilter.md) with xxHash64 (seed 0) of
// the plain encoding of a value.

const M64 = (1n << 64n) - 1n;
const P1 = 0x9E3779B185EBCA87n, P2 = 0xC2B2AE3D27D4EB4Fn, P3 = 0x165667B19E3779F9n;
const P4 = 0x85EBCA77C2B2AE63n, P5 = 0x27D4EB2F165667C5n;
const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M64;
const xxRound = (acc, lane) => (rotl((acc + lane * P2) & M64, 31) * P1) & M64;
function xxhash64(buf) {
  const len = buf.length;
  let p = 0, h;
  const u64 = (o) => buf.readBigUInt64LE(o);
  if (len >= 32) {
    let v1 = (P1 + P2) & M64, v2 = P2, v3 = 0n, v4 = (M64 + 1n - P1) & M64;
    for (; p + 32 <= len; p += 32) {
      v1 = xxRound(v1, u64(p)); v2 = xxRound(v2, u64(p + 8)); v3 = xxRound(v3, u64(p + 16)); v4 = xxRound(v4, u64(p + 24));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) & M64;
    for (const v of [v1, v2, v3, v4]) h = (((h ^ xxRound(0n, v)) * P1) + P4) & M64;
  } else {
    h = P5;
  }
  h = (h + BigInt(len)) & M64;
  for (; p + 8 <= len; p += 8) h = ((rotl(h ^ xxRound(0n, u64(p)), 27) * P1) + P4) & M64;
  if (p + 4 <= len) { h = ((rotl(h ^ ((BigInt(buf.readUInt32LE(p)) * P1) & M64), 23) * P2) + P3) & M64; p += 4; }
  for (; p < len; ++p) h = (rotl(h ^ ((BigInt(buf[p]) * P5) & M64), 11) * P1) & M64;
  h ^= h >> 33n; h = (h * P2) & M64; h ^= h >> 29n; h = (h * P3) & M64; h ^= h >> 32n;
  return h;
}

const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31];
// True when the filter (its bitset) may hold the value with this hash.
function sbbfMayContain(bitset, hash) {
  const blocks = BigInt(bitset.length / 32);
  const block = Number(((hash >> 32n) * blocks) >> 32n);
  const key = Number(hash & 0xFFFFFFFFn);
  for (let i = 0; i < 8; ++i) {
    const bit = Math.imul(key, SALT[i]) >>> 27;
    if (((bitset.readUInt32LE(block * 32 + i * 4) >>> bit) & 1) === 0) return false;
  }
  return true;
}

// The bitset of the Bloom filter at `offset` of a file: a Thrift compact BloomFilterHeader (field 1,
// numBytes, an i32) followed by numBytes bytes.
function readBloomBitset(file, offset, length) {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(length ?? 1 << 20);
  const n = readSync(fd, buf, 0, buf.length, offset);
  closeSync(fd);
  let p = 0;
  const varint = () => { let v = 0n, s = 0n; for (;;) { const b = buf[p++]; v |= BigInt(b & 0x7f) << s; if (!(b & 0x80)) return v; s += 7n; } };
  const zigzag = (v) => (v >> 1n) ^ -(v & 1n);
  let numBytes = null;
  const skipStruct = (top) => {
    let last = 0;
    for (;;) {
      const h = buf[p++];
      if (h === 0) return;
      const type = h & 0x0f, delta = h >> 4;
      const id = delta ? last + delta : Number(zigzag(varint()));
      last = id;
      if (type === 5) { const v = Number(zigzag(varint())); if (top && id === 1) numBytes = v; }      // i32
      else if (type === 12) skipStruct(false);
      else if (type === 1 || type === 2) { /* bool */ }
      else if (type === 3) p += 1;
      else if (type === 4 || type === 6) varint();
      else if (type === 8) p += Number(varint());
      else throw new Error(`Bloom filter header: field type ${type} not expected`);
    }
  };
  skipStruct(true);
  if (numBytes === null || numBytes % 32 !== 0 || p + numBytes > n) throw new Error('bad Bloom filter header');
  return buf.subarray(p, p + numBytes);
}

// The plain encoding of a value (the bytes the Bloom filter hashes).
function plainBytes(col, v) {
  const le = (x, n) => { const b = Buffer.alloc(n); if (n === 4) b.writeInt32LE(Number(BigInt.asIntN(32, x))); else b.writeBigInt64LE(BigInt.asIntN(64, x)); return b; };
  switch (col.kind) {
    case 'int': return le(v, col.phys === 'INT32' ? 4 : 8);
    case 'double': { const b = Buffer.alloc(8); b.writeDoubleLE(v); return b; }
    case 'string': case 'json': return Buffer.from(v, 'utf8');
    case 'blob': return Buffer.from(v, 'hex');
    case 'date': { const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v); return le(BigInt(daysFromCivil(+m[1], +m[2], +m[3])), 4); }
    case 'time': return col.phys === 'INT32' ? le(v / 1_000_000n, 4) : le(v / (col.type.includes('NANOS') ? 1n : 1000n), 8);
    case 'timestamp': return le(v / col.unitNanos, 8);
    case 'uuid': return Buffer.from(v.replaceAll('-', ''), 'hex');
    case 'decimal': {
      if (col.phys !== 'FIXED_LEN_BYTE_ARRAY') return le(v, col.phys === 'INT32' ? 4 : 8);
      const b = Buffer.alloc(col.bytes);
      let x = BigInt.asUintN(8 * col.bytes, v);
      for (let k = col.bytes - 1; k >= 0; --k) { b[k] = Number(x & 0xffn); x >>= 8n; }
      return b;
    }
    default: throw new Error(`no plain bytes for ${col.kind}`);
  }
}

// The SQL literal DuckDB's parquet_bloom_probe gets for a value, or null where DuckDB's probe is not
// to be trusted (DECIMAL in INT32/INT64: DuckDB excludes present values even in its own files; BLOBs
// that are not printable ASCII are damaged on the way). For FIXED_LEN_BYTE_ARRAY columns (UUID,
// long DECIMAL) DuckDB's probe never excludes anything (DuckDB writes no Bloom filters for them):
// there it can only show that present values are not excluded (duckProbeExcludes false).
function duckProbeLiteral(col, v) {
  switch (col.kind) {
    case 'int': return `CAST('${v}' AS ${col.phys === 'INT32' ? (col.type === 'UINTEGER' ? 'UINTEGER' : 'INTEGER') : 'BIGINT'})`;
    case 'double': return Number.isFinite(v) ? `CAST('${Object.is(v, -0) ? '-0.0' : v}' AS DOUBLE)` : null;
    case 'string': case 'json': return sqlString(v);
    case 'blob': {
      const s = Buffer.from(v, 'hex').toString('latin1');
      return /^[\x20-\x5b\x5d-\x7e]*$/.test(s) ? `CAST(${sqlString(s)} AS BLOB)` : null;
    }
    case 'date': return `DATE '${v}'`;
    case 'timestamp': return `TIMESTAMPTZ '${timestampText(v, 6)}+00'`;
    case 'uuid': return `CAST('${v}' AS UUID)`;
    case 'decimal': return col.phys === 'FIXED_LEN_BYTE_ARRAY' ? `CAST('${decimalText(v, col.scale)}' AS DECIMAL(${col.precision},${col.scale}))` : null;
    default: return null;
  }
}
const duckProbeExcludes = (col) => col.phys !== 'FIXED_LEN_BYTE_ARRAY';
function decimalText(v, s) {
  const neg = v < 0n, a = (neg ? -v : v).toString().padStart(s + 1, '0');
  return `${neg ? '-' : ''}${s ? `${a.slice(0, a.length - s)}.${a.slice(a.length - s)}` : a}`;
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`export_duckdb_check: ${e.message}\n`);
    process.exit(2);
  }
  const failures = [];
  await inWorkDir(args, 'pq-export-check-', (dir) => check(args, dir, failures));
  process.exitCode = failures.length ? 1 : 0;
}

// A second, larger table whose dictionaries pass the writer's 1 MiB limit inside a row group (the
// fallback to the plain encoding): distinct 64-bit integers, doubles and strings, made in SQL.
const FALLBACK_ROWS = 400000;
function fallbackColumns() {
  return [
    { name: 'id', type: 'INTEGER', kind: 'int', phys: 'INT64', sql: 'value' },
    { name: 'h', type: 'BIGINT', kind: 'int', phys: 'INT64', sql: 'CASE WHEN value % 13 = 0 THEN NULL ELSE value * 2654435761 % 1000000007 END' },
    { name: 'x', type: 'DOUBLE', kind: 'double', phys: 'DOUBLE', sql: '(value * 69069 % 1000003) / 7.0' },
    { name: 's', type: 'TEXT', kind: 'string', phys: 'BYTE_ARRAY', sql: "CASE WHEN value % 17 = 0 THEN NULL ELSE printf('s%09d', value * 7 % 1000003) END" },
    { name: 'n', type: 'INT32', kind: 'int', phys: 'INT32', sql: 'value * 48271 % 2147483647 - 1073741823' },
  ];
}
function fallbackConfigurations() {
  const bloom = ['h', 's', 'n'];
  return [
    // encoding_trial=0: the fixed rule (dictionary, PLAIN past 1 MiB), which the trial would skip
    // for these high-cardinality columns.
    { name: 'fallback-zstd-v1', bloom, fallback: true,
      options: `compression=zstd, row_group_size=300000, bloom_filter='${bloom.join(', ')}', encoding_trial=0` },
    { name: 'fallback-snappy-v2', fallback: true,
      options: 'compression=snappy, data_page_version=2, row_group_size=300000, page_size=65536, encoding_trial=0' },
  ];
}

// A third table whose names repeat only after 30,000 rows: the encoding trial's first values are all
// distinct, so the writer starts PLAIN and switches the rest of the chunk to a dictionary once the
// repeats show (column_writer.h, the watch): chunks with PLAIN data pages before RLE_DICTIONARY ones.
const CYCLE_ROWS = 300000;
function cycleColumns() {
  return [
    { name: 'id', type: 'INTEGER', kind: 'int', phys: 'INT64', sql: 'value' },
    { name: 'c', type: 'TEXT', kind: 'string', phys: 'BYTE_ARRAY', sql: "CASE WHEN value % 11 = 0 THEN NULL ELSE printf('name_%05d', value * 16807 % 30000) END" },
  ];
}
function cycleConfigurations() {
  return [
    { name: 'switched-snappy-v1', bloom: ['c'], switched: true,
      options: "compression=snappy, row_group_size=300000, bloom_filter='c'" },
    { name: 'switched-snappy-v2', switched: true,
      options: 'compression=snappy, data_page_version=2, row_group_size=150000' },
  ];
}

// Makes the source table `src` of a dataset in `db` and returns what SQLite holds, column by column.
function makeSource(args, db, ds) {
  rmSync(db, { force: true });
  let r = run(args.sqlite3, ['-bail', db], ds.sourceSql);
  if (r.status !== 0) throw new Error(`making the source table failed: ${r.stderr}`);
  // Storage class and text of every value: reals as their IEEE 754 bytes (ieee754_to_blob, built into
  // the sqlite3 shell, so doubles compare exactly), blobs in hex.
  const sel = ds.cols.map((c) => `typeof(${c.name}), CASE typeof(${c.name}) WHEN 'real' THEN hex(ieee754_to_blob(${c.name})) ` +
    `WHEN 'blob' THEN hex(${c.name}) ELSE CAST(${c.name} AS TEXT) END`).join(', ');
  r = run(args.sqlite3, ['-json', db, `SELECT ${sel} FROM src ORDER BY rowid`]);
  if (r.status !== 0) throw new Error(`reading the source table failed: ${r.stderr}`);
  const expected = ds.cols.map(() => []);
  for (const row of JSON.parse(r.stdout)) {
    const v = Object.values(row);
    ds.cols.forEach((c, k) => { expected[k].push(expectedValue(c, v[2 * k], v[2 * k + 1])); });
  }
  return expected;
}

async function check(args, dir, failures) {
  const N = args.rows;
  const typeCols = columns(N);
  const lines = [`CREATE TABLE src(${typeCols.map((c) => c.name).join(', ')});`, 'BEGIN;'];
  for (let row = 0; row < N; ++row) {
    const vals = typeCols.map((c, k) => ((row * 7 + k * 3) % NULL_EVERY === 0 && c.name !== 'sparse' ? null : c.gen(row)));
    lines.push(`INSERT INTO src VALUES (${vals.map((v) => v ?? 'NULL').join(', ')});`);
  }
  lines.push('COMMIT;');
  const fbCols = fallbackColumns();
  const cyCols = cycleColumns();
  const datasets = [
    { name: 'types', cols: typeCols, sourceSql: lines.join('\n'), configs: configurations(typeCols) },
    { name: 'fallback', cols: fbCols, configs: fallbackConfigurations(),
      sourceSql: `CREATE TABLE src AS SELECT ${fbCols.map((c) => `${c.sql} AS ${c.name}`).join(', ')} ` +
                 `FROM generate_series(1, ${FALLBACK_ROWS});` },
    { name: 'cycle', cols: cyCols, configs: cycleConfigurations(),
      sourceSql: `CREATE TABLE src AS SELECT ${cyCols.map((c) => `${c.sql} AS ${c.name}`).join(', ')} ` +
                 `FROM generate_series(1, ${CYCLE_ROWS});` },
  ];

  let passed = 0;
  const coverage = { rowGroups: 0, inexactBounds: 0, bloomPresent: 0, duckProbes: 0, fallbackChunks: 0, switchedChunks: 0 };
  for (const ds of datasets) {
    let configs = ds.configs;
    if (args.only) configs = configs.filter((c) => args.only.includes(c.name));
    if (!configs.length) continue;
    const db = path.join(dir, `${ds.name}.sqlite`);
    const expected = makeSource(args, db, ds);
    const rows = expected[0].length;
    const schema = ds.cols.map((c) => `${c.name} ${c.type}`).join(', ');
    for (const cfg of configs) {
      const file = path.join(dir, `${cfg.name}.parquet`);
      rmSync(file, { force: true });
      const fail = [];
      const exportError = exportWithExtension(args, db, file, 'SELECT * FROM src ORDER BY rowid', cfg.options,
        schema, rows);
      if (exportError) {
        fail.push(exportError);
      } else {
        await checkValues(ds.cols, expected, file, cfg, fail, args.maxDiffs);
        const meta = await checkStatistics(ds.cols, expected, file, cfg, fail, args.maxDiffs, coverage);
        if (cfg.bloom && meta) await checkBloom(ds.cols, expected, file, cfg, meta, fail, args.maxDiffs, coverage);
        if (cfg.switched) {
          // The point of this file: chunks with PLAIN data pages (first, as the writer's unit tests check)
          // and RLE_DICTIONARY ones (encoding_stats, through the extension's parquet_metadata).
          const q = `SELECT count(*) FROM parquet_metadata(${sqlString(file)}) m WHERE path_in_schema = 'c' AND ` +
            `EXISTS (SELECT 1 FROM json_each(m.encoding_stats) WHERE json_extract(value, '$.page_type') LIKE 'DATA_PAGE%' ` +
            `AND json_extract(value, '$.encoding') = 'RLE_DICTIONARY') AND EXISTS (SELECT 1 FROM json_each(m.encoding_stats) ` +
            `WHERE json_extract(value, '$.page_type') LIKE 'DATA_PAGE%' AND json_extract(value, '$.encoding') = 'PLAIN')`;
          const n = Number(runWithExtension(args, ':memory:', q).stdout.trim());
          coverage.switchedChunks += n;
          if (!(n > 0)) fail.push('no column chunk switched from PLAIN to the dictionary: the watch is not exercised');
        }
        if (cfg.fallback) {
          // The point of this file: chunks whose data pages start dictionary-encoded and go on PLAIN (read
          // from the footer's encoding_stats by the extension's parquet_metadata).
          const q = `SELECT count(*) FROM parquet_metadata(${sqlString(file)}) WHERE ` +
            ['RLE_DICTIONARY', 'PLAIN'].map((e) => `EXISTS (SELECT 1 FROM json_each(encoding_stats) WHERE ` +
              `json_extract(value, '$.page_type') LIKE 'DATA_PAGE%' AND json_extract(value, '$.encoding') = '${e}')`).join(' AND ');
          const n = Number(runWithExtension(args, ':memory:', q).stdout.trim());
          coverage.fallbackChunks += n;
          if (!(n > 0)) fail.push('no column chunk fell back from the dictionary to PLAIN: the fallback is not exercised');
        }
      }
      const notes = fail.filter((f) => f.startsWith('note: '));
      fail.splice(0, fail.length, ...fail.filter((f) => !f.startsWith('note: ')));
      if (fail.length) {
        failures.push(cfg.name);
        process.stdout.write(`FAIL ${cfg.name}\n  table: ${ds.name} (${rows} rows)\n  options: ${cfg.options || '(none)'}\n` +
          `${fail.map((f) => `  ${f}`).join('\n')}\n`);
      } else {
        ++passed;
        process.stdout.write(`ok   ${cfg.name}${notes.map((n) => `\n     ${n}`).join('')}\n`);
      }
    }
  }
  process.stdout.write(`checked ${coverage.rowGroups} row groups x columns, ${coverage.inexactBounds} truncated (inexact) ` +
    `bounds, ${coverage.fallbackChunks} chunks that fell back from dictionary to plain, ${coverage.switchedChunks} ` +
    `that switched from plain to a dictionary, ${coverage.bloomPresent} ` +
    `present values probed here, ${coverage.duckProbes} probes by DuckDB\n`);
  process.stdout.write(`${passed} passed, ${failures.length} failed\n`);
}

async function checkValues(cols, expected, file, cfg, fail, maxDiffs) {
  let result;
  try {
    result = await readWithDuckDB(`SELECT * FROM read_parquet(${sqlString(file)})`);
  } catch (e) {
    if (cfg.duckdbCannotRead?.test(e.message)) fail.push(`note: values not checked: DuckDB cannot read them (${e.message})`);
    else fail.push(`DuckDB cannot read the file: ${e.message}`);
    return;
  }
  if (result.names.join(',') !== cols.map((c) => c.name).join(',')) {
    fail.push(`columns ${result.names.join(',')}, expected ${cols.map((c) => c.name).join(',')}`);
    return;
  }
  if (result.rows.length !== expected[0].length) fail.push(`DuckDB reads ${result.rows.length} rows, expected ${expected[0].length}`);
  let diffs = 0;
  for (let row = 0; row < Math.min(result.rows.length, expected[0].length); ++row) {
    cols.forEach((c, k) => {
      const got = duckValue(c, normalizeValue(result.rows[row][k], { decimalAsText: true }));
      const want = expected[k][row];
      if (!sameValue(c, got, want) && ++diffs <= maxDiffs) {
        fail.push(`value: row ${row}, column ${c.name} (${c.type}): DuckDB reads ${show(got)}, SQLite had ${show(want)}`);
      }
    });
  }
  if (diffs > maxDiffs) fail.push(`value: ${diffs - maxDiffs} more differences`);
}

// Returns the row groups ([{id, start, rows, chunks: {column: metadata row}}]) or null.
async function checkStatistics(cols, expected, file, cfg, fail, maxDiffs, coverage) {
  let meta;
  try {
    meta = await readWithDuckDB(`SELECT row_group_id, row_group_num_rows, path_in_schema, stats_min_value, stats_max_value,
        stats_null_count, min_is_exact, max_is_exact, bloom_filter_offset, bloom_filter_length, compression, encodings
      FROM parquet_metadata(${sqlString(file)}) ORDER BY row_group_id, column_id`);
  } catch (e) {
    fail.push(`DuckDB cannot read the metadata: ${e.message}`);
    return null;
  }
  const groups = [];
  for (const row of meta.rows) {
    const [rg, nrows, name, min, max, nulls, minExact, maxExact, bloomOffset, bloomLength, codec, encodings] =
      row.map((v) => (typeof v === 'bigint' ? Number(v) : v));
    let g = groups[groups.length - 1];
    if (!g || g.id !== rg) {
      g = { id: rg, start: g ? g.start + g.rows : 0, rows: nrows, chunks: {} };
      groups.push(g);
    }
    g.chunks[name] = { min, max, nulls, minExact, maxExact, bloomOffset, bloomLength, codec,
      encodings: encodings.split(',').map((e) => e.trim()) };
  }
  checkOptionsTookEffect(cols, groups, cfg, fail);
  const total = groups.reduce((s, g) => s + g.rows, 0);
  if (total !== expected[0].length) fail.push(`row groups hold ${total} rows, expected ${expected[0].length}`);
  const rgSize = Number(/row_group_size=(\d+)/.exec(cfg.options)?.[1] ?? 1000000);
  const wantGroups = Math.ceil(expected[0].length / rgSize);
  if (groups.length !== wantGroups) fail.push(`${groups.length} row groups, expected ${wantGroups} (row_group_size=${rgSize})`);

  let diffs = 0;
  const report = (msg) => { if (++diffs <= maxDiffs) fail.push(msg); };
  for (const g of groups) {
    cols.forEach((c, k) => {
      const chunk = g.chunks[c.name];
      const where = `row group ${g.id}, column ${c.name} (${c.type})`;
      if (!chunk) { report(`statistics: ${where}: no column chunk`); return; }
      ++coverage.rowGroups;
      if (chunk.minExact === false) ++coverage.inexactBounds;
      if (chunk.maxExact === false) ++coverage.inexactBounds;
      const vals = expected[k].slice(g.start, g.start + g.rows);
      const present = vals.filter((v) => v !== null);
      const nulls = vals.length - present.length;
      if (chunk.nulls === null) report(`statistics: ${where}: no null_count (true: ${nulls})`);
      else if (chunk.nulls !== nulls) report(`statistics: ${where}: null_count ${chunk.nulls}, true ${nulls}`);
      if (!present.length) {
        if (chunk.min !== null || chunk.max !== null) report(`statistics: ${where}: min/max ${chunk.min}/${chunk.max} for a chunk of NULLs`);
        return;
      }
      let lo = present[0], hi = present[0];
      for (const v of present) {
        if (compareValues(c, v, lo) < 0) lo = v;
        if (compareValues(c, v, hi) > 0) hi = v;
      }
      if (c.kind === 'double' && (!Number.isFinite(lo) || !Number.isFinite(hi)) && chunk.min === null) return;  // DuckDB hides infinite bounds
      // The writer leaves out a max it cannot truncate to 64 bytes (all 0xFF bytes: no shorter upper
      // bound exists); DuckDB then shows neither bound.
      const untruncatableMax = c.kind === 'blob' && hi.length > 128 && /^(ff)+$/.test(hi);
      if (chunk.max === null && untruncatableMax) return;
      if (chunk.min === null || chunk.max === null) {
        report(`statistics: ${where}: no min/max (true ${show(lo)} / ${show(hi)})`);
        return;
      }
      const smin = duckStat(c, chunk.min), smax = duckStat(c, chunk.max);
      const exact = (s, t) => (duckShowsMicros(c) ? shownAs(c, s, t) : compareValues(c, s, t) === 0);
      const minOk = chunk.minExact === false ? compareValues(c, smin, lo) <= 0 : exact(smin, lo);
      const maxOk = chunk.maxExact === false ? compareValues(c, smax, hi) >= 0 : exact(smax, hi);
      if (!minOk) report(`statistics: ${where}: min ${chunk.min}${chunk.minExact === false ? ' (inexact)' : ''}, true min ${show(lo)}`);
      if (!maxOk) report(`statistics: ${where}: max ${chunk.max}${chunk.maxExact === false ? ' (inexact)' : ''}, true max ${show(hi)}`);
    });
  }
  if (diffs > maxDiffs) fail.push(`statistics: ${diffs - maxDiffs} more differences`);
  return groups;
}

// The options must show in the metadata: the codec of every chunk, each column's requested encoding,
// no dictionary with dictionary=0, and dictionaries in use with dictionary=1 and no explicit encodings.
function checkOptionsTookEffect(cols, groups, cfg, fail) {
  const opt = (key) => new RegExp(`(?:^|, )${key}=([^,]+)`).exec(cfg.options)?.[1];
  const codec = (opt('compression') ?? 'snappy').toUpperCase();
  const requested = /encoding='([^']*)'/.exec(cfg.options)?.[1].split(',').map((e) => e.trim().split(':')) ?? [];
  const problems = new Set();
  let dictionaryChunks = 0;
  for (const g of groups) {
    for (const c of cols) {
      const chunk = g.chunks[c.name];
      if (!chunk) continue;
      if (chunk.codec !== codec) problems.add(`metadata: column ${c.name}: codec ${chunk.codec}, asked for ${codec}`);
      const dict = chunk.encodings.some((e) => e.endsWith('_DICTIONARY'));
      if (dict) ++dictionaryChunks;
      if (opt('dictionary') === '0' && dict) problems.add(`metadata: column ${c.name}: dictionary encoding with dictionary=0`);
      for (const [name, enc] of requested) {
        if (name === c.name && !chunk.encodings.includes(enc)) {
          problems.add(`metadata: column ${c.name}: encodings ${chunk.encodings.join(' ')}, asked for ${enc}`);
        }
      }
    }
  }
  if (opt('dictionary') !== '0' && !requested.length && dictionaryChunks === 0) problems.add('metadata: no column uses a dictionary');
  fail.push(...problems);
}

async function checkBloom(cols, expected, file, cfg, groups, fail, maxDiffs, coverage) {
  const rnd = makeRandom(7);
  let diffs = 0;
  const report = (msg) => { if (++diffs <= maxDiffs) fail.push(msg); };
  for (const name of cfg.bloom) {
    const k = cols.findIndex((c) => c.name === name);
    const c = cols[k];
    const all = new Set(expected[k].filter((v) => v !== null).map(show));
    // Absent values: fresh values of the same column generator's kind, not in the column.
    const absent = [];
    for (let tries = 0; absent.length < 300 && tries < 100000; ++tries) {
      const v = absentCandidate(c, rnd);
      if (!all.has(show(v))) absent.push(v);
    }
    const probes = [];  // {rg, value, present} for DuckDB
    for (const g of groups) {
      const chunk = g.chunks[name];
      if (chunk.bloomOffset === null) { report(`bloom: row group ${g.id}, column ${name}: no Bloom filter`); continue; }
      const bitset = readBloomBitset(file, chunk.bloomOffset, chunk.bloomLength);
      const present = [...new Map(expected[k].slice(g.start, g.start + g.rows).filter((v) => v !== null)
        .map((v) => [show(v), v])).values()];
      coverage.bloomPresent += present.length;
      for (const v of present) {
        if (!sbbfMayContain(bitset, xxhash64(plainBytes(c, v)))) {
          report(`bloom (own probe): row group ${g.id}, column ${name} (${c.type}): present value ${show(v)} is excluded`);
        }
      }
      let excluded = 0;
      for (const v of absent) if (!sbbfMayContain(bitset, xxhash64(plainBytes(c, v)))) ++excluded;
      if (excluded < 0.9 * absent.length) {
        report(`bloom (own probe): row group ${g.id}, column ${name}: only ${excluded} of ${absent.length} absent values excluded`);
      }
      for (const v of present.slice(0, 40)) probes.push({ rg: g.id, v, present: true });
    }
    for (const v of absent.slice(0, 60)) probes.push({ rg: null, v, present: false });
    const usable = probes.map((p) => ({ ...p, lit: duckProbeLiteral(c, p.v) })).filter((p) => p.lit !== null);
    if (!usable.length) continue;
    const sql = usable.map((p, i) => `SELECT ${i} AS k, row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${sqlString(file)}, '${name}', ${p.lit})`)
      .join(' UNION ALL ');
    let res;
    try {
      res = await readWithDuckDB(`${sql} ORDER BY k, row_group_id`);
    } catch (e) {
      report(`bloom (DuckDB): column ${name}: parquet_bloom_probe failed: ${e.message}`);
      continue;
    }
    coverage.duckProbes += res.rows.length;
    let absentProbes = 0, absentExcluded = 0;
    for (const [kk, rg, excludes] of res.rows) {
      const p = usable[Number(kk)];
      if (p.present && Number(rg) === p.rg && excludes !== false) {
        report(`bloom (DuckDB): row group ${p.rg}, column ${name} (${c.type}): present value ${show(p.v)} reported ${excludes === null ? 'without a filter' : 'excluded'}`);
      }
      if (!p.present) { ++absentProbes; if (excludes === true) ++absentExcluded; }
    }
    if (duckProbeExcludes(c) && absentProbes && absentExcluded < 0.9 * absentProbes) {
      report(`bloom (DuckDB): column ${name}: only ${absentExcluded} of ${absentProbes} (row group, absent value) probes excluded`);
    }
  }
  if (diffs > maxDiffs) fail.push(`bloom: ${diffs - maxDiffs} more differences`);
}

function absentCandidate(c, rnd) {
  switch (c.kind) {
    case 'int': return c.phys === 'INT32' ? BigInt(rnd.int(c.type === 'UINTEGER' ? 0 : -2147483648, 2147483647))
      : rnd.big(0n, 2n ** 62n);
    case 'double': return (rnd.next() - 0.5) * 10 ** rnd.int(-20, 20);
    case 'string': return `absent ${rnd.int(0, 1e9)}`;
    case 'json': return JSON.stringify({ absent: rnd.int(0, 1e9) });
    case 'blob': return Buffer.from(`absent ${rnd.int(0, 1e9)}`).toString('hex');
    case 'date': return dateText(rnd.int(-700000, 2900000));
    case 'timestamp': return BigInt(rnd.int(-2e9, 2e9)) * 1_000_000_000n + BigInt(rnd.int(0, 999999)) * 1000n;
    case 'decimal': return rnd.big(-(10n ** BigInt(Math.min(c.precision, 9)) - 1n), 10n ** BigInt(Math.min(c.precision, 9)) - 1n);
    case 'uuid': {
      let h = '';
      for (let i = 0; i < 16; ++i) h += pad(rnd.int(0, 255).toString(16), 2);
      return uuidFromHex(h);
    }
    default: throw new Error(`no absent values for ${c.kind}`);
  }
}

await main();
