/** Asserts that a call fails with an EngineError of a given code whose message names what it should. */
import { expect } from 'vitest';
import { EngineError, type EngineErrorCode } from '../../engine/errors.js';

export async function expectEngineError(fn: () => unknown, code: EngineErrorCode, ...mentions: (string | RegExp)[]): Promise<EngineError> {
  let caught: unknown;
  try {
    await fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, 'expected an EngineError to be thrown').toBeInstanceOf(EngineError);
  const e = caught as EngineError;
  expect(e.code).toBe(code);
  for (const m of mentions) expect(e.message).toMatch(m);
  return e;
}
