#!/usr/bin/env node
// writer_types_duckdb_check: the types and file layouts the writer gained for VARIANT, GEOMETRY and
// the other logical types, checked by DuckDB as the independent reader (ctest
// duckdb_writer_types_check).
//
//   node tools/writer_types_duckdb_check.mjs [--ext build/parquet] [--sqlite3 sqlite3] [--keep DIR]
//                                            [--only types,variant,geometry,split]
//
// 1. Logical types: a table of generated values exported with FLOAT4, FLOAT16, ENUM, BSON,
//    INTERVAL, TIME, TIMETZ, TIMESTAMP_NTZ in three units, TIMESTAMP, UUID (and FIELD_IDs). DuckDB
//    must read each column with the type it maps the Parquet type to, and each value as the source
//    held it (floats rounded to the nearest FLOAT and half, computed here independently).
// 2. VARIANT: generated JSON documents (every integer width, decimals of every width, doubles,
//    strings, nesting, null) exported unshredded and shredded (VARIANT<STRUCT<...>>). DuckDB must
//    read the column as VARIANT and every value as the JSON held it (numbers compared exactly);
//    the extension must read back the same values. Then lossless copies: DuckDB writes Variants
//    holding dates, timestamps, decimals, BLOBs, UUIDs, floats; the extension reads them with
//    variant=binary and exports them to a VARIANT column; DuckDB must find every value with the
//    same variant_typeof and the same value in the copy.
// 3. GEOMETRY: generated WKT of every kind and dimension (empties and NaN included) exported as
//    GEOMETRY from WKT text and from WKB. DuckDB must read GEOMETRY values whose WKT is DuckDB's own
//    reading of the same text; and for each of several groups of values, DuckDB writes the same
//    geometries (GEOPARQUET_VERSION 'V2') and the extension's parquet_metadata must show the same
//    geo_bbox and geo_types for both files.
// 4. Big exports: row_groups_per_file, file_size_bytes and partition_by with return_stats=1. DuckDB
//    reads the folders (rows, sums), and each file's row count and per-column min/max/null count
//    from DuckDB's parquet_metadata must equal what return_stats said.
// Exit status 0 when every check passes; otherwise every difference is printed and the status is 1.
import path from 'node:path';
import { inWorkDir, parseCheckArgs, run, runWithExtension, seededRandom } from './duckdb_check_util.mjs';
import { normalizeValue, readWithDuckDB, sqlString } from './duckdb_dump.mjs';

const args = parseCheckArgs(process.argv.slice(2), { only: null }, {
  '--only': (v, a) => { a.only = v.split(','); },
});
const wanted = (part) => !args.only || args.only.includes(part);
const failures = [];
let checks = 0;
function expect(condition, what) {
  ++checks;
  if (!condition) failures.push(what);
}
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Runs SQL with the extension loaded; throws with the shell's message when it fails. */
function sqlite(db, sql) {
  const r = runWithExtension(args, db, sql);
  if (r.status !== 0) throw new Error(`sqlite3 failed: ${(r.stderr || r.stdout).trim()}\n${sql.slice(0, 400)}`);
  return r.stdout;
}
/** Rows of a query run by the extension's shell in JSON mode (one array of objects). */
function sqliteJson(db, sql) {
  const r = run(args.sqlite3, ['-bail', '-json', '-cmd', `.load ${args.ext}`, db, sql]);
  if (r.status !== 0) throw new Error(`sqlite3 failed: ${(r.stderr || r.stdout).trim()}\n${sql.slice(0, 400)}`);
  return r.stdout.trim() ? JSON.parse(r.stdout) : [];
}
async function duck(sql) {
  return readWithDuckDB(sql);
}

// ---------------------------------------------------------------------------------------------------
// Numbers: exact decimal comparison of texts (a JSON number literal, or a value's text).

/** [BigInt digits, exponent of ten] of a decimal or exponent literal; null for other text. */
function exactDecimal(text) {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(String(text));
  if (!m) return null;
  let digits = BigInt(m[2] + (m[3] ?? ''));
  let exponent = Number(m[4] ?? 0) - (m[3] ?? '').length;
  if (digits === 0n) return [0n, 0];
  while (digits % 10n === 0n) {
    digits /= 10n;
    ++exponent;
  }
  return [m[1] ? -digits : digits, exponent];
}
function sameNumber(a, b) {
  const x = exactDecimal(a), y = exactDecimal(b);
  if (x && y) return x[0] === y[0] && x[1] === y[1];
  return Number(a) === Number(b);
}

