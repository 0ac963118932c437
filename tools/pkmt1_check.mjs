#!/usr/bin/env node
// pkmt1_check: the key material the extension writes (PKMT1, as parquet-java's and Arrow's key
// tools write it), unwrapped independently of its reader (ctest pkmt1_independent_check).
//
//   node tools/pkmt1_check.mjs [--ext build/parquet] [--sqlite3 sqlite3] [--keep DIR] [--max-diffs 5]
//
// For every mode (double and single wrapping x internal and external key material x every column
// under the footer key and columns under their own master keys x encrypted and plaintext footer),
// the extension exports a table with master keys registered by parquet_add_key. This script then
// finds the key material itself: in `_KEY_MATERIAL_FOR_<file>.json` beside the file (external), or as
// the JSON objects the file's plaintext bytes hold (internal: the footer's key metadata is plaintext
// in both footers; the columns' is plaintext under a plaintext footer). It checks the fields the
// toolkit writes, and unwraps every data key with node's crypto module: AES-GCM, base64 of
// nonce | ciphertext | tag, the KEK under the master key with the master key id as AAD and the data
// key under the KEK with the KEK id's 16 bytes as AAD (double wrapping), or the data key under the
// master key (single). Then the file must read, with no master key at all, given only those data
// keys (footer_key=, column_keys=), to the rows SQLite holds; and DuckDB, given the footer's data key
// alone, must read the files whose columns are all under the footer key (encrypted footer: the mode
// DuckDB reads). The one mode whose column material is only inside the encrypted footer (internal
// material, encrypted footer, column keys) has its footer key checked here and its column keys in
// tests/format/crypto.
// Exit status 0 when every check passes; otherwise each difference is printed and the status is 1.
import crypto from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { inWorkDir, parseCheckArgs, run } from './duckdb_check_util.mjs';
import { readWithDuckDB, sqlString } from './duckdb_dump.mjs';

const ROWS = 3000;
const MASTER = { kf: '0123456789012345', kc1: '1234567890123450', kc2: 'hex:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f' };
const MASTER_BYTES = {
  kf: Buffer.from(MASTER.kf), kc1: Buffer.from(MASTER.kc1), kc2: Buffer.from(MASTER.kc2.slice(4), 'hex'),
};
const REGISTER = Object.entries(MASTER).map(([id, key]) => `SELECT parquet_add_key('${id}', '${key}');`).join(' ');

function unwrapGcm(b64, key, aad, what) {
  const blob = Buffer.from(b64, 'base64');
  if (blob.toString('base64') !== b64) throw new Error(`${what}: not canonical base64`);
  if (blob.length < 28) throw new Error(`${what}: ${blob.length} bytes`);
  const d = crypto.createDecipheriv(`aes-${key.length * 8}-gcm`, key, blob.subarray(0, 12));
  d.setAAD(aad);
  d.setAuthTag(blob.subarray(blob.length - 16));
  return Buffer.concat([d.update(blob.subarray(12, blob.length - 16)), d.final()]);
}

