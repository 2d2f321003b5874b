/**
 * `propintel/noise`: road traffic noise by CoRTN (Calculation of Road Traffic Noise, UK DoT 1988, as
 * Australian road agencies use it): the reference L10 of a traffic flow and each correction by its chart.
 */
export {
  cortnReferenceL10,
  cortnBasicLevelHourly,
  cortnSpeedHeavyCorrection,
  cortnGradientCorrection,
  cortnDistanceCorrection,
  cortnGroundCorrection,
  cortnAngleOfViewCorrection,
  cortnBarrierCorrection,
  L10_TO_LAEQ_DB,
  type CortnTraffic,
} from '../noise/cortn.js';
export { energySumDb, dbToEnergy, energyToDb } from '../noise/decibels.js';
