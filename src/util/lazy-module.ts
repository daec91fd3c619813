/**
 * A module loaded the first time it is used rather than when the server starts, for libraries
 * most users never need (the mail reader's date parser, tracking-number formats, Web Push, the
 * spreadsheet readers): each costs megabytes of resident memory for as long as the process runs.
 *
 * `load` is called once, on first use, and must `require` the module: Bun's `require` also loads
 * ES modules, synchronously, so the callers keep their synchronous signatures. A module that
 * fails to load throws at that use, and the next use tries again.
 *
 *   const chrono = lazyModule(() => require("chrono-node") as typeof import("chrono-node"));
 *   chrono().parseDate(text);
 */
export function lazyModule<T>(load: () => T): () => T {
  let mod: T | undefined;
  return () => {
    mod ??= load();
    return mod;
  };
}
