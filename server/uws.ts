/**
 * Loads uWebSockets.js's native binary directly. The npm package (installed under the alias
 * `uWebSockets.js`, see DESIGN.md) silently falls back to a slow pure-JS server when its binary does not load;
 * propintel refuses that instead: a server that is 10x slower than promised is a failure, not a degradation.
 * Set PROPINTEL_ALLOW_UWS_FALLBACK=1 to accept the fallback anyway (it is reported by `uwsNative`).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as UwsModule from 'uWebSockets.js';

const require = createRequire(import.meta.url);

function load(): { uws: typeof UwsModule; native: boolean; binary: string } {
  const pkgDir = dirname(require.resolve('uWebSockets.js/package.json'));
  const binary = join(pkgDir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  try {
    return { uws: require(binary) as typeof UwsModule, native: true, binary };
  } catch (err) {
    if (process.env.PROPINTEL_ALLOW_UWS_FALLBACK === '1') {
      process.emitWarning(`uWebSockets.js native binary did not load (${(err as Error).message}); using the slow fallback`);
      return { uws: require(join(pkgDir, 'dist', 'index.js')) as typeof UwsModule, native: false, binary };
    }
    throw new Error(
      `uWebSockets.js native binary did not load from ${binary}: ${(err as Error).message}. ` +
        `propintel needs the native build for Node ${process.versions.node} (ABI ${process.versions.modules}); ` +
        `reinstall with npm ci, or set PROPINTEL_ALLOW_UWS_FALLBACK=1 to run on the slow fallback.`,
    );
  }
}

const loaded = load();

/** The uWebSockets.js module. */
export const uws = loaded.uws;
/** True when the native binary is in use (false only with PROPINTEL_ALLOW_UWS_FALLBACK=1 and a failed load). */
export const uwsNative = loaded.native;
/** Path of the native binary that was (or would have been) loaded. */
export const uwsBinary = loaded.binary;
