/**
 * `propintel`: the command-line entry. Subcommands live in commands/, one file each.
 */
import { isEngineError } from '../engine/errors.js';
import { VERSION } from '../engine/version.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type Command, type CommandIO } from './command.js';
import { sampleWorldCommand } from './commands/sample-world.js';
import { sandboxCommand } from './commands/sandbox.js';
import { scoresCommand } from './commands/scores.js';
import { serveCommand } from './commands/serve.js';
import { versionCommand } from './commands/version.js';
import { noiseCommand } from './commands/noise.js';
import { handCommand } from './commands/hand.js';
import { contoursCommand } from './commands/contours.js';

/** Every subcommand, in the order `--help` lists them. */
export const COMMANDS: Command[] = [serveCommand, sampleWorldCommand, sandboxCommand, contoursCommand, noiseCommand, handCommand, scoresCommand, versionCommand];

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

function processShutdown(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => resolve(sig);
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
}

/** Runs the CLI with `argv` (without node and the script) and returns the exit code. */
export async function main(argv: string[], io?: Partial<CommandIO>): Promise<number> {
  const out: CommandIO = {
    stdout: io?.stdout ?? ((t) => void process.stdout.write(t)),
    stderr: io?.stderr ?? ((t) => void process.stderr.write(t)),
    get shutdown() {
      return io?.shutdown ?? processShutdown();
    },
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out.stdout(`${overview()}\n`);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === '--version' || name === '-v') return versionCommand.run([], out);
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    out.stderr(`propintel: unknown command ${JSON.stringify(name)}\n\n${overview()}\n`);
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    out.stdout(`${command.usage}\n`);
    return EXIT_OK;
  }
  try {
    return await command.run(rest, out);
  } catch (err) {
    if (err instanceof UsageError) {
      out.stderr(`propintel ${command.name}: ${err.message}\n\n${command.usage}\n`);
      return EXIT_USAGE;
    }
    if (isEngineError(err)) {
      out.stderr(`propintel ${command.name}: ${err.message} [${err.code}]\n`);
      return err.code === 'INVALID_ARGUMENT' ? EXIT_USAGE : EXIT_FAILURE;
    }
    out.stderr(`propintel ${command.name}: ${(err as Error)?.stack ?? String(err)}\n`);
    return EXIT_FAILURE;
  }
}
