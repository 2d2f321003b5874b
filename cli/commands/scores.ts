/**
 * `propintel scores`: the context scores of one point (walkability, bushfire, heat island, solar, view
 * quality, contamination, aircraft noise), printed as JSON, from one of two sources:
 *
 * - a dataset directory (`--data DIR`, default the sample world, generated when absent as `lookup` does):
 *   the engine's `scores(lon, lat, { only })` over the catalogue, exactly what the property service serves;
 * - explicit input files (any file flag): loaded by the engine's `loadScoreInputs`
 *   (engine/scores/file-inputs.ts), with the heat surface when `--landcover` is given. A file that fails to load
 *   becomes an `unavailable` input (the score says so and is degraded), not a crash; a flag left out is a
 *   `not_integrated` input. This module only reads the flags.
 */
import { resolve } from 'node:path';
import { type SubjectIdentity, TABLE_FDIS, type TableFdi, SCORES, computeContextScores, loadScoreInputs, type ContextScoreKey, type ScoreInputFiles, type ScoreRegistry } from '../../engine/entry/scores.js';
import { isStateCode, STATES } from '../../engine/entry/data.js';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/index.js';
import { numberFlag, parseFlags, POINT_FLAGS, requirePointFlags } from '../args.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';

export { CONTEXT_SCORE_KEYS, computeContextScores, loadScoreInputs, type ContextScoreKey, type ScoreInputFiles } from '../../engine/entry/scores.js';

function coverageMap<V extends string>(flag: string, value: string | undefined, allowed: readonly V[]): Record<string, V> {
  const out: Record<string, V> = {};
  for (const part of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [state, cov] = part.split('=');
    if (!state || !allowed.includes(cov as V)) throw new UsageError(`--${flag} takes STATE=${allowed.join('|')} pairs, got ${JSON.stringify(part)}`);
    out[state.toUpperCase()] = cov as V;
  }
  return out;
}

function overlayFlag(v: string): { state: string; file: string; coverage: 'complete' | 'partial' } {
  const m = /^([A-Za-z]+)=(.+?)(?::(complete|partial))?$/.exec(v);
  if (!m) throw new UsageError(`--bushfire-overlay takes STATE=FILE[:complete|partial], got ${JSON.stringify(v)}`);
  return { state: m[1].toUpperCase(), file: m[2], coverage: (m[3] as 'complete' | 'partial' | undefined) ?? 'complete' };
}

const FILE_FLAGS = ['amenities', 'stops', 'schools', 'roads', 'crossings', 'water', 'dem', 'vegetation', 'fire-history', 'lst', 'landcover', 'ghi', 'dni', 'pvout', 'tilt', 'contamination', 'anef'] as const;

const USAGE = [
  'propintel scores [--data DIR] --lon X --lat Y [--state S] [--only KEY,...]',
  'propintel scores --lon X --lat Y [--state S] [--only KEY,...] input files ...',
  '',
  'Prints the context scores of one point as JSON (walkability, bushfire, heat_island, solar, view_quality,',
  'contamination, aircraft_noise). Without input files they come from a dataset directory (--data DIR,',
  `default: the sample world in ${defaultDataDir()}, generated when absent), with the state determined from`,
  'the LGA layers unless --state is given. With input files, a score whose inputs are not given reports them',
  'as not integrated, a file that fails to load is reported unavailable, and --landcover adds surfaces.heat.',
  '',
  '  --data DIR                 dataset directory (not with input files)',
  '  --lon X, --lat Y           the subject, degrees (--lng is accepted for --lon)',
  '  --state S                  VIC, NSW, QLD, WA, SA, TAS, ACT or NT (FDI, registers, overlays)',
  '  --only KEYS                comma-separated score keys (default: all)',
  '  --address TEXT             a resolved address (bushfire subject identity); --on-parcel if on its parcel',
  '  --include-geometry         add walkability walking_areas',
  '  --fdi N                    override the state FDI for the indicative BAL (100, 80, 50 or 40; files only)',
  '  --amenities F  --stops F  --schools F  --crossings F       CSV records',
  '  --roads F  --water F  --vegetation F  --fire-history F  --anef F   GeoJSON layers',
  '  --dem F  --lst F  --landcover F  --ghi F  --dni F  --pvout F  --tilt F   GeoTIFF rasters',
  '  --bushfire-overlay STATE=F[:complete|partial]   official overlay (repeatable; files only)',
  '  --contamination F          register CSV; --contamination-coverage VIC=complete,WA=not_integrated',
  '  --anef-coverage VIC=complete,...   which states\' ANEFs are held',
].join('\n');

/**
 * The command over a list of scores: the registry's (`scoresCommand`), or a list with scores of a library
 * user's own (test/engine/scores/registry.test.ts adds one and sees it here).
 */
