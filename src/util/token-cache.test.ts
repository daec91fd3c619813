import { expect, test } from "bun:test";
import { createTokenCache } from "./token-cache.ts";

test("a token is served until its renewal time, only for its tag; one fetch per flight key", async () => {
  let now = 1_000_000;
  const cache = createTokenCache<number>({ now: () => now, renewBeforeMs: () => 60_000 });
  cache.put(1, "t1", 3_600_000, "refresh-a");
  expect(cache.get(1, "refresh-a")).toBe("t1");
  expect(cache.get(1, "refresh-b")).toBeNull();
  now += 3_600_000 - 60_000;
  expect(cache.get(1, "refresh-a")).toBeNull();

  let calls = 0;
  let release: (v: string) => void = () => {};
  const fetch = () => {
    calls++;
    return new Promise<string>((r) => {
      release = r;
    });
  };
  const a = cache.once("1:a", fetch);
  const b = cache.once("1:a", fetch);
  release("t2");
  expect(await Promise.all([a, b])).toEqual(["t2", "t2"]);
  expect(calls).toBe(1);
  await cache.once("1:a", async () => {
    calls++;
    return "t3";
  });
  expect(calls).toBe(2);

  cache.put(1, "t4", 3_600_000);
  cache.drop(1, "other");
  expect(cache.get(1)).toBe("t4");
  cache.drop(1, "t4");
  expect(cache.get(1)).toBeNull();
});
