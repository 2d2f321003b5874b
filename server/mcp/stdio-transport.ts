/**
 * MCP over stdio (newline-delimited JSON-RPC 2.0 on stdin and stdout), for `propintel mcp`. The SDK's own
 * StdioServerTransport drops a line that is not JSON without an answer, cannot take a batch, and never notices
 * that its input ended (so the process hung on to nothing and Node exited 13 with a top-level await
 * unsettled). This one answers as the Streamable HTTP transport does, with JSON-RPC 2.0's codes:
 *
 * - a line that is not JSON: `{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, ...}}`;
 * - JSON that is not a JSON-RPC message, an empty batch, or a batch of more than {@link MAX_BATCH} messages:
 *   -32600 (invalid request), with the message's id when it has one;
 * - a batch (an array): each message handled, and the responses to its requests written as one array once
 *   all are answered (a batch of notifications only is answered with nothing);
 * - a request whose id a request still running has (in the batch or before it): -32600, the first one runs;
 * - a request the client cancels (`notifications/cancelled`) gets no answer, as MCP says, and no longer holds
 *   up its batch or the end;
 * - the end of stdin: the requests still running are answered, then the transport closes (`onclose`).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** Messages one batch may hold (as the SDK's Streamable HTTP transport allows). */
export const MAX_BATCH = 100;

type Id = RequestId;

/** A batch waiting for the responses to its requests. */
interface PendingBatch {
  /** The request ids still unanswered. */
  waiting: Set<Id>;
  /** The responses in the order of the batch's messages (errors of invalid members included; null: none yet, or cancelled). */
  responses: (JSONRPCMessage | ReturnType<typeof errorMessage> | null)[];
  /** Where each request's response goes in `responses`. */
  slot: Map<Id, number>;
}

export const errorMessage = (id: Id | null, code: number, message: string) => ({ jsonrpc: '2.0' as const, id, error: { code, message } });
export const idInUse = (id: Id) => errorMessage(id, -32600, `Invalid Request: id ${JSON.stringify(id)} is already used by a request not yet answered`);
export const idOf = (value: unknown): Id | null => {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};
const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: Id; method: string } => 'method' in m && 'id' in m;
const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: Id } => 'id' in m && !('method' in m);

/** Newline-delimited JSON-RPC over a readable and a writable stream (stdin and stdout by default). */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = '';
  private ended = false;
  private closed = false;
  /** Requests handed on and not yet answered (single or in a batch). */
  private readonly running = new Set<Id>();
  /** Which batch a request belongs to. */
  private readonly batchOf = new Map<Id, PendingBatch>();

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    this.buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      if (line.trim()) this.line(line);
    }
  };

  private readonly onEnd = () => {
    // A last line without its newline is still a message.
    if (this.buffer.trim()) this.line(this.buffer);
    this.buffer = '';
    this.ended = true;
    this.closeWhenIdle();
  };

  private readonly onError = (err: Error) => this.onerror?.(err);

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    if (isResponse(message) && this.running.has(message.id)) this.settle(message.id, message);
    else this.write(message);
    this.closeWhenIdle();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onError);
    // Nothing more is read: stdin no longer holds the process open (after a signal, with stdin still open).
    this.input.pause();
    this.onclose?.();
  }

  /** Request `id` is done: answered with `response`, or cancelled (null: nothing is written for it). */
  private settle(id: Id, response: JSONRPCMessage | null): void {
    this.running.delete(id);
    const batch = this.batchOf.get(id);
    if (!batch) {
      if (response) this.write(response);
      return;
    }
    this.batchOf.delete(id);
    batch.responses[batch.slot.get(id)!] = response;
    batch.waiting.delete(id);
    const answers = batch.responses.filter((r) => r !== null);
    if (batch.waiting.size === 0 && answers.length) this.write(answers);
  }

  /** One line of input. */
  private line(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.write(errorMessage(null, -32700, 'Parse error: the line is not JSON'));
      return;
    }
    if (!Array.isArray(value)) {
      const parsed = JSONRPCMessageSchema.safeParse(value);
      if (!parsed.success) this.write(errorMessage(idOf(value), -32600, 'Invalid Request: not a JSON-RPC 2.0 message'));
      else if (isRequest(parsed.data) && this.running.has(parsed.data.id)) this.write(idInUse(parsed.data.id));
      else this.dispatch(parsed.data);
      return;
    }
    if (value.length === 0) return this.write(errorMessage(null, -32600, 'Invalid Request: an empty batch'));
    if (value.length > MAX_BATCH) return this.write(errorMessage(null, -32600, `Invalid Request: a batch of ${value.length} messages; at most ${MAX_BATCH}`));
    const batch: PendingBatch = { waiting: new Set(), responses: [], slot: new Map() };
    const handOn: JSONRPCMessage[] = [];
    for (const item of value) {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success) {
        batch.responses.push(errorMessage(idOf(item), -32600, 'Invalid Request: not a JSON-RPC 2.0 message'));
        continue;
      }
      const m = parsed.data;
      if (isRequest(m) && (this.running.has(m.id) || batch.slot.has(m.id))) {
        batch.responses.push(idInUse(m.id));
        continue;
      }
      if (isRequest(m)) {
        batch.slot.set(m.id, batch.responses.length);
        batch.responses.push(null);
        batch.waiting.add(m.id);
        this.batchOf.set(m.id, batch);
      }
      handOn.push(m);
    }
    // Nothing to wait for: the errors of invalid members, if any, at once (notifications get no answer).
    if (batch.waiting.size === 0 && batch.responses.length) this.write(batch.responses.filter((r) => r !== null));
    for (const m of handOn) this.dispatch(m);
  }

  private dispatch(m: JSONRPCMessage): void {
    if (isRequest(m)) this.running.add(m.id);
    this.onmessage?.(m);
    // A cancelled request is answered with nothing (MCP): it is settled here so that it holds nothing up.
    if ('method' in m && m.method === 'notifications/cancelled' && !('id' in m)) {
      const id = (m.params as { requestId?: unknown } | undefined)?.requestId;
      if ((typeof id === 'string' || typeof id === 'number') && this.running.has(id)) {
        this.settle(id, null);
        this.closeWhenIdle();
      }
    }
  }

  private write(message: unknown): void {
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  /** After the input ended, closes once every request has its answer. */
  private closeWhenIdle(): void {
    if (this.ended && this.running.size === 0) void this.close();
  }
}