export function scoresCommandWith(registry: ScoreRegistry = SCORES): Command {
  return {
  name: 'scores',
  summary: 'compute the context scores of one point from a dataset directory or input files',
  usage: USAGE,
  async run(args, io) {
      const { values } = parseFlags(args, {
        data: { type: 'string' },
        ...POINT_FLAGS,
        state: { type: 'string' },
        only: { type: 'string' },
        address: { type: 'string' },
        'on-parcel': { type: 'boolean' },
        'parcel-id': { type: 'string' },
        'include-geometry': { type: 'boolean' },
        fdi: { type: 'string' },
        'bushfire-overlay': { type: 'string', multiple: true },
        'contamination-coverage': { type: 'string' },
        'anef-coverage': { type: 'string' },
        ...(Object.fromEntries(FILE_FLAGS.map((f) => [f, { type: 'string' as const }])) as Record<(typeof FILE_FLAGS)[number], { type: 'string' }>),
      });
      const { lon, lat } = requirePointFlags(values);
      const only = values.only ? values.only.split(',').map((s) => s.trim()).filter(Boolean) : registry.filter((d) => d.fromFiles).map((d) => d.key);
      const known = registry.map((d) => d.key);
      const unknown = only.filter((k) => !known.includes(k));
      if (unknown.length) throw new UsageError(`unknown score key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; choose from ${known.join(', ')}`);
      const fdi = values.fdi === undefined ? undefined : numberFlag('fdi', values.fdi, 100, { integer: true });
      if (fdi !== undefined && !(TABLE_FDIS as readonly number[]).includes(fdi)) throw new UsageError(`--fdi must be one of ${TABLE_FDIS.join(', ')}, got ${fdi}`);
      const identity: SubjectIdentity | undefined = values.address ? { kind: 'address', address: values.address, parcelId: values['parcel-id'] ?? null, onParcel: !!values['on-parcel'] } : undefined;
      const fileFlags = [...FILE_FLAGS, 'bushfire-overlay', 'contamination-coverage', 'anef-coverage', 'fdi'].filter((k) => values[k as keyof typeof values] !== undefined);
      if (values.data !== undefined && fileFlags.length) throw new UsageError(`--data reads the dataset catalogue; it cannot be combined with --${fileFlags.join(', --')}`);
      if (!FILE_FLAGS.some((k) => values[k] !== undefined)) {
        if (fileFlags.length) throw new UsageError(`--${fileFlags.join(', --')} only apply with input files; the dataset catalogue says what is held`);
        const stateFlag = values.state?.toUpperCase();
        if (stateFlag !== undefined && !isStateCode(stateFlag)) throw new UsageError(`--state must be one of ${STATES.join(', ')}, got ${JSON.stringify(values.state)}`);
        const dir = resolve(values.data ?? defaultDataDir());
        if (values.data === undefined) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
        const engine = await createEngine({ datasets: dir, ...(registry === SCORES ? {} : { scores: registry }) });
        try {
          const r = await engine.scores(lon, lat, { only: only as ContextScoreKey[], state: stateFlag, identity, includeGeometry: values['include-geometry'] });
          io.stdout(`${JSON.stringify({ query: { lon, lat, state: r.state }, scores: r.scores, degraded: r.degraded }, null, 2)}\n`);
        } finally {
          await engine.close();
        }
        return EXIT_OK;
      }
      const files: ScoreInputFiles = {
        amenities: values.amenities,
        stops: values.stops,
        schools: values.schools,
        roads: values.roads,
        crossings: values.crossings,
        water: values.water,
        dem: values.dem,
        vegetation: values.vegetation,
        fireHistory: values['fire-history'],
        lst: values.lst,
        landcover: values.landcover,
        ghi: values.ghi,
        dni: values.dni,
        pvout: values.pvout,
        tilt: values.tilt,
        contamination: values.contamination,
        anef: values.anef,
        bushfireOverlays: (values['bushfire-overlay'] ?? []).map(overlayFlag),
        contaminationCoverage: coverageMap('contamination-coverage', values['contamination-coverage'], ['complete', 'partial', 'not_integrated'] as const),
        anefCoverage: coverageMap('anef-coverage', values['anef-coverage'], ['complete', 'partial', 'not_integrated'] as const),
      };
      const dataOnly = only.filter((k) => !registry.find((d) => d.key === k)?.fromFiles);
      if (dataOnly.length) throw new UsageError(`${dataOnly.join(', ')} ${dataOnly.length > 1 ? 'are' : 'is'} computed from a dataset only (--data), not from input files`);
      const inputs = await loadScoreInputs(files, lon, lat);
      const state = values.state?.toUpperCase() ?? null;
      const scores = await computeContextScores(inputs, { lon, lat, state, identity, only: only as ContextScoreKey[], includeGeometry: values['include-geometry'], fdi: fdi as TableFdi | undefined }, registry);
      const heat = inputs.landCover && 'class_legend' in inputs.landCover ? inputs.landCover : null;
      const surfaces = heat ? { heat } : undefined;
      io.stdout(`${JSON.stringify({ query: { lon, lat, state }, scores, ...(surfaces ? { surfaces } : {}) }, null, 2)}\n`);
      return EXIT_OK;
    },
  };
}

/** `propintel scores` over the registry's scores. */
export const scoresCommand = scoresCommandWith();
