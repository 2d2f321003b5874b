/** What both transports return once listening. */

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

/** Resolves once `inFlight()` is 0, or after `graceMs`. */
export async function drain(inFlight: () => number, graceMs: number): Promise<void> {
  const until = Date.now() + graceMs;
  while (inFlight() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
}

/** Checks a port number before listening. */
export function checkPort(port: number): void {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be an integer from 0 to 65535, got ${port}`);
}
