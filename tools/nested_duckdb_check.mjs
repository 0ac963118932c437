#!/usr/bin/env node
// nested_duckdb_check: nested columns written by the extension, checked by an independent reader
// (ctest duckdb_nested_check).
//
//   node tools/nested_duckdb_check.mjs [--ext build/parquet] [--sqlite3 sqlite3] [--rows 3000]
//                                      [--seed 1] [--keep DIR] [--max-diffs 5]
//
// 1. A table of --rows rows of random nested values is made in a SQLite database (the sqlite3 shell),
//    one TEXT column of JSON per nested type of the schema below, with NULLs, empty lists and maps,
//    lists of NULLs, NULL and missing struct members, and the JSON spelled in the ways the writer
//    accepts (white space, maps as objects or as arrays of {"key","value"} entries, struct members in
//    any order, integers for timestamps, text for decimals, unpadded base64, upper-case UUIDs, string
//    escapes).
// 2. The extension exports it (SELECT parquet_export(...) with schema= naming the nested types) once
//    per configuration: defaults; no dictionary with data page v2, small pages and row groups; zstd
//    with tiny pages and PLAIN for one column.
// 3. Each file is read
//    - by DuckDB (@duckdb/node-api): every column must have the DuckDB type the schema means
//      (LIST -> T[], MAP -> MAP(K, V), STRUCT -> STRUCT(...)), and every value must equal the value
//      generated, after tools/duckdb_dump.mjs's normalization (DECIMAL as exact text);
//    - by the extension (a parquet table in the sqlite3 shell): every nested column must read back
//      as exactly the JSON text the reader writes for the generated value (json_assembler.h).
// Exit status 0 when every check passes; otherwise the first differences of each file are printed
// and the status is 1. The last line is "N passed, M failed".
import { rmSync } from 'node:fs';
import path from 'node:path';
import {
  exportWithExtension, inWorkDir, parseCheckArgs, run, runWithExtension, seededRandom,
} from './duckdb_check_util.mjs';
import { formatDate, formatTimestamp, normalizeValue, readWithDuckDB, sqlString } from './duckdb_dump.mjs';

function parseArgs(argv) {
  const a = parseCheckArgs(argv, { rows: 3000, seed: 1 }, {
    '--rows': (v, args) => { args.rows = Number(v); },
    '--seed': (v, args) => { args.seed = Number(v); },
  });
  if (!Number.isInteger(a.rows) || a.rows < 1) throw new Error('--rows must be a positive integer');
  return a;
}

