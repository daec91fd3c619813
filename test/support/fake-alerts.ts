/**
 * The far sides of alert channels, on 127.0.0.1 (Bun.serve, free port), answering in their
 * documented shapes:
 * - ntfy: `POST /` with a JSON publish body → 200 `{id, time, event: "message", topic, ...}`;
 *   with `token` set, a request without `Authorization: Bearer <token>` gets ntfy's 401
 *   `{code: 40101, http: 401, error: "unauthorized"}`.
 * - a webhook receiver: `POST /hook/<anything>` → 200 (Home Assistant answers 200 with no body;
 *   Discord 204; Slack 200 "ok").
 * - a Web Push service: `POST /push/<id>` → 201 Created, as RFC 8030 says.
 *
 * `script(path, ...answers)` queues answers for the next requests to a path: a status (with
 * headers), or "hang" (never answers: for the timeout). Every request is recorded with its
 * headers and raw body; `received(n)` waits until `n` requests have arrived (events, not sleeps).
 * Browser specs use `GET /__fake/requests` (bodies in base64) and `POST /__fake/script`
 * `{path, answers}` instead.
 */

export type FakeAnswer =
  | { status: number; headers?: Record<string, string>; body?: string }
  | "hang";
export type FakeRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
  text: string;
  json: unknown;
  answered: number | "hang";
};

export type FakeAlerts = {
  url: string;
  requests: FakeRequest[];
  ntfyToken: string | null;
  script: (path: string, ...answers: FakeAnswer[]) => void;
  /** Resolves once at least `count` requests (in all) were received. */
  received: (count: number) => Promise<FakeRequest[]>;
  stop: () => void;
};

export function startFakeAlerts(): FakeAlerts {
  const scripts = new Map<string, FakeAnswer[]>();
  const requests: FakeRequest[] = [];
  const waiters: { count: number; resolve: (r: FakeRequest[]) => void }[] = [];
  const hanging: (() => void)[] = [];
  const fake: FakeAlerts = {
    url: "",
    requests,
    ntfyToken: null,
    script: (path, ...answers) => scripts.set(path, [...(scripts.get(path) ?? []), ...answers]),
    received: (count) =>
      requests.length >= count
        ? Promise.resolve(requests)
        : new Promise((resolve) => waiters.push({ count, resolve })),
    stop: () => {
      for (const h of hanging) h();
      server.stop(true);
    },
  };
  const record = (r: FakeRequest) => {
    requests.push(r);
    for (const w of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(requests);
    }
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      const body = new Uint8Array(await req.arrayBuffer());
      const text = new TextDecoder().decode(body);
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      const headers = Object.fromEntries(req.headers.entries());
      // Control for browser specs (their server runs in another process).
      if (u.pathname === "/__fake/requests") {
        return Response.json(
          requests.map((r) => ({ ...r, body: Buffer.from(r.body).toString("base64") })),
        );
      }
      if (u.pathname === "/__fake/script" && req.method === "POST") {
        const { path, answers } = json as { path: string; answers: FakeAnswer[] };
        fake.script(path, ...answers);
        return new Response(null, { status: 204 });
      }
      const queued = scripts.get(u.pathname)?.shift();
      const entry: FakeRequest = {
        method: req.method,
        path: u.pathname,
        headers,
        body,
        text,
        json,
        answered: 0,
      };
      if (queued === "hang") {
        entry.answered = "hang";
        record(entry);
        return new Promise<Response>((resolve) =>
          hanging.push(() => resolve(new Response(null, { status: 503 }))),
        );
      }
      let res: Response;
      if (queued) {
        res = new Response(queued.body ?? JSON.stringify({ error: `scripted ${queued.status}` }), {
          status: queued.status,
          headers: { "content-type": "application/json", ...queued.headers },
        });
      } else if (u.pathname === "/" && req.method === "POST") {
        if (fake.ntfyToken && headers.authorization !== `Bearer ${fake.ntfyToken}`) {
          res = Response.json({ code: 40101, http: 401, error: "unauthorized" }, { status: 401 });
        } else {
          const j = (json ?? {}) as { topic?: string; message?: string; title?: string };
          res = Response.json({
            id: crypto.randomUUID().slice(0, 12),
            time: Math.floor(Date.now() / 1000),
            event: "message",
            topic: j.topic,
            title: j.title,
            message: j.message,
          });
        }
      } else if (u.pathname.startsWith("/hook/")) {
        res = new Response(null, { status: 200 });
      } else if (u.pathname.startsWith("/push/")) {
        res = new Response(null, { status: 201, headers: { location: `${u.pathname}/msg` } });
      } else {
        res = new Response("not found", { status: 404 });
      }
      entry.answered = res.status;
      record(entry);
      return res;
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}
