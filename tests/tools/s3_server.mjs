// An S3-compatible server on 127.0.0.1 for the remote tests: s3rver (npm) behind a front of our own
// that fills what s3rver 3.7 lacks or gets wrong. Prints "port=N" once it listens; stops on
// SIGTERM, SIGINT or when stdin closes, and removes its data folder unless --dir was given.
//   node tests/tools/s3_server.mjs [--dir DIR] [--buckets a,b] [--access-key K --secret-key S]
//        [--region R] [--session-token T] [--require-auth]
// The front:
//   - checks every signed request's Signature Version 4 with aws4 (npm), which s3rver does not:
//     access key, region and service of the scope, the signature over the signed headers, the
//     payload hash against the body, the session token; a mismatch is a 403 SignatureDoesNotMatch.
//     With --require-auth an unsigned request is a 403 AccessDenied.
//   - answers a suffix range "bytes=-N" as S3 does (the last N bytes): s3rver reads it as bytes=0-N.
//   - implements AbortMultipartUpload (DELETE ?uploadId=) and ListMultipartUploads (GET ?uploads),
//     which s3rver does not, on s3rver's own upload folders.
// Control requests: GET /__s3/stats ({"requests", "log": [{method, url, range, signed}]}),
// POST /__s3/reset, POST /__s3/faults (JSON [{"match": "text in 'METHOD url'", "status": 500,
// "times": n}]: matching requests get that status instead of being served).
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { stopOn, parseArgs, readBody } from './server_util.mjs';

// s3rver encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps in its legacy
// provider: without it every truncated listing is a 500. Run again with that provider on.
if (!process.execArgv.includes('--openssl-legacy-provider')) {
  let des = true;
  try {
    crypto.createCipheriv('des', Buffer.alloc(8), Buffer.alloc(8));
  } catch {
    des = false;
  }
  if (!des) {
    const child = spawn(process.execPath, ['--openssl-legacy-provider', ...process.argv.slice(1)], { stdio: 'inherit' });
    for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
    await new Promise(() => {});
  }
}

const require = createRequire(new URL('../../tools/package.json', import.meta.url));
let S3rver, aws4, AWSAccount;
try {
  S3rver = require('s3rver');
  AWSAccount = require('s3rver/lib/models/account');
  aws4 = require('aws4');
} catch (e) {
  console.error('s3_server: an npm package is missing (s3rver, aws4; run scripts/install-deps.sh): ' + e.message);
  process.exit(2);
}

const args = parseArgs(process.argv.slice(2));
const ownDir = !args.dir;
const dir = args.dir ? path.resolve(args.dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'pq-s3-'));
const buckets = String(args.buckets || 'bucket').split(',').filter(Boolean);
const accessKey = args['access-key'] || 'S3RVER';
const secretKey = args['secret-key'] || 'S3RVER';
const region = args.region || 'us-east-1';
const sessionToken = args['session-token'] || null;
AWSAccount.DUMMY_ACCOUNT.createKeyPair(accessKey, secretKey);

const s3 = new S3rver({
  address: '127.0.0.1', port: 0, silent: true, directory: dir, serviceEndpoint: 'localhost',
  configureBuckets: buckets.map((name) => ({ name })),
});
const inner = await s3.run();
const innerPort = inner.port;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let stats = { requests: 0, log: [] };
let faults = [];

