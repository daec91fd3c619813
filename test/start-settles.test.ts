/**
 * The real server (the bundle `npm start` and Docker run) settles after its start: the JIT's
 * normal policy again and a trim that drops the compiled code of everything not running
 * (src/util/idle-memory.ts). What a user would notice if that went wrong: a server that stops
 * answering, or answers wrongly, once its code was dropped. This starts it, waits for the settle
 * (its debug line), then uses the API: each route's code is compiled again as it is called.
 */
import { afterAll, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApp } from "./support/app-process.ts";
import { waitFor } from "./support/wait.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-settle-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test("once the start has settled and its code was dropped, the server still answers every kind of request", async () => {
  const app = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: "debug" });
  try {
    await waitFor(
      () => app.stdout().includes('"msg":"start settled: the normal JIT policy, memory trimmed"'),
      "the start to settle",
      20_000,
    );
    const token = await app.register("settled@example.com");
    const created = await app.call("POST", "/api/orders", {
      token,
      body: { productname: "Kettle", asin: "B0SETTLED1", dateordered: "2026-11-01" },
    });
    expect(created.status).toBe(201);
    const list = await app.call("GET", "/api/orders", { token });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain("B0SETTLED1");
    // Bad input is still refused with its sentence, not a 500.
    const bad = await app.call("POST", "/api/orders", { token, body: { dateordered: "soon" } });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe("string");
    // Settled once: one line.
    expect(app.stdout().split("start settled").length - 1).toBe(1);
  } finally {
    app.proc.kill("SIGTERM");
  }
  expect(await app.exited).toBe(0);
}, 40_000);
