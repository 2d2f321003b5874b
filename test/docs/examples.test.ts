// The documentation's examples run (issue 34): every `curl` and `propintel` command line in the shell blocks of
// README.md and the guides in docs/ (test/helpers/docs.ts),
// and every request the childcare guide page names, is run as written against a server on the sample world
// (keys, ids, the host and the files the examples leave to the reader substituted), and must succeed: exit 0,
// and an HTTP 2xx (or the status its comment names). A command that cannot run here is listed in NOT_RUN with
// the reason; an example that is neither run nor listed fails the suite, and so does a listing whose example
// is gone, so the README cannot drift from what the product does.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { startServer, type StartedServer } from '../../server/http-server.js';
import { createKey } from '../../server/keys/key-admin.js';
import { openStack, type Stack } from '../../server/stack.js';
import { WebhookDispatcher } from '../../server/webhooks/webhook-dispatcher.js';
import { tempDir } from '../helpers/tmp.js';
import { readDocs } from '../helpers/docs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'bin', 'propintel.js');
const work = tempDir('propintel-examples-');
const README = readDocs();
const ADDRESS = '91 Cumberland Grove, Northcote VIC 3070';

/** Example command lines that are not run, each with the reason. */
const NOT_RUN: Record<string, string> = {
  'npx propintel keys list | revoke ID | set-quota ID N': 'a synopsis of three commands (test/cli/keys.test.ts runs each)',
  'npx propintel sample-world --out DIR': 'writes the whole eight-state sample world (about 30 s); test/datasets/sample-world.test.ts checks the generator, and every test here runs on its output',
  'npx propintel samples': 'rewrites the canned samples shipped in the package (datasets/samples/)',
  'npx propintel contours --dem FILE.tif --lon X --lat Y': 'a template (a DEM and a point of the reader\'s); the concrete contours example is run',
  'npx propintel contours --dem tile.tif --lon X --lat Y --interval 1 --half-width 500 --unlimited': 'a template (a DEM and a point of the reader\'s)',
  'npx propintel das get 200279 | stats | categories | councils --state VIC': 'a synopsis of four commands (test/cli/das.test.ts runs them)',
  'npx propintel webhooks run --db var/propintel.sqlite': 'the delivery worker runs until it is stopped (test/server/webhooks.test.ts delivers through it)',
  'npx propintel serve --db postgres://user@host/propintel --replica-dir DIR': 'needs a PostgreSQL server (test/server/replicas.test.ts runs replicas on a throwaway cluster)',
  'npx propintel catalogue init DIR | add DIR --file F ... | check DIR | show DIR': 'a synopsis of four commands (test/cli/catalogue.test.ts runs them)',
  'npx propintel realdata --out DIR': 'reads ../shared/realdata and looks up real addresses (test/datasets/realdata.test.ts)',
  'npx propintel noise path ../shared/cnossos/profiles/TC08_*.json': 'reads the ISO/TR 17534-4 profiles in ../shared/cnossos, a shell glob (test/engine/noise/cnossos.test.ts runs the command on them)',
  'propintel catalogue init ~/data/vic': 'the start of a walk-through on the publisher\'s own Vicmap files, which are not here (test/cli/catalogue.test.ts runs the same steps on generated files)',
  "propintel catalogue add ~/data/vic --file PLAN_ZONE.shp --id vic_zones --paths planning.zone,planning.zones_nearby --state VIC --coverage complete --schema vicmap_planning_zone --licence 'CC BY 4.0' --attribution 'Vicmap Planning (c) State of Victoria'":
    'needs the publisher\'s Vicmap Planning zones (test/cli/catalogue.test.ts)',
  "propintel catalogue add ~/data/vic --file PLAN_OVERLAY.shp --id vic_overlays --paths planning.overlay,hazards.flood,hazards.bushfire --state VIC --coverage complete --schema vicmap_planning_overlay --licence 'CC BY 4.0' --attribution 'Vicmap Planning (c) State of Victoria'":
    'needs the publisher\'s Vicmap Planning overlays (test/cli/catalogue.test.ts)',
  "propintel catalogue add ~/data/vic --file dem_1m.tif --id vic_dem --paths scores.flood.terrain,scores.view_quality --state VIC --coverage partial --licence 'CC BY 4.0' --attribution 'Elevation data (c) Geoscience Australia'":
    'needs a 1 m Victorian DEM (test/cli/catalogue.test.ts)',
  "propintel serve --db 'postgres://propintel:secret@db.internal:5432/propintel' --replica-dir /var/lib/propintel/replica": 'needs a PostgreSQL server (test/server/replicas.test.ts)',
  "propintel keys create --db 'postgres://...' --quota 5000 --components all": 'needs a PostgreSQL server (test/server/replicas.test.ts)',
  "propintel das import feed.jsonl --db 'postgres://...'": 'needs a PostgreSQL server (test/server/replicas.test.ts)',
  "propintel webhooks run --db 'postgres://...'": 'needs a PostgreSQL server (test/server/replicas.test.ts)',
  'npx propintel sample-world --out metro --tiles vic --extent-km 60': 'writes a 0.9 GB world in about six minutes (`npm run bench -- scale` makes and uses it)',
  'npx propintel batch book.csv --out flood.csv --components scores.flood,planning': 'the same command as the batch examples below, which are run (each loads the engine: a few seconds)',
  'npx propintel batch book.csv --out results.csv --resume': 'continues the run above; test/cli/batch.test.ts resumes cut-off and killed runs and compares the files',
  'npx propintel batch book.csv --out results.geojson': 'the same run in another format; test/cli/batch.test.ts and test/server/batch.test.ts check GeoJSON',
  'npx propintel serve --data metro --layer-file metro-layers/layers.sqlite': 'serves the 0.9 GB metro world above (`npm run bench -- scale`)',
};

