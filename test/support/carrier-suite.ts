/**
 * The tracking API tests' setup: one fake carrier server for the test file
 * (test/support/fake-carriers.ts), reset before each test, and a fresh harness pointed at it,
 * closed after the test (whichever harness the test left in place). `use` hands both to the
 * test file's variables.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "bun:test";
import { createHarness, type Harness } from "../harness.ts";
import { type FakeCarriers, startFakeCarriers } from "./fake-carriers.ts";

export function fakeCarrierSuite(
  use: (fake: FakeCarriers, h: Harness) => void,
  current: () => Harness,
): void {
  let fake: FakeCarriers | undefined;
  beforeAll(() => {
    fake = startFakeCarriers();
  });
  afterAll(() => fake?.stop());
  beforeEach(() => {
    if (!fake) throw new Error("the fake carriers did not start");
    fake.reset();
    use(fake, createHarness(fake.env));
  });
  afterEach(() => current().close());
}
