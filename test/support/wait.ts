/**
 * The tests' one wait: polls until `check` returns something truthy and returns it, or throws after
 * `timeoutMs` naming what was awaited. It returns as soon as the condition holds, so the bound only
 * matters on a slow, loaded machine. An error thrown by `check` is retried (what is awaited may not
 * answer yet) and named if time runs out; a `StopWaiting` ends the wait at once (a server that has
 * exited will never start listening).
 */
export class StopWaiting extends Error {}

export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 10_000,
  stepMs = 20,
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      if (err instanceof StopWaiting) throw err;
      last = err;
    }
    if (Date.now() > until) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last}` : ""}`,
      );
    }
    await Bun.sleep(stepMs);
  }
}
