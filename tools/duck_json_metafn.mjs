import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const r = await con.runAndReadAll(process.argv[2]);
const rows = r.getRowObjectsJS();
console.log(JSON.stringify(rows, (k,x)=> typeof x==='bigint'? Number(x): (x instanceof Uint8Array ? Buffer.from(x).toString('latin1') : x)));
