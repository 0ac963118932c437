#!/usr/bin/env node
// lzo_check: LZO pages the extension writes, read by an independent reader (ctest lzo_independent_check).
//
//   node tools/lzo_check.mjs [--ext build/parquet] [--sqlite3 sqlite3] [--keep DIR] [--max-diffs 5]
//
// The extension exports a table (integers, text with NULLs, reals) with compression=lzo in several
// layouts: data pages v1 and v2, with and without the dictionary, and pages larger than 245,693
// bytes, which hadoop-lzo's framing splits into several blocks. hyparquet reads every file with the
// LZO decompressor given here: the framing of Hadoop's BlockCompressorStream as parquet-java writes it
// through hadoop-lzo (a big-endian uncompressed size per block, then big-endian compressed sizes
// each followed by an LZO1X block), the blocks decoded by lzo-wasm, FFmpeg's LZO1X decoder compiled
// to WebAssembly (not liblzo2, which the extension uses). Every value must equal what SQLite holds.
// DuckDB is asked too; it does not read LZO ("Unsupported compression codec"), which is noted, and
// the day it does its values are compared as well.
// Exit status 0 when every check passes; otherwise each difference is printed and the status is 1.
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import createLzoModule from 'lzo-wasm/lzo-wasm.js';
import { exportWithExtension, inWorkDir, parseCheckArgs, run } from './duckdb_check_util.mjs';
import { readWithDuckDB } from './duckdb_dump.mjs';

const require = createRequire(import.meta.url);
const ROWS = 60000;
const LAYOUTS = [
  { name: 'v1-dict', options: 'data_page_version=1, dictionary=1' },
  { name: 'v2-plain', options: 'data_page_version=2, dictionary=0, encoding_trial=0' },
  // One page per column chunk of ~1.6 MB: several Hadoop blocks per page.
  { name: 'v1-big-pages', options: 'data_page_version=1, dictionary=0, encoding_trial=0, page_size=4000000, page_rows=1000000' },
  { name: 'v2-small-pages', options: 'data_page_version=2, page_size=700, row_group_size=7000' },
];

// lzo-wasm's module, loaded from the package's .wasm file (its index.js is written for bundlers).
async function lzoDecoder() {
  const wasm = readFileSync(path.join(path.dirname(require.resolve('lzo-wasm/lzo-wasm.wasm')), 'lzo-wasm.wasm'));
  const module = await createLzoModule({ wasmBinary: wasm, print: () => {}, printErr: () => {} });
  const decode = module.cwrap('decompress', 'number', ['number', 'number', 'number']);
  const PADDING = 8;  // FFmpeg's LZO decoder may read this far past its input
  return (block, size) => {
    const input = module._malloc(block.length + PADDING);
    module.HEAPU8.fill(0, input, input + block.length + PADDING);
    module.HEAPU8.set(block, input);
    let output;
    try {
      output = decode(input, block.length, size);
    } finally {
      module._free(input);
    }
    const out = new Uint8Array(module.HEAPU8.buffer, output, size).slice();
    module._free(output);
    return out;
  };
}

// A Hadoop-framed LZO page: [u32 BE block size] then [u32 BE chunk size][LZO1X chunk] until the
// block's bytes are produced, block after block.
function hadoopLzo(decodeBlock, stats) {
  return (input, outputLength) => {
    const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
    const out = new Uint8Array(outputLength);
    let pos = 0;
    let filled = 0;
    while (pos < input.length) {
      if (pos + 4 > input.length) throw new Error('truncated block header');
      const blockSize = view.getUint32(pos);
      pos += 4;
      const blockEnd = filled + blockSize;
      if (blockEnd > outputLength) throw new Error('a block runs past the page');
      do {
        if (pos + 4 > input.length) throw new Error('truncated chunk header');
        const chunkSize = view.getUint32(pos);
        pos += 4;
        if (pos + chunkSize > input.length) throw new Error('a chunk runs past the page');
        const bytes = decodeBlock(input.subarray(pos, pos + chunkSize), blockEnd - filled);
        out.set(bytes, filled);
        filled += bytes.length;
        pos += chunkSize;
        ++stats.chunks;
      } while (filled < blockEnd);
      ++stats.blocks;
    }
    if (filled !== outputLength) throw new Error(`blocks hold ${filled} bytes, the page ${outputLength}`);
    ++stats.pages;
    return out;
  };
}

