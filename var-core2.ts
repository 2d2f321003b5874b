import { defaultDataDir } from './datasets/sample-world.js';
import { createEngine } from './engine/engine.js';
import { CORE_BLOCKS } from './engine/property/contract.js';
const NO = { get: () => undefined, set: () => undefined, delete: () => undefined, clear: () => undefined };
const e = await createEngine({ datasets: defaultDataDir(), caches: { layers: NO, scores: NO } });
await e.warm();
const a = '91 Cumberland Grove, Northcote VIC 3070';
for (let r = 0; r < 2; r++) await e.property({ address: a }, { variant: 'core' });
for (const b of CORE_BLOCKS) {
  const xs = [];
  for (let r = 0; r < 3; r++) { const t = performance.now(); await e.property({ address: a }, { variant: 'core', components: [b] }); xs.push(performance.now() - t); }
  console.log(b.padEnd(16), xs.map((x) => x.toFixed(1)).join(' '));
}
await e.close();
