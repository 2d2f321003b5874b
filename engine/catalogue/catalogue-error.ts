/** The error a catalogue load raises: every problem found, each naming the source and the field. */
import { EngineError } from '../errors.js';

/** One problem in a catalogue. */
export interface CatalogueProblem {
  /** The source id (or `catalogue` for top-level fields). */
  source: string;
  /** The field, e.g. `paths[2]` or `files[0].path`. */
  field: string;
  message: string;
}

/** Builds the INVALID_DATA error listing every problem. */
export function catalogueError(file: string, problems: CatalogueProblem[]): EngineError {
  const lines = problems.map((p) => `  - ${p.source}: ${p.field}: ${p.message}`).join('\n');
  return new EngineError('INVALID_DATA', `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the catalogue:\n${lines}`, { file, problems });
}
