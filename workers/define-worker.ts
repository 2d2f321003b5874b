// The worker-side helper lives in engine/pool (the generator's tile workers use it too); re-exported here for
// the task modules of this folder.
export * from '../engine/pool/define-worker.js';
