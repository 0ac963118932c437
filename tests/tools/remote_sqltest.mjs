// Runs a SQL test file (sql_tests/remote*.sql) against remote copies of the test data: starts nginx
// (tests/tools/nginx_server.mjs, serving tests/data) and the S3 test server (tests/tools/s3_server.mjs,
// buckets `data` and `out`, requests signed with a test key pair and checked with aws4) on 127.0.0.1
// ports the kernel picks, uploads a few test files to the `data` bucket, substitutes the servers'
// addresses in the file, runs sqltest on it and stops the servers (by pid) whatever happens.
//   node tests/tools/remote_sqltest.mjs --sqltest build/sqltest --ext build/parquet.so --sql FILE [--print]
// (--print is sqltest's: the file echoed with the actual results, for writing a test.)
// Substitutions (besides sqltest's own $TESTDATA and $TMPDIR):
//   $HTTP         http://127.0.0.1:PORT, nginx's root being tests/data
//   $S3_ENDPOINT  127.0.0.1:PORT of the S3 server (for s3_endpoint=; s3_use_ssl=0)
//   $S3_HTTP      http://127.0.0.1:PORT of the S3 server (as errors name its requests)
//   $PROXY        http://127.0.0.1:PORT of tests/tools/fault_proxy.mjs in front of nginx, armed to reset
//                 the connection of the first request and to cut the second answer short after 100
//                 bytes; when the file uses $PROXY, the driver checks afterwards that the proxy saw
//                 those two tries and a third.
// sqltest runs with HOME set to an empty folder (no ~/.aws files) and with the AWS variables set to
// the test key pair, region and endpoint: AWS_ACCESS_KEY_ID=AKIDREMOTETEST,
// AWS_SECRET_ACCESS_KEY=remote-test-secret, AWS_REGION=eu-test-1, AWS_ENDPOINT_URL_S3=http://...
// Faults armed on the S3 server before the run: a GET of data/flaky/ keys fails with 503 twice (then
// succeeds: retries), a GET of data/down/ keys always fails with 503, a PUT (object or part) of
// out/fail/ keys always fails with 500. After the run, a multipart upload left pending in any bucket
// (ListMultipartUploads) fails the test: failed and rolled-back writes must abort theirs.
// A server that cannot start (nginx or an npm package missing) fails the run: it never skips.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, startLauncher } from './server_util.mjs';

const args = parseArgs(process.argv.slice(2));
for (const a of ['sqltest', 'ext', 'sql']) {
  if (!args[a]) {
    console.error(`remote_sqltest: --${a} is required`);
    process.exit(2);
  }
}
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(path.join(root, 'tools/package.json'));
const accessKey = 'AKIDREMOTETEST';
const secretKey = 'remote-test-secret';
const region = 'eu-test-1';

const children = [];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-remote-sql-'));

function stopAll() {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  }
}
process.on('exit', () => {
  stopAll();
  fs.rmSync(scratch, { recursive: true, force: true });
});
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(1));

