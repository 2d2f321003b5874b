// Worker entry used only when the engine runs from its TypeScript sources (vitest, tsx): registers tsx's
// loader inside this worker thread, then loads the task module named by the pool. The built engine points
// piscina straight at dist/workers/index.js and never loads this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const mod = await import(workerData.taskModule);
export default mod.default;
