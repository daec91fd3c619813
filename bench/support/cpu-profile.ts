/**
 * Where the main thread's script time goes during a page load: V8's CPU samples, recorded in the
 * same Chrome trace as the tasks (category `disabled-by-default-v8.cpu_profiler`, one clock), and
 * added up by function (self time: the sample's top frame) within a time window, e.g. one task of
 * `mainThreadTasks`. Positions in the minified chunks are named by their source maps when the
 * build wrote them (`GV_SOURCEMAP=1 bun run build`): `node_modules/react-dom/…:123 beginWork`.
 */
import fs from "node:fs";
import path from "node:path";
import { SourceMapConsumer } from "source-map";
import type { TraceEvent } from "./main-thread.ts";

export const PROFILE_CATEGORY = "disabled-by-default-v8.cpu_profiler";

type CallFrame = {
  functionName: string;
  url?: string;
  lineNumber: number;
  columnNumber: number;
};
type ProfileNode = { id: number; callFrame: CallFrame; parent?: number };

/** One sample: when (trace µs), its top frame, and the frames under it (outermost last). */
export type Sample = { ts: number; ms: number; stack: CallFrame[] };

/** The renderer main thread's samples, in time order, each with the time until the next. */
export function cpuSamples(events: TraceEvent[], mainPid: number): Sample[] {
  const nodes = new Map<string, ProfileNode>();
  const raw: { ts: number; key: string }[] = [];
  const starts = new Map<string, number>();
  const last = new Map<string, number>();
  for (const e of events) {
    if (e.pid !== mainPid) continue;
    const id = String((e as unknown as { id?: string }).id ?? "");
    const data = e.args?.data as Record<string, unknown> | undefined;
    if (e.name === "Profile") starts.set(id, Number(data?.startTime ?? e.ts));
    if (e.name !== "ProfileChunk" || !data) continue;
    const profile = data.cpuProfile as { nodes?: ProfileNode[]; samples?: number[] } | undefined;
    for (const n of profile?.nodes ?? []) nodes.set(`${id}:${n.id}`, n);
    const deltas = (data.timeDeltas as number[] | undefined) ?? [];
    let ts = last.get(id) ?? starts.get(id) ?? e.ts;
    (profile?.samples ?? []).forEach((s, i) => {
      ts += deltas[i] ?? 0;
      raw.push({ ts, key: `${id}:${s}` });
    });
    last.set(id, ts);
  }
  raw.sort((a, b) => a.ts - b.ts);
  const stackOf = (key: string): CallFrame[] => {
    const stack: CallFrame[] = [];
    const profileId = key.split(":")[0];
    for (
      let n = nodes.get(key);
      n;
      n = n.parent ? nodes.get(`${profileId}:${n.parent}`) : undefined
    )
      stack.push(n.callFrame);
    return stack;
  };
  return raw.map((s, i) => ({
    ts: s.ts,
    ms: Math.min(((raw[i + 1]?.ts ?? s.ts) - s.ts) / 1000, 5),
    stack: stackOf(s.key),
  }));
}

/** Names positions in the built chunks by their `.map` files (when the build wrote them). */
export class FrameNamer {
  private maps = new Map<string, SourceMapConsumer | null>();
  constructor(private distDir: string) {}

  name(frame: CallFrame): string {
    const url = frame.url ?? "";
    const file = url.replace(/^https?:\/\/[^/]+\//, "");
    const short = file.replace(/-[a-z0-9]{8}\.js$/, ".js");
    const fn = frame.functionName || "(anonymous)";
    if (!url) return fn;
    const map = this.map(file);
    const pos = map?.originalPositionFor({
      line: frame.lineNumber + 1,
      column: frame.columnNumber,
    });
    if (!pos?.source) return `${fn} ${short}:${frame.lineNumber + 1}:${frame.columnNumber}`;
    const source = pos.source.replace(/^(\.\.\/)+/, "").replace(/^.*node_modules\//, "npm:");
    return `${pos.name ?? fn} ${source}:${pos.line}`;
  }

  private map(file: string): SourceMapConsumer | null {
    if (!this.maps.has(file)) {
      const at = path.join(this.distDir, `${file}.map`);
      this.maps.set(
        file,
        fs.existsSync(at)
          ? new SourceMapConsumer(JSON.parse(fs.readFileSync(at, "utf8")) as never)
          : null,
      );
    }
    return this.maps.get(file) ?? null;
  }
}

/** Self time within [from, to) (trace µs) summed by `key` of the top frame's name, largest first. */
function selfTimesBy(
  samples: Sample[],
  from: number,
  to: number,
  namer: FrameNamer,
  key: (name: string) => string,
): [string, number][] {
  const totals = new Map<string, number>();
  for (const s of samples) {
    if (s.ts < from || s.ts >= to) continue;
    const top = s.stack[0];
    const k = key(top ? namer.name(top) : "(none)");
    totals.set(k, (totals.get(k) ?? 0) + s.ms);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Self time by function within [from, to) (trace µs), largest first. */
export function selfTimes(
  samples: Sample[],
  from: number,
  to: number,
  namer: FrameNamer,
): [string, number][] {
  return selfTimesBy(samples, from, to, namer, (name) => name);
}

/** Time within [from, to) by the source file or package of the top frame ("npm:react-dom"). */
export function selfTimesByModule(
  samples: Sample[],
  from: number,
  to: number,
  namer: FrameNamer,
): [string, number][] {
  return selfTimesBy(samples, from, to, namer, (name) => {
    const where = name.split(" ")[1] ?? name;
    return where.startsWith("npm:")
      ? where.replace(/^npm:((@[^/]+\/)?[^/]+).*/, "npm:$1")
      : where.replace(/:\d+(:\d+)?$/, "");
  });
}

/**
 * Time within [from, to) under each function (inclusive: anywhere on the sample's stack, once per
 * sample), for the functions `keep` accepts, largest first.
 */
export function inclusiveTimes(
  samples: Sample[],
  from: number,
  to: number,
  namer: FrameNamer,
  keep: (name: string) => boolean,
): [string, number][] {
  const totals = new Map<string, number>();
  for (const s of samples) {
    if (s.ts < from || s.ts >= to) continue;
    const names = new Set(s.stack.map((f) => namer.name(f)).filter(keep));
    for (const name of names) totals.set(name, (totals.get(name) ?? 0) + s.ms);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Samples within [from, to) that ran something (not "(idle)"): CPU time, not throttled waits. */
export function busyMs(samples: Sample[], from: number, to: number): number {
  let ms = 0;
  for (const s of samples) {
    if (s.ts >= from && s.ts < to && s.stack[0]?.functionName !== "(idle)") ms += s.ms;
  }
  return ms;
}