/** A command line as the README gives it: continuation lines joined, its trailing comment taken off. */
interface Example {
  command: string;
  comment: string;
}

/** Where `#` starts a comment (outside quotes, after white space; -1 for none), and the quote the line leaves open. */
function scanShell(line: string): { comment: number; open: string } {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '#' && /\s/.test(line[i - 1] ?? ' ')) return { comment: i, open: '' };
  }
  return { comment: -1, open: quote };
}

/** A line's command and its trailing comment. */
function splitComment(line: string): Example {
  const { comment } = scanShell(line);
  return comment < 0 ? { command: line.trim(), comment: '' } : { command: line.slice(0, comment).trim(), comment: line.slice(comment + 1).trim() };
}

/** The curl and propintel command lines of the README's shell blocks, in order. */
function readmeExamples(): Example[] {
  const out: Example[] = [];
  for (const [, lang, body] of README.matchAll(/```(\w*)\n([\s\S]*?)```/g)) {
    if (!['sh', 'bash', 'shell', ''].includes(lang)) continue;
    const lines = body.split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i];
      // A line continues after a trailing backslash, or while a quote is open.
      for (;;) {
        if (/\\\s*$/.test(line) && i + 1 < lines.length) line = `${line.replace(/\\\s*$/, '')} ${lines[++i].trim()}`;
        else if (scanShell(line).open && i + 1 < lines.length) line = `${line} ${lines[++i].trim()}`;
        else break;
      }
      const ex = splitComment(line.replace(/\s+/g, ' '));
      if (/^(curl|npx propintel|propintel)\s/.test(ex.command)) out.push(ex);
    }
  }
  return out;
}

/** The requests the childcare guide page names (`GET /path` in its code), run with a childcare key. */
async function guideRequests(): Promise<string[]> {
  const html = await (await fetch(`${server.url}/api/v1/childcare/guide`)).text();
  return [...new Set([...html.matchAll(/<code>GET (\/[^<\s]*)<\/code>/g)].map((m) => m[1].replace(/&amp;/g, '&')))];
}