/** JSON.parse that keeps numbers as {number: "literal"}, so none is rounded. */
function parseJsonExact(text) {
  let i = 0;
  const space = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) ++i; };
  const value = () => {
    space();
    const c = text[i];
    if (c === '{') {
      ++i; const o = {}; space();
      if (text[i] === '}') { ++i; return o; }
      for (;;) { space(); const k = value(); space(); ++i; o[k] = value(); space(); if (text[i++] === '}') return o; }
    }
    if (c === '[') {
      ++i; const a = []; space();
      if (text[i] === ']') { ++i; return a; }
      for (;;) { a.push(value()); space(); if (text[i++] === ']') return a; }
    }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const s = JSON.parse(text.slice(i, j + 1));
      i = j + 1;
      return s;
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    i += m[0].length;
    return { number: m[0] };
  };
  return value();
}

/** Compares a parsed JSON document (numbers as {number}) with a normalized DuckDB value. */
function sameJsonValue(expected, actual) {
  if (expected !== null && typeof expected === 'object' && 'number' in expected) {
    return (typeof actual === 'number' || typeof actual === 'string') && sameNumber(expected.number, actual);
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length &&
           expected.every((e, k) => sameJsonValue(e, actual[k]));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const keys = Object.keys(expected).sort();
    return same(keys, Object.keys(actual).sort()) && keys.every((k) => sameJsonValue(expected[k], actual[k]));
  }
  if (typeof expected === 'boolean') return actual === (expected ? 1 : 0) || actual === expected;
  return expected === actual;
}

// ---------------------------------------------------------------------------------------------------
// 1. Logical types.

/** The IEEE half nearest to x (ties to even), as a number: an independent oracle for FLOAT16. */
function halfRound(x) {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Infinity;
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  // A value's step is 2^(e-10) (2^-24 for subnormals); round a / step to even.
  let step = 2 ** (e - 10);
  if (a >= 2 ** (e + 1)) step *= 2;  // log2 rounding at a power of two
  const q = a / step;
  let r = Math.round(q);
  if (Math.abs(q - Math.trunc(q) - 0.5) === 0 && r % 2 !== 0) r -= 1;
  return Math.sign(x) * r * step;
}

