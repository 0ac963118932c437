// Starts nginx (Debian's) on 127.0.0.1 serving a folder, for the remote tests and the bench, and
// prints "port=N" (and "tls_port=N ca=FILE" with --tls) on one line once it answers. Stops nginx and
// removes its temporary folder on SIGTERM, SIGINT or when stdin closes.
//   node tests/tools/nginx_server.mjs --root DIR [--tls] [--bearer TOKEN]
// Locations: /          the folder, with byte ranges (nginx's default for static files)
//            /norange/  the folder, ranges refused (max_ranges 0: every GET is a 200 with the whole file)
//            /redirect/ a 302 to the same path under /
//            /private/  the folder, only with "Authorization: Bearer TOKEN" (else 401)
// The access log (one line per request: method, URI, Range header, status, body bytes) is at the
// path printed as "log=FILE".
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort, stopOn, parseArgs } from './server_util.mjs';

const args = parseArgs(process.argv.slice(2));
if (!args.root) {
  console.error('nginx_server: --root DIR is required');
  process.exit(2);
}
const root = path.resolve(args.root);
const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
if (!nginxBin) {
  console.error('nginx_server: nginx is not installed (run scripts/install-deps.sh)');
  process.exit(2);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-nginx-'));
const log = path.join(tmp, 'access.log');
let child = null;

async function cleanup() {
  const c = child;
  if (c) c.removeAllListeners('exit');
  if (c && c.exitCode === null && c.signalCode === null) {
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
const stop = stopOn(cleanup);

let ca = null;
if (args.tls) {
  ca = path.join(tmp, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', path.join(tmp, 'key.pem'), '-out', ca],
  { stdio: 'ignore' });
}

function config(port, tlsPort) {
  const bearer = args.bearer ? String(args.bearer) : '';
  const locations = `
      location / { }
      location /norange/ { alias ${root}/; max_ranges 0; }
      location /redirect/ { rewrite ^/redirect/(.*)$ /$1 redirect; }
      location /private/ {
        alias ${root}/;
        ${bearer ? `if ($http_authorization != "Bearer ${bearer}") { return 401; }` : 'return 401;'}
      }`;
  return `
daemon off;
master_process off;
worker_processes 1;
pid ${tmp}/nginx.pid;
error_log ${tmp}/error.log warn;
events { worker_connections 512; }
http {
  log_format ranges '$request_method $uri "$http_range" $status $body_bytes_sent';
  access_log ${log} ranges;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  default_type application/octet-stream;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${root};${locations}
  }
  ${tlsPort ? `server {
    listen 127.0.0.1:${tlsPort} ssl;
    ssl_certificate ${ca};
    ssl_certificate_key ${tmp}/key.pem;
    root ${root};${locations}
  }` : ''}
}
`;
}

// A port picked now may be taken before nginx binds it: try a few times.
for (let attempt = 0; attempt < 5; ++attempt) {
  const port = await freePort();
  const tlsPort = args.tls ? await freePort() : 0;
  const conf = path.join(tmp, 'nginx.conf');
  fs.writeFileSync(conf, config(port, tlsPort));
  child = spawn(nginxBin, ['-p', tmp, '-c', conf, '-e', path.join(tmp, 'error.log')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', () => r('exited')));
  const up = Promise.all([waitForPort(port), tlsPort ? waitForPort(tlsPort) : null]).then(() => 'up', () => 'timeout');
  const result = await Promise.race([exited, up]);
  if (result === 'up') {
    process.stdout.write(`port=${port}` + (tlsPort ? ` tls_port=${tlsPort} ca=${ca}` : '') + ` log=${log}\n`);
    child.once('exit', (code) => {
      console.error(`nginx_server: nginx exited (${code})`);
      stop(1);
    });
    break;
  }
  if (child.exitCode === null) child.kill('SIGKILL');
  child = null;
  if (attempt === 4) {
    console.error('nginx_server: nginx did not start: ' + (fs.existsSync(path.join(tmp, 'error.log')) ?
      fs.readFileSync(path.join(tmp, 'error.log'), 'utf8') : ''));
    await stop(1);
  }
}
