/**
 * Load tools shared by the server benchmarks: wrk (Debian's package, installed when missing and root), the
 * benchmark server process (server-process.ts) and percentiles.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

/** What a benchmark server process prints when it is ready. */
export interface Ready {
  url: string;
  key: string;
  sandbox: string[];
  addresses: string[];
  /** Milliseconds from the process's start to its stack open, and spent warming (--warm). */
  openMs?: number;
  warmMs?: number;
}

/** A benchmark server process. */
export interface Server {
  child: ChildProcess;
  ready: Ready;
}

/** Null when wrk runs here (installing it when root), else why not. */
export function wrkAvailable(): string | null {
  const probe = () => /wrk/.test(spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout ?? '');
  if (probe()) return null;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'wrk is not installed and this is not root (apt-get install wrk)';
  process.stdout.write('  installing wrk (apt-get install -y wrk) ...\n');
  spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'wrk'], { stdio: 'ignore', timeout: 600_000 });
  return probe() ? null : 'apt-get install wrk failed';
}

/** Starts a server process (server-process.ts); `extra` are more of its flags (--db, --replica-dir, --key). */
export function startServerProcess(transport: 'uws' | 'node', addresses = 0, extra: string[] = [], nodeArgs: string[] = []): Promise<Server> {
  const script = fileURLToPath(new URL('./server-process.js', import.meta.url));
  const child = spawn(process.execPath, [...nodeArgs, script, '--transport', transport, '--addresses', String(addresses), ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, ready: JSON.parse(out.slice(0, nl)) as Ready });
    });
    child.once('exit', (code) => reject(new Error(`the ${transport} server process exited (${code}) before it was ready`)));
  });
}

/** Stops a server process gracefully (SIGTERM) and waits for it. */
export async function stop(s: Server): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

/** Milliseconds from a wrk latency like 6.61ms, 850.00us or 1.02s. */
function wrkMs(v: string, unit: string): number {
  const n = Number(v);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/** What one wrk run measured. */
export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * Runs wrk against `url` for `seconds` with `connections` connections; with `script`, a wrk Lua script (e.g.
 * one from {@link wrkPathsScript}) makes the requests.
 */
export function wrk(url: string, seconds: number, headers: Record<string, string>, connections = 64, script?: string): WrkResult {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s', ...(script ? ['-s', script] : [])];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const r = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr || r.stdout}`);
  return parseWrk(r.stdout);
}

/**
 * A wrk Lua script that requests `paths` in turn, round and round (each connection's requests go through the
 * same list), for {@link wrk}'s `script`.
 */
export function wrkPathsScript(paths: readonly string[]): string {
  const list = paths.map((p) => `  ${JSON.stringify(p)},`).join('\n');
  return `paths = {\n${list}\n}\ni = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", paths[(i % #paths) + 1])\nend\n`;
}

/** The requests/s, latency percentiles and errors of wrk's --latency output. */
function parseWrk(out: string): WrkResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const lat = (p: string) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)`).exec(out);
    return m ? wrkMs(m[1], m[2]) : NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return { rps, p50: lat('50'), p99: lat('99'), errors: non2xx + (sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0) };
}

/** The median. */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The p-th percentile (nearest rank). */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}


/**
 * `clients` concurrent clients, each taking the next address, spread over `servers` in turn: first lookups
 * (`query` is added to each), with requests/s, latency percentiles and the statuses answered.
 */
export async function firstLookups(servers: Pick<Ready, 'url' | 'key'>[], addresses: readonly string[], clients: number, query = ''): Promise<{ rps: number; p50: number; p99: number; n: number; failed: number; statuses: Record<number, number> }> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  const client = async (c: number) => {
    const s = servers[c % servers.length];
    while (next < addresses.length) {
      const a = addresses[next++];
      const t = performance.now();
      const res = await fetch(`${s.url}/api/v1/property?address=${encodeURIComponent(a)}${query}`, { headers: { authorization: `Bearer ${s.key}` } });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status !== 200) failed++;
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  const seconds = (performance.now() - t0) / 1000;
  return { rps: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), n: latencies.length, failed, statuses };
}

/** {@link wrk} without blocking: several can run at once (one per replica). */
export function wrkAsync(url: string, seconds: number, headers: Record<string, string>, connections = 64): Promise<WrkResult> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', [...args, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.once('exit', (code) => (code === 0 ? resolve(parseWrk(out)) : reject(new Error(`wrk failed: ${err || out}`))));
  });
}

/**
 * A lean HTTP/1.1 load client: `clients` keep-alive connections, each sending the next of `paths` as soon as
 * its previous answer has arrived, until every path was asked once. It reads only the status line and
 * Content-Length of each answer (no parsing of bodies), so on a machine it shares with the server it takes a
 * fraction of the CPU fetch() would (the cold-lookup rows of the cores suite measure the server, not the
 * client). Answers must carry Content-Length (this server's always do).
 */
export async function leanLoad(base: string, paths: readonly string[], clients: number, headers: Record<string, string> = {}): Promise<{ rps: number; p50: number; p99: number; n: number; failed: number; statuses: Record<number, number>; seconds: number }> {
  const u = new URL(base);
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const sock = connect(Number(u.port), u.hostname);
      sock.setNoDelay(true);
      let buf: Buffer = Buffer.alloc(0);
      let remaining = -1;
      let started = 0;
      const send = () => {
        if (next >= paths.length) {
          sock.end();
          resolve();
          return;
        }
        const p = paths[next++];
        started = performance.now();
        sock.write(`GET ${p} HTTP/1.1\r\nHost: ${u.host}\r\n${extra}\r\n`);
      };
      sock.on('connect', send);
      sock.on('error', reject);
      sock.on('data', (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        for (;;) {
          if (remaining < 0) {
            const end = buf.indexOf('\r\n\r\n');
            if (end < 0) return;
            const head = buf.subarray(0, end).toString('latin1');
            const status = Number(head.slice(9, 12));
            const len = /\r\ncontent-length:\s*(\d+)/i.exec(head);
            if (!len) {
              reject(new Error(`leanLoad: an answer without Content-Length: ${head.slice(0, 200)}`));
              sock.destroy();
              return;
            }
            statuses[status] = (statuses[status] ?? 0) + 1;
            if (status !== 200) failed++;
            remaining = Number(len[1]);
            buf = buf.subarray(end + 4);
          }
          if (buf.length < remaining) return;
          buf = buf.subarray(remaining);
          remaining = -1;
          latencies.push(performance.now() - started);
          send();
        }
      });
    });
  await Promise.all(Array.from({ length: Math.min(clients, paths.length) }, one));
  const seconds = (performance.now() - t0) / 1000;
  return { rps: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), n: latencies.length, failed, statuses, seconds };
}