async function checkLogicalTypes(dir) {
  const rnd = seededRandom(2202);
  const rows = [];
  const pad = (n, w) => String(n).padStart(w, '0');
  for (let k = 0; k < 300; ++k) {
    const nul = (p) => rnd() < p;
    const time = `${pad(Math.floor(rnd() * 24), 2)}:${pad(Math.floor(rnd() * 60), 2)}:${pad(Math.floor(rnd() * 60), 2)}`;
    const micros = pad(Math.floor(rnd() * 1e6), 6);
    const date = `${1900 + Math.floor(rnd() * 300)}-${pad(1 + Math.floor(rnd() * 12), 2)}-${pad(1 + Math.floor(rnd() * 28), 2)}`;
    const hex = (n) => Array.from({ length: n }, () => pad(Math.floor(rnd() * 256).toString(16), 2)).join('');
    const name = 'k' + Math.floor(rnd() * 100);
    const bson = Buffer.alloc(4 + 1 + name.length + 1 + 8 + 1);  // {name: <double>}
    bson.writeInt32LE(bson.length, 0);
    bson[4] = 1;
    bson.write(name, 5, 'latin1');
    bson.writeDoubleLE(rnd() * 100, 5 + name.length + 1);
    rows.push({
      f4: nul(0.05) ? null : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 30 - 10),
      f16: nul(0.05) ? null : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 9 - 4),
      e: nul(0.05) ? null : ['red', 'green', 'blue', 'été'][Math.floor(rnd() * 4)],
      b: nul(0.05) ? null : bson.toString('hex'),
      // Months and days below 2^31: DuckDB holds them as int32 (Parquet stores unsigned 32-bit).
      i: nul(0.05) ? null : { months: Math.floor(rnd() * 2.1e9), days: Math.floor(rnd() * 1000), millis: Math.floor(rnd() * 4.2e9) },
      t: nul(0.05) ? null : `${time}.${micros}`,
      tz: nul(0.05) ? null : `${time}.${micros}`,
      ts_ms: nul(0.05) ? null : `${date} ${time}.${micros.slice(0, 3)}`,
      ts_us: nul(0.05) ? null : `${date} ${time}.${micros}`,
      ts_ns: nul(0.05) ? null : `${date} ${time}.${micros}${pad(Math.floor(rnd() * 1000), 3)}`,
      tsz: nul(0.05) ? null : `${date} ${time}.${micros}`,
      u: nul(0.05) ? null : `${hex(4)}-${hex(2)}-${hex(2)}-${hex(2)}-${hex(6)}`,
    });
  }
  const lit = (v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : sqlString(v));
  const values = rows.map((r) => `(${lit(r.f4)}, ${lit(r.f16)}, ${lit(r.e)}, ${r.b === null ? 'NULL' : `x'${r.b}'`}, ` +
    `${r.i === null ? 'NULL' : sqlString(JSON.stringify(r.i))}, ${lit(r.t)}, ${lit(r.tz)}, ${lit(r.ts_ms)}, ` +
    `${lit(r.ts_us)}, ${lit(r.ts_ns)}, ${lit(r.tsz)}, ${lit(r.u)})`).join(',\n');
  const file = path.join(dir, 'types.parquet');
  const schema = 'f4 FLOAT4 FIELD_ID 1, f16 FLOAT16 FIELD_ID 2, e ENUM, b BSON, i INTERVAL, t TIME, tz TIMETZ, ' +
    'ts_ms TIMESTAMP_NTZ(MILLIS), ts_us TIMESTAMP_NTZ(MICROS), ts_ns TIMESTAMP_NTZ(NANOS) FIELD_ID 30, tsz TIMESTAMP, u UUID';
  sqlite(':memory:', `CREATE TABLE src(f4, f16, e, b, i, t, tz, ts_ms, ts_us, ts_ns, tsz, u);
INSERT INTO src VALUES ${values};
SELECT parquet_export(${sqlString(file)}, 'SELECT * FROM src', ${sqlString(`schema='${schema}'`)});`);
  const { names, types, rows: got } = await duck(`SELECT * FROM read_parquet(${sqlString(file)})`);
  const wantTypes = {
    f4: 'FLOAT', f16: 'FLOAT', e: 'VARCHAR', b: 'BLOB', i: 'INTERVAL', t: 'TIME', tz: 'TIME WITH TIME ZONE',
    ts_ms: 'TIMESTAMP' /* DuckDB reads local MILLIS as microseconds */, ts_us: 'TIMESTAMP', ts_ns: 'TIMESTAMP_NS', tsz: 'TIMESTAMP WITH TIME ZONE', u: 'UUID',
  };
  names.forEach((n, k) => expect(String(types[k]) === wantTypes[n], `types: column ${n} is ${types[k]}, expected ${wantTypes[n]}`));
  expect(got.length === rows.length, `types: ${got.length} rows, expected ${rows.length}`);
  const fraction = (text) => text.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  for (let r = 0; r < Math.min(got.length, rows.length); ++r) {
    const want = rows[r];
    const row = Object.fromEntries(names.map((n, k) => [n, normalizeValue(got[r][k])]));
    const wantRow = {
      f4: want.f4 === null ? null : Math.fround(want.f4),
      f16: want.f16 === null ? null : halfRound(want.f16),
      e: want.e,
      b: want.b === null ? null : { hex: want.b },
      i: want.i,
      t: want.t === null ? null : fraction(want.t),
      tz: want.tz === null ? null : fraction(want.tz),
      ts_ms: want.ts_ms === null ? null : fraction(want.ts_ms),
      ts_us: want.ts_us === null ? null : fraction(want.ts_us),
      ts_ns: want.ts_ns === null ? null : fraction(want.ts_ns),
      tsz: want.tsz === null ? null : fraction(want.tsz),
      u: want.u,
    };
    for (const n of names) {
      expect(same(row[n], wantRow[n]), `types: row ${r + 1}, column ${n}: DuckDB read ${JSON.stringify(row[n])}, the source held ${JSON.stringify(wantRow[n])}`);
    }
  }
  const ids = await duck(`SELECT name, field_id FROM parquet_schema(${sqlString(file)}) WHERE field_id IS NOT NULL ORDER BY name`);
  expect(same(ids.rows.map(([n, id]) => [n, Number(id)]), [['f16', 2], ['f4', 1], ['ts_ns', 30]]),
    `types: field ids ${JSON.stringify(ids.rows.map(([n, id]) => [n, Number(id)]))}`);
}

