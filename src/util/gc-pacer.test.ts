import { expect, test } from "bun:test";
import { createGcPacer } from "./gc-pacer.ts";

test("collects once per threshold of bytes passed, not before", () => {
  let collections = 0;
  const pace = createGcPacer(10, () => collections++);
  pace(4);
  pace(5);
  expect(collections).toBe(0);
  pace(1); // 10 bytes
  expect(collections).toBe(1);
  pace(9);
  expect(collections).toBe(1);
  pace(25); // one large chunk: one collection, the count starts again
  expect(collections).toBe(2);
  pace(9);
  expect(collections).toBe(2);
});

test("says whether it collected", () => {
  const pace = createGcPacer(10, () => {});
  expect(pace(9)).toBe(false);
  expect(pace(1)).toBe(true);
  expect(pace(3)).toBe(false);
});
