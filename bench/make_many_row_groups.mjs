#!/usr/bin/env node
// Writes a Parquet file of ROWS rows in row groups of GROUP rows with DuckDB (single-threaded):
//   node bench/make_many_row_groups.mjs OUT.parquet [ROWS=10000000] [GROUP=100000]
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'tools', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const [out, rows = '10000000', group = '100000'] = process.argv.slice(2);
if (!out) throw new Error('usage: make_many_row_groups.mjs OUT.parquet [ROWS] [GROUP]');
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const db = await instance.connect();
await db.run(`COPY (SELECT range AS id, range * 7 % 1000003 AS v, 'name_' || (range % 100000) AS name,
                     (range % 1000) / 7.0 AS d FROM range(${Number(rows)}))
              TO '${out.replaceAll("'", "''")}' (FORMAT parquet, ROW_GROUP_SIZE ${Number(group)}, COMPRESSION zstd)`);