function request(port, method, url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// PUT with a Signature Version 4 from aws4 (npm), as any S3 client would upload.
async function upload(port, bucket, key, file) {
  const aws4 = require('aws4');
  const body = fs.readFileSync(file);
  const opts = aws4.sign({
    host: `127.0.0.1:${port}`, method: 'PUT', path: `/${bucket}/${key}`, service: 's3', region, body,
    headers: { 'Content-Type': 'application/octet-stream' },
  }, { accessKeyId: accessKey, secretAccessKey: secretKey });
  const res = await request(port, 'PUT', opts.path, body, opts.headers);
  if (res.status !== 200) throw new Error(`upload of ${bucket}/${key}: HTTP ${res.status} ${res.body}`);
}

let status = 1;
try {
  const nginx = await startLauncher('nginx_server.mjs', ['--root', path.join(root, 'tests/data')], children);
  const proxy = await startLauncher('fault_proxy.mjs', ['--upstream', String(nginx.port)], children);
  const s3 = await startLauncher('s3_server.mjs', ['--buckets', 'data,out', '--access-key', accessKey, '--secret-key', secretKey,
    '--region', region, '--require-auth'], children);
  const data = path.join(root, 'tests/data/parquet-testing/data');
  const files = [
    ['alltypes_plain.parquet', 'alltypes_plain.parquet'],
    ['plain/alltypes_plain.parquet', 'alltypes_plain.parquet'],
    ['plain/alltypes_dictionary.parquet', 'alltypes_dictionary.parquet'],
    ['plain/.hidden/alltypes_plain.parquet', 'alltypes_plain.parquet'],
    ['plain/deep/er/alltypes_plain.parquet', 'alltypes_plain.parquet'],
    ['key with space/alltypes_plain.parquet', 'alltypes_plain.parquet'],
    ['flaky/alltypes_plain.parquet', 'alltypes_plain.parquet'],
    ['down/alltypes_plain.parquet', 'alltypes_plain.parquet'],
    ['notparquet/readme.parquet', '../../../../README.md'],
  ];
  for (const [key, file] of files) await upload(Number(s3.port), 'data', key, path.join(data, file));
  // Many objects: the listing of a glob takes several ListObjectsV2 pages (1000 keys a page).
  const many = [];
  for (let i = 0; i < 1005; ++i) many.push(upload(Number(s3.port), 'data', `many/k${String(i).padStart(4, '0')}.txt`,
    path.join(root, 'README.md')));
  await Promise.all(many);
  await upload(Number(s3.port), 'data', 'many/z/alltypes_plain.parquet', path.join(data, 'alltypes_plain.parquet'));
  const faults = [
    { match: 'GET /data/flaky/', status: 503, times: 2 },
    { match: 'GET /data/down/', status: 503 },
    { match: 'PUT /out/fail/', status: 500 },
  ];
  const armed = await request(Number(s3.port), 'POST', '/__s3/faults', JSON.stringify(faults));
  if (armed.status >= 300) throw new Error(`cannot arm the S3 server's faults: HTTP ${armed.status}`);

  const proxyFaults = await request(Number(proxy.port), 'POST', '/__proxy/faults',
    JSON.stringify([{ reset: true }, { truncate: 100 }]));
  if (proxyFaults.status >= 300) throw new Error(`cannot arm the proxy's faults: HTTP ${proxyFaults.status}`);
  const source = fs.readFileSync(args.sql, 'utf8');
  const sql = source
    .replaceAll('$PROXY', `http://127.0.0.1:${proxy.port}`)
    .replaceAll('$HTTP', `http://127.0.0.1:${nginx.port}`)
    .replaceAll('$S3_HTTP', `http://127.0.0.1:${s3.port}`)
    .replaceAll('$S3_ENDPOINT', `127.0.0.1:${s3.port}`);
  const file = path.join(scratch, path.basename(args.sql));
  fs.writeFileSync(file, sql);
  const home = path.join(scratch, 'home');
  fs.mkdirSync(home);
  const env = { ...process.env, HOME: home };
  for (const k of Object.keys(env)) if (k.startsWith('AWS_')) delete env[k];
  Object.assign(env, {
    AWS_ACCESS_KEY_ID: accessKey, AWS_SECRET_ACCESS_KEY: secretKey, AWS_REGION: region,
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${s3.port}`,
  });
  const run = spawn(path.resolve(args.sqltest), [...(args.print ? ['--print'] : []), path.resolve(args.ext), file], { cwd: root, env, stdio: 'inherit' });
  status = await new Promise((resolve) => run.once('exit', (code) => resolve(code ?? 1)));
  if (source.includes('$PROXY')) {
    const log = JSON.parse((await request(Number(proxy.port), 'GET', '/__proxy/stats')).body).log;
    const firsts = log.slice(0, 3);
    if (firsts.length < 3 || !firsts.every((e) => e.method === 'GET' && e.url === firsts[0].url)) {
      console.error('remote_sqltest: the proxy did not see a reset try, a truncated try and a third: ' +
        JSON.stringify(log.slice(0, 4)));
      status = 1;
    }
  }
  const aws4 = require('aws4');
  for (const bucket of ['data', 'out']) {
    const opts = aws4.sign({ host: `127.0.0.1:${s3.port}`, method: 'GET', path: `/${bucket}?uploads`, service: 's3', region },
      { accessKeyId: accessKey, secretAccessKey: secretKey });
    const res = await request(Number(s3.port), 'GET', opts.path, undefined, opts.headers);
    const pending = (res.body.match(/<Upload>/g) || []).length;
    if (res.status !== 200 || pending > 0) {
      console.error(`remote_sqltest: bucket ${bucket}: ${pending} multipart upload(s) left pending (HTTP ${res.status})`);
      status = 1;
    }
  }
} catch (e) {
  console.error('remote_sqltest: ' + e.message);
  status = 1;
}
stopAll();
// Wait for the launchers to stop their servers before reporting.
await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null
  ? new Promise((r) => { c.once('exit', r); setTimeout(r, 5000); }) : null)));
process.exit(status);
