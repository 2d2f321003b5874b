// The deployment behind nginx (issue 25, finding 10): deploy/nginx/propintel.conf, run as shipped (its listen
// port and upstream changed) in front of the server on uWebSockets.js. The malformed requests the server's
// transport would hold for seconds or accept get a prompt 4xx from nginx; good requests pass unchanged; the
// playground's per-client limit sees the client behind the proxy. Skips, naming why, without nginx.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playgroundKey } from '../../server/keys/playground-key.js';
import { rawHttp } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';
import { needs } from '../helpers/skip.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
let missing = NGINX ? '' : 'nginx is not installed (apt-get install nginx; .ci/run installs it when it can)';
let t: TestServer;
let nginx: ChildProcess | undefined;
let port = 0;
let key: string;
const now = new Date('2026-11-25T05:00:05Z');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

beforeAll(async () => {
  if (missing) return;
  t = await startTestServer({ clock: () => now, trustProxy: true, threads: 1 });
  key = await t.key();
  port = await freePort();
  const dir = join(tempDir(), 'nginx');
  for (const d of ['tmp/body', 'tmp/proxy', 'tmp/fastcgi', 'tmp/uwsgi', 'tmp/scgi']) mkdirSync(join(dir, d), { recursive: true });
  // Workers run as an unprivileged user when the master is root: they must reach the temp folders.
  for (const d of [dir, join(dir, '..'), ...['tmp', 'tmp/body', 'tmp/proxy', 'tmp/fastcgi', 'tmp/uwsgi', 'tmp/scgi'].map((x) => join(dir, x))]) chmodSync(d, 0o777);
  const site = readFileSync(new URL('../../deploy/nginx/propintel.conf', import.meta.url), 'utf8')
    .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${port};`)
    .replace(/^(\s*)server 127\.0\.0\.1:8080;/m, `$1server 127.0.0.1:${new URL(t.url).port};`);
  writeFileSync(join(dir, 'propintel.conf'), site);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  include ${dir}/propintel.conf;
}
`,
  );
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')];
  const check = spawnSync(NGINX!, ['-t', ...args], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration: ${check.stderr}`);
  nginx = spawn(NGINX!, [...args, '-g', `daemon off; pid ${dir}/nginx.pid;`], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  missing = 'nginx did not start listening';
}, 120_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx!.once('exit', r));
    nginx.kill('SIGQUIT');
    await exited;
  }
  await t?.close();
});

const raw = (p: number, request: string | Buffer, quietMs = 1500) => rawHttp(p, request, { quietMs });

const status = (response: string) => response.slice(0, 12);

describe('behind nginx (deploy/nginx/propintel.conf)', () => {
  it('turns each malformed request the transport would hold or accept into a prompt 4xx', async (ctx) => {
    needs(ctx, missing);
    const many = Array.from({ length: 60 }, (_, i) => `X-H${i}: v`).join('\r\n');
    const cases: [string, string | Buffer, string][] = [
      ['a NUL in the target', Buffer.from('GET /healthz\u0000x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 'latin1'), 'HTTP/1.1 400'],
      ['obs-fold', 'GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: one\r\n two\r\nConnection: close\r\n\r\n', 'HTTP/1.1 400'],
      ['two Content-Length headers', 'GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 5\r\nConnection: close\r\n\r\n', 'HTTP/1.1 400'],
      ['two Authorization headers', `GET /api/v1/property/sandbox HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${'x'}\r\nAuthorization: Bearer y\r\nConnection: close\r\n\r\n`, 'HTTP/1.1 400'],
      ['a request line over 8 KB', `GET /api/v1/property?address=${'a'.repeat(9000)} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`, 'HTTP/1.1 414'],
      // Passed on, normalised: only the headers the API reads reach the server.
      ['60 headers', `GET /healthz HTTP/1.1\r\nHost: a\r\n${many}\r\nConnection: close\r\n\r\n`, 'HTTP/1.1 200'],
      ['an absolute-form target', 'GET http://example.org/healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 'HTTP/1.1 200'],
      ['HTTP/1.0', 'GET /healthz HTTP/1.0\r\n\r\n', 'HTTP/1.1 200'],
    ];
    const got = [];
    for (const [what, request] of cases) got.push([what, status(await raw(port, request))]);
    expect(got).toEqual(cases.map(([what, , want]) => [what, want]));
  });

  it('passes good requests unchanged: a keyed lookup, HEAD, gzip and an error body', async (ctx) => {
    needs(ctx, missing);
    const s = (await t.get('/api/v1/property/sandbox')).body.addresses[0].address as string;
    const path = `/api/v1/property?address=${encodeURIComponent(s)}&components=planning.zone`;
    const direct = await t.get(path, key);
    const proxied = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } });
    expect(proxied.status).toBe(200);
    const body = (await proxied.json()) as { resolved: unknown; planning: unknown };
    expect(body.resolved).toEqual(direct.body.resolved);
    expect(body.planning).toEqual(direct.body.planning);
    const head = await raw(port, 'HEAD /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(status(head)).toBe('HTTP/1.1 200');
    expect(head.split('\r\n\r\n')[1]).toBe('');
    const bad = await fetch(`http://127.0.0.1:${port}/api/v1/property?address=%zz`, { headers: { authorization: `Bearer ${key}` } });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: 'invalid_parameter', parameter: 'address' });
  });

  it('gives each client behind the proxy its own playground limit (--trust-proxy reads X-Real-IP)', async (ctx) => {
    needs(ctx, missing);
    const demo = await playgroundKey(t.stack.store);
    const fromHere = () => raw(port, `GET /v1/stats HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${demo}\r\nConnection: close\r\n\r\n`, 1500).then(status);
    // nginx overwrites X-Real-IP with the peer's address: clients on 127.0.0.1 share one allowance.
    const first: string[] = [];
    for (let i = 0; i < 11; i++) first.push(await fromHere());
    expect(first).toEqual([...Array(10).fill('HTTP/1.1 200'), 'HTTP/1.1 429']);
    // Another client address (a second loopback address) is counted on its own, through the same proxy.
    const other = await rawHttp(port, `GET /v1/stats HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${demo}\r\nX-Real-IP: 127.0.0.1\r\nConnection: close\r\n\r\n`, { localAddress: '127.0.0.2', quietMs: 1500 });
    expect(status(other)).toBe('HTTP/1.1 200');
  });
});
