import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const sql = process.argv[2];
const r = await con.runAndReadAll(sql);
const cols = r.columnNames();
const types = r.columnTypes().map(t => t.toString());
console.log(cols.map((c,i)=>c+':'+types[i]).join(' | '));
for (const row of r.getRowsJS()) console.log(row.map(v => v === null ? 'NULL' : (typeof v === 'object' ? JSON.stringify(v, (k,x)=> typeof x==='bigint'? x.toString(): (x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x)) : String(v))).join('|'));
