/**
 * Tone allocation (docs/behaviour.md#states-and-transitions): the six tones always add up to 100. Setting one tone to a value
 * takes the difference from the other tones that are above 0, least recently changed first; a
 * lowered tone's points go to another tone above 0 (the least recently changed), so the total
 * stays 100. If no other tone is above 0, there is nowhere for points to come from or go to, so
 * the edited tone stays at 100 ("if all would be 0, the edited tone becomes 100").
 *
 * Pure: the "least recently changed" order is explicit state. Only the tone the person moves
 * counts as changed; the tones that gave or received points keep their place, so a tone someone
 * just set is the last to be taken from.
 */
import { TONE_TOTAL, TONES, type Tone, type ToneAllocation } from "../../src/contract/constants.ts";

export type ToneState = {
  allocation: ToneAllocation;
  /** Every tone once, least recently changed first (the next to give up points). */
  history: readonly Tone[];
};

/** The state for saved values: nothing changed yet, so the history is the tones' own order. */
export function initialToneState(allocation: ToneAllocation): ToneState {
  return { allocation: { ...allocation }, history: [...TONES] };
}

export function toneTotal(allocation: ToneAllocation): number {
  return TONES.reduce((sum, t) => sum + allocation[t], 0);
}

/** A whole number from 0 to 100 (slider input arrives as text; anything else is clamped). */
export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(TONE_TOTAL, Math.max(0, Math.round(value)));
}

/** Sets `tone` to `value` and rebalances the others as described above. */
export function setTone(state: ToneState, tone: Tone, value: number): ToneState {
  const before = state.allocation;
  const target = clampPercent(value);
  const delta = target - before[tone];
  if (delta === 0) return state;

  const donors = state.history.filter((t) => t !== tone && before[t] > 0);
  // Nobody else holds points: the edited tone holds all of them and stays at 100.
  if (donors.length === 0) return state;

  const next: ToneAllocation = { ...before, [tone]: target };
  if (delta > 0) {
    // Raised: take the difference from the others above 0, least recently changed first. They
    // hold 100 - before[tone] ≥ delta between them, so this always completes.
    let owed = delta;
    for (const t of donors) {
      if (owed === 0) break;
      const take = Math.min(next[t], owed);
      next[t] -= take;
      owed -= take;
    }
  } else {
    // Lowered: the freed points go to the least recently changed tone above 0.
    next[donors[0]!] += -delta;
  }
  return {
    allocation: next,
    history: [...state.history.filter((t) => t !== tone), tone],
  };
}

/** True when every tone is a whole number from 0 to 100 and they add up to 100 (docs/behaviour.md#validation). */
export function isValidAllocation(allocation: ToneAllocation): boolean {
  return (
    TONES.every((t) => Number.isInteger(allocation[t]) && allocation[t] >= 0) &&
    toneTotal(allocation) === TONE_TOTAL
  );
}