let stack: Stack;
let server: StartedServer;
let dispatcher: WebhookDispatcher;
const env: Record<string, string> = {};
let webhook = '';
let batch = '';

/** A port nothing listens on. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  stack = await openStack({ datasets: defaultDataDir(), db: ':memory:', threads: 2 });
  // The subscription example names https://example.com: resolved to a public address here (no network), so
  // the address rules pass as they would on the internet; pings go to a worker whose deliveries simply fail.
  const resolve = async () => ['93.184.215.14'];
  dispatcher = new WebhookDispatcher({ store: stack.store.webhooks(), das: () => stack.engine.das(), pollMs: 1000, timeoutMs: 500 });
  server = await startServer({ ...stack.serverOptions, service: stack.engine, store: stack.store, port: 0, webhooks: { ...stack.serverOptions.webhooks, dispatcher, resolve } });
  env.P = (await createKey(stack.store, { components: 'all', geometry: true })).key;
  env.K = (await createKey(stack.store, { components: 'none', daDailyLimit: 1000, sql: true })).key;
  env.C = (await createKey(stack.store, { components: 'none', childcareStates: ['NSW', 'VIC'], childcareAddOn: 'childcare_market_intelligence' })).key;
  const r = await fetch(`${server.url}/v1/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${env.K}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/hooks/readme', events: ['da.created'] }) });
  webhook = (await r.json()).id;
  // What the examples leave to the reader: a DA file to import, a catchment polygon.
  writeFileSync(join(work, 'FILE.csv'), 'council,council_reference,state,address,suburb,postcode,description,lodged,status\nReadme Council,RM/1,VIC,1 Example St,Northcote,3070,A single storey dwelling,2026-11-01,Lodged\n');
  // A book of addresses for the batch examples, and a job for the ones that poll one.
  writeFileSync(join(work, 'book.csv'), `ref,address\nA1,"${ADDRESS}"\nA2,"1 Nowhere Lane, Atlantis VIC 3999"\n`);
  writeFileSync(join(work, 'book.jsonl'), `{"ref":"A1","address":"${ADDRESS}"}\n{"ref":"A2","lat":-37.75157,"lng":144.98738}\n`);
  const job = await fetch(`${server.url}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${env.P}`, 'content-type': 'text/csv' }, body: `address\n"${ADDRESS}"\n` });
  batch = (await job.json()).id;
  writeFileSync(join(work, 'catchment.geojson'), JSON.stringify({ type: 'Polygon', coordinates: [[[150.99, -33.83], [151.02, -33.83], [151.02, -33.81], [150.99, -33.81], [150.99, -33.83]]] }));
}, 120_000);

afterAll(async () => {
  await dispatcher?.stop(500);
  await server?.close(1000);
  await stack?.close();
});

/** The command as this test runs it: the CLI from this checkout, this server, the keys and files made above. */
function runnable(ex: Example): string {
  return ex.command
    .replace(/^(npx )?propintel /, `node ${cli} `)
    .replace(/\s\[--[^\]]*\]/g, '') // optional flags in a synopsis
    .replaceAll('http://127.0.0.1:8080', server.url)
    .replaceAll('pi_...', env.P)
    .replaceAll('wh_...', webhook)
    .replaceAll('batch_...', batch)
    .replaceAll('"..."', JSON.stringify(ADDRESS))
    .replaceAll('var/propintel.sqlite', join(work, 'store.sqlite'))
    .replaceAll('datasets/sample-world/', join(root, 'datasets', 'sample-world') + '/')
    .replace(/--dem (FILE|dem)\.tif/, `--dem ${join(root, 'datasets', 'sample-world', 'nsw', 'dem-5m.tif')}`);
}