// ---------------------------------------------------------------------------------------------------
// 2. VARIANT.

function generateJson(rnd, depth = 0) {
  const pick = Math.floor(rnd() * (depth > 3 ? 7 : 10));
  const int = (bits) => String(Math.floor((rnd() - 0.5) * 2 ** bits));
  switch (pick) {
    case 0: return 'null';
    case 1: return rnd() < 0.5 ? 'true' : 'false';
    case 2: return int([7, 15, 31, 52][Math.floor(rnd() * 4)]);
    case 3: return ['9223372036854775807', '-9223372036854775808', '123456789012345678901234567890'][Math.floor(rnd() * 3)];
    case 4: {  // decimals of 4, 12 and 30 digits, with trailing zeros kept
      const digits = [4, 12, 30][Math.floor(rnd() * 3)];
      let s = '';
      for (let k = 0; k < digits; ++k) s += Math.floor(rnd() * 10);
      const point = 1 + Math.floor(rnd() * (digits - 1));
      return (rnd() < 0.3 ? '-' : '') + s.slice(0, point).replace(/^0+(?=\d)/, '') + '.' + s.slice(point);
    }
    case 5: return `${(rnd() * 1000).toFixed(3)}e${Math.floor(rnd() * 40 - 20)}`;
    case 6: return JSON.stringify(['', 'a', 'héllo wörld', '日本語', 'x'.repeat(70), 'quote " and \\ back'][Math.floor(rnd() * 6)]);
    case 7: case 8: {
      const n = Math.floor(rnd() * 5);
      const keys = ['a', 'b', 'c', 'd', 'long key name', 'é'];
      const used = new Set();
      const members = [];
      for (let k = 0; k < n; ++k) {
        const key = keys[Math.floor(rnd() * keys.length)];
        if (used.has(key)) continue;
        used.add(key);
        members.push(`${JSON.stringify(key)}: ${generateJson(rnd, depth + 1)}`);
      }
      return `{${members.join(', ')}}`;
    }
    default: {
      const n = Math.floor(rnd() * 4);
      return `[${Array.from({ length: n }, () => generateJson(rnd, depth + 1)).join(', ')}]`;
    }
  }
}

async function checkVariant(dir) {
  const rnd = seededRandom(22);
  const docs = [];
  for (let k = 0; k < 400; ++k) {
    if (k % 3 === 0) {
      // Objects shaped like the shredding, with mismatches now and then.
      const a = rnd() < 0.8 ? String(Math.floor((rnd() - 0.5) * 1e9)) : '"text"';
      const c = `[${Array.from({ length: Math.floor(rnd() * 3) }, () => (rnd() < 0.8 ? `${(rnd() * 10).toFixed(2)}e0` : 'null')).join(', ')}]`;
      docs.push(rnd() < 0.1 ? null : `{"a": ${a}, "b": ${JSON.stringify('s' + k)}, "c": ${c}, "z": ${generateJson(rnd, 2)}}`);
    } else {
      docs.push(rnd() < 0.05 ? null : generateJson(rnd));
    }
  }
  const db = path.join(dir, 'variant.db');
  sqlite(db, `CREATE TABLE docs(id INTEGER, doc TEXT);
INSERT INTO docs VALUES ${docs.map((d, k) => `(${k}, ${d === null ? 'NULL' : sqlString(d)})`).join(',\n')};`);
  for (const [label, type] of [['unshredded', 'VARIANT'], ['shredded', 'VARIANT<STRUCT<a INTEGER, b TEXT, c LIST<REAL>>>']]) {
    const file = path.join(dir, `variant_${label}.parquet`);
    sqlite(db, `SELECT parquet_export(${sqlString(file)}, 'SELECT id, doc FROM docs ORDER BY id', ${sqlString(`schema='doc ${type}'`)});`);
    const { types, rows } = await duck(`SELECT id, doc FROM read_parquet(${sqlString(file)}) ORDER BY id`);
    expect(String(types[1]) === 'VARIANT', `variant ${label}: DuckDB reads the column as ${types[1]}`);
    expect(rows.length === docs.length, `variant ${label}: ${rows.length} rows`);
    // The extension's own reading of the file, for the same comparison.
    const ours = sqliteJson(':memory:', `CREATE VIRTUAL TABLE temp.v USING parquet(${sqlString(file)});
SELECT id, doc FROM v ORDER BY id;`);
    for (let r = 0; r < Math.min(rows.length, docs.length); ++r) {
      const want = docs[r] === null ? null : parseJsonExact(docs[r]);
      const got = rows[r][1] === null ? null : normalizeValue(rows[r][1], { decimalAsText: true });
      // DuckDB reads the Variant null (the JSON text null) as SQL NULL.
      expect(docs[r] === null ? rows[r][1] === null : sameJsonValue(want, got),
        `variant ${label}: row ${r}: DuckDB read ${JSON.stringify(got)}, the JSON was ${docs[r]}`);
      const mine = ours[r]?.doc ?? null;
      expect(docs[r] === null ? mine === null : mine !== null && sameJsonValue(want, parseJsonValueLoose(mine)),
        `variant ${label}: row ${r}: the extension read ${mine}, the JSON was ${docs[r]}`);
    }
  }
  await checkVariantCopy(dir);
}