function xml(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end('<?xml version="1.0" encoding="UTF-8"?>\n' + body);
}
function error(res, status, code, message) {
  xml(res, status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// Bucket, key and query of a request, path style (127.0.0.1) or virtual-host style (b.s3.localhost).
function target(req) {
  const u = new URL(req.url, 'http://x');
  const host = (req.headers.host || '').replace(/:\d+$/, '');
  const vhost = /^(.+)\.s3\.localhost$/.exec(host);
  const parts = u.pathname.split('/').slice(1);
  const bucket = vhost ? vhost[1] : decodeURIComponent(parts.shift() || '');
  const key = decodeURIComponent(parts.join('/'));
  return { bucket, key, query: u.searchParams };
}

// Why the signature of `req` is wrong, or null when it is right.
function checkSignature(req, body) {
  const auth = req.headers.authorization;
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return 'malformed Authorization header';
  const [, key, date, scopeRegion, service, signedHeaders, signature] = m;
  if (key !== accessKey) return `unknown access key ${key}`;
  if (scopeRegion !== region) return `scope region ${scopeRegion}, expected ${region}`;
  if (service !== 's3') return `scope service ${service}`;
  const amzDate = req.headers['x-amz-date'];
  if (!amzDate || !amzDate.startsWith(date)) return 'x-amz-date missing or not the scope date';
  const when = Date.parse(amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!(Math.abs(Date.now() - when) < 15 * 60 * 1000)) return 'x-amz-date too far from now';
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) {
    return 'host, x-amz-date and x-amz-content-sha256 must be signed';
  }
  const payload = req.headers['x-amz-content-sha256'];
  if (payload !== 'UNSIGNED-PAYLOAD' && payload !== crypto.createHash('sha256').update(body).digest('hex')) {
    return 'x-amz-content-sha256 is not the hash of the body';
  }
  if (sessionToken !== null) {
    if (req.headers['x-amz-security-token'] !== sessionToken || !names.includes('x-amz-security-token')) {
      return 'missing or wrong session token';
    }
  }
  const headers = {};
  for (const n of names) {
    if (req.headers[n] === undefined) return `signed header ${n} is not in the request`;
    headers[n] = req.headers[n];
  }
  const expected = aws4.sign({ method: req.method, host: req.headers.host, path: req.url, headers, service: 's3', region },
    { accessKeyId: accessKey, secretAccessKey: secretKey });
  const want = /Signature=([0-9a-f]{64})/.exec(expected.headers.Authorization)[1];
  return want === signature ? null : 'signature does not match aws4\'s';
}

function uploadsDir(bucket) {
  return path.join(dir, bucket, '._S3rver_uploads');
}

function forward(req, res, body, headers) {
  const up = http.request({ host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers, agent },
    (upRes) => {
      res.writeHead(upRes.statusCode, upRes.headers);
      upRes.pipe(res);
    });
  up.on('error', (e) => error(res, 500, 'InternalError', esc(e.message)));
  up.end(body);
}

function innerHead(req) {
  return new Promise((resolve) => {
    const headers = { host: req.headers.host };
    const h = http.request({ host: '127.0.0.1', port: innerPort, method: 'HEAD', path: new URL(req.url, 'http://x').pathname, headers, agent },
      (r) => { r.resume(); resolve(r.statusCode === 200 ? Number(r.headers['content-length']) : null); });
    h.on('error', () => resolve(null));
    h.end();
  });
}

async function handle(req, res) {
  if (req.url.startsWith('/__s3/')) {
    if (req.url === '/__s3/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stats));
    } else if (req.url === '/__s3/reset') {
      stats = { requests: 0, log: [] };
      faults = [];
      res.writeHead(204); res.end();
    } else if (req.url === '/__s3/faults') {
      faults.push(...JSON.parse((await readBody(req)).toString() || '[]'));
      res.writeHead(204); res.end();
    } else {
      res.writeHead(404); res.end();
    }
    return;
  }
  const body = await readBody(req);
  const signed = req.headers.authorization !== undefined;
  stats.requests += 1;
  stats.log.push({ method: req.method, url: req.url, range: req.headers.range || null, signed });
  const line = `${req.method} ${req.url}`;
  const fault = faults.find((f) => line.includes(f.match) && (f.times === undefined || f.times > 0));
  if (fault) {
    if (fault.times !== undefined) fault.times -= 1;
    return error(res, fault.status || 500, 'InternalError', 'injected fault');
  }
  if (signed) {
    const why = checkSignature(req, body);
    if (why) return error(res, 403, 'SignatureDoesNotMatch', esc(why));
  } else if (args['require-auth']) {
    return error(res, 403, 'AccessDenied', 'Access Denied');
  }
  const { bucket, query } = target(req);
  if (req.method === 'DELETE' && query.has('uploadId')) {
    const up = path.join(uploadsDir(bucket), path.basename(query.get('uploadId')));
    if (!fs.existsSync(up)) return error(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
    fs.rmSync(up, { recursive: true, force: true });
    res.writeHead(204); res.end();
    return;
  }
  if (req.method === 'GET' && query.has('uploads')) {
    const d = uploadsDir(bucket);
    const ids = fs.existsSync(d) ? fs.readdirSync(d) : [];
    const uploads = ids.map((id) => {
      const key = fs.readFileSync(path.join(d, id, 'key'), 'utf8');
      return `<Upload><Key>${esc(key)}</Key><UploadId>${esc(id)}</UploadId></Upload>`;
    }).join('');
    return xml(res, 200, `<ListMultipartUploadsResult><Bucket>${esc(bucket)}</Bucket>${uploads}</ListMultipartUploadsResult>`);
  }
  const headers = { ...req.headers };
  const suffix = /^bytes=-(\d+)$/.exec(headers.range || '');
  if (suffix && req.method === 'GET') {
    const size = await innerHead(req);
    if (size !== null) {
      const n = Number(suffix[1]);
      if (n === 0 || size === 0) return error(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
      headers.range = `bytes=${Math.max(0, size - n)}-${size - 1}`;
    }
  }
  forward(req, res, body, headers);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    console.error('s3_server:', e);
    if (!res.headersSent) error(res, 500, 'InternalError', esc(e.message));
  });
});
stopOn(async () => {
  server.close();
  server.closeAllConnections();
  await s3.close();
  if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`port=${server.address().port}\n`));