// The fields of one material, checked against the toolkit's; returns the data key.
function unwrapMaterial(m, { internal, footer, double, dekBytes }, what, fail) {
  const fields = ['keyMaterialType', 'isFooterKey', 'masterKeyID', 'wrappedDEK', 'doubleWrapping'];
  if (internal) fields.push('internalStorage');
  if (footer) fields.push('kmsInstanceID', 'kmsInstanceURL');
  if (double) fields.push('keyEncryptionKeyID', 'wrappedKEK');
  const got = Object.keys(m).sort().join(',');
  if (got !== fields.sort().join(',')) fail.push(`${what}: fields ${got}, expected ${fields.join(',')}`);
  if (m.keyMaterialType !== 'PKMT1') fail.push(`${what}: keyMaterialType ${m.keyMaterialType}`);
  if (internal && m.internalStorage !== true) fail.push(`${what}: internalStorage ${m.internalStorage}`);
  if (m.isFooterKey !== footer) fail.push(`${what}: isFooterKey ${m.isFooterKey}`);
  if (footer && (m.kmsInstanceID !== 'DEFAULT' || m.kmsInstanceURL !== 'DEFAULT')) fail.push(`${what}: KMS instance ${m.kmsInstanceID} ${m.kmsInstanceURL}`);
  if (m.doubleWrapping !== double) fail.push(`${what}: doubleWrapping ${m.doubleWrapping}`);
  const master = MASTER_BYTES[m.masterKeyID];
  if (!master) throw new Error(`${what}: unknown master key ${m.masterKeyID}`);
  let dek;
  if (double) {
    const kekId = Buffer.from(m.keyEncryptionKeyID, 'base64');
    if (kekId.length !== 16) fail.push(`${what}: KEK id of ${kekId.length} bytes`);
    const kek = unwrapGcm(m.wrappedKEK, master, Buffer.from(m.masterKeyID), `${what} wrappedKEK`);
    if (kek.length !== 16) fail.push(`${what}: KEK of ${kek.length} bytes`);
    dek = unwrapGcm(m.wrappedDEK, kek, kekId, `${what} wrappedDEK`);
  } else {
    dek = unwrapGcm(m.wrappedDEK, master, Buffer.from(m.masterKeyID), `${what} wrappedDEK`);
  }
  if (dek.length !== dekBytes) fail.push(`${what}: data key of ${dek.length} bytes, expected ${dekBytes}`);
  // A wrong master key must not unwrap it.
  try {
    unwrapGcm(double ? m.wrappedKEK : m.wrappedDEK, Buffer.alloc(master.length, 7), Buffer.from(m.masterKeyID), 'wrong');
    fail.push(`${what}: unwrapped with a wrong master key`);
  } catch { /* expected */ }
  return dek;
}

// The JSON objects starting with {"keyMaterialType" in `bytes` (flat objects: no nested braces).
function materialsIn(bytes) {
  const text = bytes.toString('latin1');
  const out = [];
  const re = /\{"keyMaterialType":[^{}]*\}/g;
  let m;
  while ((m = re.exec(text)) !== null) out.push(JSON.parse(m[0]));
  return out;
}

function sqliteJson(args, db, sql) {
  const r = run(args.sqlite3, ['-bail', '-json', '-cmd', `.load ${args.ext}`, db, sql]);
  if (r.status !== 0) throw new Error((r.stderr || r.stdout).trim());
  // One JSON array per statement that returns rows: their rows in one list.
  const text = r.stdout.trim();
  return text ? JSON.parse(text.replace(/\]\s*\[/g, ',')) : [];
}

function compare(what, want, got, fail, maxDiffs) {
  if (want.length !== got.length) {
    fail.push(`${what}: ${got.length} rows, expected ${want.length}`);
    return;
  }
  let diffs = 0;
  for (let i = 0; i < want.length; ++i) {
    for (let k = 0; k < want[i].length; ++k) {
      const a = want[i][k];
      const b = typeof got[i][k] === 'bigint' ? Number(got[i][k]) : got[i][k];
      if (a !== b && !(a == null && b == null) && ++diffs <= maxDiffs) fail.push(`${what}: row ${i}, column ${k}: expected ${a}, got ${b}`);
    }
  }
  if (diffs > maxDiffs) fail.push(`${what}: ${diffs - maxDiffs} more differences`);
}

