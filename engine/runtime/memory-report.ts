/**
 * The engine's memory report (`engine.memoryReport()`, served on GET /metrics): estimated bytes of the loaded
 * dataset files by state (`national` for files of no one state), of each model built from them by state, of
 * the address index and the DA store's radius index, and the layer and score caches' memory tiers (estimates
 * by engine/memory/estimate.ts). Models are walked once after each is built (they do not change), so a scrape
 * costs little after the first; the walk yields to the event loop every 20,000 objects, so a first scrape
 * costs time, not requests.
 */
import type { BuiltModels, ModelBudget } from './state-models.js';
import { estimateAsync } from '../memory/estimate.js';

/** Estimated bytes of one model of one state (`national` for data of no one state, `none` for no state). */
export interface ModelMemory {
  state: string;
  model: string;
  bytes: number;
}

/** A cache's memory tier: entries and estimated bytes (null where the cache does not say). */
export interface CacheMemory {
  cache: string;
  entries: number | null;
  bytes: number | null;
}

/** See {@link Engine.memoryReport}. */
export interface MemoryReport {
  models: ModelMemory[];
  caches: CacheMemory[];
  /** The per-state models against their byte budget (engine option `modelBudgetBytes`), when the engine says. */
  budget?: ModelBudget;
}

/** What a report is made of: the engine hands over what it holds now. */
export interface MemorySources {
  /** The loaded dataset files, each with the state it belongs to (if any). */
  files: readonly { file: { state?: string | null } }[];
  /**
   * Whether a file is held now (a whole layer read by window may be dropped while the walk runs: walking it
   * then would read it again); checked just before each file is walked. Default: every file is.
   */
  held?: (file: MemorySources['files'][number]) => boolean;
  models: BuiltModels;
  addressIndex?: unknown;
  /** The DA store's radius index, bytes (null when the store is not open). */
  daIndexBytes: number | null;
  /** Caches by name; `size` and `bytes` are read when the cache has them. */
  caches: Record<string, unknown>;
}

/** How many files of each state are held (whole layers read by window come and go with their state). */
function filesKey(files: MemorySources['files']): string {
  const n = new Map<string, number>();
  for (const f of files) n.set(f.file.state ?? 'national', (n.get(f.file.state ?? 'national') ?? 0) + 1);
  return [...n].map(([s, k]) => `${s}:${k}`).join(',');
}

/** Makes memory reports, remembering the model walk until a new model is built. */
export class MemoryReporter {
  private last?: { key: string; models: ModelMemory[] };
  private walk?: Promise<{ key: string; models: ModelMemory[] }>;

  /** The report for what `sources` holds now. */
  async report(sources: MemorySources): Promise<MemoryReport> {
    const b = sources.models;
    // Which states' models are held, not only how many: a state's models dropped under the budget and another's
    // built leave the counts as they were.
    const key = [[...b.noise.keys()].join(','), ...[...b.kinds].map(([kind, byState]) => `${kind.name}:${[...byState.keys()].join(',')}`), !!sources.addressIndex, filesKey(sources.files)].join('|');
    if (this.last?.key !== key) {
      this.walk ??= (async () => {
        const seen = new WeakSet<object>();
        const models: ModelMemory[] = [];
        const add = async (state: string, model: string, value: unknown) => {
          const { bytes } = await estimateAsync(value, { seen });
          const row = models.find((m) => m.state === state && m.model === model);
          if (row) row.bytes += bytes;
          else models.push({ state, model, bytes });
        };
        // Files first: a model's share is what it holds beyond the features it was built from.
        for (const f of sources.files) if (!sources.held || sources.held(f)) await add(f.file.state ?? 'national', 'dataset_files', f);
        for (const [state, n] of b.noise) await add(state, 'noise_network', n);
        // Every model the scores declared, by the name its kind gives (engine/score-kit/model-kind.ts).
        for (const [kind, byState] of b.kinds) for (const [state, model] of byState) await add(state || 'none', kind.name, model);
        if (sources.addressIndex) await add('national', 'address_index', sources.addressIndex);
        return { key, models };
      })().finally(() => (this.walk = undefined));
      this.last = await this.walk;
    }
    const models = [...this.last.models];
    if (sources.daIndexBytes !== null) models.push({ state: 'national', model: 'da_radius_index', bytes: sources.daIndexBytes });
    const caches = Object.entries(sources.caches).map(([name, c]): CacheMemory => {
      const m = c as { size?: number; bytes?: number };
      return { cache: name, entries: typeof m.size === 'number' ? m.size : null, bytes: typeof m.bytes === 'number' ? m.bytes : null };
    });
    return { models, caches };
  }
}
