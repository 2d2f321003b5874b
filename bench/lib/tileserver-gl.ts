/**
 * tileserver-gl-light (npm), the reference tile server for the tiles benchmark: installed once into
 * var/bench/tileserver-gl-light/ (its own package, never a dependency of propintel), started on a free port
 * serving MBTiles files, and stopped.
 *
 * Its MBTiles reader needs `sqlite3`, a native module. npm 11 runs its install script only when allowed, so
 * the package.json written here allows it; its prebuilt binary comes from GitHub, which this machine cannot
 * reach, so it falls back to compiling the bundled SQLite with node-gyp. node-gyp would download Node's
 * headers too; when the running Node's own headers are installed (`<prefix>/include/node`), a node-gyp dev
 * directory pointing at them is made first, so the build needs no network beyond the npm registry.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../engine/entry/runtime.js';

/** The version measured (pinned so runs compare). */
export const TILESERVER_GL_VERSION = '5.6.0';

const HOME = join(PACKAGE_ROOT, 'var', 'bench', 'tileserver-gl-light');
const MAIN = join(HOME, 'node_modules', 'tileserver-gl-light', 'src', 'main.js');

/** True when tileserver-gl-light's native SQLite loads from the install. */
function loads(): boolean {
  if (!existsSync(MAIN)) return false;
  const r = spawnSync(process.execPath, ['-e', "require('sqlite3')"], { cwd: HOME, stdio: 'ignore', timeout: 30_000 });
  return r.status === 0;
}

/** A node-gyp dev directory that points at this Node's installed headers, or undefined when there are none. */
function gypDevDir(): string | undefined {
  const headers = resolve(dirname(process.execPath), '..', 'include', 'node');
  if (!existsSync(join(headers, 'common.gypi'))) return undefined;
  const dev = join(PACKAGE_ROOT, 'var', 'bench', 'node-gyp');
  const version = join(dev, process.versions.node);
  if (!existsSync(join(version, 'include', 'node'))) {
    mkdirSync(join(version, 'include'), { recursive: true });
    symlinkSync(headers, join(version, 'include', 'node'));
  }
  // node-gyp treats a dev directory without this marker as incomplete and downloads again.
  writeFileSync(join(version, 'installVersion'), '11\n');
  return dev;
}

/** The entry script of tileserver-gl-light, installing it when missing; or why it cannot be run. */
export function ensureTileserverGl(): { main?: string; note?: string } {
  if (loads()) return { main: MAIN };
  mkdirSync(HOME, { recursive: true });
  writeFileSync(join(HOME, 'package.json'), `${JSON.stringify({ name: 'propintel-bench-tileserver-gl', private: true, allowScripts: { sqlite3: true } }, null, 2)}\n`);
  const dev = gypDevDir();
  process.stdout.write(`  installing tileserver-gl-light@${TILESERVER_GL_VERSION} into var/bench/ (compiles sqlite3; a minute or two) ...\n`);
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `tileserver-gl-light@${TILESERVER_GL_VERSION}`], {
    cwd: HOME,
    encoding: 'utf8',
    timeout: 900_000,
    env: { ...process.env, ...(dev ? { npm_config_devdir: dev } : {}) },
  });
  if (loads()) return { main: MAIN };
  const why = `${r.stderr ?? ''}${r.stdout ?? ''}`.split('\n').filter((l) => /error/i.test(l)).slice(-2).join(' ').slice(0, 200);
  return { note: `tileserver-gl-light could not be installed (npm exit ${r.status}${dev ? '' : '; no Node headers for node-gyp'}): ${why || 'sqlite3 does not load'}` };
}

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** A running tileserver-gl-light. */
export interface TileserverGl {
  child: ChildProcess;
  url: string;
}

/**
 * Starts tileserver-gl-light (entry `main`) serving each MBTiles file of `data` under `/data/{id}/`, and waits
 * until its TileJSON answers.
 */
export async function startTileserverGl(main: string, data: Record<string, string>, workDir: string): Promise<TileserverGl> {
  const port = await freePort();
  const config = {
    options: { paths: { root: workDir, mbtiles: workDir } },
    data: Object.fromEntries(Object.entries(data).map(([id, file]) => [id, { mbtiles: file }])),
  };
  const cfg = join(workDir, 'tileserver-config.json');
  writeFileSync(cfg, JSON.stringify(config, null, 2));
  const child = spawn(process.execPath, [main, '--config', cfg, '--port', String(port), '--bind', '127.0.0.1', '--silent'], { cwd: workDir, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const url = `http://127.0.0.1:${port}`;
  const first = Object.keys(data)[0];
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`tileserver-gl-light exited (${child.exitCode}): ${err.slice(0, 300)}`);
    try {
      const r = await fetch(`${url}/data/${first}.json`);
      if (r.ok) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`tileserver-gl-light did not answer within 60 s: ${err.slice(0, 300)}`);
}

/** Stops it and waits. */
export async function stopTileserverGl(s: TileserverGl): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}
