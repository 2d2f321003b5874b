// The transports: uWebSockets.js (native binary, never the JS fallback) and node:http serve the same API;
// graceful shutdown finishes in-flight requests and then stops listening.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/http-server.js';
import { uwsBinary, uwsNative } from '../../server/uws.js';
import { q, startTestServer, type TestServer } from '../helpers/server.js';

describe('uWebSockets.js', () => {
  it('loads the native binary, not the slow JS fallback', () => {
    expect(uwsNative).toBe(true);
    expect(uwsBinary).toMatch(new RegExp(`uws_${process.platform}_${process.arch}_${process.versions.modules}\\.node$`));
  });
});

describe('transports', () => {
  let t: TestServer;
  let key: string;
  beforeAll(async () => {
    t = await startTestServer();
    key = await t.key();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('node:http serves the same handler: same statuses, same bodies', async () => {
    const node = await startServer({ service: t.stack.engine, store: t.stack.store, port: 0, transport: 'node' });
    try {
      const sandbox = (await t.get('/api/v1/property/sandbox')).body.addresses;
      const paths = [
        '/api/v1/property/sample/flood',
        '/api/v1/property/sandbox',
        '/api/v1/nope',
        `/api/v1/property?${q({ address: sandbox[0].address, components: 'das,planning' })}`,
        '/api/v1/property?lat=1',
        `/api/v1/property/core?${q({ address: sandbox[6].address })}`,
      ];
      for (const p of paths) {
        const a = await fetch(`${t.url}${p}`, { headers: { authorization: `Bearer ${key}` } });
        const b = await fetch(`${node.url}${p}`, { headers: { authorization: `Bearer ${key}` } });
        expect(b.status, p).toBe(a.status);
        expect(b.headers.get('content-type')).toBe(a.headers.get('content-type'));
        expect(b.headers.get('content-encoding')).toBe(a.headers.get('content-encoding'));
        expect(await b.json()).toEqual(await a.json());
      }
      expect(((await (await fetch(`${node.url}/healthz`)).json()) as { server: string }).server).toBe('node:http');
    } finally {
      await node.close();
    }
  });

  it('rejects an invalid port before listening', async () => {
    await expect(startServer({ service: t.stack.engine, store: t.stack.store, port: 70_000 })).rejects.toThrow(/port must be an integer/);
    await expect(startServer({ service: t.stack.engine, store: t.stack.store, port: -1, transport: 'node' })).rejects.toThrow(/port must be an integer/);
  });

  it('reports a port in use', async () => {
    await expect(startServer({ service: t.stack.engine, store: t.stack.store, port: t.server.port })).rejects.toThrow(/could not listen/);
  });
});

describe('graceful shutdown', () => {
  for (const transport of ['uws', 'node'] as const) {
    it(`${transport}: finishes the requests in flight, then refuses new connections`, async () => {
      const t = await startTestServer({ transport });
      try {
        const key = await t.key();
        const s = (await t.get('/api/v1/property/sandbox')).body.addresses.find((a: { state: string }) => a.state === 'QLD');
        // A first lookup with surfaces takes long enough to still be running when close() is called.
        const slow = t.get(`/api/v1/property?${q({ lat: s.lat + 0.001, lng: s.lng, include_surfaces: 1, surfaces: 'noise,contours', components: 'scores.flood' })}`, key);
        await new Promise((r) => setTimeout(r, 50));
        expect(t.server.api.inFlight).toBe(1);
        await t.server.close(60_000);
        const r = await slow;
        expect(r.status).toBe(200);
        expect(r.body.meta.surfaces.delivered_layers).toEqual(['noise', 'contours']);
        expect(t.server.api.inFlight).toBe(0);
        await expect(fetch(`${t.url}/healthz`, { headers: { connection: 'close' } })).rejects.toThrow();
      } finally {
        await t.stack.close();
      }
    }, 60_000);
  }
});
