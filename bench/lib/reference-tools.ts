/**
 * Reference tools for side-by-side benchmarks (GDAL's gdal_contour, GDAL's Python bindings): find them,
 * install the Debian package when missing and running as root, or explain why a comparison is skipped; and
 * time whole processes.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

/** A tool that may or may not be usable on this machine. */
export interface ToolStatus {
  /** True when the tool ran its probe successfully. */
  available: boolean;
  /** The command to run (e.g. `gdal_contour`, `/usr/bin/python3`). */
  command: string;
  /** Why it is not available (printed with the skipped rows). */
  note?: string;
}

function works(command: string, args: string[]): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 });
  return r.status === 0;
}

/** Set once `apt-get update` has run in this process: a stale package index is refreshed at most once. */
let aptUpdated = false;

function aptGet(args: string[]): number | null {
  const r = spawnSync('apt-get', args, { stdio: 'ignore', timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return r.status;
}

/**
 * Installs Debian package `pkg`. A failed install is retried once after `apt-get update` (a fresh container
 * often has an empty or stale package index); returns why it could not be installed, or undefined.
 */
function aptInstall(pkg: string): string | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return `${pkg} is not installed and this is not root, so it cannot be apt-installed`;
  process.stdout.write(`  installing ${pkg} (apt-get install -y ${pkg}) ...\n`);
  const install = () => aptGet(['install', '-y', '--no-install-recommends', pkg]);
  let status = install();
  if (status !== 0 && !aptUpdated) {
    aptUpdated = true;
    process.stdout.write(`  apt-get install -y ${pkg} failed (exit ${status}); running apt-get update once and retrying ...\n`);
    const updated = aptGet(['update']);
    if (updated !== 0) return `apt-get install -y ${pkg} failed, and apt-get update failed too (exit ${updated})`;
    status = install();
  }
  return status === 0 ? undefined : `apt-get install -y ${pkg} failed (exit ${status}), after apt-get update`;
}

/**
 * A command-line tool checked with `probe` (arguments that succeed when it works); installed from Debian
 * package `pkg` when missing and running as root.
 */
export function ensureTool(command: string, probe: string[], pkg: string): ToolStatus {
  if (works(command, probe)) return { available: true, command };
  const failed = aptInstall(pkg);
  if (!failed && works(command, probe)) return { available: true, command };
  return { available: false, command, note: `${command} unavailable: ${failed ?? `installed ${pkg} but ${command} still does not run`}` };
}

/** A Python interpreter with GDAL's bindings (`from osgeo import gdal`), installing python3-gdal if needed. */
export function ensurePythonGdal(): ToolStatus {
  const probe = ['-c', 'from osgeo import gdal, ogr'];
  // The Debian package installs into the system interpreter, which a pyenv shim on PATH may hide.
  for (const py of ['python3', '/usr/bin/python3']) if (works(py, probe)) return { available: true, command: py };
  const failed = aptInstall('python3-gdal');
  if (!failed && works('/usr/bin/python3', probe)) return { available: true, command: '/usr/bin/python3' };
  return { available: false, command: 'python3', note: `GDAL's Python bindings unavailable: ${failed ?? 'python3-gdal installed but osgeo does not import'}` };
}

/** Wall-clock times of whole processes, in ms. */
export interface ProcessTiming {
  /** Median wall time, ms. */
  median: number;
  /** Fastest run, ms. */
  min: number;
  /** Runs timed. */
  runs: number;
}

/**
 * Runs `command args` `runs` times (after `before()` each time, untimed), stdout to `stdoutFile` when given,
 * and returns the wall times. Throws with the tool's stderr when a run fails.
 */
export function timeProcess(command: string, args: string[], options: { runs: number; stdoutFile?: string; before?: () => void }): ProcessTiming {
  const times: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    options.before?.();
    const fd = options.stdoutFile ? openSync(options.stdoutFile, 'w') : 'ignore';
    const t0 = performance.now();
    const r = spawnSync(command, args, { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
    times.push(performance.now() - t0);
    if (typeof fd === 'number') closeSync(fd);
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${r.status}): ${r.stderr}`);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], runs: times.length };
}
