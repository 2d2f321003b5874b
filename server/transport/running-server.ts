/** What both transports share. */
import type { ApiResponse } from '../api/api.js';

/** A running server. */
export interface RunningServer {
  /** The port actually bound. */
  port: number;
  host: string;
  /** Base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  /**
   * Graceful stop: no new connections, in-flight requests finish (their responses close the connection), then
   * it resolves. Requests still running after `graceMs` (default 30 s) are abandoned.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * The RunningServer of a listening transport: its URL, and a `close` that runs `stop` once (later calls get
 * the same promise).
 */
export function runningServer(host: string, port: number, stop: (graceMs: number) => Promise<void>): RunningServer {
  let closing: Promise<void> | undefined;
  return {
    port,
    host,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: (graceMs = 30_000) => (closing ??= stop(graceMs)),
  };
}

/** Resolves once `inFlight()` is 0, or after `graceMs`. */
export async function drain(inFlight: () => number, graceMs: number): Promise<void> {
  const until = Date.now() + graceMs;
  while (inFlight() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
}

/** Where to listen: the host (default 127.0.0.1) and a checked port (default 8080; 0 picks a free one). */
export function listenAddress(options: { port?: number; host?: string }): { host: string; port: number } {
  const port = options.port ?? 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be an integer from 0 to 65535, got ${port}`);
  return { host: options.host ?? '127.0.0.1', port };
}

/** What a transport sends if Api.handle ever rejected (it does not: this is the last line of defence). */
export function lastResort(err: unknown): ApiResponse {
  return { status: 500, contentType: 'application/json; charset=utf-8', headers: {}, body: JSON.stringify({ error: 'internal_error', message: String((err as Error)?.message ?? err) }) };
}
