/** When a typed tracking number is sent for carrier detection (docs/behaviour.md#validation). Pure. */

export const CARRIER_DETECT_MIN_LENGTH = 8;
export const CARRIER_DETECT_DEBOUNCE_MS = 500;

/** Detection is asked for only from 8 trimmed characters (docs/behaviour.md#validation). */
export function shouldDetectCarrier(trackingnumber: string): boolean {
  return trackingnumber.trim().length >= CARRIER_DETECT_MIN_LENGTH;
}