/** Our reader's JSON, numbers kept as literals like the expected side. */
function parseJsonValueLoose(text) {
  const v = parseJsonExact(text);
  const unwrap = (x) => {
    if (x !== null && typeof x === 'object' && 'number' in x) return x.number;
    if (Array.isArray(x)) return x.map(unwrap);
    if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, unwrap(y)]));
    return x;
  };
  return unwrap(v);
}

// DuckDB writes typed Variants; the extension copies them through variant=binary; DuckDB compares.
async function checkVariantCopy(dir) {
  const source = path.join(dir, 'duck_variant.parquet');
  const copy = path.join(dir, 'copied_variant.parquet');
  const values = [
    "DATE '2024-11-07'", "TIMESTAMP '2024-11-07 12:33:54.123456'", "TIMESTAMPTZ '2024-11-07 12:33:54.123456+00'",
    "TIMESTAMP_NS '1957-11-07 12:33:54.123456789'", '12345.6789::DECIMAL(9,4)', '-123456789.987654321::DECIMAL(18,9)',
    '9876543210.123456789::DECIMAL(38,9)', "'\\x0A\\x0B\\x00'::BLOB", "'f24f9b64-81fa-49d1-b74e-8c09a6e31c56'::UUID",
    '10.11::FLOAT', '14.3::DOUBLE', '34::TINYINT', '1234::SMALLINT', '-12345::INTEGER', '9876543210::BIGINT',
    "TIME '12:33:54.123456'", 'true', "'iceberg'", 'NULL::INTEGER',
    "{'d': DATE '2000-01-01', 'n': 1.50::DECIMAL(3,2), 'l': [TIMESTAMP '2001-02-03 04:05:06', NULL]}",
  ];
  const select = values.map((v, k) => `SELECT ${k} AS id, (${v})::VARIANT AS v`).join(' UNION ALL ');
  await duck(`COPY (${select} ORDER BY id) TO ${sqlString(source)} (FORMAT parquet)`);
  sqlite(':memory:', `CREATE VIRTUAL TABLE temp.s USING parquet(${sqlString(source)}, variant=binary);
SELECT parquet_export(${sqlString(copy)}, 'SELECT id, v FROM s', 'schema=''v VARIANT''');`);
  const query = (file) => `SELECT id, variant_typeof(v) AS t, v FROM read_parquet(${sqlString(file)}) ORDER BY id`;
  const a = await duck(query(source));
  const b = await duck(query(copy));
  expect(a.rows.length === values.length && b.rows.length === values.length, `variant copy: ${a.rows.length} / ${b.rows.length} rows`);
  for (let r = 0; r < Math.min(a.rows.length, b.rows.length); ++r) {
    const [ida, ta, va] = a.rows[r];
    const [, tb, vb] = b.rows[r];
    expect(ta === tb, `variant copy: row ${ida}: variant_typeof ${tb} in the copy, ${ta} in DuckDB's file (${values[r]})`);
    const na = normalizeValue(va, { decimalAsText: true }), nb = normalizeValue(vb, { decimalAsText: true });
    expect(same(na, nb), `variant copy: row ${ida}: ${JSON.stringify(nb)} in the copy, ${JSON.stringify(na)} in DuckDB's file`);
  }
}

