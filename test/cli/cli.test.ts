import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { VERSION } from '../../engine/version.js';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function run(argv: string[], shutdown?: Promise<string>) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), shutdown: shutdown ?? new Promise(() => {}) });
  return { code, stdout, stderr };
}

describe('propintel CLI', () => {
  it('--help lists every command', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: propintel <command>/);
    expect(r.stdout).toMatch(/serve\s+start the HTTP server/);
    expect(r.stdout).toMatch(/version\s+print the propintel version/);
  });

  it('lists each command with the summary its module declares, and loads it only when run', async () => {
    const { COMMANDS } = await import('../../cli/main.js');
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.summary).toBe(entry.summary);
    }
  });

  it('prints the version', async () => {
    const r = await run(['version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`propintel ${VERSION} (node ${process.versions.node})\n`);
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('rejects an unknown command and an unknown flag with exit code 2', async () => {
    const a = await run(['frobnicate']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/unknown command "frobnicate"/);
    const b = await run(['serve', '--colour', 'blue']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--colour/);
    const c = await run(['serve', '--port', 'eighty']);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/--port must be a number/);
  });

  it('shows a command\'s usage with --help', async () => {
    const r = await run(['serve', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--port N/);
  });

  it('serve answers until it is told to stop, and prints development keys that work and example commands', async () => {
    let stop!: (s: string) => void;
    const shutdown = new Promise<string>((r) => (stop = r));
    let stdout = '';
    const db = join(tempDir(), 'serve.sqlite');
    const done = main(['serve', '--port', '0', '--db', db, '--quiet'], { stdout: (t) => (stdout += t), stderr: () => {}, shutdown });
    for (let i = 0; i < 500 && !/Try:[\s\S]*curl[\s\S]*curl[\s\S]*curl/.test(stdout); i++) await new Promise((r) => setTimeout(r, 20));
    const url = /listening on (\S+)/.exec(stdout)![1];
    // It answers at once, warming up in the background (models, HAND tiles), and says so until it is warm.
    const health = (await (await fetch(`${url}/healthz`)).json()) as { status: string; warming?: string };
    expect(health.status === 'ok' || (health.status === 'warming' && typeof health.warming === 'string')).toBe(true);
    const full = /full licence with geometry:\s+(pi_\S+)/.exec(stdout)![1];
    const scoresOnly = /scores only:\s+(pi_\S+)/.exec(stdout)![1];
    expect(stdout.match(/^  curl /gm)).toHaveLength(8);
    // The SQL and childcare examples work as printed, with the keys printed for them.
    const sql = /curl -s -H 'Authorization: Bearer (pi_\S+)' -H 'Content-Type: application\/json' '([^']+\/v1\/sql)' -d '([^']+)'/.exec(stdout)!;
    expect(sql[1]).toBe(full);
    const rows = await fetch(sql[2], { method: 'POST', headers: { authorization: `Bearer ${sql[1]}`, 'content-type': 'application/json' }, body: sql[3] });
    expect(rows.status).toBe(200);
    expect(((await rows.json()) as { rows: unknown[] }).rows.length).toBeGreaterThan(1);
    const childcare = /childcare market intelligence \(every state\):\s+(pi_\S+)/.exec(stdout)![1];
    const analysis = /curl -s -H 'Authorization: Bearer (pi_\S+)' '([^']+\/api\/v1\/childcare\/analysis[^']*)'/.exec(stdout)!;
    expect(analysis[1]).toBe(childcare);
    const ca = await fetch(analysis[2], { headers: { authorization: `Bearer ${childcare}` } });
    expect(ca.status).toBe(200);
    expect(((await ca.json()) as { data: { headline: { total: number } } }).data.headline.total).toBeGreaterThan(0);
    const report = /curl -s -H 'Authorization: Bearer (pi_\S+)' '([^']+\/api\/v1\/childcare\/report[^']*)' -o report\.pdf/.exec(stdout)!;
    expect(report[1]).toBe(childcare);
    const pdf = await fetch(report[2], { headers: { authorization: `Bearer ${childcare}` } });
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    // The DA-listing key and the DA examples work as printed; the playground answers.
    const da = /DA listing only \(Starter, 1,000 requests a Melbourne day\):\s+(pi_\S+)/.exec(stdout)![1];
    for (const m of stdout.matchAll(/curl -s -H 'Authorization: Bearer (pi_\S+)' '([^']+\/v1\/das[^']*)'/g)) {
      expect(m[1]).toBe(da);
      const res = await fetch(m[2], { headers: { authorization: `Bearer ${da}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    }
    expect((await fetch(/playground \(no key needed\): (\S+)/.exec(stdout)![1])).status).toBe(200);
    const address = /address=([^'&]+)/.exec(stdout)![1];
    const r = await fetch(`${url}/api/v1/property?address=${address}&components=das`, { headers: { authorization: `Bearer ${full}` } });
    expect(r.status).toBe(200);
    const core = await fetch(`${url}/api/v1/property/core?address=${address}`, { headers: { authorization: `Bearer ${scoresOnly}` } });
    expect(core.status).toBe(403);
    let status = '';
    for (let i = 0; i < 600 && status !== 'ok'; i++) {
      status = ((await (await fetch(`${url}/healthz`)).json()) as { status: string }).status;
      if (status !== 'ok') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('ok'); // warmed up
    stop('SIGTERM');
    expect(await done).toBe(0);
  }, 120_000);

  it('serve, as a process, exits cleanly on SIGTERM and revokes the previous development keys on restart', async () => {
    const db = join(tempDir(), 'serve-process.sqlite');
    const start = () => {
      const child = spawn(process.execPath, ['bin/propintel.js', 'serve', '--port', '0', '--db', db, '--quiet'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      const ready = new Promise<{ url: string; key: string }>((resolve, reject) => {
        const check = () => {
          const key = /full licence with geometry:\s+(pi_\S+)/.exec(out);
          if (key) resolve({ url: /listening on (\S+)/.exec(out)![1], key: key[1] });
        };
        child.stdout.on('data', check);
        child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}`)));
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      return { child, ready, exited };
    };
    const a = start();
    const first = await a.ready;
    const path = '/api/v1/property/core?lat=-37.75157&lng=144.98738';
    expect((await fetch(`${first.url}${path}`, { headers: { authorization: `Bearer ${first.key}` } })).status).toBe(200);
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    const b = start();
    const second = await b.ready;
    try {
      expect(second.key).not.toBe(first.key);
      expect((await fetch(`${second.url}${path}`, { headers: { authorization: `Bearer ${first.key}` } })).status).toBe(401);
      expect((await fetch(`${second.url}${path}`, { headers: { authorization: `Bearer ${second.key}` } })).status).toBe(200);
    } finally {
      b.child.kill('SIGTERM');
      expect(await b.exited).toBe(0);
    }
  }, 90_000);

  it('runs as the installed bin from the built output', () => {
    const out = execFileSync(process.execPath, ['bin/propintel.js', 'version'], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/^propintel \d+\.\d+\.\d+/);
    const bad = spawnSync(process.execPath, ['bin/propintel.js', 'nope'], { cwd: root, encoding: 'utf8' });
    expect(bad.status).toBe(2);
  });
});

describe('flag parsing', () => {
  it('takes a negative number after any string flag as its value (Australian latitudes), never as a flag', async () => {
    const { parseFlags } = await import('../../cli/args.js');
    const spec = { lat: { type: 'string' }, lon: { type: 'string' }, interval: { type: 'string' }, quiet: { type: 'boolean' } } as const;
    expect(parseFlags(['--lat', '-37.8136', '--lon', '144.9631', '--interval', '-.5'], spec).values).toEqual({ lat: '-37.8136', lon: '144.9631', interval: '-.5' });
    expect(parseFlags(['--lat=-33.9'], spec).values.lat).toBe('-33.9');
    // A boolean flag takes no value, so a negative number after it is not swallowed.
    expect(() => parseFlags(['--quiet', '-3'], spec)).toThrow();
    // A string flag followed by a real flag still reports the missing value.
    expect(() => parseFlags(['--lat', '--lon', '144'], spec)).toThrow(/--lat/);
  });

  it('reads a point the same way in every command: --lon or --lng with --lat, in range, both or neither', async () => {
    const { pointFlags, requirePointFlags } = await import('../../cli/args.js');
    expect(pointFlags({ lon: '144.9631', lat: '-37.8136' })).toEqual({ lon: 144.9631, lat: -37.8136 });
    expect(pointFlags({ lng: '144.9631', lat: '-37.8136' })).toEqual({ lon: 144.9631, lat: -37.8136 });
    expect(pointFlags({})).toBeUndefined();
    expect(() => requirePointFlags({})).toThrow(/--lon and --lat are required/);
    expect(() => pointFlags({ lat: '-37' })).toThrow(/only --lat was given/);
    expect(() => pointFlags({ lng: '145' })).toThrow(/only --lng was given/);
    expect(() => pointFlags({ lon: '145', lng: '145', lat: '-37' })).toThrow(/--lon or its alias --lng, not both/);
    expect(() => pointFlags({ lon: '181', lat: '-37' })).toThrow(/--lon must be at most 180, got 181/);
    expect(() => pointFlags({ lng: 'east', lat: '-37' })).toThrow(/--lng must be a number, got "east"/);
    expect(() => pointFlags({ lon: '145', lat: '-90.5' })).toThrow(/--lat must be at least -90, got -90.5/);
    // Each command that takes a point uses it: the same refusal from all four.
    for (const command of ['lookup', 'scores', 'noise', 'contours']) {
      const extra = command === 'contours' ? ['--dem', 'x.tif'] : [];
      const r = await run([command, ...extra, '--lng', '145', '--lat', '-95']);
      expect([command, r.code, r.stderr]).toEqual([command, 2, expect.stringMatching(/--lat must be at least -90, got -95/)]);
    }
  });

  it('every coordinate-taking command accepts `--lat -NN` (scores end to end)', () => {
    const r = spawnSync(process.execPath, [join(root, 'bin/propintel.js'), 'scores', '--lon', '149.1300', '--lat', '-35.2809', '--only', 'aircraft_noise'], { encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/ambiguous/);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.query).toEqual({ lon: 149.13, lat: -35.2809, state: 'ACT' });
    expect(Object.keys(out.scores)).toEqual(['aircraft_noise']);
  });
});
