// The package as a user gets it (issue 21): `npm pack`, `npm install` of the tarball into an empty project,
// then every entry point imported from there and every example of README's library section run as written
// (the engine example on this checkout's sample world). The CLI, the samples and the worker threads
// (compiled JS, no TypeScript loader) all come from the installed package.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { tempDir } from '../helpers/tmp.js';
import { readDocs } from '../helpers/docs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir();
const project = join(dir, 'consumer');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
const node = (file: string) => execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(async () => {
  await ensureSampleWorld(defaultDataDir());
  // The build in dist/ is what gets packed (npm ci's prepare built it); packing does not rebuild.
  const out = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root);
  const tarball = join(dir, (JSON.parse(out) as { filename: string }[])[0].filename);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  npm(['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
  // npm 11 runs better-sqlite3's native build only once approved (README says how); this checkout's build of
  // the same version stands in for `npm install-scripts approve better-sqlite3 && npm rebuild better-sqlite3`.
  cpSync(join(root, 'node_modules', 'better-sqlite3', 'build'), join(project, 'node_modules', 'better-sqlite3', 'build'), { recursive: true });
  // The README's engine example opens `world`: this checkout's sample world.
  symlinkSync(defaultDataDir(), join(project, 'world'));
}, 600_000);

describe('the packed package, installed into an empty project', () => {
  it('ships the CLI, the samples and only the entry points its exports name', () => {
    const pkg = join(project, 'node_modules', 'propintel');
    expect(existsSync(join(pkg, 'datasets', 'samples', 'sample.json'))).toBe(true);
    expect(existsSync(join(pkg, 'dist', 'workers', 'index.js'))).toBe(true);
    expect(existsSync(join(pkg, 'dist', 'bench'))).toBe(false);
    expect(execFileSync(process.execPath, [join(pkg, 'bin', 'propintel.js'), 'version'], { encoding: 'utf8' })).toMatch(/^propintel \d+\.\d+\.\d+/);
    writeFileSync(
      join(project, 'entries.mjs'),
      `const out = {};
for (const e of ['propintel', 'propintel/contours', 'propintel/hydro', 'propintel/noise', 'propintel/geo', 'propintel/property', 'propintel/das', 'propintel/childcare', 'propintel/tiles', 'propintel/scores', 'propintel/data', 'propintel/raster', 'propintel/runtime', 'propintel/errors', 'propintel/version', 'propintel/batch']) out[e] = Object.keys(await import(e)).sort();
try { await import('propintel/dist/engine/runtime/engine.js'); out.internal = 'importable'; } catch (err) { out.internal = err.code; }
console.log(JSON.stringify(out));`,
    );
    const entries = JSON.parse(node('entries.mjs')) as Record<string, string[] | string>;
    expect(entries.propintel).toEqual(['CORE_PAYLOAD_SCHEMA', 'ENGINE_ERROR_CODES', 'EngineError', 'PROPERTY_PAYLOAD_SCHEMA', 'VERSION', 'createEngine', 'isEngineError']);
    expect(entries['propintel/contours']).toContain('isolines');
    expect(entries['propintel/hydro']).toEqual(expect.arrayContaining(['computeHand', 'fillDepressions', 'd8FlowDirections', 'flowAccumulation', 'heightAboveNearestDrainage']));
    expect(entries['propintel/noise']).toContain('cortnReferenceL10');
    expect(entries['propintel/geo']).toEqual(expect.arrayContaining(['createWindow', 'openRaster', 'readGeoJsonLayer', 'PointIndex', 'SegmentIndex', 'PolygonIndex']));
    // The entries the server, the CLI and the benchmarks go through (test/engine/architecture/front-door.test.ts).
    expect(entries['propintel/das']).toEqual(expect.arrayContaining(['DaStore', 'listDas', 'importDaFile', 'SqlRunner']));
    expect(entries['propintel/childcare']).toEqual(expect.arrayContaining(['childcareAnalysis', 'siteAnalysis']));
    expect(entries['propintel/tiles']).toEqual(expect.arrayContaining(['exportMbtiles', 'tileAt', 'VECTOR_TILE_LAYERS']));
    expect(entries['propintel/property']).toEqual(expect.arrayContaining(['PROPERTY_BLOCKS', 'resolveOptions', 'checkLicence']));
    expect(entries['propintel/scores']).toEqual(expect.arrayContaining(['bushfireScore', 'computeWalkability', 'assessFlood']));
    expect(entries['propintel/data']).toEqual(expect.arrayContaining(['loadCatalogue', 'AddressIndex', 'STATES']));
    expect(entries['propintel/raster']).toEqual(expect.arrayContaining(['openRaster', 'writeGeoTiff']));
    expect(entries['propintel/runtime']).toEqual(expect.arrayContaining(['TtlCache', 'PACKAGE_ROOT']));
    expect(entries['propintel/batch']).toEqual(expect.arrayContaining(['batchRows', 'lookupRows', 'BatchFileWriter', 'resumePoint', 'hilbertOrder']));
    expect(entries['propintel/errors']).toEqual(['ENGINE_ERROR_CODES', 'EngineError', 'isEngineError']);
    expect(entries['propintel/version']).toEqual(['PACKAGE_ROOT', 'VERSION']);
    expect(entries.internal).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('types the payload for a TypeScript consumer: it compiles reading payload.scores.flood, and not reading a field that does not exist', () => {
    // A consumer project as an internal service on Node writes one: strict, resolving the package's exports,
    // with Node's own types (the package's declarations name Buffer) and nothing else installed by hand.
    npm(['install', `@types/node@${process.versions.node.split('.')[0]}`, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: false, types: ['node'] }, files: ['consumer.ts'] }));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const compile = (code: string) => {
      writeFileSync(join(project, 'consumer.ts'), code);
      try {
        execFileSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        return '';
      } catch (err) {
        return String((err as { stdout?: string }).stdout ?? err);
      }
    };
    const good = `import { createEngine, type PropertyPayload } from 'propintel';
const engine = await createEngine({ datasets: 'world' });
const { payload } = await engine.property({ address: '91 Cumberland Grove, Northcote VIC 3070' });
const flood = payload.scores?.flood;
const level: 'very_low' | 'low' | 'moderate' | 'high' | 'very_high' | 'unknown' | undefined = flood?.level;
const score: number | null | undefined = flood?.score;
const zone: string | null | undefined = payload.planning?.zone?.[0]?.core.code;
const address: string | null = payload.resolved.address;
const complete: 'full' | 'partial' = payload.completeness;
const approved: number = engine.childcare.analysis({ states: ['NSW'] }).headline.approved;
const councils: number = engine.das().councils({ state: 'VIC' }).length;
export const seen: [typeof level, typeof score, typeof zone, typeof address, typeof complete, typeof approved, typeof councils, PropertyPayload['query']] = [level, score, zone, address, complete, approved, councils, payload.query];
await engine.close();
`;
    expect(compile(good)).toBe('');
    // Each of these reads something the payload does not have: each must fail to compile, naming it.
    const wrong = [
      ['payload.scores?.flood?.depth_m', 'depth_m'],
      ['payload.resolved.suburb', 'suburb'],
      ['payload.hazard', 'hazard'],
      ['payload.planning?.zone?.[0]?.core.colour', 'colour'],
      ["engine.childcare.analysis({ states: ['NSW'] }).headline.pending", 'pending'],
      // The engine hands out a DA service, not the store's class: its writes are not there.
      ['engine.das().upsert', 'upsert'],
    ];
    // One compile of all of them (each line its own error): tsc reads the package's declarations once.
    const out = compile(good.replace('await engine.close();', `${wrong.map(([expr], i) => `export const oops${i} = ${expr};`).join('\n')}\nawait engine.close();`));
    const line0 = good.split('\n').indexOf('await engine.close();') + 1;
    wrong.forEach(([expr, field], i) => {
      expect(out, expr).toMatch(new RegExp(`consumer\\.ts\\(${line0 + i},\\d+\\): error TS(2339|2551): Property '${field}' does not exist`));
    });
    expect(out.match(/error TS/g)).toHaveLength(wrong.length);
  });

  it('runs every example of README "Using the engine as a library" as written, with the output it describes', () => {
    const readme = readDocs();
    const section = readme.slice(readme.indexOf('## Using the engine as a library'), readme.indexOf('### Readers'));
    const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBe(6);
    const outputs = blocks.map((code, i) => {
      const file = join(project, `example-${i}.mjs`);
      writeFileSync(file, code);
      return node(file);
    });
    const [engine, threaded, contours, hydro, noise, geo] = outputs;
    expect(engine).toMatch(/^91 Cumberland Grove, Northcote VIC 3070 NRZ1\n\d+(\.\d+)? \d+(\.\d+)?\nNOT_FOUND outside_coverage\n$/);
    expect(threaded).toBe('91 Cumberland Grove, Northcote VIC 3070 NRZ1 2\n');
    expect(contours).toBe('3 lines; all closed\n');
    expect(hydro).toMatch(/^channel cells \d+ HAND at the rim \d+\.\d m\n$/);
    expect(Number(/^channel cells (\d+)/.exec(hydro)![1])).toBeGreaterThanOrEqual(30);
    expect(noise).toMatch(/^\d\d\.\d dB\(A\) L10 at 10 m; \d\d\.\d at 30 m\n$/);
    const [, at10, at30] = /^(\S+) .* (\S+) at 30 m/.exec(noise)!.map(Number);
    expect(at30).toBeLessThan(at10);
    expect(geo.split('\n')[0]).toBe('EPSG:7855');
    expect(geo).toMatch(/\{ id: 0, distance: 0 \}/);
  });
});
