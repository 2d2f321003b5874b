/** The engine on the sample world, opened once per test file with its sandbox addresses, closed after. */
import { afterAll, beforeAll } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { createEngine, type Engine } from '../../engine/runtime/engine.js';

/** One of the twelve sandbox addresses. */
export type SandboxAddress = Awaited<ReturnType<Engine['sandbox']>>[number];

/**
 * Registers, at the top of a test file, hooks that open the engine on the sample world before the file's
 * tests (filling the returned object) and close it after them. Hooks run in registration order, so a
 * `beforeAll` registered after this one sees the engine. Threads default to 1: files run in parallel.
 */
export function useSampleEngine(threads = 1): { engine: Engine; sandbox: SandboxAddress[] } {
  const world = {} as { engine: Engine; sandbox: SandboxAddress[] };
  beforeAll(async () => {
    world.engine = await createEngine({ datasets: defaultDataDir(), threads });
    world.sandbox = await world.engine.sandbox();
  }, 60_000);
  afterAll(async () => {
    await world.engine?.close();
  });
  return world;
}
