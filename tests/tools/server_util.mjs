// Shared by the test servers of tests/tools: free loopback ports, waiting for a port to answer, and
// stopping everything on SIGTERM, SIGINT or when stdin closes (the test that started us is gone); and,
// for the programs that start those servers, startLauncher.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A port free on 127.0.0.1 now (the kernel's pick; another process may take it before we listen).
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Resolves once 127.0.0.1:port accepts a connection, rejects after `ms`.
export async function waitForPort(port, ms = 10000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const ok = await new Promise((resolve) => {
      const c = net.connect(port, '127.0.0.1');
      c.once('connect', () => { c.destroy(); resolve(true); });
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing answers on 127.0.0.1:${port} after ${ms} ms`);
}

// Calls `cleanup` (once) and exits when told to stop or when our parent goes away.
export function stopOn(cleanup) {
  let done = false;
  const stop = async (code) => {
    if (done) return;
    done = true;
    try { await cleanup(); } catch (e) { console.error(e); }
    process.exit(code);
  };
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  process.stdin.on('end', () => stop(0));
  process.stdin.on('error', () => stop(0));
  process.stdin.resume();
  return stop;
}

// --name value pairs and bare --flags.
export function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; ++i) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected argument ${argv[i]}`);
    const name = argv[i].slice(2);
    if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) args[name] = argv[++i];
    else args[name] = true;
  }
  return args;
}

// The whole body of a request or response.
export function readBody(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

// Starts tests/tools/<script> (a server launcher) and resolves with the fields of the "port=N ..." line
// it prints once it listens. The child is pushed to `children` at once, so that the caller stops it
// (by pid) even when it never answers; stdin stays open: closing it stops the launcher.
export function startLauncher(script, argv, children) {
  return new Promise((resolve, reject) => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const child = spawn(process.execPath, [path.join(dir, script), ...argv], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('port='));
      if (line) resolve(Object.fromEntries(line.trim().split(' ').map((f) => f.split('='))));
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it listened`)));
  });
}
