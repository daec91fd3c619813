/**
 * A small stand-in for an OpenAI-compatible server (OpenAI, Ollama, LM Studio) on 127.0.0.1
 * (Bun.serve, free port): `POST /v1/chat/completions` only, answering in OpenAI's documented
 * shapes, for the AI-help tests (API and browser).
 *
 * - Success: `{id, object: "chat.completion", created, model, choices: [{index, message: {role:
 *   "assistant", content}, finish_reason: "stop"}], usage}`; the content is `reply(request)`
 *   (default: a JSON object with FAKE_TEXT and FAKE_SUBJECT, as the prompt asks for).
 * - Failures in OpenAI's error shape `{error: {message, type, param, code}}`: 429 with
 *   `retry-after`, 400, 401 for a wrong key (when `apiKey` is set), 500.
 * - `slow`: answers only after `ms` (past the app's timeout); `empty`: content "".
 *
 * What a request gets: the next queued scenario (`enqueue`), else a marker in the messages, else
 * success. Markers let a browser test (whose server runs in another process) pick a scenario
 * through the text it types: `[fake:429]`, `[fake:400]`, `[fake:500]`, `[fake:slow]`,
 * `[fake:empty]`, `[fake:fenced]` (JSON in a ```json fence), `[fake:plain]` (plain prose, no
 * JSON); `[fake:429*2#tag]` fails only the first 2 requests carrying that tag, then succeeds.
 *
 * Every request is recorded (path, authorization header, parsed body) so tests can assert the
 * prompt and that nothing else was sent.
 *
 *   const ai = startFakeOpenAI();
 *   createHarness({ OPENAI_BASE_URL: ai.baseUrl, OPENAI_API_KEY: "k" }) ...
 *   ai.stop();
 */

export const FAKE_TEXT =
  "This bamboo cutting board is sturdy, easy to clean and has not warped after weeks of use.";
export const FAKE_SUBJECT = "Sturdy board that stays flat";

export type FakeScenario =
  | { kind: "ok"; content?: string }
  | { kind: "rate-limited"; retryAfter?: string | null }
  | { kind: "slow"; ms: number; content?: string }
  | { kind: "bad-request"; message?: string }
  | { kind: "server-error"; status?: number }
  | { kind: "empty" };

export type FakeChatMessage = { role: string; content: string };
export type FakeOpenAIRequest = {
  method: string;
  path: string;
  authorization: string | null;
  body: {
    model?: string;
    messages?: FakeChatMessage[];
    [k: string]: unknown;
  } | null;
  /** What was answered. */
  status: number;
};

export type FakeOpenAI = {
  /** The base URL to give the SDK (OPENAI_BASE_URL), ending in /v1. */
  baseUrl: string;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey: string | null;
  /** The content of a successful answer. */
  reply: (req: FakeOpenAIRequest) => string;
  /** Every request, in order. */
  requests: FakeOpenAIRequest[];
  /** Scenarios for the next requests, first in first out. */
  enqueue: (...scenarios: FakeScenario[]) => void;
  /** All message contents of a recorded request joined (for "the prompt says..." checks). */
  promptOf: (req: FakeOpenAIRequest) => string;
  stop: () => void;
};

const MARKER = /\[fake:(\w+)(?:\*(\d+))?(?:#([\w-]+))?\]/;

const defaultReply = () => JSON.stringify({ text: FAKE_TEXT, subject: FAKE_SUBJECT });

function errorBody(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

export function startFakeOpenAI(opts: { apiKey?: string; model?: string } = {}): FakeOpenAI {
  const queue: FakeScenario[] = [];
  const tagCounts = new Map<string, number>();

  const fake: FakeOpenAI = {
    baseUrl: "",
    apiKey: opts.apiKey ?? null,
    reply: defaultReply,
    requests: [],
    enqueue: (...s) => queue.push(...s),
    promptOf: (req) => (req.body?.messages ?? []).map((m) => m.content).join("\n"),
    stop: () => server.stop(true),
  };

  /** The scenario a request's messages ask for through a marker. */
  function fromMarker(req: FakeOpenAIRequest): FakeScenario | null {
    const m = MARKER.exec(fake.promptOf(req));
    if (!m) return null;
    const [, name, times, tag] = m;
    if (times) {
      const key = `${name}#${tag ?? ""}`;
      const seen = tagCounts.get(key) ?? 0;
      tagCounts.set(key, seen + 1);
      if (seen >= Number(times)) return null;
    }
    switch (name) {
      case "429":
        return { kind: "rate-limited", retryAfter: "17" };
      case "400":
        return { kind: "bad-request" };
      case "500":
        return { kind: "server-error" };
      case "slow":
        return { kind: "slow", ms: 120_000 };
      case "empty":
        return { kind: "empty" };
      case "fenced":
        return { kind: "ok", content: `Sure! Here it is:\n\`\`\`json\n${defaultReply()}\n\`\`\`` };
      case "plain":
        return { kind: "ok", content: FAKE_TEXT };
      default:
        return null;
    }
  }

  const completion = (model: string, content: string) => ({
    id: `chatcmpl-fake${fake.requests.length}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
  });

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // The slow scenario holds a request open far longer than Bun's default 10 s idle timeout.
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      let body: FakeOpenAIRequest["body"] = null;
      try {
        body = (await request.json()) as FakeOpenAIRequest["body"];
      } catch {
        body = null;
      }
      const rec: FakeOpenAIRequest = {
        method: request.method,
        path: url.pathname,
        authorization: request.headers.get("authorization"),
        body,
        status: 0,
      };
      fake.requests.push(rec);
      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        rec.status = status;
        return Response.json(json, { status, headers });
      };

      if (request.method !== "POST" || url.pathname !== "/v1/chat/completions") {
        return answer(
          404,
          errorBody(`Unknown request URL: ${url.pathname}`, "invalid_request_error", "unknown_url"),
        );
      }
      if (fake.apiKey && rec.authorization !== `Bearer ${fake.apiKey}`) {
        return answer(
          401,
          errorBody("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"),
        );
      }
      if (!body || !Array.isArray(body.messages) || typeof body.model !== "string") {
        return answer(
          400,
          errorBody("'messages' and 'model' are required", "invalid_request_error", null),
        );
      }

      const scenario: FakeScenario = queue.shift() ?? fromMarker(rec) ?? { kind: "ok" };
      const model = body.model;
      switch (scenario.kind) {
        case "ok":
          return answer(200, completion(model, scenario.content ?? fake.reply(rec)));
        case "empty":
          return answer(200, completion(model, ""));
        case "slow": {
          await Bun.sleep(scenario.ms);
          return answer(200, completion(model, scenario.content ?? fake.reply(rec)));
        }
        case "rate-limited": {
          const headers: Record<string, string> = {};
          const ra = scenario.retryAfter === undefined ? "17" : scenario.retryAfter;
          if (ra !== null) headers["retry-after"] = ra;
          return answer(
            429,
            errorBody(
              "Rate limit reached for requests. Please try again later.",
              "requests",
              "rate_limit_exceeded",
            ),
            headers,
          );
        }
        case "bad-request":
          return answer(
            400,
            errorBody(
              scenario.message ?? "This model's maximum context length is 8192 tokens.",
              "invalid_request_error",
              "context_length_exceeded",
            ),
          );
        case "server-error":
          return answer(
            scenario.status ?? 500,
            errorBody(
              "The server had an error while processing your request.",
              "server_error",
              null,
            ),
          );
      }
    },
  });
  fake.baseUrl = `http://127.0.0.1:${server.port}/v1`;
  return fake;
}
