/**
 * CNOSSOS-EU's eight octave bands (Directive 2002/49/EC Annex II, as amended by (EU) 2015/996 and 2021/1226)
 * and the air's absorption in each (ISO 9613-1:1993).
 *
 * Nominal frequencies (63 Hz ... 8 kHz) give the wave number, the wavelength and the ground's w; the exact
 * mid-band frequencies 1000 x 10^(0.3 k) give the atmospheric absorption, as ISO 9613-1 defines it (with the
 * nominal ones the 4 and 8 kHz values of the ISO/TR 17534-4 cases come out 0.3 and 1.5 dB/km off).
 */

/** The bands' nominal centre frequencies, Hz. */
export const OCTAVE_BANDS = [63, 125, 250, 500, 1000, 2000, 4000, 8000] as const;
/** Number of bands. */
export const BAND_COUNT = OCTAVE_BANDS.length;
/** The exact mid-band frequencies, Hz (IEC 61260: 1000 x 10^(0.3 k), k = -4 ... 3). */
export const EXACT_BANDS: readonly number[] = OCTAVE_BANDS.map((_, k) => 1000 * 10 ** (0.3 * (k - 4)));
/** A-weighting per band, dB (IEC 61672-1, rounded to 0.1 dB as the Directive tabulates it). */
export const A_WEIGHTING = [-26.2, -16.1, -8.6, -3.2, 0, 1.2, 1.0, -1.1] as const;
/** Speed of sound the method uses, m/s. */
export const SOUND_SPEED = 340;

/**
 * Atmospheric absorption per band, dB/km, for air at `temperatureC`, relative humidity `humidity` (%) and
 * pressure `pressureKPa` (ISO 9613-1:1993, equations 3 to 5 and Annex B). At 10 degrees C and 70 % it gives
 * 0.12, 0.41, 1.04, 1.93, 3.66, 9.66, 32.77, 116.88 dB/km, the values of the ISO/TR 17534-4 cases.
 */
export function airAbsorption(temperatureC: number, humidity: number, pressureKPa = 101.325): Float64Array {
  const T = temperatureC + 273.15, T0 = 293.15, T01 = 273.16, pr = 101.325;
  const pa = pressureKPa / pr;
  const C = -6.8346 * (T01 / T) ** 1.261 + 4.6151;
  // Molar concentration of water vapour, %.
  const h = (humidity * 10 ** C) / pa;
  const frO = pa * (24 + (4.04e4 * h * (0.02 + h)) / (0.391 + h));
  const frN = pa * (T / T0) ** -0.5 * (9 + 280 * h * Math.exp(-4.17 * ((T / T0) ** (-1 / 3) - 1)));
  const out = new Float64Array(BAND_COUNT);
  for (let i = 0; i < BAND_COUNT; i++) {
    const f = EXACT_BANDS[i];
    const perMetre = 8.686 * f * f * (1.84e-11 / pa * (T / T0) ** 0.5 + (T / T0) ** -2.5 * ((0.01275 * Math.exp(-2239.1 / T)) / (frO + (f * f) / frO) + (0.1068 * Math.exp(-3352.0 / T)) / (frN + (f * f) / frN)));
    out[i] = perMetre * 1000;
  }
  return out;
}
