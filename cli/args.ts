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

/** The flags of a point subject, degrees (GDA2020 / WGS84): `--lon` (or its alias `--lng`) and `--lat`. */
export const POINT_FLAGS = { lon: { type: 'string' }, lng: { type: 'string' }, lat: { type: 'string' } } as const satisfies Record<string, FlagSpec>;

/**
 * The point of `--lon` (or `--lng`) and `--lat`, each a number in range (longitude -180 to 180, latitude -90 to
 * 90), or undefined when none is given. Only one of them, both `--lon` and `--lng`, or a bad number is a
 * UsageError naming the flag. Every command that takes a point reads it here.
 */
export function pointFlags(values: { lon?: string; lng?: string; lat?: string }): { lon: number; lat: number } | undefined {
  if (values.lon !== undefined && values.lng !== undefined) throw new UsageError('pass --lon or its alias --lng, not both');
  const lonName = values.lng !== undefined ? 'lng' : 'lon';
  const lonText = values.lon ?? values.lng;
  if (lonText === undefined && values.lat === undefined) return undefined;
  if (lonText === undefined || values.lat === undefined) throw new UsageError(`--lon and --lat are required together; only --${lonText === undefined ? 'lat' : lonName} was given`);
  return { lon: numberFlag(lonName, lonText, NaN, { min: -180, max: 180 }), lat: numberFlag('lat', values.lat, NaN, { min: -90, max: 90 }) };
}

/** {@link pointFlags} for a command that needs a point: none given is a UsageError too. */
export function requirePointFlags(values: { lon?: string; lng?: string; lat?: string }): { lon: number; lat: number } {
  const p = pointFlags(values);
  if (!p) throw new UsageError('--lon and --lat are required');
  return p;
}
