/**
 * The server's log: one JSON line per request (time, request id, method, path, status, milliseconds, key id)
 * and one per failure worth an operator's attention (with the request id, so a client quoting the
 * `X-Request-Id` header can be matched to it). Lines are buffered and written at most every 100 ms or 64 KiB,
 * so logging costs a string push per request, not a write.
 */

/** Where log lines go. */
export interface RequestLog {
  /** One completed request. */
  request(entry: { id: string; method: string; path: string; status: number; ms: number; key?: string }): void;
  /** A failure (the message and, for bugs, the stack). */
  error(entry: { id: string; message: string; stack?: string; [k: string]: unknown }): void;
  /** Writes what is buffered. */
  flush(): void;
}

/** A log that drops everything (benchmarks of the handler alone, tests). */
export const SILENT_LOG: RequestLog = { request() {}, error() {}, flush() {} };

/** A buffered JSON-lines log writing through `write` (e.g. process.stdout.write). */
export class JsonLinesLog implements RequestLog {
  private lines: string[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly write: (text: string) => void) {}

  request(e: { id: string; method: string; path: string; status: number; ms: number; key?: string }): void {
    this.push(`{"time":"${new Date().toISOString()}","level":"info","request_id":${JSON.stringify(e.id)},"method":"${e.method}","path":${JSON.stringify(e.path)},"status":${e.status},"ms":${e.ms.toFixed(2)}${e.key ? `,"key":"${e.key}"` : ''}}`);
  }

  error(e: { id: string; message: string; stack?: string; [k: string]: unknown }): void {
    const { id, ...rest } = e;
    this.push(JSON.stringify({ time: new Date().toISOString(), level: 'error', request_id: id, ...rest }));
    this.flush();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.lines.length) return;
    const text = `${this.lines.join('\n')}\n`;
    this.lines = [];
    this.size = 0;
    this.write(text);
  }

  private push(line: string): void {
    this.lines.push(line);
    this.size += line.length;
    if (this.size >= 64 * 1024) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), 100);
      this.timer.unref();
    }
  }
}
