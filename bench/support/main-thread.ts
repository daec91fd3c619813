/**
 * The main thread's work during a page load, from a Chrome trace (CDP Tracing): each task of the
 * renderer's main thread longer than `minMs`, with when it started (ms after navigation start) and
 * what it was mostly doing (script compile/evaluation, style, layout, paint, HTML parsing). Read
 * beside the network waterfall, it shows whether the first screen waits on bytes or on the CPU.
 */
import type { CDPSession } from "@playwright/test";

export type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown> & { name?: string; data?: Record<string, unknown> };
};

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "blink.user_timing",
  "loading",
  "toplevel",
].join(",");

export async function startTrace(
  cdp: CDPSession,
  extraCategories: string[] = [],
): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  await cdp.send("Tracing.start", {
    categories: [CATEGORIES, ...extraCategories].join(","),
    transferMode: "ReportEvents",
  });
  return async () => {
    const done = new Promise<void>((resolve) =>
      cdp.once("Tracing.tracingComplete", () => resolve()),
    );
    await cdp.send("Tracing.end");
    await done;
    return events;
  };
}

/** Names of the kinds of work a task is made of, by the trace events inside it. */
const KIND: Record<string, string> = {
  ParseHTML: "html",
  "v8.compile": "compile",
  "v8.compileModule": "compile",
  "v8.parseOnBackground": "compile",
  EvaluateScript: "script",
  "v8.evaluateModule": "script",
  FunctionCall: "script",
  TimerFire: "script",
  EventDispatch: "script",
  RunMicrotasks: "script",
  ParseAuthorStyleSheet: "css-parse",
  UpdateLayoutTree: "style",
  Layout: "layout",
  Paint: "paint",
  PrePaint: "paint",
  Layerize: "paint",
};

/** `at`/`ms` in ms after the navigation's start; `ts`/`end` on the trace's clock (µs). */
export type Task = {
  at: number;
  ms: number;
  ts: number;
  end: number;
  kinds: Record<string, number>;
  detail: string;
};

/** The renderer's main thread (its process id) and the navigation's start on the trace's clock. */
export function mainThread(
  events: TraceEvent[],
): { pid: number; tid: number; navTs: number } | null {
  const main = events.find(
    (e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain",
  );
  const nav = events.find((e) => e.name === "navigationStart" && e.pid === main?.pid);
  return main && nav ? { pid: main.pid, tid: main.tid, navTs: nav.ts } : null;
}

/** The main thread's tasks of at least `minMs`, in ms relative to the navigation's start. */
export function mainThreadTasks(events: TraceEvent[], minMs = 4): Task[] {
  const main = mainThread(events);
  if (!main) return [];
  const nav = { ts: main.navTs };
  const onMain = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X")
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks = onMain.filter((e) => e.name === "RunTask" && (e.dur ?? 0) >= minMs * 1000);
  return tasks.map((t) => {
    const end = t.ts + (t.dur ?? 0);
    const kinds: Record<string, number> = {};
    const urls = new Set<string>();
    // Only the outermost events count: a layout forced by a script is the script's time.
    let outerEnd = 0;
    for (const e of onMain) {
      if (e.ts < t.ts || e.ts >= end || e.ts < outerEnd) continue;
      const kind = KIND[e.name];
      if (!kind) continue;
      outerEnd = e.ts + (e.dur ?? 0);
      kinds[kind] = (kinds[kind] ?? 0) + (e.dur ?? 0) / 1000;
      const url = (e.args?.data?.url ?? e.args?.data?.styleSheetUrl) as string | undefined;
      if (url)
        urls.add(url.replace(/^https?:\/\/[^/]+/, "").replace(/-[a-z0-9]{8}\.(js|css)$/, ".$1"));
    }
    return {
      at: Math.round((t.ts - nav.ts) / 1000),
      ms: Math.round((t.dur ?? 0) / 1000),
      ts: t.ts,
      end,
      kinds,
      detail: [...urls].slice(0, 3).join(" "),
    };
  });
}

export function printTasks(tasks: Task[]): void {
  for (const t of tasks) {
    const kinds = Object.entries(t.kinds)
      .filter(([, ms]) => ms >= 1)
      .sort((a, b) => b[1] - a[1])
      .map(([k, ms]) => `${k} ${Math.round(ms)}`)
      .join(", ");
    console.log(
      `    ${String(t.at).padStart(5)} +${String(t.ms).padStart(4)} ms  ${kinds}  ${t.detail}`,
    );
  }
}

/**
 * The first screen's CPU phases, in ms: the bundle's compile on the main thread (the longest
 * task that compiles a module before the evaluation: what the background compile left), its evaluation (the longest task that
 * evaluates a module: index.js's, React DOM's body with it), from its end to the render's start
 * (the route's chunks, the priming of the cache, React's start), and the render itself (the task
 * in which the first card went into the page, `rowsMs`). Null when the trace lacks them.
 */
export type Phases = { compile: number; evaluate: number; toRender: number; render: number };

export function firstScreenPhases(events: TraceEvent[], rowsMs: number): Phases | null {
  const main = mainThread(events);
  if (!main) return null;
  const tasks = mainThreadTasks(events, 1);
  const render = tasks.filter((t) => t.at <= rowsMs).at(-1);
  if (!render) return null;
  const evaluations = events.filter(
    (e) => e.name === "v8.evaluateModule" && e.pid === main.pid && e.tid === main.tid,
  );
  const evaluate = tasks
    .filter((t) => t.end <= render.ts && evaluations.some((e) => e.ts >= t.ts && e.ts < t.end))
    .sort((a, b) => b.ms - a.ms)[0];
  if (!evaluate) return null;
  const compile = tasks
    .filter((t) => t.end <= evaluate.ts && (t.kinds.compile ?? 0) > 0)
    .sort((a, b) => b.ms - a.ms)[0];
  return {
    compile: compile?.ms ?? 0,
    evaluate: evaluate.ms,
    toRender: Math.round((render.ts - evaluate.end) / 1000),
    render: render.ms,
  };
}
