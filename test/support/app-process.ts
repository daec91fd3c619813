/**
 * The real server as a child process (the bundle in dist-server/, as `npm start` and Docker run
 * it; built once per test run from the current source) on a free port, with its stdout collected, for tests that need signals, a real file system or a
 * second process next to it.
 */
import path from "node:path";
import { buildServer, SERVER_ENTRY } from "../../scripts/build-server.ts";
import { StopWaiting, waitFor } from "./wait.ts";

const ROOT = path.resolve(import.meta.dir, "../..");

let built: Promise<string> | null = null;
/** The server bundle of this checkout, built once per process so it is never older than src/. */
function builtServer(): Promise<string> {
  built ??= buildServer().then(() => SERVER_ENTRY);
  return built;
}

export function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

export type AppProcess = {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  base: string;
  /** Everything the process wrote to stdout so far. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  /** JSON request helper (`token` as a bearer header). */
  call: (
    method: string,
    url: string,
    opts?: { body?: unknown; token?: string },
  ) => Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>;
  register: (email: string) => Promise<string>;
};

function collect(stream: ReadableStream<Uint8Array>, into: { text: string }) {
  void (async () => {
    const dec = new TextDecoder();
    for await (const chunk of stream) into.text += dec.decode(chunk, { stream: true });
  })();
}

/**
 * Starts the server with `env` on top of a minimal environment (on `env.PORT`, else a free port);
 * `root`: another checkout's server (a benchmark comparing two versions), else this one.
 */
export async function startApp(env: Record<string, string>, root = ROOT): Promise<AppProcess> {
  const port = env.PORT ? Number(env.PORT) : freePort();
  // Another checkout (a benchmark comparing versions) runs from its source.
  const entry = root === ROOT ? await builtServer() : "src/main.ts";
  const proc = Bun.spawn([process.execPath, "run", entry], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      HOST: "127.0.0.1",
      PORT: String(port),
      ...env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = { text: "" };
  const err = { text: "" };
  collect(proc.stdout, out);
  collect(proc.stderr, err);
  const base = `http://127.0.0.1:${port}`;
  const call: AppProcess["call"] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = {};
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(`${base}${url}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { text };
    }
    return { status: res.status, headers: res.headers, body };
  };
  await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new StopWaiting(`the server exited: ${err.text}`);
      await fetch(`${base}/api/health`);
      return true;
    },
    `${base} to listen`,
    15_000,
  );
  return {
    proc,
    base,
    stdout: () => out.text,
    stderr: () => err.text,
    exited: proc.exited,
    call,
    register: async (email) => {
      const r = await call("POST", "/api/auth/register", {
        body: { email, password: "secret12", displayname: email.split("@")[0] },
      });
      if (r.status !== 201) throw new Error(`register ${email}: ${r.status}`);
      return String(r.body.token);
    },
  };
}
