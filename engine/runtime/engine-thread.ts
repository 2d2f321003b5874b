/**
 * An engine thread (engine-threads.ts starts it): opens its own engine over the data its owner named, with
 * no worker pool of its own (its tasks run in place: it is already one of the threads that compute), then
 * answers calls until it is stopped. Each call is one of {@link THREAD_CALLS}; several may be in flight at
 * once, interleaving where they wait on a read.
 */
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { isEngineError, serializeError } from '../errors.js';
import { Engine, type EngineOptions } from './engine.js';
import { setBlockShare } from '../raster/shared-blocks.js';
import { ThreadBlocks } from '../threads/thread-blocks.js';
import { THREAD_CALLS } from './thread-calls.js';
import { movableBuffers, type FromThread, type ToThread } from '../threads/thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('engine-thread.ts runs as a worker thread of EngineThreads');

/** This thread's Linux thread id (the benchmark reads its CPU time from /proc), when /proc says. */
function threadId(): number | null {
  try {
    const m = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

const post = (m: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

// Decoded raster blocks are shared with the other engine threads (thread-blocks.ts).
const blocks = new ThreadBlocks((m) => post(m));
setBlockShare(blocks);

let engine: Engine;
try {
  const options = (workerData as { engine: EngineOptions }).engine;
  engine = await Engine.create({ ...options, compute: 'here', threads: 0 });
} catch (err) {
  post({ type: 'failed', error: serializeError(err) });
  await new Promise(() => {});
}

const running = new Map<number, AbortController>();

port.on('message', (m: ToThread) => {
  if (m.type === 'cancel') {
    running.get(m.id)?.abort();
    return;
  }
  if (m.type === 'blocks' || m.type === 'drop') {
    blocks.receive(m);
    return;
  }
  if (m.type === 'close') {
    // Files closed, then the thread ends (its owner stops it anyway if this takes too long).
    blocks.close();
    void engine.close().finally(() => process.exit(0));
    return;
  }
  const fn = (THREAD_CALLS as unknown as Record<string, ((e: Engine, args: unknown[], signal: AbortSignal) => unknown) | undefined>)[m.method];
  const controller = new AbortController();
  running.set(m.id, controller);
  Promise.resolve()
    .then(() => {
      if (!fn) throw new Error(`unknown engine thread call ${JSON.stringify(m.method)}`);
      return fn(engine, m.args, controller.signal);
    })
    .then(
      (value) => {
        try {
          post({ type: 'result', id: m.id, ok: true, value }, [...movableBuffers(value)]);
        } catch (err) {
          // An answer that cannot be posted (not cloneable) is this call's failure, never the thread's.
          post({ type: 'result', id: m.id, ok: false, error: serializeError(err), plain: true });
        }
      },
      (err) => post({ type: 'result', id: m.id, ok: false, error: serializeError(err), plain: !isEngineError(err) }),
    )
    .finally(() => running.delete(m.id));
});

post({ type: 'ready', tid: threadId() });
