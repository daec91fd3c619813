import { describe, expect, test } from "bun:test";
import pino from "pino";
import type { FirstScreenRenderer } from "../../contract/first-screen.ts";
import { createFirstScreenService } from "./first-screen.service.ts";

/** A logger that keeps its lines' messages. */
function memoryLog() {
  const lines: string[] = [];
  const log = pino(
    { level: "info" },
    { write: (line: string) => lines.push(JSON.parse(line).msg as string) },
  );
  return { log, lines };
}

const request = {
  path: "/orders",
  search: "",
  language: "en" as const,
  width: 390,
  height: 844,
  token: "t",
  fetch: () => Promise.resolve(new Response("{}")),
};

describe("the first-screen service", () => {
  test("hands the renderer the address, the browser's facts and the user's request function", async () => {
    const { log } = memoryLog();
    let seen: Parameters<FirstScreenRenderer["renderFirstScreen"]>[0] | undefined;
    const service = createFirstScreenService({
      distDir: "/nowhere",
      log,
      loadRenderer: async () => ({
        renderFirstScreen: async (r) => {
          seen = r;
          return "<main>rows</main>";
        },
      }),
    });
    expect(await service.render(request)).toBe("<main>rows</main>");
    expect(seen).toMatchObject({
      pathname: "/orders",
      search: "",
      token: "t",
      language: "en",
      viewport: { width: 390, height: 844 },
    });
    expect(seen?.fetch).toBe(request.fetch);
  });

  test("no renderer built: null, said once in the log, and not looked for again", async () => {
    const { log, lines } = memoryLog();
    let loads = 0;
    const service = createFirstScreenService({
      distDir: "/nowhere",
      log,
      loadRenderer: () => {
        loads++;
        return Promise.reject(new Error("Cannot find module"));
      },
    });
    expect(await service.render(request)).toBeNull();
    expect(await service.render(request)).toBeNull();
    expect(loads).toBe(1);
    expect(lines).toEqual(["no server render of first screens (run `bun run build`)"]);
  });

  test("a render that throws: null and a warning; the next one is drawn", async () => {
    const { log, lines } = memoryLog();
    let calls = 0;
    const service = createFirstScreenService({
      distDir: "/nowhere",
      log,
      loadRenderer: async () => ({
        renderFirstScreen: async () => {
          if (++calls === 1) throw new Error("boom");
          return "<main>second</main>";
        },
      }),
    });
    expect(await service.render(request)).toBeNull();
    expect(lines).toEqual(["the server render of a first screen failed"]);
    expect(await service.render(request)).toBe("<main>second</main>");
  });

  test("a render that never ends: null once the time limit passes", async () => {
    const { log, lines } = memoryLog();
    const service = createFirstScreenService({
      distDir: "/nowhere",
      log,
      timeLimitMs: 5,
      loadRenderer: async () => ({ renderFirstScreen: () => new Promise<string>(() => {}) }),
    });
    expect(await service.render(request)).toBeNull();
    expect(lines).toEqual(["a first screen's render ran late"]);
  });
});
