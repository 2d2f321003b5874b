/** The shape of a `propintel` subcommand. */

/** Exit codes: 0 success, 1 the command failed, 2 the command line was wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Where a command writes. Tests pass buffers; the real CLI passes process streams. */
export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGINT / SIGTERM); long-running commands await it. */
  shutdown: Promise<string>;
}

/** A subcommand. */
export interface Command {
  name: string;
  /** One line for `propintel --help`. */
  summary: string;
  /** Full usage text for `propintel <name> --help`. */
  usage: string;
  run(args: string[], io: CommandIO): Promise<number>;
}

/** A command-line mistake: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
