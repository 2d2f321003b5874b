/**
 * `propintel realdata`: a catalogue of real public data (datasets/realdata.ts) built into a directory, then
 * the property lookup on real points in Fitzroy, Collingwood, Richmond, Bendigo and Merewether, summarised.
 */
import { resolve } from 'node:path';
import { buildRealCatalogue, REAL_POINTS } from '../../datasets/realdata.js';
import { createEngine } from '../../engine/index.js';
import { PACKAGE_ROOT } from '../../engine/entry/runtime.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';
import { parseFlags } from '../args.js';

/** One line per block worth reading in a payload (the summary printed per point). */
function summarise(p: Record<string, any>): string[] {
  const zone = p.planning?.zone?.[0];
  const overlays = (p.planning?.overlays ?? p.planning?.overlay ?? []) as { core?: { code?: string } }[];
  const flood = p.scores?.flood;
  const stop = p.transport?.pt_stop?.[0];
  const contours = p.surfaces?.contours;
  const statuses = Object.values((p.meta?.coverage_status ?? {}) as Record<string, { status: string }>);
  const count = (s: string) => statuses.filter((x) => x.status === s).length;
  return [
    `  zone: ${zone ? `${zone.core?.code} ${zone.core?.name ?? ''} (${zone.source})` : 'none held here'}`,
    `  overlays: ${overlays.length ? overlays.map((o) => o.core?.code).join(', ') : 'none'}`,
    `  flood: score ${flood?.score ?? 'n/a'} (${flood?.level ?? 'unknown'}), official layer ${flood?.official_layer ?? 'n/a'}`,
    `  nearest PT stop: ${stop ? `${Math.round(stop.distance_km * 1000)} m (stop ${stop.properties?.stop_id})` : 'none held'}`,
    `  contours: ${contours?.available ? `${contours.features?.features?.length ?? 0} lines at ${contours.interval_m} m from ${contours.source}` : `not available (${contours?.reason ?? 'not asked'}${contours?.note ? `: ${contours.note}` : ''})`}`,
    `  completeness ${p.completeness}; paths with data ${count('data_returned')}, checked and empty ${count('no_data')}, not assessed ${count('not_assessed')}`,
  ];
}

export const realdataCommand: Command = {
  name: 'realdata',
  summary: 'build a real-data catalogue (inner Melbourne, Bendigo, Merewether) and look up real points',
  usage: [
    'propintel realdata --out DIR [--from PATH] [--json] [--no-lookups]',
    '',
    'Builds a catalogue in DIR from public Victorian (and one New South Wales) files: Vicmap Planning zones and',
    'overlays of the City of Yarra and Greater Bendigo, Vicmap roads, PTV stops, Victorian school locations, an',
    'inner Melbourne DEM, the Merewether 1 m DEM, ABS state outlines and the Greater Bendigo LGA. Then looks up',
    'real points in Fitzroy, Collingwood, Richmond, Bendigo and Merewether and prints what each found. Paths',
    'with no real source say not_assessed. Several files are licensed for tests only (see PROVENANCE.md).',
    '',
    `  --from PATH    the folder of real files (default ${resolve(PACKAGE_ROOT, '..', 'shared', 'realdata')})`,
    '  --out DIR      where the catalogue and its files are written',
    '  --json         print the full payloads as JSON instead of the summary',
    '  --no-lookups   build the catalogue only',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseFlags(args, { out: { type: 'string' }, from: { type: 'string' }, json: { type: 'boolean' }, 'no-lookups': { type: 'boolean' } });
    if (!values.out) throw new UsageError('--out DIR is required (the catalogue is written there, never into the repository)');
    const from = resolve(values.from ?? resolve(PACKAGE_ROOT, '..', 'shared', 'realdata'));
    const report = await buildRealCatalogue(from, resolve(values.out));
    if (!values.json) {
      io.stdout(`propintel realdata: a catalogue of ${report.sources.length} sources from ${from} in ${report.dir}\n`);
      for (const s of report.sources) io.stdout(`  ${s.id.padEnd(24)} ${s.paths.join(', ')}${s.features !== undefined ? ` (${s.features} features)` : ''}\n`);
    }
    if (values['no-lookups']) return EXIT_OK;
    const engine = await createEngine({ datasets: report.dir });
    const payloads: unknown[] = [];
    try {
      for (const p of REAL_POINTS) {
        const t0 = performance.now();
        const r = await engine.property({ lat: p.lat, lng: p.lng }, { include_surfaces: true, surfaces: ['contours'] });
        payloads.push({ point: p, payload: r.payload });
        if (!values.json) io.stdout(`\n${p.name} (${p.lat}, ${p.lng}), ${Math.round(performance.now() - t0)} ms\n${summarise(r.payload as Record<string, any>).join('\n')}\n`);
      }
    } finally {
      await engine.close();
    }
    if (values.json) io.stdout(`${JSON.stringify(payloads, null, 2)}\n`);
    return EXIT_OK;
  },
};
