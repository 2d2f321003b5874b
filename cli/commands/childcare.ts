/**
 * `propintel childcare analysis|site`: the childcare analysis JSON of `/api/v1/childcare/analysis` and of
 * `/site-analysis` (a circle), from a dataset directory's DAs or a server store, without a server or a key.
 */
import { resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { isStateCode, STATES, type StateCode } from '../../engine/entry/data.js';
import { readFile, writeFile } from 'node:fs/promises';
import { childcareAnalysis, catchmentPolygon, circleCatchment, siteAnalysis, SiteInputError, type SiteRequest } from '../../engine/entry/childcare.js';
import { createEngine } from '../../engine/index.js';
import { daStoreFromDirectory, DaStore } from '../../engine/entry/das.js';
import { numberFlag, parseFlags } from '../args.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';

export const childcareCommand: Command = {
  name: 'childcare',
  summary: 'childcare pipeline analysis of a state or a catchment, as JSON',
  usage: [
    'propintel childcare analysis [--state S] [--since YYYY-MM-DD] [--feature-limit N] [--data DIR | --db FILE]',
    'propintel childcare site --state S (--lat Y --lng X [--radius-km R] | --polygon FILE) [--suburb NAME] [--since ...] [--feature-limit N] [--data DIR] [--db FILE]',
    'propintel childcare report --format pdf|html --out FILE --state S (--lat Y --lng X [--radius-km R] | --polygon FILE) [site options]',
    '',
    'Prints the `data` object of /api/v1/childcare/analysis (analysis: every state, or --state) or of',
    '/api/v1/childcare/site-analysis (site: a circle of radius 0.1 to 30 km, default 5, or a GeoJSON Polygon',
    'file, holes allowed): headline, trend, breakdowns, coverage, demand signals, map points (at most',
    '--feature-limit, default 500), notices; a site adds open schools and the suburb census context (of',
    '--suburb, or the suburb of the nearest address to the centre). The site rules are the endpoint\'s: the',
    'centre or the whole polygon in --state, at most 5,000 vertices and 30 km bounding radius, no crossing ring.',
    'report writes the finished PDF or HTML of the same site analysis (the file /api/v1/childcare/report sends).',
    '',
    `  --data DIR   the dataset directory (default the sample world in ${defaultDataDir()})`,
    '  --db FILE    the DAs of a server store (what `propintel das import --db FILE` wrote) instead of the dataset\'s',
  ].join('\n'),
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      { state: { type: 'string' }, suburb: { type: 'string' }, polygon: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, since: { type: 'string' }, 'feature-limit': { type: 'string' }, lat: { type: 'string' }, lng: { type: 'string' }, lon: { type: 'string' }, 'radius-km': { type: 'string' }, data: { type: 'string' }, db: { type: 'string' } },
      true,
    );
    const [what, ...rest] = positionals;
    if (what !== 'analysis' && what !== 'site' && what !== 'report') throw new UsageError(what ? `unknown subcommand ${JSON.stringify(what)}; use analysis, site or report` : 'say what to do: analysis, site or report');
    const format = values.format?.toLowerCase();
    if (what === 'report') {
      if (format !== 'pdf' && format !== 'html') throw new UsageError('report needs --format pdf or --format html');
      if (!values.out) throw new UsageError('report needs --out FILE');
    } else if (values.format !== undefined || values.out !== undefined) throw new UsageError('--format and --out are for report');
    if (rest.length) throw new UsageError(`unexpected ${rest.join(' ')}`);
    if (what === 'analysis' && values.data && values.db) throw new UsageError('give --data or --db, not both');
    if (what === 'analysis' && (values.polygon !== undefined || values.suburb !== undefined)) throw new UsageError('--polygon and --suburb are for site');
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
    if (what === 'site' || what === 'report') {
      if (!state) throw new UsageError(`${what} needs --state`);
      const lng = values.lng ?? values.lon;
      if (values.polygon !== undefined && (values.lat !== undefined || lng !== undefined)) throw new UsageError('give --lat/--lng or --polygon, not both');
      if (values.polygon === undefined && (values.lat === undefined || lng === undefined)) throw new UsageError(`${what} needs --lat and --lng, or --polygon FILE`);
      let polygon: unknown;
      if (values.polygon !== undefined) {
        try {
          polygon = JSON.parse(await readFile(resolve(values.polygon), 'utf8'));
        } catch (e) {
          throw new UsageError(`--polygon ${values.polygon}: ${(e as Error).message}`);
        }
      }
      const dir = resolve(values.data ?? defaultDataDir());
      if (!values.data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
      const engine = await createEngine({ datasets: dir });
      const own = values.db ? DaStore.open(resolve(values.db)) : undefined;
      const das = own ?? engine.das();
      try {
        const stateAt = (x: number, y: number) => engine.stateAt(x, y);
        let req: SiteRequest;
        try {
          const catchment = polygon !== undefined
            ? { kind: 'polygon' as const, polygon: catchmentPolygon(polygon, state, stateAt) }
            : circleCatchment(numberFlag('lat', values.lat, 0), numberFlag('lng', lng, 0), numberFlag('radius-km', values['radius-km'], 5), state, stateAt);
          req = { state, catchment, suburb: values.suburb?.trim() || null, since: values.since, featureLimit };
        } catch (e) {
          if (e instanceof SiteInputError) throw new UsageError(`${e.parameter === 'catchment' ? '--polygon' : `--${e.parameter.replace('_', '-')}`}: ${e.message}`);
          throw e;
        }
        const data = siteAnalysis(das, engine, req);
        if (what === 'report') {
          const file = await engine.childcare.report(req, format as 'pdf' | 'html', { data });
          await writeFile(resolve(values.out!), file.body);
          io.stdout(`${resolve(values.out!)}: ${format?.toUpperCase()} report, ${file.body.length} bytes (${(data.headline as { total: number }).total} childcare DAs)\n`);
        } else io.stdout(`${JSON.stringify(data)}\n`);
      } finally {
        own?.close();
        await engine.close();
      }
      return EXIT_OK;
    }
    let das: DaStore;
    if (values.db) das = DaStore.open(resolve(values.db));
    else {
      const dir = resolve(values.data ?? defaultDataDir());
      if (!values.data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
      das = await daStoreFromDirectory(dir);
    }
    try {
      const data = childcareAnalysis(das, { states: state ? [state] : [...STATES], since: values.since, featureLimit });
      io.stdout(`${JSON.stringify(data)}\n`);
    } finally {
      das.close();
    }
    return EXIT_OK;
  },
};
