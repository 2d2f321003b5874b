import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/http-server.js';
import { uwsBinary, uwsNative } from '../../server/uws.js';

describe('uWebSockets.js', () => {
  it('loads the native binary, not the slow JS fallback', () => {
    expect(uwsNative).toBe(true);
    expect(uwsBinary).toMatch(new RegExp(`uws_${process.platform}_${process.arch}_${process.versions.modules}\\.node$`));
  });
});

describe('the HTTP server (placeholder)', () => {
  let server: RunningServer;
  afterAll(() => server?.close());

  it('listens on a free port and answers /healthz with JSON', async () => {
    server = await startServer({ port: 0 });
    expect(server.port).toBeGreaterThan(0);
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ status: 'ok', server: 'uWebSockets.js' });
  });

  it('answers an unknown path with a JSON 404 naming it', async () => {
    const res = await fetch(`${server.url}/api/v1/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not_found', message: 'no endpoint at /api/v1/nothing-here' });
  });

  it('rejects an invalid port before listening', async () => {
    await expect(startServer({ port: 70000 })).rejects.toThrow(/port must be an integer/);
  });

  it('stops listening on close', async () => {
    const s = await startServer({ port: 0 });
    await s.close();
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
  });
});