// ---------------------------------------------------------------------------------------------------
// 3. GEOMETRY.

function generateWkt(rnd, nanRate) {
  const dims = ['', ' Z', ' M', ' ZM'][Math.floor(rnd() * 4)];
  const n = 2 + (dims === ' Z' || dims === ' M' ? 1 : dims === ' ZM' ? 2 : 0);
  const coord = () => Array.from({ length: n }, () => (rnd() < nanRate ? 'NaN' : ((rnd() - 0.5) * 360).toFixed(3))).join(' ');
  const line = (k) => `(${Array.from({ length: k }, coord).join(', ')})`;
  const ring = () => {
    const first = coord();
    return `(${first}, ${coord()}, ${coord()}, ${first})`;
  };
  const kind = Math.floor(rnd() * 7);
  if (rnd() < 0.08) return `${['POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON', 'GEOMETRYCOLLECTION'][kind]}${dims} EMPTY`;
  switch (kind) {
    case 0: return `POINT${dims} (${coord()})`;
    case 1: return `LINESTRING${dims} ${line(2 + Math.floor(rnd() * 4))}`;
    case 2: return `POLYGON${dims} (${ring()})`;
    case 3: return `MULTIPOINT${dims} (${Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => `(${coord()})`).join(', ')})`;
    case 4: return `MULTILINESTRING${dims} (${line(2)}, ${line(3)})`;
    case 5: return `MULTIPOLYGON${dims} ((${ring()}), (${ring()}))`;
    default: return `GEOMETRYCOLLECTION${dims} (POINT${dims} (${coord()}), LINESTRING${dims} ${line(2)})`;
  }
}

const GEOMETRY_KINDS = ['point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon',
  'geometrycollection'];

/**
 * The statistics the spec ("Geospatial Definitions") gives a chunk of these WKT values, computed
 * from the text alone: each axis's min and max over every coordinate, NaN skipped per axis; no box
 * when x or y has none; Z and M only when some value has one; the top-level types, sorted by code.
 */
function specGeoStatistics(wkts) {
  const min = [Infinity, Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity, -Infinity];
  const codes = new Set();
  let any = false;
  for (const w of wkts) {
    if (w === null) continue;
    any = true;
    const m = /^([A-Z]+)\s*(ZM|Z|M)?\s*(.*)$/.exec(w);
    const tag = m[2] ?? '';
    codes.add(GEOMETRY_KINDS.indexOf(m[1].toLowerCase()) + 1 + 1000 * ['', 'Z', 'M', 'ZM'].indexOf(tag));
    const axes = [0, 1, ...(tag.includes('Z') ? [2] : []), ...(tag.includes('M') ? [3] : [])];
    const keywords = /(POINT|LINESTRING|POLYGON|MULTIPOINT|MULTILINESTRING|MULTIPOLYGON|GEOMETRYCOLLECTION|EMPTY)( (ZM|Z|M)\b)?/g;
    const numbers = m[3].replace(keywords, ' ').match(/-?\d+(\.\d+)?|NaN/g) ?? [];
    numbers.forEach((t, k) => {
      const v = Number(t);
      const axis = axes[k % axes.length];
      if (Number.isNaN(v)) return;
      min[axis] = Math.min(min[axis], v);
      max[axis] = Math.max(max[axis], v);
    });
  }
  if (!any) return [];
  const has = (a) => min[a] <= max[a];
  const f = (v) => (Number.isInteger(v) ? `${v}.0` : String(v));
  const bbox = has(0) && has(1)
    ? `{"xmin":${f(min[0])},"xmax":${f(max[0])},"ymin":${f(min[1])},"ymax":${f(max[1])},` +
      `"zmin":${has(2) ? f(min[2]) : 'null'},"zmax":${has(2) ? f(max[2]) : 'null'},` +
      `"mmin":${has(3) ? f(min[3]) : 'null'},"mmax":${has(3) ? f(max[3]) : 'null'}}`
    : null;
  const names = [...codes].sort((a, b) => a - b).map((c) =>
    GEOMETRY_KINDS[(c % 1000) - 1] + ['', '_z', '_m', '_zm'][Math.floor(c / 1000)]);
  return [{ row_group_id: 0, geo_bbox: bbox, geo_types: JSON.stringify(names) }];
}

