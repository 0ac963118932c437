#!/usr/bin/env node
// The remote section of `make bench`: the benchmark's queries over HTTP, counted request by request.
//
//   node bench/remote.mjs [EXTENSION] [--json FILE] [--values JSON]
// EXTENSION defaults to build/parquet; BENCH_ROWS picks bench/data/<rows>/ (made by bench/run.mjs)
// and BENCH_REPS the runs per query (at most 3). bench/run.mjs runs it as its last section, in a
// process of its own with a larger heap (hyparquet holds whole row groups as objects), with
// --values (the values its queries look for) and --json (where the section's text, mismatches and
// missed targets go); BENCH_REMOTE=0 skips it there. Alone, it prints the section and exits with 1
// on a mismatch.
//
// nginx (tests/tools/nginx_server.mjs) serves bench/data/<rows>/ on 127.0.0.1, and the test proxy
// (tests/tools/fault_proxy.mjs --latency-ms 20) sits in front of it, delaying every request by 20 ms,
// an object store's time to the first byte. Both listen on ports the kernel picks and are stopped (by
// pid) when the section ends, also on failure. Nothing else is contacted.
//
// Each query runs three ways on http://127.0.0.1:PROXY/project.parquet:
//  - the extension cold: a new connection and a new table (CREATE VIRTUAL TABLE reads the footer),
//    then the query; requests and bytes are the open's plus the scan's;
//  - the extension warm: the same query again on the same table (footer, page indexes and Bloom
//    filters cached, pages in the table's page cache);
//  - hyparquet (npm, a reader built for range requests) cold: asyncBufferFromUrl, the footer
//    (parquetMetadataAsync) and the query with its pushdown switched on (filter, useOffsetIndex,
//    usePageIndex, useBloomFilters); and warm: the same query again with the metadata kept.
// Requests and body bytes are counted by the proxy for all of them. For the extension they are also
// read from parquet_scan_stats (requests, bytes_fetched) and must equal the proxy's count of the scan
// (the open is counted by the proxy only: no SQL function reports it). The proxy's log also sorts
// each request by what it reads (footer, page index, Bloom filter, column data, HEAD), from the
// offsets parquet_metadata gives. Every answer (the extension's cold and warm, hyparquet's) is
// compared with the same query on the native SQLite table; a difference is a mismatch, which fails
// the bench. The targets of issue 19 are stated as met or missed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startLauncher } from '../tests/tools/server_util.mjs';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH_DIR);
const require = createRequire(path.join(ROOT, 'tools', 'package.json'));
const LATENCY_MS = 20;
const COLUMNS = ['id', 'ts', 'hc', 'category', 'name', 'value', 'small', 'price', 'flag', 'maybe'];

function log(msg) { process.stderr.write(`bench: remote: ${msg}\n`); }

// ---------------------------------------------------------------------------------------------------
// Servers.

// Stops the children by pid (SIGTERM; they stop their own servers) and waits for them.
async function stopServers(children) {
  await Promise.all(children.map((c) => new Promise((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    const timer = setTimeout(() => { c.kill('SIGKILL'); resolve(); }, 5000);
    c.once('exit', () => { clearTimeout(timer); resolve(); });
    c.kill('SIGTERM');
  })));
}

function proxyCall(port, method, url) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString()));
    });
    req.on('error', reject);
    req.end();
  });
}
const proxyReset = (port) => proxyCall(port, 'POST', '/__proxy/reset');
const proxyStats = async (port) => JSON.parse(await proxyCall(port, 'GET', '/__proxy/stats'));

// ---------------------------------------------------------------------------------------------------
// What a request reads, from the file's layout.

// The byte regions of the file (from parquet_metadata): page indexes, Bloom filters, column data,
// and the footer (its last footerSize + 8 bytes).
function layoutOf(metaRows, fileSize, footerSize) {
  const index = [], bloom = [], data = [];
  for (const m of metaRows) {
    if (m.column_index_offset != null) index.push([m.column_index_offset, m.column_index_offset + m.column_index_length]);
    if (m.offset_index_offset != null) index.push([m.offset_index_offset, m.offset_index_offset + m.offset_index_length]);
    if (m.bloom_filter_offset != null) bloom.push([m.bloom_filter_offset, m.bloom_filter_offset + (m.bloom_filter_length ?? 0)]);
    const start = m.dictionary_page_offset ?? m.data_page_offset;
    data.push([start, start + m.total_compressed_size]);
  }
  return { index, bloom, data, fileSize, footer: [fileSize - footerSize - 8, fileSize] };
}

