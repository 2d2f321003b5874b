/**
 * Runs one subcommand: its `--help`, its exit code, and how its errors are printed. Shared by `main` (every
 * command, loaded lazily) and the one-shot bundles of single commands (dist/bundles/, see
 * scripts/bundle-cli.mjs), so both print and exit the same way.
 */
import { isEngineError } from '../engine/entry/errors.js';
import { StoreUnavailableError } from '../server/store/store.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type Command, type CommandIO } from './command.js';

function processShutdown(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => resolve(sig);
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
}

/** `io` with the process streams (and signals) for whatever it leaves out. */
export function commandIO(io?: Partial<CommandIO>): CommandIO {
  return {
    stdout: io?.stdout ?? ((t) => void process.stdout.write(t)),
    stderr: io?.stderr ?? ((t) => void process.stderr.write(t)),
    get shutdown() {
      return io?.shutdown ?? processShutdown();
    },
  };
}

/** Runs `command` with its arguments `rest` and returns the exit code. */
export async function runCommand(command: Command, rest: string[], io?: Partial<CommandIO>): Promise<number> {
  const out = commandIO(io);
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
    if (err instanceof StoreUnavailableError) {
      // The shared database is down or unreachable: said plainly, without a stack.
      out.stderr(`propintel ${command.name}: ${err.message}\n`);
      return EXIT_FAILURE;
    }
    out.stderr(`propintel ${command.name}: ${(err as Error)?.stack ?? String(err)}\n`);
    return EXIT_FAILURE;
  }
}
