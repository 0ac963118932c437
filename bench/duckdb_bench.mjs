#!/usr/bin/env node
// duckdb_bench: the DuckDB side of `make bench`, one process, DuckDB with threads=1. The same steps and
// the same JSON lines as bench/sqlite_bench.c, so bench/run.mjs reads both alike:
//   node bench/duckdb_bench.mjs SCRIPT.json
// SCRIPT.json is {"steps": [{"kind": "exec"|"time", "name": N, "reps": R, "sql": S}, ...]}: exec runs
// once, time runs R times. Output per step: {"name","wall_ms":[..],"cpu_ms":[..],"rows","first"}, where
// first is the first row normalized to the project's value mapping (tools/duckdb_dump.mjs); the last
// line is {"max_rss_kb": N}. A query is run with runAndReadAll: DuckDB produces every result chunk,
// the rows are not converted to JavaScript values (except the first row, once, outside the timing).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'tools', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');
const { normalizeValue } = await import(path.join(here, '..', 'tools', 'duckdb_dump.mjs'));

const script = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const db = await instance.connect();

const wallMs = () => Number(process.hrtime.bigint()) / 1e6;
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };

for (const step of script.steps) {
  const reps = step.kind === 'time' ? step.reps : 1;
  const wall = [], cpu = [];
  let reader = null;
  let first = null;
  for (let r = 0; r < reps; ++r) {
    const w0 = wallMs(), c0 = cpuMs();
    try {
      reader = await db.runAndReadAll(step.sql);
    } catch (e) {
      process.stderr.write(`duckdb_bench: ${step.name}: ${e.message}\n`);
      process.exit(1);
    }
    wall.push(wallMs() - w0);
    cpu.push(cpuMs() - c0);
    if (r === 0 && reader.currentRowCount > 0 && reader.columnCount > 0) {
      first = reader.getRows()[0].map((v) => normalizeValue(v));
    }
  }
  process.stdout.write(`${JSON.stringify({ name: step.name, wall_ms: wall, cpu_ms: cpu,
    rows: reader ? reader.currentRowCount : 0, first })}\n`);
}
db.closeSync();
instance.closeSync();
process.stdout.write(`${JSON.stringify({ max_rss_kb: process.resourceUsage().maxRSS })}\n`);