function makeRandom(seed) {
  const next = seededRandom(seed);
  return {
    next,
    int: (n) => Math.floor(next() * n),  // [0, n)
    chance: (p) => next() < p,
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    bigint: (bits, signed) => {  // uniform over the type, with the extremes more likely
      let v = 0n;
      for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(Math.floor(next() * 65536));
      v &= (1n << BigInt(bits)) - 1n;
      if (next() < 0.3) v >>= BigInt(Math.floor(next() * bits));
      if (signed && v >= 1n << BigInt(bits - 1)) v -= 1n << BigInt(bits);
      return v;
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Types: the schema= text, DuckDB's name, and for each value its three forms: the JSON text given to
// the writer (varied spellings), the JSON text the extension's reader writes back, and DuckDB's value
// after normalizeValue(..., {decimalAsText: true}).

const T = {
  int: (bits, signed, sql, duck) => ({ k: 'int', bits, signed, sql, duck }),
  real: { k: 'real', sql: 'REAL', duck: 'DOUBLE' },
  text: { k: 'text', sql: 'TEXT', duck: 'VARCHAR' },
  bool: { k: 'bool', sql: 'BOOLEAN', duck: 'BOOLEAN' },
  date: { k: 'date', sql: 'DATE', duck: 'DATE' },
  ts: { k: 'ts', sql: 'TIMESTAMP', duck: 'TIMESTAMP WITH TIME ZONE' },
  dec: (p, s) => ({ k: 'dec', p, s, sql: `DECIMAL(${p},${s})`, duck: `DECIMAL(${p},${s})` }),
  uuid: { k: 'uuid', sql: 'UUID', duck: 'UUID' },
  blob: { k: 'blob', sql: 'BLOB', duck: 'BLOB' },
  list: (of) => ({ k: 'list', of, sql: `LIST<${of.sql}>`, duck: `${of.duck}[]` }),
  map: (key, value) => ({ k: 'map', key, value, sql: `MAP<${key.sql}, ${value.sql}>`,
    duck: `MAP(${key.duck}, ${value.duck})` }),
  struct: (fields) => ({ k: 'struct', fields,
    sql: `STRUCT<${fields.map(([n, t]) => `${/^[A-Za-z_]\w*$/.test(n) ? n : `"${n}"`} ${t.sql}`).join(', ')}>`,
    duck: `STRUCT(${fields.map(([n, t]) => `"${n}" ${t.duck}`).join(', ')})` }),  // node-api quotes names
};
const BIGINT = T.int(64, true, 'INTEGER', 'BIGINT');

const COLUMNS = [
  ['ls', T.list(T.struct([['a', BIGINT], ['b', T.list(T.text)]]))],
  ['m', T.map(T.text, T.list(T.real))],
  ['mi', T.map(BIGINT, T.text)],
  ['tags', T.list(T.text)],
  ['small', T.list(T.int(16, true, 'SMALLINT', 'SMALLINT'))],
  ['ll', T.list(T.list(BIGINT))],
  ['s', T.struct([['d', T.date], ['ts', T.ts], ['dec', T.dec(12, 2)], ['u', T.uuid], ['bin', T.blob],
    ['flag', T.bool], ['big', T.dec(30, 4)], ['c d', T.int(8, true, 'TINYINT', 'TINYINT')]])],
  ['md', T.map(T.date, T.struct([['x', T.real], ['y', T.list(T.int(64, false, 'UBIGINT', 'UBIGINT'))]]))],
];

const DAY_MICROS = 86_400_000_000n;

// A random value of type t (null allowed when nullable).
function gen(rng, t, nullable = true) {
  if (nullable && rng.chance(0.12)) return null;
  switch (t.k) {
    case 'int': return rng.bigint(t.bits, t.signed);
    case 'real': return (rng.int(2_000_001) - 1_000_000) / rng.pick([1, 4, 8, 1024]) || 0.5;
    case 'text': {
      const pieces = ['a', 'b', 'Z', ' ', '"', '\\', '\n', '\t', '\u0001', 'é', '😀', '/', 'ß', "'"];
      let s = '';
      for (let n = rng.int(7); n > 0; --n) s += rng.pick(pieces);
      return s;
    }
    case 'bool': return rng.chance(0.5);
    case 'date': return rng.int(80_000) - 30_000;  // days since 1970
    case 'ts':  // micros, 1906 .. 2160, half of them with a fraction
      return BigInt(rng.int(6_000_000_000) - 2_000_000_000) * 1_000_000n +
        (rng.chance(0.5) ? BigInt(rng.int(1_000_000)) : 0n);
    case 'dec': {
      let digits = '';
      for (let n = 1 + rng.int(t.p); n > 0; --n) digits += String(rng.int(10));
      return (rng.chance(0.5) ? -1n : 1n) * BigInt(digits);  // the unscaled value
    }
    case 'uuid': {
      let hex = '';
      for (let i = 0; i < 32; ++i) hex += rng.int(16).toString(16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    case 'blob': return Buffer.from(Array.from({ length: rng.int(6) }, () => rng.int(256)));
    case 'list': return Array.from({ length: rng.int(5) }, () => gen(rng, t.of));
    case 'map': {
      const entries = [];
      const seen = new Set();
      for (let n = rng.int(5); n > 0; --n) {
        const key = gen(rng, t.key, false);
        const text = readerJson(t.key, key);
        if (seen.has(text)) continue;
        seen.add(text);
        entries.push([key, gen(rng, t.value)]);
      }
      return entries;
    }
    case 'struct': return t.fields.map(([, ft]) => gen(rng, ft));
    default: throw new Error(`no generator for ${t.k}`);
  }
}

// JSON string as the reader writes it: '"' and '\' escaped, control characters as \u00XX.
function readerString(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

// The shortest text of a double as C++ std::to_chars writes it: the shortest round-trip digits (as
// JavaScript finds them too), in fixed or scientific notation, whichever is shorter (fixed on a tie).
function cppShortest(v) {
  const [mantissa, expText] = v.toExponential().split('e');
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const exp = Number(expText);
  const sign = negative ? '-' : '';
  const scientific = `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e` +
    `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  let fixed;
  if (exp >= digits.length - 1) fixed = digits + '0'.repeat(exp - digits.length + 1);
  else if (exp >= 0) fixed = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  else fixed = `0.${'0'.repeat(-exp - 1)}${digits}`;
  fixed = sign + fixed;
  return scientific.length < fixed.length ? scientific : fixed;
}

function decimalText(unscaled, scale) {
  const negative = unscaled < 0n;
  let digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  if (scale > 0) digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return (negative ? '-' : '') + digits;
}

function tsReaderText(micros) {
  const days = micros >= 0n ? micros / DAY_MICROS : -((-micros + DAY_MICROS - 1n) / DAY_MICROS);
  const rest = micros - days * DAY_MICROS;
  const secs = rest / 1_000_000n;
  const frac = rest % 1_000_000n;
  const p2 = (n) => String(n).padStart(2, '0');
  let s = `${formatDate(days)} ${p2(secs / 3600n)}:${p2((secs / 60n) % 60n)}:${p2(secs % 60n)}`;
  if (frac !== 0n) s += `.${String(frac).padStart(6, '0')}`;
  return s;
}

// The text the extension's reader writes for value v of type t (json_assembler.h, leaf_converter.h).
function readerJson(t, v) {
  if (v === null) return 'null';
  switch (t.k) {
    case 'int': return v.toString();
    case 'real': {
      const s = cppShortest(v);
      return /[.e]/.test(s) ? s : `${s}.0`;  // json_writer.h: ".0" keeps an integral real a real
    }
    case 'text': return readerString(v);
    case 'bool': return v ? 'true' : 'false';
    case 'date': return `"${formatDate(v)}"`;
    case 'ts': return `"${tsReaderText(v)}"`;
    case 'dec': return decimalText(v, t.s);
    case 'uuid': return `"${v}"`;
    case 'blob': return `"${v.toString('base64')}"`;
    case 'list': return `[${v.map((e) => readerJson(t.of, e)).join(',')}]`;
    case 'map': return `{${v.map(([k, x]) => {
      const key = readerJson(t.key, k);
      return `${key.startsWith('"') ? key : readerString(key)}:${readerJson(t.value, x)}`;
    }).join(',')}}`;
    case 'struct': return `{${t.fields.map(([n, ft], i) => `${readerString(n)}:${readerJson(ft, v[i])}`).join(',')}}`;
    default: throw new Error(t.k);
  }
}

// The writer's input: the same value in one of the accepted spellings.
function inputJson(rng, t, v) {
  const sp = () => (rng.chance(0.2) ? rng.pick([' ', '\n', '  ', '\t']) : '');
  if (v === null) return 'null';
  switch (t.k) {
    case 'int': return v.toString();
    case 'real': return rng.chance(0.2) ? v.toExponential() : String(v);
    case 'text': return rng.chance(0.5) ? JSON.stringify(v)
      : `"${[...v].map((ch) => {
        const c = ch.codePointAt(0);
        if (c < 0x80 && ch !== '"' && ch !== '\\' && c >= 0x20) return ch;
        return ch.split('').map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('');
      }).join('')}"`;
    case 'bool': return rng.chance(0.3) ? (v ? '1' : '0') : String(v);
    case 'date': return `"${formatDate(v)}"`;
    case 'ts': return rng.chance(0.3) ? v.toString() : `"${tsReaderText(v).replace(' ', 'T')}${rng.chance(0.5) ? 'Z' : ''}"`;
    case 'dec': return rng.chance(0.3) ? `"${decimalText(v, t.s)}"` : decimalText(v, t.s);
    case 'uuid': return `"${rng.chance(0.5) ? v.toUpperCase() : v}"`;
    case 'blob': return `"${rng.chance(0.5) ? v.toString('base64').replace(/=+$/, '') : v.toString('base64')}"`;
    case 'list': return `[${sp()}${v.map((e) => inputJson(rng, t.of, e)).join(`,${sp()}`)}${sp()}]`;
    case 'map': {
      const keyText = (k) => {  // a member name: the key's text
        const r = readerJson(t.key, k);
        return r.startsWith('"') ? JSON.parse(r) : r;
      };
      if (rng.chance(0.3)) {
        return `[${v.map(([k, x]) => {
          const valuePart = x === null && rng.chance(0.5) ? '' : `,${sp()}"value":${sp()}${inputJson(rng, t.value, x)}`;
          return `{"key":${sp()}${inputJson(rng, t.key, k)}${valuePart}}`;
        }).join(',')}]`;
      }
      return `{${v.map(([k, x]) => `${sp()}${JSON.stringify(keyText(k))}${sp()}:${sp()}${inputJson(rng, t.value, x)}`).join(',')}}`;
    }
    case 'struct': {
      const members = t.fields.map(([n, ft], i) => [n, ft, v[i]])
        .filter(([, , x]) => !(x === null && rng.chance(0.5)));  // a missing member is null
      for (let i = members.length - 1; i > 0; --i) {  // any order
        const j = rng.int(i + 1);
        [members[i], members[j]] = [members[j], members[i]];
      }
      return `{${members.map(([n, ft, x]) => `${sp()}${JSON.stringify(n)}:${sp()}${inputJson(rng, ft, x)}`).join(',')}}`;
    }
    default: throw new Error(t.k);
  }
}

// DuckDB's value after normalizeValue(v, {decimalAsText: true}).
function duckForm(t, v) {
  if (v === null) return null;
  switch (t.k) {
    case 'int': return (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) ? Number(v) : v.toString();
    case 'real': return v;
    case 'text': return v;
    case 'bool': return v ? 1 : 0;
    case 'date': return formatDate(v);
    case 'ts': return formatTimestamp(v * 1000n, 6);
    case 'dec': return decimalText(v, t.s);
    case 'uuid': return v;
    case 'blob': return { hex: v.toString('hex') };
    case 'list': return v.map((e) => duckForm(t.of, e));
    case 'map': {
      const o = {};
      for (const [k, x] of v) {
        const key = duckForm(t.key, k);
        o[typeof key === 'string' ? key : JSON.stringify(key)] = duckForm(t.value, x);
      }
      return o;
    }
    case 'struct': {
      const o = {};
      t.fields.forEach(([n, ft], i) => { o[n] = duckForm(ft, v[i]); });
      return o;
    }
    default: throw new Error(t.k);
  }
}

// Deep equality of normalized values; DuckDB may give a decimal as "-0.05" or "-.05": compared as text
// after both are written the same way by decimalText.
function same(a, b) {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || a === b;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  if (Array.isArray(a)) return a.every((x, i) => same(x, b[i]));
  return ka.every((k, i) => kb[i] === k && same(a[k], b[k]));
}

function show(x) {
  const s = JSON.stringify(x, (k, v) => (typeof v === 'bigint' ? v.toString() : v));
  return s.length > 300 ? `${s.slice(0, 297)}...` : s;
}

const CONFIGURATIONS = [
  { name: 'default', options: '' },
  { name: 'v2-plain-small', options: 'dictionary=0, data_page_version=2, page_size=512, row_group_size=700' },
  { name: 'zstd-tiny-pages', options: "compression=zstd, page_size=64, row_group_size=1000, encoding='ls:PLAIN'" },
];

async function main() {
  const args = parseArgs(process.argv.slice(2));
  await inWorkDir(args, 'nested-duckdb-', (dir) => check(args, dir));
}

async function check(args, dir) {
  const rng = makeRandom(args.seed);
  const values = [];  // per row, per column
  const lines = [`CREATE TABLE src(id INTEGER, ${COLUMNS.map(([n]) => `${n} TEXT`).join(', ')});`, 'BEGIN;'];
  for (let row = 0; row < args.rows; ++row) {
    const vs = COLUMNS.map(([, t]) => gen(rng, t));
    values.push(vs);
    const texts = COLUMNS.map(([, t], i) => (vs[i] === null && rng.chance(0.5) ? 'NULL' : sqlString(inputJson(rng, t, vs[i]))));
    lines.push(`INSERT INTO src VALUES (${row}, ${texts.join(', ')});`);
  }
  lines.push('COMMIT;');
  const db = path.join(dir, 'src.sqlite');
  rmSync(db, { force: true });
  const made = run(args.sqlite3, ['-bail', db], lines.join('\n'));
  if (made.status !== 0) throw new Error(`making the source table failed: ${made.stderr}`);
  const schema = COLUMNS.map(([n, t]) => `${n} ${t.sql}`).join(', ');

  let passed = 0;
  const failed = [];
  for (const cfg of CONFIGURATIONS) {
    const file = path.join(dir, `${cfg.name}.parquet`);
    rmSync(file, { force: true });
    const fail = [];
    const exportError = exportWithExtension(args, db, file, 'SELECT * FROM src ORDER BY id', cfg.options, schema,
      args.rows);
    if (exportError) {
      fail.push(exportError);
    } else {
      // DuckDB: types and values.
      let result = null;
      try {
        result = await readWithDuckDB(`SELECT * FROM read_parquet(${sqlString(file)}) ORDER BY id`);
      } catch (e) {
        fail.push(`DuckDB cannot read it: ${e.message}`);
      }
      if (result) {
        COLUMNS.forEach(([n, t], i) => {
          const got = result.types[i + 1].toString();
          if (result.names[i + 1] !== n || got !== t.duck) {
            fail.push(`column ${i + 1}: DuckDB reads '${result.names[i + 1]}' as ${got}, expected '${n}' ${t.duck}`);
          }
        });
        if (result.rows.length !== args.rows) fail.push(`DuckDB reads ${result.rows.length} rows, expected ${args.rows}`);
        let diffs = 0;
        for (let row = 0; row < result.rows.length && diffs < args.maxDiffs; ++row) {
          COLUMNS.forEach(([n, t], i) => {
            const want = duckForm(t, values[row][i]);
            const got = normalizeValue(result.rows[row][i + 1], { decimalAsText: true });
            if (!same(want, got) && diffs++ < args.maxDiffs) {
              fail.push(`DuckDB row ${row}, column '${n}': ${show(got)}, expected ${show(want)}`);
            }
          });
        }
      }
      // The extension's own reader: the exact JSON text.
      const q = `CREATE VIRTUAL TABLE r USING parquet(${sqlString(file)}); ` +
        `SELECT ${COLUMNS.map(([n]) => `quote(${n === 'c d' ? '"c d"' : n})`).join(` || char(30) || `)} FROM r ORDER BY id;`;
      const ours = runWithExtension(args, ':memory:', q);
      if (ours.status !== 0) {
        fail.push(`the extension cannot read it: ${ours.stderr.trim()}`);
      } else {
        const rows = ours.stdout.split('\n');
        if (rows[rows.length - 1] === '') rows.pop();
        if (rows.length !== args.rows) fail.push(`the extension reads ${rows.length} lines, expected ${args.rows}`);
        let diffs = 0;
        for (let row = 0; row < Math.min(rows.length, args.rows) && diffs < args.maxDiffs; ++row) {
          const cells = rows[row].split('\u001e');
          COLUMNS.forEach(([n, t], i) => {
            const v = values[row][i];
            const want = v === null ? 'NULL' : sqlString(readerJson(t, v));
            if (cells[i] !== want && diffs++ < args.maxDiffs) {
              fail.push(`extension row ${row}, column '${n}': ${cells[i]}, expected ${want}`);
            }
          });
        }
      }
    }
    if (fail.length) {
      failed.push(cfg.name);
      process.stdout.write(`FAIL ${cfg.name} (${cfg.options || 'default options'})\n${fail.map((f) => `  ${f}`).join('\n')}\n`);
    } else {
      ++passed;
      process.stdout.write(`ok   ${cfg.name} (${cfg.options || 'default options'}): ${args.rows} rows, ${COLUMNS.length} nested columns\n`);
    }
  }
  process.stdout.write(`${passed} passed, ${failed.length} failed\n`);
  process.exitCode = failed.length ? 1 : 0;
}

await main();
