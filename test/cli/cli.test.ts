import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { VERSION } from '../../engine/version.js';

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

  it('serve answers /healthz until it is told to stop', async () => {
    let stop!: (s: string) => void;
    const shutdown = new Promise<string>((r) => (stop = r));
    let stdout = '';
    const done = main(['serve', '--port', '0'], { stdout: (t) => (stdout += t), stderr: () => {}, shutdown });
    for (let i = 0; i < 100 && !/listening on/.test(stdout); i++) await new Promise((r) => setTimeout(r, 20));
    const url = /listening on (\S+)/.exec(stdout)![1];
    const health = (await (await fetch(`${url}/healthz`)).json()) as { status: string };
    expect(health.status).toBe('ok');
    stop('SIGTERM');
    expect(await done).toBe(0);
  });

  it('runs as the installed bin from the built output', () => {
    const out = execFileSync(process.execPath, ['bin/propintel.js', 'version'], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/^propintel \d+\.\d+\.\d+/);
    const bad = spawnSync(process.execPath, ['bin/propintel.js', 'nope'], { cwd: root, encoding: 'utf8' });
    expect(bad.status).toBe(2);
  });
});
