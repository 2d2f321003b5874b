// Issue 48: batch as a hostile user and a careless customer would try it, over real HTTP against a real
// server (uWebSockets.js, engine threads). Each finding is a case here.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ compute: 'threads', threads: 2 });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/**
 * POSTs `body` to /v1/batch with `key`, a MiB at a time as the socket takes it, stopping when the answer comes:
 * the status, the body, and the MiB sent by then.
 */
function upload(key: string, body: Buffer): Promise<{ status: number; text: string; sentMb: number }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    let answered = false;
    let sent = 0;
    const req = request({ host: u.hostname, port: u.port, path: '/v1/batch', method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv', 'content-length': body.length } }, (res) => {
      answered = true;
      const sentMb = sent / 1024 / 1024;
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, text, sentMb });
      });
    });
    // The server answers a refused upload before it has all of it and closes: the rest is never sent.
    req.on('error', (e: NodeJS.ErrnoException) => (answered || e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
    const step = 1024 * 1024;
    const pump = () => {
      while (!answered && sent < body.length) {
        const part = body.subarray(sent, sent + step);
        sent += part.length;
        if (sent >= body.length) req.end(part);
        else if (!req.write(part)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

describe('authentication before the body', () => {
  it('answers made-up and revoked keys 401 without reading their 128 MiB uploads: eight of them raise RSS by under 64 MB', async () => {
    const body = Buffer.alloc(128 * 1024 * 1024 - 64, 'a');
    const madeUp = 'pi_0123456789ab_madeupmadeupmadeupmadeupmadeupmadeupmad';
    const revoked = await s.key();
    await s.stack.store.revokeKey(revoked.split('_')[1], new Date());
    await upload(madeUp, body);
    const before = process.memoryUsage().rss;
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await upload(i % 2 ? revoked : madeUp, body));
    const grown = (process.memoryUsage().rss - before) / 1024 / 1024;
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(401));
    expect(answers.filter((a) => a.text.includes('"invalid_key"'))).toHaveLength(8);
    expect(answers[1].text).toContain('was revoked');
    // Answered once the key was known bad, not after the upload: the client had sent little of it (what the
    // sockets' buffers hold), and the server held none of it.
    expect(Math.max(...answers.map((a) => a.sentMb))).toBeLessThan(32);
    expect(grown, `RSS grew ${grown.toFixed(0)} MB`).toBeLessThan(64);
  }, 120_000);
});
