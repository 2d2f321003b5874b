import { defaultDataDir } from './datasets/sample-world.js';
import { createEngine } from './engine/engine.js';
const NO = { get: () => undefined, set: () => undefined, delete: () => undefined, clear: () => undefined };
const e = await createEngine({ datasets: defaultDataDir(), caches: { layers: NO, scores: NO } });
const sb = await e.sandbox();
await e.warm();
for (const s of sb) await e.property({ address: s.address }, { include_surfaces: true });
const xs: [number, string][] = [];
for (let r = 0; r < 3; r++) for (const s of sb) { const t = performance.now(); await e.property({ address: s.address }, { variant: 'core' }); xs.push([performance.now() - t, s.address]); }
xs.sort((a, b) => a[0] - b[0]);
console.log(xs.map(([t, a]) => `${t.toFixed(1)} ${a}`).slice(-8).join('\n'));
const ys: [number, string][] = [];
for (let r = 0; r < 3; r++) for (const s of sb) { const t = performance.now(); await e.property({ address: s.address }); ys.push([performance.now() - t, s.address]); }
ys.sort((a, b) => a[0] - b[0]);
console.log('full p50', ys[ys.length >> 1][0].toFixed(1), 'p95', ys[Math.floor(ys.length * 0.95)][0].toFixed(1));
console.log(ys.map(([t, a]) => `${t.toFixed(1)} ${a}`).slice(-6).join('\n'));
await e.close();
