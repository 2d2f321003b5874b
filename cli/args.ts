/** Flag parsing for subcommands: node:util parseArgs, strict, with errors as UsageError. */
import { parseArgs } from 'node:util';
import { UsageError } from './command.js';

/** One flag's definition (the parseArgs option form). */
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

/** Parsed flag values by name: strings for string flags, true for boolean flags, arrays when `multiple`. */
export type FlagValues<O extends Record<string, FlagSpec>> = {
  [K in keyof O]?: O[K]['multiple'] extends true ? (O[K]['type'] extends 'string' ? string[] : boolean[]) : O[K]['type'] extends 'string' ? string : boolean;
};

/**
 * Parses `args` against `options`; unknown flags and missing values are UsageErrors. A string flag followed
 * by a negative number takes it as its value (`--lat -37.8`), as every Australian latitude is negative.
 */
export function parseFlags<O extends Record<string, FlagSpec>>(args: string[], options: O, allowPositionals = false): { values: FlagValues<O>; positionals: string[] } {
  const stringFlags = Object.entries(options).filter(([, o]) => o.type === 'string').map(([k]) => `--${k}`);
  try {
    const r = parseArgs({ args: joinNegativeValues(args, stringFlags), options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals });
    return { values: r.values as FlagValues<O>, positionals: r.positionals };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Reads a numeric flag, throwing a UsageError naming it when it is not a number in range. */
export function numberFlag(name: string, value: string | undefined, fallback: number, range?: { min?: number; max?: number; integer?: boolean }): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(value)}`);
  if (range?.integer && !Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number, got ${value}`);
  if (range?.min !== undefined && n < range.min) throw new UsageError(`--${name} must be at least ${range.min}, got ${value}`);
  if (range?.max !== undefined && n > range.max) throw new UsageError(`--${name} must be at most ${range.max}, got ${value}`);
  return n;
}

/**
 * Joins `--lat -37.8` into `--lat=-37.8` for the named flags: node's parseArgs reads a value starting with
 * '-' as a flag. {@link parseFlags} does this for every string flag.
 */
export function joinNegativeValues(args: string[], flags: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (flags.includes(args[i]) && /^-(\d|\.\d)/.test(args[i + 1] ?? '')) out.push(`${args[i]}=${args[++i]}`);
    else out.push(args[i]);
  }
  return out;
}
