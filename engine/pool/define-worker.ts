/**
 * Builds a worker module's default export from a table of task functions. The returned dispatcher never
 * throws: failures come back as `{ ok: false, error }` (see engine/pool/protocol.ts), and results are moved,
 * not copied: every non-shared ArrayBuffer inside the result is transferred to the caller.
 */
import { Piscina } from 'piscina';
import { EngineError, serializeError } from '../errors.js';
import { START_WORKER, type AnyTaskMap, type TaskMessage, type TaskReply } from './protocol.js';

/** The task implementations for a task map. */
export type TaskImplementations<TM extends AnyTaskMap> = {
  [K in keyof TM]: (input: TM[K][0]) => TM[K][1] | Promise<TM[K][1]>;
};

/** Collects the distinct, transferable (non-shared) ArrayBuffers reachable from `value`. */
export function collectTransferables(value: unknown, out = new Set<ArrayBuffer>(), depth = 0): Set<ArrayBuffer> {
  if (value === null || typeof value !== 'object' || depth > 8) return out;
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer && value.buffer.byteLength > 0) out.add(value.buffer);
    return out;
  }
  if (value instanceof ArrayBuffer) {
    if (value.byteLength > 0) out.add(value);
    return out;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectTransferables(v, out, depth + 1);
    return out;
  }
  for (const v of Object.values(value)) collectTransferables(v, out, depth + 1);
  return out;
}

/** Wraps task functions into a piscina handler: `export default defineWorker({ ... })`. */
export function defineWorker<TM extends AnyTaskMap>(tasks: TaskImplementations<TM>) {
  return async function dispatch(message: TaskMessage): Promise<TaskReply | unknown> {
    if (message?.task === START_WORKER) {
      const holdMs = Math.min(1000, Math.max(0, Number((message.input as { holdMs?: number } | undefined)?.holdMs) || 0));
      await new Promise((r) => setTimeout(r, holdMs));
      return { ok: true, value: null } satisfies TaskReply;
    }
    const fn = (tasks as Record<string, ((input: unknown) => unknown) | undefined>)[message?.task];
    if (typeof fn !== 'function') {
      return { ok: false, error: new EngineError('INVALID_ARGUMENT', `unknown task ${JSON.stringify(message?.task)}`, { parameter: 'task' }).toJSON() };
    }
    let value: unknown;
    try {
      value = await fn(message.input);
    } catch (err) {
      return { ok: false, error: serializeError(err) } satisfies TaskReply;
    }
    const reply: TaskReply = { ok: true, value };
    const buffers = [...collectTransferables(value)];
    if (buffers.length === 0) return reply;
    return Piscina.move({ [Piscina.transferableSymbol]: buffers, [Piscina.valueSymbol]: reply } as never);
  };
}