/** Runs `script` in bash in the scratch folder: exit status and output. */
function bash(script: string, timeoutMs = 120_000): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: work, env: { ...process.env, ...env, PROPINTEL_DB: join(work, 'store.sqlite') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', (c: Buffer) => (out.length < 1e6 ? (out += c) : undefined));
    child.stderr.on('data', (c: Buffer) => (err.length < 1e6 ? (err += c) : undefined));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** Runs one curl example as written: exit 0 and a 2xx, or the status its comment names. */
async function runCurl(ex: Example): Promise<void> {
  // A pipeline (`| head -c 600`): the request itself is what must succeed. Its status follows its output
  // (-OJ downloads land in the scratch folder).
  const command = runnable(ex).replace(/\s\|\s[^'"]*$/, '');
  const r = await bash(`${command} -w '\n%{http_code}'`);
  expect(r.code, `${ex.command}\n${r.err}`).toBe(0);
  const status = r.out.slice(r.out.lastIndexOf('\n') + 1);
  const named = /^(\d{3})\b/.exec(ex.comment)?.[1];
  if (named) expect(status, ex.command).toBe(named);
  // "422 naming `state`": the error body names that parameter.
  const naming = /naming `([a-z_]+)`/.exec(ex.comment)?.[1];
  if (naming) expect(r.out, ex.command).toContain(`"parameter":"${naming}"`);
  else expect(status, `${ex.command}\n${r.out.slice(0, 300)}`).toMatch(/^2\d\d$/);
}

/** Runs one propintel example: exit 0 (a server is started, asked /healthz, and stopped). */
async function runCli(ex: Example): Promise<void> {
  let command = runnable(ex);
  if (/ serve( |$)/.test(command)) {
    const port = await freePort();
    command = command.replace(/--port \d+/, `--port ${port}`);
    const probe = `for i in $(seq 1 120); do curl -sf -o /dev/null http://127.0.0.1:${port}/healthz && exit 0; sleep 0.5; done; exit 1`;
    const r = await bash(`${command} --db ${join(work, 'serve.sqlite')} & pid=$!; (${probe}); ok=$?; kill -TERM $pid; wait $pid; status=$?; [ $ok = 0 ] && [ $status = 0 ]`);
    expect(r.code, `${ex.command}\n${r.err.slice(-2000)}`).toBe(0);
    return;
  }
  const r = await bash(command);
  expect(r.code, `${ex.command}\n${r.err.slice(-2000)}`).toBe(0);
}

const examples = readmeExamples();

describe('the README and docs/', () => {
  it('has examples, and every one is run here or listed as not run with the reason', () => {
    expect(examples.length).toBeGreaterThan(40);
    const commands = new Set(examples.map((e) => e.command));
    expect(Object.keys(NOT_RUN).filter((c) => !commands.has(c)), 'NOT_RUN entries whose example is gone').toEqual([]);
  });

  const curls = examples.filter((e) => e.command.startsWith('curl ') && !(e.command in NOT_RUN));
  it(`runs its ${curls.length} curl examples against a server on the sample world`, async () => {
    for (const ex of curls) await runCurl(ex);
  }, 120_000);

  const clis = examples.filter((e) => !e.command.startsWith('curl ') && !(e.command in NOT_RUN));
  // Two at a time: most load the engine on the sample world.
  const halves = [clis.filter((_, i) => i % 2 === 0), clis.filter((_, i) => i % 2 === 1)];
  it(`runs its ${clis.length} propintel examples on the sample world`, async () => {
    await Promise.all(halves.map(async (half) => {
      for (const ex of half) await runCli(ex);
    }));
  }, 300_000);
});

describe('the childcare guide', () => {
  it('names requests that answer 200 with a childcare key', async () => {
    const paths = await guideRequests();
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/childcare/schema', '/api/v1/das?per_page=100']));
    for (const path of paths) {
      const r = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${env.C}` } });
      expect(r.status, path).toBe(200);
    }
  });
});
