/** A local HTTP receiver for webhook tests: records every request; `answer` decides each response. */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver: records every request; `answer` decides each response (default 200). */
export class Receiver {
  readonly got: Received[] = [];
  answer: (r: Received, nth: number) => { status: number; headers?: Record<string, string> } | 'hang' = () => ({ status: 200 });
  private server!: Server;
  url = '';
  private readonly waiters: { n: number; path?: string; resolve: () => void }[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.got.push(r);
        const a = this.answer(r, this.got.filter((g) => g.path === r.path).length);
        for (const w of this.waiters.splice(0)) {
          if (this.count(w.path) >= w.n) w.resolve();
          else this.waiters.push(w);
        }
        if (a === 'hang') return;
        res.writeHead(a.status, a.headers).end('{"ok": true, "echo": "never shown to the subscriber"}');
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  count(path?: string): number {
    return path === undefined ? this.got.length : this.got.filter((g) => g.path === path).length;
  }

  /** Resolves once `n` requests (to `path`, when given) have arrived; fails after `ms`. */
  waitFor(n: number, path?: string, ms = 10_000): Promise<void> {
    if (this.count(path) >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`receiver: ${this.count(path)} of ${n} requests${path ? ` to ${path}` : ''} after ${ms} ms`)), ms);
      this.waiters.push({ n, path, resolve: () => (clearTimeout(t), resolve()) });
    });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