// "footer" (a range holding the footer, whatever else it brings), "page index", "Bloom filter",
// "data" (what most of the range reads) or "HEAD".
function classify(entry, layout) {
  if (entry.method === 'HEAD') return 'HEAD';
  const m = /^bytes=(\d*)-(\d*)$/.exec(entry.range ?? '');
  if (!m) return 'whole object';
  if (m[1] === '') return 'footer';  // a suffix range
  const from = Number(m[1]), to = m[2] === '' ? layout.fileSize : Number(m[2]) + 1;
  if (to > layout.footer[0]) return 'footer';
  const overlap = (regions) => regions.reduce((n, [a, b]) => n + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);
  const kinds = [['data', overlap(layout.data)], ['page index', overlap(layout.index)], ['Bloom filter', overlap(layout.bloom)]];
  kinds.sort((a, b) => b[1] - a[1]);
  return kinds[0][1] > 0 ? kinds[0][0] : 'footer';
}

function breakdown(entries, layout) {
  const counts = new Map();
  for (const e of entries) {
    const k = classify(e, layout);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const order = ['footer', 'page index', 'Bloom filter', 'data', 'HEAD', 'whole object'];
  return order.filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${k}`).join(' + ') || 'none';
}

// ---------------------------------------------------------------------------------------------------
// Answers.

// A value as the native table holds it: integers and reals as numbers, booleans as 0/1, timestamps
// as 'YYYY-MM-DD HH:MM:SS'.
function normalize(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString().replace('T', ' ').slice(0, 19);
  return v;
}

function sameValue(a, b) {
  if (a === null || b === null) return a === b;
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  return String(a) === String(b);
}

// null when `got` (rows of arrays) equals `expected` in the same order, else what differs.
function compareRows(expected, got) {
  if (got.length !== expected.length) return `${got.length} rows, native SQLite has ${expected.length}`;
  for (let i = 0; i < expected.length; ++i) {
    const e = expected[i], g = got[i];
    if (e.length !== g.length || e.some((v, k) => !sameValue(v, g[k]))) {
      return `row ${i + 1} is ${JSON.stringify(g)}, native SQLite has ${JSON.stringify(e)}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// The queries.

// values: { idPoint, rangeStart, hcPresent, name } (bench/run.mjs's, from bench/gen_table.sql).
function remoteQueries(values) {
  const { idPoint, rangeStart, hcPresent, name } = values;
  const rangeEnd = rangeStart + 10_000;
  const objects = (rows) => rows.map((r) => COLUMNS.map((c) => normalize(r[c]))).sort((a, b) => a[0] - b[0]);
  // hyparquet's row reads with all its pushdown on.
  const where = async (h, filter) => objects(await h.lib.parquetReadObjects({
    ...h.options, filter, useOffsetIndex: true, usePageIndex: true, useBloomFilters: true,
  }));
  // Columns of every row, by row number (hyparquet hands them over a column chunk at a time).
  const columnsOf = async (h, columns) => {
    const n = Number(h.options.metadata.num_rows);
    const out = Object.fromEntries(columns.map((c) => [c, new Array(n)]));
    await h.lib.parquetRead({
      ...h.options, columns,
      onChunk: ({ columnName, columnData, rowStart }) => {
        const dest = out[columnName];
        for (let i = 0; i < columnData.length; ++i) dest[rowStart + i] = columnData[i];
      },
    });
    return out;
  };
  return [
    { key: 'count', label: 'count(*)', sql: 'SELECT count(*) FROM t',
      hyparquet: async (h) => [[Number(h.options.metadata.num_rows)]] },
    { key: 'point_id', label: `point lookup id = ${idPoint} (10 columns)`, sql: `SELECT * FROM t WHERE id = ${idPoint}`,
      projected: COLUMNS.length, order: true,
      hyparquet: (h) => where(h, { id: { $eq: BigInt(idPoint) } }) },
    { key: 'id_range', label: `10,000-row range on id (10 columns)`,
      sql: `SELECT * FROM t WHERE id >= ${rangeStart} AND id < ${rangeEnd} ORDER BY id`,
      hyparquet: (h) => where(h, { id: { $gte: BigInt(rangeStart), $lt: BigInt(rangeEnd) } }) },
    { key: 'sum', label: 'sum(value): one column, every row', sql: 'SELECT sum(value) FROM t', fullScan: 'value',
      hyparquet: async (h) => {
        const { value } = await columnsOf(h, ['value']);
        let s = 0;
        for (const v of value) if (v !== null && v !== undefined) s += v;
        return [[s]];
      } },
    { key: 'group', label: 'GROUP BY category: count(*), sum(value)',
      sql: 'SELECT category, count(*), sum(value) FROM t GROUP BY category ORDER BY category',
      hyparquet: async (h) => {
        const { category, value } = await columnsOf(h, ['category', 'value']);
        const groups = new Map();
        for (let i = 0; i < category.length; ++i) {
          const g = groups.get(category[i]) ?? [0, 0];
          g[0] += 1;
          g[1] += value[i];
          groups.set(category[i], g);
        }
        return [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([c, [n, s]]) => [c, n, s]);
      } },
    { key: 'name_eq', label: `name = '${name}' (10 columns)`, sql: `SELECT * FROM t WHERE name = '${name}' ORDER BY id`,
      hyparquet: (h) => where(h, { name: { $eq: name } }) },
    { key: 'hc_eq', label: `hc = ${hcPresent}, present (Bloom filter; 10 columns)`, sql: `SELECT * FROM t WHERE hc = ${hcPresent}`,
      hyparquet: (h) => where(h, { hc: { $eq: BigInt(hcPresent) } }) },
  ];
}

// ---------------------------------------------------------------------------------------------------

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Runs the section; returns { text, mismatches, missed }. opts: { rows, dataDir, ext, values, reps }.
export async function remoteSection(opts) {
  const { rows, dataDir, ext, values } = opts;
  const reps = Math.max(1, Math.min(opts.reps ?? 3, 3));
  const project = path.join(dataDir, 'project.parquet');
  const nativeDb = path.join(dataDir, 'native.sqlite');
  for (const f of [project, nativeDb]) if (!existsSync(f)) throw new Error(`remote: ${f} is missing (run bench/run.mjs)`);
  const extPath = existsSync(`${ext}.so`) ? `${ext}.so` : ext;
  const Database = require('better-sqlite3');
  const hyparquet = await import(pathToFileURL(require.resolve('hyparquet')).href);
  const { compressors } = await import(pathToFileURL(require.resolve('hyparquet-compressors')).href);
  const queries = remoteQueries(values);

  // The file's layout and the value column's compressed size, from parquet_metadata of the local file.
  const meta = new Database(':memory:');
  meta.loadExtension(extPath);
  const metaRows = meta.prepare('SELECT * FROM parquet_metadata(?)').all(project);
  const fileMeta = meta.prepare('SELECT file_size_bytes, footer_size FROM parquet_file_metadata(?)').get(project);
  const sqliteVersion = meta.prepare('SELECT sqlite_version()').pluck().get();
  meta.close();
  const layout = layoutOf(metaRows, Number(fileMeta.file_size_bytes), Number(fileMeta.footer_size));
  const compressedOf = (column) => metaRows.filter((m) => m.path_in_schema === column)
    .reduce((n, m) => n + m.total_compressed_size, 0);

  // Native answers.
  log('native answers');
  const native = new Database(nativeDb, { readonly: true });
  const expected = {};
  for (const q of queries) expected[q.key] = native.prepare(q.sql).raw().all();
  native.close();

  const children = [];
  const onExit = () => { for (const c of children) if (c.exitCode === null) c.kill('SIGTERM'); };
  process.on('exit', onExit);
  const results = {};
  const mismatches = [];
  try {
    const nginx = await startLauncher('nginx_server.mjs', ['--root', dataDir], children);
    const proxy = await startLauncher('fault_proxy.mjs', ['--upstream', nginx.port, '--latency-ms', String(LATENCY_MS)], children);
    const port = Number(proxy.port);
    const url = `http://127.0.0.1:${port}/project.parquet`;
    log(`nginx on 127.0.0.1:${nginx.port}, proxy (+${LATENCY_MS} ms a request) on 127.0.0.1:${port}`);

    const measure = async (fn) => {
      await proxyReset(port);
      const t0 = performance.now();
      const out = await fn();
      const ms = performance.now() - t0;
      const s = await proxyStats(port);
      return { out, ms, requests: s.requests, bytes: s.bytes, log: s.log };
    };
    const check = (q, what, got) => {
      const d = compareRows(expected[q.key], got);
      if (d) mismatches.push(`remote ${q.key}: ${what}: ${d}`);
    };

    for (const q of queries) {
      log(q.label);
      const r = { ours: [], hyp: [] };
      for (let rep = 0; rep < reps; ++rep) {
        // The extension: a new connection and table, the query cold, then warm.
        const db = new Database(':memory:');
        db.loadExtension(extPath);
        const stats = () => JSON.parse(db.prepare("SELECT parquet_scan_stats('t')").pluck().get());
        const open = await measure(() => db.exec(`CREATE VIRTUAL TABLE temp.t USING parquet('${url}')`));
        const cold = await measure(() => db.prepare(q.sql).raw().all());
        const coldStats = stats();
        const warm = await measure(() => db.prepare(q.sql).raw().all());
        const warmStats = stats();
        db.close();
        check(q, 'extension, cold', cold.out);
        check(q, 'extension, warm', warm.out);
        for (const [m, s, what] of [[cold, coldStats, 'cold'], [warm, warmStats, 'warm']]) {
          if (m.requests !== s.requests || m.bytes !== s.bytes_fetched) {
            mismatches.push(`remote ${q.key}: extension ${what}: parquet_scan_stats counts ${s.requests} requests and ` +
              `${s.bytes_fetched} bytes, the proxy ${m.requests} and ${m.bytes}`);
          }
        }
        r.ours.push({ open, cold, warm, coldStats, warmStats });

        // hyparquet (once: decoding whole row groups into objects, it takes seconds a query): a new
        // AsyncBuffer, the footer and the query; then the query again.
        if (rep > 0) continue;
        const h = { lib: hyparquet, options: { compressors } };
        const hCold = await measure(async () => {
          h.options.file = await hyparquet.asyncBufferFromUrl({ url });
          h.options.metadata = await hyparquet.parquetMetadataAsync(h.options.file);
          return q.hyparquet(h);
        });
        const hWarm = await measure(() => q.hyparquet(h));
        check(q, 'hyparquet, cold', hCold.out);
        check(q, 'hyparquet, warm', hWarm.out);
        r.hyp.push({ cold: hCold, warm: hWarm });
      }
      results[q.key] = r;
    }
  } finally {
    await stopServers(children);
    process.off('exit', onExit);
  }
  return report({ rows, queries, results, mismatches, layout, compressedOf, reps, sqliteVersion });
}

// ---------------------------------------------------------------------------------------------------
// The report.

const fmtInt = (n) => Number(n).toLocaleString('en-US');
const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const cell = (v, i) => (i === 0 ? String(v).padEnd(widths[i]) : String(v).padStart(widths[i]));
  return [`| ${header.map(cell).join(' | ')} |`,
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

function hyparquetVersion() {
  const main = require.resolve('hyparquet');
  return JSON.parse(readFileSync(path.join(main.slice(0, main.lastIndexOf(`${path.sep}src${path.sep}`)), 'package.json'), 'utf8')).version;
}

function report({ rows, queries, results, mismatches, layout, compressedOf, reps, sqliteVersion }) {
  const out = [];
  const missed = [];
  // Per query: the last run's counts (every run's are checked equal below) and median times.
  const sum = (a, b) => ({ requests: a.requests + b.requests, bytes: a.bytes + b.bytes, ms: a.ms + b.ms, log: [...a.log, ...b.log] });
  const summary = {};
  for (const q of queries) {
    const r = results[q.key];
    const last = r.ours[r.ours.length - 1], lastH = r.hyp[r.hyp.length - 1];
    const cold = sum(last.open, last.cold);
    summary[q.key] = {
      open: last.open, cold, warm: last.warm, coldStats: last.coldStats, hCold: lastH.cold, hWarm: lastH.warm,
      coldMs: median(r.ours.map((x) => x.open.ms + x.cold.ms)), warmMs: median(r.ours.map((x) => x.warm.ms)),
      hColdMs: lastH.cold.ms, hWarmMs: lastH.warm.ms,
    };
    const counts = (m) => `${m.requests}/${m.bytes}`;
    for (const [what, xs] of [['extension cold', r.ours.map((x) => sum(x.open, x.cold))], ['extension warm', r.ours.map((x) => x.warm)],
      ['hyparquet cold', r.hyp.map((x) => x.cold)], ['hyparquet warm', r.hyp.map((x) => x.warm)]]) {
      if (new Set(xs.map(counts)).size > 1) {
        out.push(`(${q.key}, ${what}: requests/bytes differ between runs: ${xs.map(counts).join(', ')}; the last is shown)`);
      }
    }
  }

  out.push(`## Remote: the queries over HTTP, ${LATENCY_MS} ms added to each request`);
  out.push('');
  out.push(`nginx on 127.0.0.1 serving project.parquet (${fmtInt(layout.fileSize)} bytes), behind a proxy that delays every ` +
    `request ${LATENCY_MS} ms (an object store's first-byte latency) and counts requests and body bytes. ` +
    '**Cold**: a new connection and table (CREATE VIRTUAL TABLE reads the footer) and the query; the extension\'s ' +
    'column is the open plus the scan. **Warm**: the same query again on the same table. hyparquet ' +
    `${hyparquetVersion()} (npm, zstd from hyparquet-compressors), cold: asyncBufferFromUrl (a HEAD for ` +
    'the size), parquetMetadataAsync and the query with filter, useOffsetIndex, usePageIndex and useBloomFilters; warm: ' +
    `the query again with the metadata kept. Times in milliseconds: the extension's the median of ${reps} run(s), ` +
    `hyparquet's one run. The extension runs in ` +
    `better-sqlite3's SQLite ${sqliteVersion} with the table's default options.`);
  out.push('');
  out.push(table(['query', 'rows', 'ext. cold: requests', 'bytes', 'ms', 'ext. warm: requests', 'bytes', 'ms',
    'hyparquet cold: requests', 'bytes', 'ms', 'hyparquet warm: requests', 'bytes', 'ms'],
  queries.map((q) => {
    const s = summary[q.key];
    return [q.label, fmtInt(results[q.key].ours[0].cold.out.length),
      s.cold.requests, fmtInt(s.cold.bytes), fmtMs(s.coldMs), s.warm.requests, fmtInt(s.warm.bytes), fmtMs(s.warmMs),
      s.hCold.requests, fmtInt(s.hCold.bytes), fmtMs(s.hColdMs), s.hWarm.requests, fmtInt(s.hWarm.bytes), fmtMs(s.hWarmMs)];
  })));
  out.push('');
  out.push('What the requests read (the proxy\'s log, each request sorted by the part of the file its range covers):');
  out.push('');
  out.push(table(['query', 'extension cold (open + scan)', 'extension warm', 'hyparquet cold', 'hyparquet warm'],
    queries.map((q) => {
      const s = summary[q.key];
      return [q.label, `${breakdown(s.open.log, layout)}; ${breakdown(s.cold.log.slice(s.open.log.length), layout)}`,
        breakdown(s.warm.log, layout), breakdown(s.hCold.log, layout), breakdown(s.hWarm.log, layout)];
    })));
  out.push('');

  // Targets.
  out.push('Targets (issue 19):');
  out.push('');
  const state = (ok, text) => {
    if (!ok) missed.push(text);
    return `- ${ok ? 'met' : '**missed**'}: ${text}`;
  };
  const point = queries.find((q) => q.key === 'point_id');
  if (point) {
    const s = summary.point_id;
    const isMeta = (e) => ['footer', 'page index', 'HEAD', 'whole object'].includes(classify(e, layout));
    const metaCold = s.cold.log.filter(isMeta).length;
    const dataCold = s.cold.log.length - metaCold;
    out.push(state(metaCold <= 2 && dataCold <= point.projected,
      `point lookup on the sorted id, cold: at most 2 requests for footer and page indexes plus one per projected ` +
      `column (${point.projected}): ${s.cold.requests} requests (${breakdown(s.cold.log, layout)})`));
    const warmMeta = s.warm.log.filter((e) => ['footer', 'page index', 'Bloom filter', 'whole object'].includes(classify(e, layout))).length;
    out.push(state(warmMeta === 0 && s.warm.requests <= point.projected,
      `point lookup warm: only page requests (at most one per projected column, no footer or page index): ` +
      `${s.warm.requests} requests (${breakdown(s.warm.log, layout)})`));
  }
  for (const q of queries.filter((x) => x.fullScan)) {
    const s = summary[q.key];
    const compressed = compressedOf(q.fullScan);
    const ratio = s.cold.bytes / compressed;
    out.push(state(ratio <= 1.1,
      `${q.label}: at most 1.1 times the column's compressed bytes (${fmtInt(compressed)}, parquet_metadata): ` +
      `${fmtInt(s.cold.bytes)} bytes cold with the footer, ${ratio.toFixed(3)}x (the scan alone: ` +
      `${fmtInt(s.coldStats.bytes_fetched)}, ${(s.coldStats.bytes_fetched / compressed).toFixed(3)}x)`));
  }
  for (const q of queries) {
    const s = summary[q.key];
    out.push(state(s.cold.requests < s.hCold.requests && s.cold.bytes < s.hCold.bytes,
      `${q.label}: fewer requests and bytes than hyparquet, cold: ${s.cold.requests} against ${s.hCold.requests} ` +
      `requests, ${fmtInt(s.cold.bytes)} against ${fmtInt(s.hCold.bytes)} bytes`));
  }
  out.push('');
  out.push('Warm runs are not compared with hyparquet\'s: the extension checks at every scan that the object is still ' +
    'the version it opened (its range answers carry the ETag; a scan that sent none asks with one HEAD), while ' +
    'hyparquet\'s second run trusts the metadata it kept.');
  out.push('');
  out.push(`The proxy counted the same requests and bytes as parquet_scan_stats for every scan${
    mismatches.some((m) => m.includes('parquet_scan_stats')) ? ' EXCEPT those listed below' : ''}.`);
  out.push('');
  if (mismatches.length) {
    out.push('### REMOTE MISMATCHES');
    out.push('');
    for (const m of mismatches) out.push(`- ${m}`);
  } else {
    out.push(`The extension (cold and warm) and hyparquet returned every row of every query as native SQLite does on the same ${fmtInt(rows)} rows.`);
  }
  return { text: out.join('\n'), mismatches, missed };
}

// ---------------------------------------------------------------------------------------------------
// Alone: the section on the data bench/run.mjs made (bench/data/<BENCH_ROWS>/).

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const flag = (name) => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    argv.splice(i, 2);
    return v;
  };
  const jsonOut = flag('--json');
  const valuesArg = flag('--values');
  const rows = Number(process.env.BENCH_ROWS ?? 10_000_000);
  const r = await remoteSection({
    rows, dataDir: path.join(BENCH_DIR, 'data', String(rows)), ext: path.resolve(ROOT, argv[0] ?? 'build/parquet'),
    values: valuesArg ? JSON.parse(valuesArg) : benchValues(rows), reps: Number(process.env.BENCH_REPS ?? 3),
  });
  if (jsonOut) {
    writeFileSync(jsonOut, JSON.stringify(r));
  } else {
    process.stdout.write(`${r.text}\n`);
    process.exit(r.mismatches.length ? 1 : 0);
  }
}

// The values bench/run.mjs looks for, by the same formulas (bench/gen_table.sql's), for a run alone.
function benchValues(rows) {
  const hcOf = (i) => Number((BigInt(i) * 2654435761n) % 1000000007n);
  return { idPoint: Math.floor(rows / 2) + 7, rangeStart: Math.floor(rows * 0.4), hcPresent: hcOf(Math.floor(rows / 3) + 1),
    name: 'name_04242' };
}
