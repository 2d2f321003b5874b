/**
 * The engine's one error type. Every failure the engine reports, from a bad argument to a worker that died,
 * is an `EngineError` with a code from a closed set, so callers (the server, the property assembler) can map
 * it to an HTTP status or a degraded component in one table.
 */

/** The closed set of engine error codes. */
export const ENGINE_ERROR_CODES = [
  /** A caller-supplied value is out of range or malformed; `details.parameter` names it. */
  'INVALID_ARGUMENT',
  /** A data file is corrupt, truncated or structurally invalid; `details.file` names it. */
  'INVALID_DATA',
  /** The data is valid but uses something the engine does not support (a CRS, a compression, a rotation). */
  'UNSUPPORTED',
  /** A file, record or address that was asked for does not exist. */
  'NOT_FOUND',
  /** A task ran past its time limit and was stopped. */
  'TIMEOUT',
  /** The caller cancelled the task (its AbortSignal fired). */
  'ABORTED',
  /** The worker thread running the task died (exit, fatal error, out of memory). */
  'WORKER_CRASHED',
  /** A task threw an error that is not an EngineError (a bug or an unexpected condition). */
  'TASK_FAILED',
  /** A dependency (a data source, a service) could not answer; retrying may work. */
  'UNAVAILABLE',
] as const;

/** One of {@link ENGINE_ERROR_CODES}. */
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

const CODE_SET: ReadonlySet<string> = new Set(ENGINE_ERROR_CODES);

/** Structured, JSON-safe context for an error: the file, parameter or value it is about. */
export type ErrorDetails = Record<string, unknown>;

/** An error from the engine, carrying a code from the closed set and optional details. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: EngineErrorCode;
  readonly details: ErrorDetails;

  constructor(code: EngineErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    if (!CODE_SET.has(code)) throw new TypeError(`Unknown EngineError code: ${String(code)}`);
    this.code = code;
    this.details = details;
  }

  /** A plain object that survives `postMessage` (a custom Error subclass does not). */
  toJSON(): SerializedError {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** The wire form of an {@link EngineError}: what a worker sends back instead of throwing. */
export interface SerializedError {
  code: EngineErrorCode;
  message: string;
  details?: ErrorDetails;
}

/** True when `value` is an {@link EngineError}. */
export function isEngineError(value: unknown): value is EngineError {
  return value instanceof EngineError;
}

/** True when `code` is one of the closed set of codes. */
export function isEngineErrorCode(code: unknown): code is EngineErrorCode {
  return typeof code === 'string' && CODE_SET.has(code);
}

/**
 * Turns anything thrown into a {@link SerializedError}. EngineErrors keep their code; anything else becomes
 * `TASK_FAILED` carrying the original message (an unexpected throw is a bug, not bad input).
 */
export function serializeError(err: unknown): SerializedError {
  if (err instanceof EngineError) return err.toJSON();
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'TASK_FAILED', message, details: err instanceof Error && err.name !== 'Error' ? { name: err.name } : {} };
}

/** Rebuilds an {@link EngineError} from its wire form; an unknown code becomes `TASK_FAILED`. */
export function deserializeError(s: SerializedError): EngineError {
  const code = isEngineErrorCode(s?.code) ? s.code : 'TASK_FAILED';
  return new EngineError(code, String(s?.message ?? 'unknown error'), s?.details ?? {});
}

/** Shorthand for an `INVALID_ARGUMENT` error naming the parameter. */
export function invalidArgument(parameter: string, message: string, details: ErrorDetails = {}): EngineError {
  return new EngineError('INVALID_ARGUMENT', message, { parameter, ...details });
}

/** Shorthand for an `INVALID_DATA` error naming the file. */
export function invalidData(file: string, message: string, details: ErrorDetails = {}, cause?: unknown): EngineError {
  return new EngineError('INVALID_DATA', `${file}: ${message}`, { file, ...details }, { cause });
}
