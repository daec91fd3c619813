import { describe, expect, test } from "bun:test";
import {
  DEFAULT_REVIEW_SETTINGS,
  TONES,
  type Tone,
  type ToneAllocation,
} from "../../src/contract/constants.ts";
import {
  clampPercent,
  initialToneState,
  isValidAllocation,
  setTone,
  type ToneState,
  toneTotal,
} from "./tone-allocation.ts";

const alloc = (partial: Partial<ToneAllocation>): ToneAllocation => ({
  humorous: 0,
  professional: 0,
  friendly: 0,
  concise: 0,
  encouraging: 0,
  formal: 0,
  ...partial,
});

/** Applies moves in order from the saved values. */
const play = (start: ToneAllocation, moves: [Tone, number][]): ToneState =>
  moves.reduce((s, [t, v]) => setTone(s, t, v), initialToneState(start));

describe("setTone: hand-written cases", () => {
  test("raising a tone from the default takes the points from humorous", () => {
    const s = play(DEFAULT_REVIEW_SETTINGS.toneAllocation, [["professional", 30]]);
    expect(s.allocation).toEqual(alloc({ humorous: 70, professional: 30 }));
    expect(s.history.at(-1)).toBe("professional");
  });

  test("a tone someone just set is the last to give points: least recently changed first", () => {
    const s = play(DEFAULT_REVIEW_SETTINGS.toneAllocation, [
      ["professional", 50], // humorous 50, professional 50
      ["friendly", 30], // humorous (never changed) gives first: humorous 20
    ]);
    expect(s.allocation).toEqual(alloc({ humorous: 20, professional: 50, friendly: 30 }));
  });

  test("the difference drains the least recently changed tone to 0, then the next", () => {
    const s = play(DEFAULT_REVIEW_SETTINGS.toneAllocation, [
      ["professional", 40], // humorous 60
      ["friendly", 50], // humorous 10
      ["concise", 30], // humorous gives its 10, then professional (changed before friendly) 20
    ]);
    expect(s.allocation).toEqual(
      alloc({ humorous: 0, professional: 20, friendly: 50, concise: 30 }),
    );
  });

  test("tones at 0 never give or receive points", () => {
    const s = play(alloc({ humorous: 50, formal: 50 }), [
      ["humorous", 20], // freed 30 go to formal, not to a tone at 0
      ["concise", 10], // taken from formal (humorous was changed more recently)
    ]);
    expect(s.allocation).toEqual(alloc({ humorous: 20, concise: 10, formal: 70 }));
  });

  test("lowering a tone gives the freed points to the least recently changed tone above 0", () => {
    const s = play(alloc({ humorous: 40, professional: 30, friendly: 30 }), [
      ["humorous", 50], // takes 10 from professional (first in the tones' order)
      ["friendly", 10], // frees 20: professional is the least recently changed above 0
    ]);
    expect(s.allocation).toEqual(alloc({ humorous: 50, professional: 40, friendly: 10 }));
  });

  test("setting the only tone above 0 to 0 keeps it at 100 (all would be 0)", () => {
    const start = initialToneState(DEFAULT_REVIEW_SETTINGS.toneAllocation);
    const s = setTone(start, "humorous", 0);
    expect(s.allocation).toEqual(alloc({ humorous: 100 }));
    expect(s).toBe(start);
  });

  test("lowering the only tone above 0 keeps it at 100: no other tone can take the points", () => {
    const s = play(DEFAULT_REVIEW_SETTINGS.toneAllocation, [["humorous", 60]]);
    expect(s.allocation).toEqual(alloc({ humorous: 100 }));
  });

  test("a tone set to 100 takes everything, and then holds it until another tone is raised", () => {
    const s1 = play(alloc({ humorous: 20, professional: 30, friendly: 50 }), [["formal", 100]]);
    expect(s1.allocation).toEqual(alloc({ formal: 100 }));
    const s2 = setTone(s1, "formal", 80);
    // No other tone is above 0 any more: formal holds all 100.
    expect(s2.allocation).toEqual(alloc({ formal: 100 }));
  });

  test("a tone brought to 0 by another stops being a donor and a recipient", () => {
    const s = play(alloc({ humorous: 50, professional: 50 }), [
      ["friendly", 50], // humorous → 0
      ["friendly", 20], // frees 30: humorous is at 0, professional receives
    ]);
    expect(s.allocation).toEqual(alloc({ professional: 80, friendly: 20 }));
  });

  test("values are clamped to whole numbers from 0 to 100", () => {
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(140)).toBe(100);
    expect(clampPercent(33.6)).toBe(34);
    expect(clampPercent(Number.NaN)).toBe(0);
    const s = play(DEFAULT_REVIEW_SETTINGS.toneAllocation, [["concise", 250]]);
    expect(s.allocation).toEqual(alloc({ concise: 100 }));
    const t = play(DEFAULT_REVIEW_SETTINGS.toneAllocation, [["concise", 12.4]]);
    expect(t.allocation).toEqual(alloc({ humorous: 88, concise: 12 }));
  });

  test("setting the value a tone already has changes nothing, not even the history", () => {
    const start = initialToneState(alloc({ humorous: 60, formal: 40 }));
    expect(setTone(start, "formal", 40)).toBe(start);
  });

  test("the input state is never modified", () => {
    const start = initialToneState(alloc({ humorous: 60, formal: 40 }));
    const copy = structuredClone(start);
    setTone(start, "concise", 70);
    expect(start).toEqual(copy);
  });

  test("isValidAllocation and toneTotal", () => {
    expect(isValidAllocation(DEFAULT_REVIEW_SETTINGS.toneAllocation)).toBe(true);
    expect(isValidAllocation(alloc({ humorous: 90 }))).toBe(false);
    expect(isValidAllocation(alloc({ humorous: 110, formal: -10 }))).toBe(false);
    expect(isValidAllocation(alloc({ humorous: 99.5, formal: 0.5 }))).toBe(false);
    expect(toneTotal(alloc({ humorous: 25, formal: 25 }))).toBe(50);
  });
});

