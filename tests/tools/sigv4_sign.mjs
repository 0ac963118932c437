// Signs requests with aws4 (npm), an independent Signature Version 4 signer, so the tests can hold
// the engine's signer against it. Reads one JSON request per line on stdin:
//   {"method", "host", "path" (encoded path and query, as sent), "headers" {name: value} (the headers
//    to sign, x-amz-date and x-amz-content-sha256 among them), "region", "service",
//    "accessKeyId", "secretAccessKey"}
// and prints one line per request: {"authorization": "..."}. Exits non-zero when aws4 is missing.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(new URL('../../tools/package.json', import.meta.url));
let aws4;
try {
  aws4 = require('aws4');
} catch (e) {
  console.error('sigv4_sign: the npm package aws4 is missing (run scripts/install-deps.sh): ' + e.message);
  process.exit(2);
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const r = JSON.parse(line);
  const signed = aws4.sign(
    {
      method: r.method,
      host: r.host,
      path: r.path,
      headers: { ...r.headers },
      service: r.service,
      region: r.region,
    },
    { accessKeyId: r.accessKeyId, secretAccessKey: r.secretAccessKey },
  );
  process.stdout.write(JSON.stringify({ authorization: signed.headers.Authorization }) + '\n');
}
