import { describe, expect, test } from "bun:test";
import { PHRASES } from "./phrases.ts";

/** Every entry of every language, with where it is. */
function entries(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [lang, p] of Object.entries(PHRASES)) {
    for (const [table, v] of Object.entries(p)) {
      const lists = Array.isArray(v) ? [["", v] as const] : Object.entries(v ?? {});
      for (const [kind, list] of lists) {
        for (const e of list as string[])
          out.push([`${lang}.${table}${kind ? `.${kind}` : ""}`, e]);
      }
    }
  }
  return out;
}

describe("phrases.ts: what a newcomer adds cannot break the reader", () => {
  test("every entry is a pattern that needs some text (an empty match would claim every mail)", () => {
    const bad = entries().filter(([, e]) => {
      try {
        return new RegExp(`^(?:${e})$`, "iu").test("");
      } catch {
        return true;
      }
    });
    expect(bad).toEqual([]);
  });

  test("no entry has a nested unbounded quantifier (hostile mail must not make it backtrack)", () => {
    const nested = /\((?:[^()]|\([^()]*\))*[+*]\)[+*]/;
    expect(entries().filter(([, e]) => nested.test(e))).toEqual([]);
  });
});
