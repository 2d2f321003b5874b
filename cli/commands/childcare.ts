/**
 * `propintel childcare analysis|site`: the childcare analysis JSON of `/api/v1/childcare/analysis` and of
 * `/site-analysis` (a circle), from a dataset directory's DAs or a server store, without a server or a key.
 */
import { resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { isStateCode, STATES, type StateCode } from '../../engine/catalogue/states.js';
import { childcareAnalysis } from '../../engine/childcare/analysis.js';
import { daStoreFromDirectory } from '../../engine/da/da-sync.js';
import { DaStore } from '../../engine/da/da-store.js';
import { numberFlag, parseFlags } from '../args.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';

export const childcareCommand: Command = {
  name: 'childcare',
  summary: 'childcare pipeline analysis of a state or a catchment, as JSON',
  usage: [
    'propintel childcare analysis [--state S] [--since YYYY-MM-DD] [--feature-limit N] [--data DIR | --db FILE]',
    'propintel childcare site --lat Y --lng X [--radius-km R] --state S [--since ...] [--feature-limit N] [--data DIR | --db FILE]',
    '',
    'Prints the `data` object of /api/v1/childcare/analysis (analysis: every state, or --state) or of',
    '/api/v1/childcare/site-analysis for a circle (site: radius 0.1 to 30 km, default 5): headline, trend,',
    'breakdowns, coverage, demand signals, map points (at most --feature-limit, default 500), notices.',
    '',
    `  --data DIR   the DAs of a dataset directory (default the sample world in ${defaultDataDir()})`,
    '  --db FILE    the DAs of a server store (what `propintel das import --db FILE` wrote)',
  ].join('\n'),
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      { state: { type: 'string' }, since: { type: 'string' }, 'feature-limit': { type: 'string' }, lat: { type: 'string' }, lng: { type: 'string' }, lon: { type: 'string' }, 'radius-km': { type: 'string' }, data: { type: 'string' }, db: { type: 'string' } },
      true,
    );
    const [what, ...rest] = positionals;
    if (what !== 'analysis' && what !== 'site') throw new UsageError(what ? `unknown subcommand ${JSON.stringify(what)}; use analysis or site` : 'say what to do: analysis or site');
    if (rest.length) throw new UsageError(`unexpected ${rest.join(' ')}`);
    if (values.data && values.db) throw new UsageError('give --data or --db, not both');
    let state: StateCode | undefined;
    if (values.state !== undefined) {
      const s = values.state.trim().toUpperCase();
      if (!isStateCode(s)) throw new UsageError(`--state must be one of ${STATES.join(', ')}`);
      state = s;
    }
    if (values.since !== undefined) {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(values.since);
      const d = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : null;
      if (!m || !d || d.getUTCMonth() !== +m[2] - 1 || d.getUTCDate() !== +m[3]) throw new UsageError('--since must be a real date as YYYY-MM-DD');
    }
    const featureLimit = numberFlag('feature-limit', values['feature-limit'], 500, { min: 0, max: 5000, integer: true });
    let catchment;
    if (what === 'site') {
      if (!state) throw new UsageError('site needs --state');
      const lng = values.lng ?? values.lon;
      if (values.lat === undefined || lng === undefined) throw new UsageError('site needs --lat and --lng');
      catchment = { kind: 'circle' as const, lat: numberFlag('lat', values.lat, 0, { min: -90, max: 90 }), lng: numberFlag('lng', lng, 0, { min: -180, max: 180 }), radius_km: numberFlag('radius-km', values['radius-km'], 5, { min: 0.1, max: 30 }) };
    }
    let das: DaStore;
    if (values.db) das = DaStore.open(resolve(values.db));
    else {
      const dir = resolve(values.data ?? defaultDataDir());
      if (!values.data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
      das = await daStoreFromDirectory(dir);
    }
    try {
      const data = childcareAnalysis(das, { states: state ? [state] : [...STATES], since: values.since, featureLimit, catchment });
      io.stdout(`${JSON.stringify(data)}\n`);
    } finally {
      das.close();
    }
    return EXIT_OK;
  },
};
