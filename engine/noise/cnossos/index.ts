/** CNOSSOS-EU propagation per octave band along cut profiles (Directive 2002/49/EC Annex II as amended). */
export { A_WEIGHTING, airAbsorption, BAND_COUNT, EXACT_BANDS, OCTAVE_BANDS } from './bands.js';
export { readCutProfile, type CutPoint, type CutProfile, type ProfileType } from './profile.js';
export { longTermLevel, pathLevels, sumLevels, type PathConditions, type PathKind, type PathLevels } from './path.js';
export { caseFiles, type CaseResult, profileFileLevels } from './cases.js';