async function main() {
  const args = parseCheckArgs(process.argv.slice(2), {});
  let failed = 0;
  let passed = 0;
  await inWorkDir(args, 'pkmt1-check-', async (dir) => {
    const db = path.join(dir, 'src.sqlite');
    const make = `CREATE TABLE src AS WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${ROWS - 1}) ` +
      "SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'name ' || (i * 7919 % 1000) END AS name, i * 0.25 - 100 AS x FROM k;";
    const r = run(args.sqlite3, [db, make]);
    if (r.status !== 0) throw new Error(r.stderr);
    const want = sqliteJson(args, db, 'SELECT id, name, x FROM src ORDER BY id;').map((o) => [o.id, o.name, o.x]);
    for (const double of [true, false]) {
      for (const internal of [true, false]) {
        for (const columns of [false, true]) {
          for (const plaintextFooter of [false, true]) {
            const name = `${double ? 'double' : 'single'}-${internal ? 'internal' : 'external'}-${columns ? 'columns' : 'uniform'}` +
              `${plaintextFooter ? '-plaintext-footer' : ''}`;
            const fail = [];
            const notes = [];
            const file = path.join(dir, `${name}.parquet`);
            const materialFile = path.join(dir, `_KEY_MATERIAL_FOR_${name}.parquet.json`);
            rmSync(file, { force: true });
            rmSync(materialFile, { force: true });
            // 256-bit data keys where DuckDB reads the file: it takes a binary key as base64 only when
            // that is not itself 16, 24 or 32 characters long, as the base64 of a 128-bit key is.
            const duckdb = !columns && !plaintextFooter;
            const options = `compression=zstd, footer_master_key=kf, double_wrapping=${double ? 1 : 0}, ` +
              `data_key_length=${duckdb ? 256 : 128}, ` +
              `key_material=${internal ? 'internal' : 'external'}, plaintext_footer=${plaintextFooter ? 1 : 0}` +
              (columns ? ", column_master_keys='name:kc1, x:kc2'" : '');
            const exported = sqliteJson(args, db, `${REGISTER} SELECT parquet_export(${sqlString(file)}, 'SELECT * FROM src ORDER BY id', ${sqlString(options)}) AS n;`);
            if (exported.at(-1)?.n !== ROWS) fail.push(`export: ${JSON.stringify(exported.at(-1))}`);
            const bytes = readFileSync(file);
            for (const key of Object.values(MASTER)) {
              if (bytes.includes(Buffer.from(key))) fail.push('a master key is in the file');
            }
            // The key material of the footer and of each encrypted column, by column name.
            const material = {};
            if (internal) {
              if (existsSync(materialFile)) fail.push('an external key material file was written');
              const found = materialsIn(bytes);
              const footerMaterial = found.filter((m) => m.isFooterKey);
              if (footerMaterial.length !== 1) fail.push(`${footerMaterial.length} footer key materials in the file`);
              material.footer = footerMaterial[0];
              const columnMaterial = found.filter((m) => !m.isFooterKey);
              if (columns && plaintextFooter) {
                // Each column chunk's key metadata, in column order (name then x), one per row group.
                const byMaster = { kc1: 'name', kc2: 'x' };
                for (const m of columnMaterial) material[byMaster[m.masterKeyID]] ??= m;
                if (!material.name || !material.x) fail.push('column key material missing');
              } else if (columnMaterial.length) {
                fail.push(`${columnMaterial.length} column materials visible where none should be`);
              }
              if (columns && !plaintextFooter) notes.push('column key material inside the encrypted footer: checked in tests/format/crypto');
            } else {
              if (!existsSync(materialFile)) {
                fail.push(`no ${path.basename(materialFile)}`);
              } else {
                const store = JSON.parse(readFileSync(materialFile, 'utf8'));
                const refs = Object.keys(store).sort().join(',');
                const expected = columns ? 'columnKey0,columnKey1,footerKey' : 'footerKey';
                if (refs !== expected) fail.push(`material file holds ${refs}, expected ${expected}`);
                for (const [ref, text] of Object.entries(store)) {
                  if (typeof text !== 'string') fail.push(`${ref} is not a string`);
                }
                // The file's key metadata are references: {"keyMaterialType","internalStorage":false,"keyReference"}.
                const refsInFile = materialsIn(bytes);
                for (const m of refsInFile) {
                  if (Object.keys(m).sort().join(',') !== 'internalStorage,keyMaterialType,keyReference' || m.internalStorage !== false) {
                    fail.push(`key metadata ${JSON.stringify(m)} is not a reference`);
                  }
                }
                if (!refsInFile.some((m) => m.keyReference === 'footerKey')) fail.push('no footerKey reference in the file');
                material.footer = store.footerKey && JSON.parse(store.footerKey);
                if (columns) {
                  // columnKey0, columnKey1 in column order: name, x.
                  material.name = store.columnKey0 && JSON.parse(store.columnKey0);
                  material.x = store.columnKey1 && JSON.parse(store.columnKey1);
                }
              }
            }
            const keys = {};
            for (const [what, m] of Object.entries(material)) {
              if (!m) continue;
              try {
                keys[what] = unwrapMaterial(m, { internal, footer: what === 'footer', double, dekBytes: duckdb ? 32 : 16 }, `${name} ${what}`, fail);
              } catch (e) {
                fail.push(`${what}: ${e.message}`);
              }
            }
            if (columns && material.name && material.x && material.name.masterKeyID !== 'kc1') fail.push('name is not under kc1');
            // The file read with the unwrapped data keys only (no master key is registered here).
            if (keys.footer && (!columns || (keys.name && keys.x))) {
              const explicit = `footer_key='hex:${keys.footer.toString('hex')}'` +
                (columns ? `, column_keys='name:hex:${keys.name.toString('hex')}, x:hex:${keys.x.toString('hex')}'` : '');
              try {
                const got = sqliteJson(args, ':memory:', `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)}, ${explicit}); SELECT id, name, x FROM t ORDER BY id;`);
                compare(`${name}: extension with the unwrapped keys`, want, got.map((o) => [o.id, o.name, o.x]), fail, args.maxDiffs);
              } catch (e) {
                fail.push(`the extension cannot read it with the unwrapped keys: ${e.message}`);
              }
            } else if (keys.footer) {
              // Column keys only inside the encrypted footer: the footer key opens the file.
              try {
                sqliteJson(args, ':memory:', `CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)}, footer_key='hex:${keys.footer.toString('hex')}'); SELECT count(*) AS n FROM t;`);
              } catch (e) {
                fail.push(`the footer key unwrapped here does not open the file: ${e.message}`);
              }
            }
            // And with the master keys, as users read it.
            try {
              const got = sqliteJson(args, ':memory:', `${REGISTER} CREATE VIRTUAL TABLE temp.t USING parquet(${sqlString(file)}); SELECT id, name, x FROM t ORDER BY id;`);
              compare(`${name}: extension with the master keys`, want, got.slice(3).map((o) => [o.id, o.name, o.x]), fail, args.maxDiffs);
            } catch (e) {
              fail.push(`the extension cannot read it with the master keys: ${e.message}`);
            }
            // DuckDB, given the footer's data key (base64, as DuckDB takes keys), where it can.
            if (duckdb && keys.footer) {
              try {
                const res = await readWithDuckDB(`SELECT id, name, x FROM read_parquet(${sqlString(file)}, encryption_config = {footer_key: 'k'}) ORDER BY id`,
                  [`PRAGMA add_parquet_key('k', '${keys.footer.toString('base64')}')`]);
                compare(`${name}: DuckDB`, want, res.rows, fail, args.maxDiffs);
                notes.push('DuckDB reads it with the unwrapped footer key');
              } catch (e) {
                fail.push(`DuckDB cannot read it with the unwrapped footer key: ${e.message}`);
              }
            }
            if (fail.length) {
              ++failed;
              console.log(`FAIL ${name}`);
              for (const f of fail) console.log(`  ${f}`);
            } else {
              ++passed;
              console.log(`ok   ${name}: ${Object.keys(keys).length} data key(s) unwrapped independently${notes.length ? `; ${notes.join('; ')}` : ''}`);
            }
          }
        }
      }
    }
  });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});
