// Streamed response bodies (file downloads) on both transports: chunks are made only as the client reads
// them (backpressure), so a large download holds flat memory; the bytes arrive whole and in order.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Api, ApiResponse } from '../../server/api/api.js';
import { startNodeHttpServer } from '../../server/transport/node-http-transport.js';
import { startUwsServer } from '../../server/transport/uws-transport.js';

const CHUNK = 1 << 20;
const CHUNKS = 64;

/** An API whose every answer is a 64 MiB stream of 1 MiB chunks, counting the chunks made. */
function streamingApi() {
  const made = { chunks: 0 };
  const api = {
    inFlight: 0,
    transport: 'test',
    handle(): ApiResponse {
      return {
        status: 200,
        contentType: 'application/octet-stream',
        headers: { 'Content-Disposition': 'attachment; filename="big.bin"' },
        body: '',
        stream: function* () {
          for (let i = 0; i < CHUNKS; i++) {
            made.chunks++;
            yield Buffer.alloc(CHUNK, i % 251);
          }
        },
      };
    },
  };
  return { api: api as unknown as Api, made };
}

for (const [name, start] of [['uWebSockets.js', startUwsServer], ['node:http', startNodeHttpServer]] as const) {
  describe(`streamed bodies on ${name}`, () => {
    it('makes chunks only as fast as the client reads, and delivers every byte in order', async () => {
      const { api, made } = streamingApi();
      const server = await start(api, { port: 0 });
      try {
        const body = await new Promise<{ paused: number; bytes: number; ok: boolean; disposition: string | undefined }>((resolve, reject) => {
          const req = request(`${server.url}/download`, (res) => {
            res.pause();
            // The client reads nothing for a while: the server must stop making chunks (socket buffers fill).
            setTimeout(() => {
              const paused = made.chunks;
              let bytes = 0, ok = true;
              res.on('data', (c: Buffer) => {
                for (let i = 0; i < c.length; i += 4096) if (c[i] !== Math.floor((bytes + i) / CHUNK) % 251) ok = false;
                bytes += c.length;
              });
              res.on('end', () => resolve({ paused, bytes, ok, disposition: res.headers['content-disposition'] }));
              res.resume();
            }, 400);
          });
          req.on('error', reject);
          req.end();
        });
        expect(body.paused).toBeLessThan(CHUNKS / 2);
        expect(body.bytes).toBe(CHUNK * CHUNKS);
        expect(body.ok).toBe(true);
        expect(body.disposition).toBe('attachment; filename="big.bin"');
        expect(made.chunks).toBe(CHUNKS);
      } finally {
        await server.close(1000);
      }
    }, 30_000);

    it('stops making chunks when the client goes away', async () => {
      const { api, made } = streamingApi();
      const server = await start(api, { port: 0 });
      try {
        await new Promise<void>((resolve) => {
          const req = request(`${server.url}/download`, (res) => {
            res.once('data', () => {
              req.destroy();
              setTimeout(resolve, 300);
            });
          });
          req.on('error', () => {});
          req.end();
        });
        expect(made.chunks).toBeLessThan(CHUNKS);
      } finally {
        await server.close(1000);
      }
    });
  });
}