/** A small seeded generator (mulberry32), so a failing sequence can be replayed from its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random valid allocation: 100 split over a random subset of tones. */
function randomAllocation(r: () => number): ToneAllocation {
  const a = alloc({});
  let left = 100;
  const order = [...TONES].sort(() => r() - 0.5);
  for (const [i, t] of order.entries()) {
    const v = i === order.length - 1 ? left : Math.floor(r() * (left + 1) * (r() < 0.4 ? 0 : 1));
    a[t] = v;
    left -= v;
  }
  return a;
}

describe("setTone: random sequences of moves", () => {
  const SEQUENCES = 500;
  const MOVES = 40;

  test(`${SEQUENCES} sequences of ${MOVES} moves keep every rule`, () => {
    for (let seed = 1; seed <= SEQUENCES; seed++) {
      const r = rng(seed);
      const start = r() < 0.3 ? DEFAULT_REVIEW_SETTINGS.toneAllocation : randomAllocation(r);
      let s = initialToneState(start);
      for (let m = 0; m < MOVES; m++) {
        const tone = TONES[Math.floor(r() * TONES.length)]!;
        // Mostly slider values (0–100, often the ends), sometimes out of range or fractional.
        const pick = r();
        const value =
          pick < 0.1 ? 0 : pick < 0.2 ? 100 : pick < 0.25 ? r() * 300 - 100 : Math.floor(r() * 101);
        const before = s;
        const after = setTone(before, tone, value);
        const ctx = `seed ${seed}, move ${m}: ${tone} → ${value}`;
        const b = before.allocation;
        const a = after.allocation;
        const target = clampPercent(value);
        const others = TONES.filter((t) => t !== tone);
        const donors = before.history.filter((t) => t !== tone && b[t] > 0);

        // Always whole numbers from 0 to 100 adding up to 100.
        for (const t of TONES) {
          if (!Number.isInteger(a[t]) || a[t] < 0 || a[t] > 100)
            throw new Error(`${ctx}: ${t}=${a[t]}`);
        }
        if (toneTotal(a) !== 100) throw new Error(`${ctx}: total ${toneTotal(a)}`);
        // The history is always a permutation of the tones.
        expect([...after.history].sort()).toEqual([...TONES].sort());

        if (target === b[tone]) {
          expect(after, ctx).toBe(before);
          continue;
        }
        if (donors.length === 0) {
          // The edited tone is the only one above 0: it keeps all 100.
          expect(b[tone], ctx).toBe(100);
          expect(after, ctx).toBe(before);
          continue;
        }
        // The edited tone gets exactly the value; it becomes the most recently changed.
        expect(a[tone], ctx).toBe(target);
        expect(after.history, ctx).toEqual([...before.history.filter((t) => t !== tone), tone]);
        // Tones at 0 stay at 0.
        for (const t of others) if (b[t] === 0) expect(a[t], ctx).toBe(0);

        if (target > b[tone]) {
          // Raised: others only give, least recently changed first — a donor gives only once
          // every less recently changed donor is drained to 0.
          for (const t of others) expect(a[t] <= b[t], ctx).toBe(true);
          const gave = donors.map((t) => b[t] - a[t]);
          const firstPartial = donors.findIndex((t) => a[t] > 0);
          for (let i = firstPartial + 1; i < donors.length; i++) {
            if (firstPartial >= 0) expect(gave[i], ctx).toBe(0);
          }
        } else {
          // Lowered: exactly the least recently changed donor receives all the freed points.
          const receiver = donors[0]!;
          expect(a[receiver] - b[receiver], ctx).toBe(b[tone] - target);
          for (const t of others) if (t !== receiver) expect(a[t], ctx).toBe(b[t]);
        }
        s = after;
      }
    }
  });
});
