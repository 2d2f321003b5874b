// The engine threads' dispatch (issue 46), on stand-in threads that speak the engine thread's messages
// (test/fixtures/engine-thread-stub.mjs): the least busy thread, a preferred one when it has room and never
// an idle thread while calls wait; first come, first served past the threads' room; a cancel answered at
// once; a call past its limit stopped and its stuck thread replaced; a thread that dies replaced with its
// calls sent again once (a call that kills every thread it runs on fails WORKER_CRASHED); close draining the
// calls in flight; a thread that cannot open failing the start with its error. Then the shared raster
// blocks' hub: one bound for every thread, the first copy kept, the others told.
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../../engine/errors.js';
import { EngineThreads, type EngineThreadsOptions } from '../../../engine/threads/engine-threads.js';
import { BlockHub, ThreadBlocks, type BlockNews, type BlockOrders } from '../../../engine/threads/thread-blocks.js';
import { stateOfAddressText, stateOfPoint, threadOfState } from '../../../engine/threads/affinity.js';

const stub = new URL('../../fixtures/engine-thread-stub.mjs', import.meta.url);
let open: EngineThreads[] = [];
async function start(options: Partial<EngineThreadsOptions> = {}): Promise<EngineThreads> {
  const t = await EngineThreads.start({ threads: 2, engine: {}, module: stub, ...options });
  open.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(open.map((t) => t.close(0)));
  open = [];
});

const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (e instanceof EngineError ? e.code : `plain: ${(e as Error).message}`));

