/**
 * What an engine thread answers: each call is the engine's own method run in the thread (its engine computes
 * in place, no pool of its own), with the caller's AbortSignal made again on this side. Arguments and answers
 * are plain data (structured clone); an answer's whole buffers are moved, not copied.
 */
import { getHeapStatistics } from 'node:v8';
import type { Engine } from './engine.js';
import type { ScoresOptions, SurfacesOptions } from '../property/engine-calls.js';
import type { PropertyOptions, PropertySubject } from '../property/kit/contract.js';
import type { ReportFormat } from '../childcare/report/report.js';
import type { SiteRequest } from '../childcare/site.js';
import { lookupPacked, readUpload } from '../batch/batch-pack.js';
import type { BatchInputOptions } from '../batch/batch-input.js';
import type { BatchOutputOptions } from '../batch/batch-output.js';
import type { LookupRowsOptions } from '../batch/batch-run.js';

type Call = (engine: Engine, args: never, signal: AbortSignal) => unknown;

/** The calls an engine thread answers, by name. */
export const THREAD_CALLS = {
  property: (e: Engine, [subject, options]: [PropertySubject, PropertyOptions], signal: AbortSignal) => e.property(subject, { ...options, signal }),
  propertyBody: (e: Engine, [subject, options, meta]: [PropertySubject, PropertyOptions, Record<string, unknown>], signal: AbortSignal) => e.propertyBody(subject, { ...options, signal }, meta),
  identify: (e: Engine, [subject]: [PropertySubject]) => e.identify(subject),
  scores: (e: Engine, [lon, lat, options]: [number, number, ScoresOptions], signal: AbortSignal) => e.scores(lon, lat, { ...options, signal }),
  surfaces: (e: Engine, [lon, lat, options]: [number, number, SurfacesOptions], signal: AbortSignal) => e.surfaces(lon, lat, { ...options, signal }),
  tile: (e: Engine, [layer, z, x, y]: [string, number, number, number]) => e.tile(layer, z, x, y),
  terrainTile: (e: Engine, [z, x, y]: [number, number, number]) => e.terrainTile(z, x, y),
  childcareReport: async (e: Engine, [req, format, options]: [SiteRequest, ReportFormat, { data?: Record<string, unknown>; generatedAt?: Date }]) => {
    const file = await e.childcare.report(req, format, options);
    // A Buffer arrives as a plain Uint8Array; its bytes are moved when they are its own.
    return { ...file, body: new Uint8Array(file.body.buffer, file.body.byteOffset, file.body.byteLength) };
  },
  batchPart: (e: Engine, [input, options]: [Uint8Array, LookupRowsOptions & { from: number; to: number }], signal: AbortSignal) => lookupPacked(e, input, { ...options, signal }),
  batchUpload: (_e: Engine, [bytes, input, chunkRows]: [Uint8Array, BatchInputOptions, number]) => readUpload(bytes, input, chunkRows),
  batchText: (e: Engine, [packed, charged, output, first, payloads]: [Uint8Array, number[] | null, BatchOutputOptions, boolean, [string, Uint8Array][]]) => e.batchText(packed, charged, output, first, payloads),
  warm: async (e: Engine) => {
    const lines: string[] = [];
    await e.warm((line) => lines.push(line));
    return lines;
  },
  buildIndexes: (e: Engine) => e.buildIndexes(),
  memoryReport: (e: Engine) => e.memoryReport(),
  heldStates: (e: Engine) => e.heldStates(),
  /** This thread's V8 heap (each thread has its own): for /metrics and the benchmarks. */
  heap: () => {
    const h = getHeapStatistics();
    const m = process.memoryUsage();
    return { used: h.used_heap_size, total: h.total_heap_size, external: m.external, arrayBuffers: m.arrayBuffers, mallocced: h.malloced_memory };
  },
} satisfies Record<string, Call>;

/** The name of a call an engine thread answers. */
export type ThreadCall = keyof typeof THREAD_CALLS;
