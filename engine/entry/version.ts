/**
 * `propintel/version`: the package's version and root directory alone, without loading the engine (the
 * CLI's `version` and `--help` start in a fraction of the time `propintel` takes to load).
 */
export { PACKAGE_ROOT, VERSION } from '../version.js';