function sqliteRows(args, db, sql) {
  const r = run(args.sqlite3, ['-bail', '-json', db, sql]);
  if (r.status !== 0) throw new Error((r.stderr || r.stdout).trim());
  return r.stdout.trim() ? JSON.parse(r.stdout) : [];
}

function same(a, b) {
  if (typeof a === 'bigint') a = Number(a);
  if (typeof b === 'bigint') b = Number(b);
  return a === b || (a == null && b == null);
}

async function main() {
  const args = parseCheckArgs(process.argv.slice(2), {});
  const decodeBlock = await lzoDecoder();
  const failures = [];
  await inWorkDir(args, 'lzo-check-', async (dir) => {
    const db = path.join(dir, 'src.sqlite');
    const make = `CREATE TABLE src AS WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${ROWS - 1}) ` +
      "SELECT i AS id, CASE WHEN i % 11 = 0 THEN NULL ELSE 'value ' || (i * 7919 % 5000) END AS s, " +
      'i * 0.125 - 3 AS x FROM k;';
    const r = run(args.sqlite3, [db, make]);
    if (r.status !== 0) throw new Error(r.stderr);
    const want = sqliteRows(args, db, 'SELECT id, s, x FROM src ORDER BY id;');
    for (const layout of LAYOUTS) {
      const file = path.join(dir, `${layout.name}.parquet`);
      rmSync(file, { force: true });
      const err = exportWithExtension(args, db, file, 'SELECT * FROM src ORDER BY id', `compression=lzo, ${layout.options}`,
        'id INTEGER, s TEXT, x REAL', ROWS);
      if (err) {
        failures.push(`${layout.name}: ${err}`);
        continue;
      }
      const stats = { pages: 0, blocks: 0, chunks: 0 };
      let rows;
      try {
        rows = await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors: { LZO: hadoopLzo(decodeBlock, stats) } });
      } catch (e) {
        failures.push(`${layout.name}: hyparquet with lzo-wasm cannot read it: ${e.message}`);
        continue;
      }
      let diffs = 0;
      if (rows.length !== want.length) failures.push(`${layout.name}: ${rows.length} rows, expected ${want.length}`);
      for (let i = 0; i < Math.min(rows.length, want.length); ++i) {
        for (const c of ['id', 's', 'x']) {
          if (!same(rows[i][c], want[i][c]) && ++diffs <= args.maxDiffs) {
            failures.push(`${layout.name}: row ${i}, ${c}: expected ${want[i][c]}, got ${rows[i][c]}`);
          }
        }
      }
      if (diffs > args.maxDiffs) failures.push(`${layout.name}: ${diffs - args.maxDiffs} more differences`);
      if (stats.pages === 0) failures.push(`${layout.name}: no LZO page was read`);
      if (layout.name === 'v1-big-pages' && stats.blocks <= stats.pages) {
        failures.push(`${layout.name}: expected pages of several Hadoop blocks, got ${stats.blocks} blocks in ${stats.pages} pages`);
      }
      let duck = '';
      try {
        const res = await readWithDuckDB(`SELECT id, s, x FROM read_parquet('${file}') ORDER BY id`);
        const got = res.rows;
        let bad = got.length !== want.length;
        for (let i = 0; !bad && i < got.length; ++i) bad = !same(got[i][0], want[i].id) || !same(got[i][1], want[i].s) || !same(got[i][2], want[i].x);
        duck = bad ? 'DuckDB reads it with other values' : 'DuckDB reads it, same values';
        if (bad) failures.push(`${layout.name}: ${duck}`);
      } catch (e) {
        if (!/Unsupported compression codec "LZO"/.test(e.message)) failures.push(`${layout.name}: DuckDB: ${e.message}`);
        duck = 'DuckDB does not read LZO';
      }
      console.log(`${layout.name}: ${rows.length} rows equal through hyparquet + lzo-wasm ` +
        `(${stats.pages} pages, ${stats.blocks} blocks, ${stats.chunks} LZO1X blocks); ${duck}`);
    }
  });
  for (const f of failures) console.error(f);
  console.log(`${LAYOUTS.length - new Set(failures.map((f) => f.split(':')[0])).size} passed, ` +
    `${new Set(failures.map((f) => f.split(':')[0])).size} failed`);
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});