describe('EngineThreads', () => {
  it('sends each call to the least busy thread, its preferred one while that has room, and another area\'s only after it waited', async () => {
    const t = await start({ callsPerThread: 2 });
    // Two calls at once on idle threads: one each.
    const a = await Promise.all([t.call<number>('sleep', [50]), t.call<number>('sleep', [50])]);
    expect(new Set(a).size).toBe(2);
    // Calls preferring thread 1 go there while it has room (2 calls); a third waits for it rather than go to a
    // thread that has not taken thread 1's calls before (it would build that area's models too).
    const short = await Promise.all([0, 1, 2].map(() => t.call<number>('sleep', [40], { prefer: 1 })));
    expect(new Set(short).size).toBe(1);
    // Kept waiting longer than 100 ms, the third goes to the other thread, which from then on takes thread 1's
    // calls at once whenever thread 1 is full.
    const t0 = performance.now();
    const long = [0, 1, 2].map(() => t.call<number>('sleep', [400], { prefer: 1 }).then((id) => ({ id, ms: performance.now() - t0 })));
    const [l0, l1, l2] = await Promise.all(long);
    expect(l0.id).toBe(l1.id);
    expect(l2.id).not.toBe(l0.id);
    expect(l2.ms).toBeGreaterThanOrEqual(490);
    expect(l2.ms).toBeLessThan(800);
    const t1 = performance.now();
    const again = [0, 1, 2].map(() => t.call<number>('sleep', [200], { prefer: 1 }).then((id) => ({ id, ms: performance.now() - t1 })));
    const [, , g2] = await Promise.all(again);
    expect(g2.id).not.toBe(l0.id);
    expect(g2.ms).toBeLessThan(290);
    expect(t.stats().map((x) => x.calls).reduce((x, y) => x + y)).toBe(11);
  });

  it("queues calls past the threads' room and answers them all, first come first served", async () => {
    const t = await start({ callsPerThread: 1 });
    const order: number[] = [];
    const calls = Array.from({ length: 8 }, (_, i) => t.call<number>('sleep', [20]).then(() => order.push(i)));
    await new Promise((r) => setTimeout(r, 5));
    expect(t.queued).toBe(6);
    expect(t.inFlight).toBe(2);
    await Promise.all(calls);
    // Two at a time, in arrival order (each pair may finish either way round).
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(order.slice(6).sort()).toEqual([6, 7]);
    expect(t.queued).toBe(0);
  });

  it('answers a cancelled call at once with ABORTED, queued or running, and frees its thread when the thread stops it', async () => {
    const t = await start({ threads: 1, callsPerThread: 1 });
    const running = new AbortController();
    const queued = new AbortController();
    const a = t.call('sleep', [10_000], { signal: running.signal });
    const b = t.call('sleep', [10_000], { signal: queued.signal });
    await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    queued.abort();
    running.abort();
    expect(await codeOf(a)).toBe('ABORTED');
    expect(await codeOf(b)).toBe('ABORTED');
    expect(performance.now() - t0).toBeLessThan(100);
    // The thread took the cancel: its slot is free for the next call.
    expect(await t.call('echo', ['next'])).toBe('next');
  });

  it('fails a call past its limit with TIMEOUT and replaces a thread that does not stop it', async () => {
    const logged: string[] = [];
    const t = await start({ threads: 1, callTimeoutMs: 100, stuckGraceMs: 100, log: (l) => logged.push(l) });
    expect(await codeOf(t.call('spin', [600]))).toBe('TIMEOUT');
    // The thread is stuck in the spin: stopped after the grace period and replaced.
    for (let i = 0; i < 100 && t.stats()[0].restarts === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(t.stats()[0].restarts).toBe(1);
    expect(await t.call('echo', [42])).toBe(42);
    expect(logged.join('\n')).toMatch(/did not stop spin/);
  });

  it('replaces a thread that dies and sends its calls again once; a call that kills every thread fails WORKER_CRASHED', async () => {
    const t = await start({ threads: 2, callsPerThread: 4 });
    const sleepers = Array.from({ length: 6 }, () => t.call<number>('sleep', [150]));
    await new Promise((r) => setTimeout(r, 20));
    await t.kill(0);
    // Every call in flight on the killed thread is answered by the survivor or the replacement.
    expect((await Promise.all(sleepers)).every((id) => typeof id === 'number')).toBe(true);
    expect(t.stats()[0].restarts).toBe(1);
    expect(await codeOf(t.call('exit', []))).toBe('WORKER_CRASHED');
    for (let i = 0; i < 100 && t.threads < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(t.threads).toBe(2);
    expect(await t.call('echo', ['alive'])).toBe('alive');
  });

  it("rebuilds a failed call's EngineError with its code and details", async () => {
    const t = await start({ threads: 1 });
    const err = await t.call('fail', []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('INVALID_ARGUMENT');
    expect((err as EngineError).details.parameter).toBe('x');
  });

  it('closes after the calls in flight finish; calls queued or made after fail UNAVAILABLE', async () => {
    const t = await start({ threads: 1, callsPerThread: 1 });
    const inFlight = t.call('sleep', [100]);
    const queued = t.call('sleep', [100]);
    await new Promise((r) => setTimeout(r, 10));
    const closing = t.close(5_000);
    expect(await codeOf(queued)).toBe('UNAVAILABLE');
    expect(await codeOf(inFlight)).toBe('resolved');
    await closing;
    expect(await codeOf(t.call('echo', [1]))).toBe('UNAVAILABLE');
  });

  it('fails the start with the error of a thread that could not open its engine', async () => {
    const err = await EngineThreads.start({ threads: 2, engine: { failOpen: true }, module: stub }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('INVALID_DATA');
    expect((err as Error).message).toMatch(/catalogue\.json/);
  });
});

describe('shared raster blocks', () => {
  it('keeps one bound for every thread: the first copy kept and sent to the others, a second answered with the first, the oldest dropped everywhere', () => {
    const sent: { to: number | 'all-but'; except?: number; order: BlockOrders }[] = [];
    const hub = new BlockHub(300, (order, except) => sent.push({ to: 'all-but', except, order }), (slot, order) => sent.push({ to: slot, order }));
    const block = (n: number) => new SharedArrayBuffer(n);
    const a = block(100);
    hub.heard(0, { type: 'block', key: 'f:0,0', sab: a });
    expect(sent.at(-1)).toEqual({ to: 'all-but', except: 0, order: { type: 'blocks', entries: [['f:0,0', a]] } });
    // Thread 1 decoded the same block at the same time: it is told to read thread 0's copy.
    hub.heard(1, { type: 'block', key: 'f:0,0', sab: block(100) });
    expect(sent.at(-1)).toEqual({ to: 1, order: { type: 'blocks', entries: [['f:0,0', a]] } });
    hub.heard(0, { type: 'block', key: 'f:0,1', sab: block(100) });
    // Reading f:0,0 keeps it; the next block pushes out f:0,1, the least recently used, from every thread.
    hub.heard(1, { type: 'touch', keys: ['f:0,0'] });
    hub.heard(0, { type: 'block', key: 'f:0,2', sab: block(100) });
    hub.heard(0, { type: 'block', key: 'f:0,3', sab: block(100) });
    expect(sent.at(-1)).toEqual({ to: 'all-but', except: undefined, order: { type: 'drop', keys: ['f:0,1'] } });
    expect(hub.stats).toEqual({ blocks: 3, bytes: 300 });
    expect(hub.entries().map(([k]) => k)).toEqual(['f:0,0', 'f:0,2', 'f:0,3']);
  });

  it('a thread reads what it or another decoded, copied once into shared memory, and forgets dropped blocks', () => {
    const news: BlockNews[] = [];
    const blocks = new ThreadBlocks((m) => news.push(m));
    const decoded = new Float32Array([1, 2, 3]).buffer;
    blocks.put('f:0,0', decoded);
    const sab = blocks.get('f:0,0')!;
    expect(sab).toBeInstanceOf(SharedArrayBuffer);
    expect([...new Float32Array(sab)]).toEqual([1, 2, 3]);
    expect(news[0]).toEqual({ type: 'block', key: 'f:0,0', sab });
    const other = new SharedArrayBuffer(8);
    blocks.receive({ type: 'blocks', entries: [['g:1,1', other]] });
    expect(blocks.get('g:1,1')).toBe(other);
    blocks.receive({ type: 'drop', keys: ['f:0,0'] });
    expect(blocks.get('f:0,0')).toBeUndefined();
    blocks.close();
  });
});

describe('affinity', () => {
  it("guesses a state from an address's text (its state, else its postcode) and from a point by the states' boxes", () => {
    expect(stateOfAddressText('91 Cumberland Grove, Northcote VIC 3070')).toBe('VIC');
    expect(stateOfAddressText('12 Smith St, Braddon 2612')).toBe('ACT');
    expect(stateOfAddressText('3 Mitchell St, Darwin 0800')).toBe('NT');
    expect(stateOfAddressText('1 George Street, Sydney 2000')).toBe('NSW');
    expect(stateOfAddressText('somewhere')).toBeNull();
    const boxes = new Map([['NSW', [140, -38, 154, -28]], ['ACT', [148.7, -35.9, 149.4, -35.1]]] as const);
    // Canberra is in both boxes: the smaller (the territory) wins.
    expect(stateOfPoint(boxes as never, 149.13, -35.28)).toBe('ACT');
    expect(stateOfPoint(boxes as never, 151.2, -33.87)).toBe('NSW');
    expect(stateOfPoint(boxes as never, 115.86, -31.95)).toBeNull();
    expect(threadOfState('VIC', 2)).toBe(0);
    expect(threadOfState('NSW', 2)).toBe(1);
    expect(threadOfState(null, 2)).toBeUndefined();
    expect(threadOfState('NSW', 1)).toBeUndefined();
  });
});
