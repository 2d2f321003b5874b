/**
 * Decibel arithmetic for incoherent sources: levels add as energies, `L = 10 lg sum 10^(Li/10)`
 * (the energy-summation rule every environmental noise method uses for uncorrelated sources, e.g. ISO 1996-1
 * section 3 and Directive 2002/49/EC Annex II). Energies here are relative intensities `10^(L/10)`, so a
 * level of 0 dB is energy 1 and silence is energy 0 (level -Infinity).
 */

/** The relative energy of a level: `10^(L/10)`. */
export function dbToEnergy(level: number): number {
  return Math.pow(10, level / 10);
}

/** The level of a relative energy: `10 lg E`; `-Infinity` for zero energy. */
export function energyToDb(energy: number): number {
  return energy > 0 ? 10 * Math.log10(energy) : -Infinity;
}

/** The energy sum of levels in dB: two equal levels give +10 lg 2 = +3.01 dB. Empty input is -Infinity. */
export function energySumDb(levels: readonly number[]): number {
  let e = 0;
  for (const l of levels) if (Number.isFinite(l)) e += dbToEnergy(l);
  return energyToDb(e);
}

/** Rounds a level to 0.1 dB for reporting; non-finite levels become null (never a confident number). */
export function reportDb(level: number): number | null {
  return Number.isFinite(level) ? Math.round(level * 10) / 10 : null;
}
