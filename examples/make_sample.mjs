#!/usr/bin/env node
// Writes examples/trips.parquet, the demo's sample, with DuckDB (until the project's own export lands):
// 100,000 taxi-like trips with a timestamp, a decimal fare, a vendor string and a list of tags.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'tools', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');
const out = path.join(here, 'trips.parquet');
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const db = await instance.connect();
await db.run(`COPY (
  SELECT range AS trip_id,
         ['acme', 'blue', 'cab co'][1 + range % 3] AS vendor,
         TIMESTAMP '2025-01-01' + INTERVAL (range * 37) SECOND AS pickup,
         ((range * 7919) % 5000 / 100.0 + 2.5)::DECIMAL(8,2) AS fare,
         round(((range * 104729) % 2000) / 100.0, 2) AS distance,
         CASE WHEN range % 10 = 0 THEN ['airport'] WHEN range % 7 = 0 THEN ['night', 'card'] ELSE [] END AS tags
  FROM range(100000)) TO '${out}' (FORMAT parquet, COMPRESSION zstd)`);
console.log(`wrote ${path.relative(process.cwd(), out)}`);
