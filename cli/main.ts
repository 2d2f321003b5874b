/**
 * `propintel`: the command-line entry. Subcommands live in commands/, one file each.
 */
import { VERSION } from '../engine/entry/version.js';
import { EXIT_OK, EXIT_USAGE, type Command, type CommandIO } from './command.js';
import { commandIO, runCommand } from './run-command.js';
import { versionCommand } from './commands/version.js';

/** A subcommand as `--help` lists it; its module (and everything it imports) loads only when it runs. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

/** Every subcommand, in the order `--help` lists them. Lazy, so `propintel version` does not load the engine. */
export const COMMANDS: CommandEntry[] = [
  { name: 'serve', summary: 'start the HTTP server', load: async () => (await import('./commands/serve.js')).serveCommand },
  { name: 'keys', summary: 'create, list, top up and revoke API keys', load: async () => (await import('./commands/keys.js')).keysCommand },
  { name: 'das', summary: 'list, search and import development applications (the DA listing)', load: async () => (await import('./commands/das.js')).dasCommand },
  { name: 'childcare', summary: 'childcare pipeline analysis of a state or a catchment, as JSON', load: async () => (await import('./commands/childcare.js')).childcareCommand },
  { name: 'mcp', summary: 'the DA listing as an MCP server over stdio (seven tools, SQL included)', load: async () => (await import('./commands/mcp.js')).mcpCommand },
  { name: 'webhooks', summary: 'run the webhook delivery worker on its own', load: async () => (await import('./commands/webhooks.js')).webhooksCommand },
  { name: 'sample-world', summary: 'generate the synthetic sample world (a dataset directory)', load: async () => (await import('./commands/sample-world.js')).sampleWorldCommand },
  { name: 'catalogue', summary: 'start, add sources to, check and show a dataset catalogue', load: async () => (await import('./commands/catalogue.js')).catalogueCommand },
  { name: 'realdata', summary: 'build a real-data catalogue (inner Melbourne, Bendigo, Merewether) and look up real points', load: async () => (await import('./commands/realdata.js')).realdataCommand },
  { name: 'batch', summary: 'look up every address of a CSV or JSON lines file, without a server', load: async () => (await import('./commands/batch.js')).batchCommand },
  { name: 'lookup', summary: 'the property payload for one address or point, as JSON', load: async () => (await import('./commands/lookup.js')).lookupCommand },
  { name: 'samples', summary: 'regenerate the canned /api/v1/property/sample responses', load: async () => (await import('./commands/samples.js')).samplesCommand },
  { name: 'sandbox', summary: 'print the twelve never-metered sandbox addresses', load: async () => (await import('./commands/sandbox.js')).sandboxCommand },
  { name: 'tiles', summary: 'export vector tiles of a box and zoom range to an MBTiles file', load: async () => (await import('./commands/tiles.js')).tilesCommand },
  { name: 'contours', summary: 'contour lines around a point from any GeoTIFF DEM, as GeoJSON', load: async () => (await import('./commands/contours.js')).contoursCommand },
  { name: 'noise', summary: 'road, rail and aircraft noise score and surface for a point', load: async () => (await import('./commands/noise.js')).noiseCommand },
  { name: 'hand', summary: 'compute HAND (height above nearest drainage) for a DEM GeoTIFF', load: async () => (await import('./commands/hand.js')).handCommand },
  { name: 'scores', summary: 'compute the context scores of one point from a dataset directory or input files', load: async () => (await import('./commands/scores.js')).scoresCommand },
  { name: 'version', summary: 'print the propintel version', load: async () => versionCommand },
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `propintel ${VERSION}: property intelligence for Australian addresses`,
    '',
    'Usage: propintel <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `propintel <command> --help` for a command\'s options.',
  ].join('\n');
}

/** Runs the CLI with `argv` (without node and the script) and returns the exit code. */
export async function main(argv: string[], io?: Partial<CommandIO>): Promise<number> {
  const out = commandIO(io);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out.stdout(`${overview()}\n`);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === '--version' || name === '-v') return versionCommand.run([], out);
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    out.stderr(`propintel: unknown command ${JSON.stringify(name)}\n\n${overview()}\n`);
    return EXIT_USAGE;
  }
  return runCommand(await entry.load(), rest, out);
}