async function checkGeometry(dir) {
  const rnd = seededRandom(77);
  // Groups without NaN must give DuckDB's statistics. DuckDB drops the bounds seen before a NaN
  // coordinate (its box of POINT (0 0), POINT (5 NaN), POINT (1 1) has ymin 1), so the groups with
  // NaN are checked against the spec's rule alone.
  const groups = [
    [false, Array.from({ length: 300 }, () => (rnd() < 0.05 ? null : generateWkt(rnd, 0)))],
    [false, ['POINT EMPTY', 'LINESTRING EMPTY', 'POLYGON Z EMPTY', 'GEOMETRYCOLLECTION M EMPTY']],
    [false, [null, null, null]],
    [false, ['POINT M (1 2 3)', 'POINT Z (4 5 6)', 'POINT (7 8)']],
    [true, Array.from({ length: 200 }, () => (rnd() < 0.05 ? null : generateWkt(rnd, 0.05)))],
    [true, ['POINT (1 NaN)', 'POINT (NaN 2)']],
    [true, ['LINESTRING ZM (1 2 NaN 4, 5 6 NaN 8)', 'POINT (0 0)']],
  ];
  for (let g = 0; g < groups.length; ++g) {
    const [withNan, wkts] = groups[g];
    const ours = path.join(dir, `geo_${g}.parquet`);
    const oursWkb = path.join(dir, `geo_${g}_wkb.parquet`);
    const theirs = path.join(dir, `geo_${g}_duck.parquet`);
    const db = path.join(dir, `geo_${g}.db`);
    sqlite(db, `CREATE TABLE w(id INTEGER, wkt TEXT);
INSERT INTO w VALUES ${wkts.map((w, k) => `(${k}, ${w === null ? 'NULL' : sqlString(w)})`).join(', ')};
SELECT parquet_export(${sqlString(ours)}, 'SELECT id, wkt AS g FROM w ORDER BY id', 'schema=''g GEOMETRY''');`);
    // The same again from WKB BLOBs: the extension's own WKB read back from the first file.
    sqlite(':memory:', `CREATE VIRTUAL TABLE temp.f USING parquet(${sqlString(ours)});
SELECT parquet_export(${sqlString(oursWkb)}, 'SELECT id, g FROM f', 'schema=''g GEOMETRY''');`);
    const literal = (w) => (w === null ? 'NULL::GEOMETRY' : `${sqlString(w)}::GEOMETRY`);
    await duck(`COPY (SELECT * FROM (VALUES ${wkts.map((w, k) => `(${k}, ${literal(w)})`).join(', ')}) t(id, g) ORDER BY id)
      TO ${sqlString(theirs)} (FORMAT parquet, GEOPARQUET_VERSION 'V2')`);
    for (const file of [ours, oursWkb]) {
      const a = await duck(`SELECT id, typeof(g), g::VARCHAR FROM read_parquet(${sqlString(file)}) ORDER BY id`);
      const b = await duck(`SELECT id, g::VARCHAR FROM read_parquet(${sqlString(theirs)}) ORDER BY id`);
      expect(a.rows.length === wkts.length, `geometry group ${g}: ${a.rows.length} rows`);
      for (let r = 0; r < Math.min(a.rows.length, b.rows.length); ++r) {
        expect(String(a.rows[r][1]).startsWith('GEOMETRY'), `geometry group ${g}: row ${r} is ${a.rows[r][1]}`);
        expect(a.rows[r][2] === b.rows[r][1],
          `geometry group ${g}, ${path.basename(file)}: row ${r}: DuckDB reads ${a.rows[r][2]}, its own reading of ${wkts[r]} is ${b.rows[r][1]}`);
      }
    }
    // Statistics: the extension's parquet_metadata of both files.
    const meta = (file) => sqliteJson(':memory:', `SELECT row_group_id, geo_bbox, geo_types FROM parquet_metadata(${sqlString(file)}) WHERE path_in_schema = 'g';`);
    const mine = meta(ours), duckdb = meta(theirs);
    if (!withNan) {
      expect(same(mine, duckdb), `geometry group ${g}: statistics ${JSON.stringify(mine)}, DuckDB wrote ${JSON.stringify(duckdb)}`);
    }
    const spec = specGeoStatistics(wkts).map((r) => ({ ...r, geo_types: r.geo_bbox === undefined ? null : r.geo_types }));
    const mineOrNone = mine.filter((r) => r.geo_types !== null);
    expect(same(mineOrNone, spec), `geometry group ${g}: statistics ${JSON.stringify(mine)}, the spec's rule gives ${JSON.stringify(spec)}`);
    expect(same(meta(oursWkb), mine), `geometry group ${g}: statistics from WKB ${JSON.stringify(meta(oursWkb))}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// 4. Big exports.

async function checkSplit(dir) {
  const db = path.join(dir, 'split.db');
  sqlite(db, `CREATE TABLE big AS WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 30000)
SELECT v AS id, v % 4 AS part, printf('name %05d', v) AS name, CASE WHEN v % 7 = 0 THEN NULL ELSE v / 8.0 END AS x FROM n;`);
  const cases = [
    ['groups', 'row_group_size=2000, row_groups_per_file=3', 5],
    ['size', 'row_group_size=1000, file_size_bytes=64KB, compression=uncompressed', null],
    ['parts', 'partition_by=part, row_group_size=1500, row_groups_per_file=2', 12],
  ];
  for (const [label, options, files] of cases) {
    const folder = path.join(dir, `split_${label}`);
    const out = sqlite(db, `SELECT parquet_export(${sqlString(folder)}, 'SELECT * FROM big ORDER BY part, id', ${sqlString(`${options}, return_stats=1`)});`);
    const stats = JSON.parse(out);
    expect(stats.rows === 30000, `split ${label}: return_stats says ${stats.rows} rows`);
    if (files !== null) expect(stats.files.length === files, `split ${label}: ${stats.files.length} files, expected ${files}`);
    else expect(stats.files.length > 3, `split ${label}: only ${stats.files.length} files`);
    const glob = `${folder}/**/*.parquet`;
    const total = await duck(`SELECT count(*), sum(id), count(x) FROM read_parquet(${sqlString(glob)})`);
    expect(same(total.rows[0].map(Number), [30000, 450015000, 30000 - 4285]), `split ${label}: DuckDB reads ${total.rows[0]}`);
    for (const f of stats.files) {
      const m = await duck(`SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count, row_group_num_rows, row_group_id
        FROM parquet_metadata(${sqlString(f.path)})`);
      const rowGroups = new Map();
      const columns = {};
      for (const [col, min, max, nulls, rgRows, rg] of m.rows) {
        rowGroups.set(Number(rg), Number(rgRows));
        const c = (columns[col] ??= { null_count: 0, min: null, max: null });
        c.null_count += Number(nulls);
        const num = col === 'name' ? (s) => s : Number;
        if (min !== null && (c.min === null || num(min) < num(c.min))) c.min = min;
        if (max !== null && (c.max === null || num(max) > num(c.max))) c.max = max;
      }
      const fileRows = [...rowGroups.values()].reduce((a, b) => a + b, 0);
      expect(fileRows === f.rows, `split ${label}: ${f.path} holds ${fileRows} rows, return_stats says ${f.rows}`);
      expect(rowGroups.size === f.row_groups, `split ${label}: ${f.path} has ${rowGroups.size} row groups, return_stats says ${f.row_groups}`);
      for (const [col, c] of Object.entries(columns)) {
        const s = f.columns[col];
        const text = (v) => (v === null || v === undefined ? null : String(v));
        expect(s && s.null_count === c.null_count && sameNumberOrText(s.min, c.min) && sameNumberOrText(s.max, c.max),
          `split ${label}: ${f.path} column ${col}: return_stats ${JSON.stringify(s)}, DuckDB's metadata null_count ${c.null_count} min ${text(c.min)} max ${text(c.max)}`);
      }
    }
  }
}

function sameNumberOrText(ours, theirs) {
  if (ours === undefined || ours === null) return theirs === null;
  if (typeof ours === 'number') return sameNumber(String(ours), String(theirs)) || Number(theirs) === ours;
  return ours === theirs;
}

// ---------------------------------------------------------------------------------------------------

await inWorkDir(args, 'pq-writer-types-', async (dir) => {
  if (wanted('types')) await checkLogicalTypes(dir);
  if (wanted('variant')) await checkVariant(dir);
  if (wanted('geometry')) await checkGeometry(dir);
  if (wanted('split')) await checkSplit(dir);
});
for (const f of failures.slice(0, 60)) console.log(f);
if (failures.length > 60) console.log(`... and ${failures.length - 60} more`);
console.log(`${checks} checks, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
