// An HTTP proxy on 127.0.0.1 in front of one upstream server (nginx, the S3 test server) that
// injects faults, for the remote tests, and adds latency, for the bench. Prints "port=N" once it
// listens; stops on SIGTERM, SIGINT or when stdin closes.
//   node tests/tools/fault_proxy.mjs --upstream PORT [--latency-ms N]
// --latency-ms delays every request that many milliseconds before it is forwarded (an object
// store's time to first byte). Control requests, answered by the proxy itself:
//   POST /__proxy/faults  JSON array of faults, applied one each to the next requests, in order
//   GET  /__proxy/stats   {"requests": n, "bytes": n, "log": [{"method", "url", "range", "status", "bytes"}...]}
//                         (control requests excluded; bytes: response body bytes sent back)
//   POST /__proxy/reset   clears the faults and the stats
// A fault is an object with any of:
//   {"status": 503}        answer this status (and "retry_after": s as Retry-After) without forwarding
//   {"reset": true}        close the connection before answering
//   {"truncate": N}        forward the headers, then only N body bytes, then close the connection
//   {"stall_ms": M, "after": N}  send N body bytes, wait M ms, send the rest
//   {"trickle_ms": M}      send the body a byte at a time, one every M ms
//   {"delay_ms": M}        wait M ms before forwarding
//   {"ignore_range": true} drop the Range header (the upstream answers 200 with the whole body)
//   {"etag": "\"x\""}      replace the ETag of the answer
//   {"content_range": "bytes 0-1/2"}  replace the Content-Range of the answer
import http from 'node:http';
import { stopOn, parseArgs, readBody } from './server_util.mjs';

const args = parseArgs(process.argv.slice(2));
const upstreamPort = Number(args.upstream);
if (!upstreamPort) {
  console.error('fault_proxy: --upstream PORT is required');
  process.exit(2);
}
const latency = Number(args['latency-ms'] || 0);
let faults = [];
let stats = { requests: 0, bytes: 0, log: [] };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

async function control(req, res) {
  if (req.method === 'POST' && req.url === '/__proxy/faults') {
    faults.push(...JSON.parse((await readBody(req)).toString() || '[]'));
  } else if (req.method === 'POST' && req.url === '/__proxy/reset') {
    faults = [];
    stats = { requests: 0, bytes: 0, log: [] };
  } else if (req.method === 'GET' && req.url === '/__proxy/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(stats));
    return;
  } else {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(204);
  res.end();
}

async function handle(req, res) {
  if (req.url.startsWith('/__proxy/')) return control(req, res);
  stats.requests += 1;
  const entry = { method: req.method, url: req.url, range: req.headers.range || null, status: null, bytes: 0 };
  stats.log.push(entry);
  const sent = (status, n) => {
    if (status !== null) entry.status = status;
    entry.bytes += n;
    stats.bytes += n;
  };
  const fault = faults.shift() || {};
  const body = await readBody(req);
  if (latency) await sleep(latency);
  if (fault.delay_ms) await sleep(fault.delay_ms);
  if (fault.reset) {
    req.socket.destroy();
    return;
  }
  if (fault.status) {
    const headers = { 'content-type': 'text/plain', 'content-length': 6 };
    if (fault.retry_after !== undefined) headers['retry-after'] = String(fault.retry_after);
    res.writeHead(fault.status, headers);
    sent(fault.status, 6);
    res.end('fault\n');
    return;
  }
  const headers = { ...req.headers, host: `127.0.0.1:${upstreamPort}` };
  if (fault.ignore_range) delete headers.range;
  const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent },
    async (upRes) => {
      const outHeaders = { ...upRes.headers };
      if (fault.etag) outHeaders.etag = fault.etag;
      if (fault.content_range) outHeaders['content-range'] = fault.content_range;
      res.writeHead(upRes.statusCode, outHeaders);
      const data = await readBody(upRes);
      if (fault.truncate !== undefined) {
        sent(upRes.statusCode, Math.min(fault.truncate, data.length));
        res.write(data.subarray(0, fault.truncate), () => req.socket.destroy());
        return;
      }
      if (fault.trickle_ms) {
        for (let i = 0; i < data.length && !res.destroyed; ++i) {
          res.write(data.subarray(i, i + 1));
          sent(i === 0 ? upRes.statusCode : null, 1);
          await sleep(fault.trickle_ms);
        }
        if (!res.destroyed) res.end();
        return;
      }
      if (fault.stall_ms) {
        const after = fault.after || 0;
        res.write(data.subarray(0, after));
        sent(upRes.statusCode, Math.min(after, data.length));
        await sleep(fault.stall_ms);
        if (res.destroyed) return;
        sent(null, Math.max(0, data.length - after));
        res.end(data.subarray(after));
        return;
      }
      sent(upRes.statusCode, data.length);
      res.end(data);
    });
  up.on('error', (e) => {
    if (!res.headersSent) res.writeHead(502);
    res.end(String(e));
  });
  up.end(body);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    console.error('fault_proxy:', e);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.keepAliveTimeout = 60000;
stopOn(() => new Promise((r) => { server.close(); server.closeAllConnections(); r(); }));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port=${server.address().port}\n`);
});
