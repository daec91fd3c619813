/**
 * Mail import of a large Google Takeout mbox over real HTTP: server memory and speed.
 *
 *   bun run bench/mbox-import.bench.ts            (200 MB)
 *   bun run bench/mbox-import.bench.ts --mb 1024  (a 1 GB mailbox)
 *
 * Starts the app in this process on a free port (Bun.serve with a 2 GB body limit, the import's
 * own limit) and registers a user; a child bun process (this file with --client) POSTs one
 * multipart upload whose mbox it generates while sending: mostly newsletters, 1 in 40 a Vine
 * order confirmation, 1 in 40 a shipped mail for it. The server's RSS (this process only) is
 * sampled every 20 ms from before the upload to the answer, split into the upload phase (spooled
 * to a temp file) and the reading phase (mbox split and ingested). Target: RSS growth under
 * 150 MB: nothing may grow with the size of the file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { closeDatabase, openDatabase } from "../src/db/client.ts";
import { createApp } from "../src/http/app.ts";
import { createLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { amazonMail, plainMail } from "../test/api/mail-messages.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const TARGET_MB = Number(arg("--mb", "200"));
const GROWTH_TARGET_MB = 150;
const BOUNDARY = "----benchBoundary8f3a1c";

/* ------------------------------------------------------------------------------------------------
 * The client (child process): generates the mbox while uploading it
 * --------------------------------------------------------------------------------------------- */

async function client(url: string, token: string): Promise<void> {
  const enc = new TextEncoder();
  const head = enc.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="All mail Including Spam and Trash.mbox"\r\nContent-Type: application/mbox\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${BOUNDARY}--\r\n`);
  const filler = `${"Newsletter text that nobody reads, line after line. ".repeat(60)}\n`;
  const limit = TARGET_MB * 1024 * 1024;
  let i = 0;
  let sent = 0;
  let amazon = 0;
  const nextMessage = (): string => {
    const n = i++;
    let m: string;
    if (n % 40 === 1) {
      amazon++;
      m = amazonMail({
        kind: "ordered",
        order: `900-${String(n).padStart(7, "0")}-0000001`,
        items: [
          { name: `Bench Item ${n}`, asin: `B0${String(n).padStart(8, "0")}`, price: "0.00" },
        ],
        total: "0.00",
        messageId: `o${n}@amazon.com`,
      });
    } else if (n % 40 === 2) {
      amazon++;
      m = amazonMail({
        kind: "shipped",
        order: `900-${String(n - 1).padStart(7, "0")}-0000001`,
        items: [],
        messageId: `s${n}@amazon.com`,
      });
    } else {
      m = plainMail({
        from: `list${n % 13}@news.example`,
        subject: `Issue ${n}`,
        messageId: `n${n}@news.example`,
        body: `From the editors:\n${filler.repeat(3)}`,
      });
    }
    const quoted = m.replace(/\r\n/g, "\n").replace(/^(>*From )/gm, ">$1");
    return `From ${n}@xxx Tue Jan 14 15:04:05 +0000 2025\n${quoted}\n`;
  };
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      ctrl.enqueue(head);
    },
    pull(ctrl) {
      if (sent >= limit) {
        ctrl.enqueue(tail);
        ctrl.close();
        // the upload is complete: the server reads the mbox from here on
        process.stdout.write(`${JSON.stringify({ uploaded: true })}\n`);
        return;
      }
      let batch = "";
      while (batch.length < 256 * 1024) batch += nextMessage();
      const bytes = enc.encode(batch);
      sent += bytes.length;
      ctrl.enqueue(bytes);
    },
  });
  const res = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body,
    // @ts-expect-error Bun's option for a streamed request body
    duplex: "half",
  });
  const answer = await res.json();
  process.stdout.write(
    `${JSON.stringify({ status: res.status, answer, uploadMB: sent / 1024 / 1024, messages: i, amazon })}\n`,
  );
}

if (process.argv.includes("--client")) {
  await client(arg("--url", ""), arg("--token", ""));
  process.exit(0);
}

/* ------------------------------------------------------------------------------------------------
 * The server (this process) and the measurement
 * --------------------------------------------------------------------------------------------- */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-import-"));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
const logger = createLogger({ level: "warn", logDir: null, retentionDays: 1, stdout: false });
const db = openDatabase(config.dbFile, config.migrationsDir);
const services = createServices(config, db, logger);
const app = createApp({ config, db, log: logger.log, services });
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  idleTimeout: 0,
  maxRequestBodySize: 2 * 1024 * 1024 * 1024 + 1024 * 1024,
  fetch: (req, srv) => app.fetch(req, { server: srv }),
});
const base = `http://127.0.0.1:${server.port}`;

const reg = await fetch(`${base}/api/auth/register`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: "bench@example.com", password: "secret1", displayname: "Bench" }),
});
const { token } = (await reg.json()) as { token: string };

const rssMb = () => process.memoryUsage.rss() / 1024 / 1024;
Bun.gc(true);
const before = rssMb();
let peak = before;
let uploading = true;
let peakUpload = before;
let peakReading = before;
const sampler = setInterval(() => {
  const r = rssMb();
  peak = Math.max(peak, r);
  if (uploading) peakUpload = Math.max(peakUpload, r);
  else peakReading = Math.max(peakReading, r);
}, 20);

const t0 = performance.now();
let tUploaded = 0;
const child = Bun.spawn(
  [
    process.execPath,
    "run",
    import.meta.path,
    "--client",
    "--mb",
    String(TARGET_MB),
    "--url",
    `${base}/api/imap/import`,
    "--token",
    token,
  ],
  { stdout: "pipe", stderr: "inherit" },
);
type Result = {
  status: number;
  answer: unknown;
  uploadMB: number;
  messages: number;
  amazon: number;
};
let result: Result | null = null;
const decoder = new TextDecoder();
let pending = "";
for await (const chunk of child.stdout) {
  pending += decoder.decode(chunk, { stream: true });
  let nl = pending.indexOf("\n");
  while (nl >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    const msg = JSON.parse(line) as { uploaded?: true } & Partial<Result>;
    if (msg.uploaded) {
      uploading = false;
      tUploaded = performance.now();
    } else result = msg as Result;
    nl = pending.indexOf("\n");
  }
}
await child.exited;
const seconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
peak = Math.max(peak, rssMb());
if (!result) {
  console.error("the client gave no result");
  process.exit(1);
}

const growth = peak - before;
const figures = {
  command: `bun run bench/mbox-import.bench.ts --mb ${TARGET_MB}`,
  machine: `${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, ${os.platform()} ${os.release()}, bun ${Bun.version}`,
  uploadMB: +result.uploadMB.toFixed(1),
  messages: result.messages,
  amazonMessages: result.amazon,
  status: result.status,
  answer: result.answer,
  seconds: +seconds.toFixed(2),
  uploadSeconds: +((tUploaded - t0) / 1000).toFixed(2),
  readSeconds: +((performance.now() - tUploaded) / 1000).toFixed(2),
  messagesPerSecond: Math.round(result.messages / seconds),
  serverRssBeforeMB: +before.toFixed(1),
  serverRssPeakMB: +peak.toFixed(1),
  serverRssGrowthMB: +growth.toFixed(1),
  peakGrowthWhileUploadingMB: +(peakUpload - before).toFixed(1),
  peakGrowthWhileReadingMB: +(peakReading - before).toFixed(1),
  tempFilesLeft: fs.existsSync(path.join(dataDir, "tmp"))
    ? fs.readdirSync(path.join(dataDir, "tmp")).length
    : 0,
};
console.log(JSON.stringify(figures, null, 2));
console.log(
  `${growth < GROWTH_TARGET_MB ? "PASS" : "MISS"} server RSS growth ${growth.toFixed(1)} MB (target < ${GROWTH_TARGET_MB} MB) importing ${figures.uploadMB} MB in ${figures.seconds} s`,
);
fs.mkdirSync(path.join(import.meta.dir, "out"), { recursive: true });
fs.writeFileSync(
  path.join(import.meta.dir, "out", "mbox-import.json"),
  `${JSON.stringify(figures, null, 2)}\n`,
);

server.stop(true);
closeDatabase(db);
await logger.close();
fs.rmSync(dataDir, { recursive: true, force: true });
if (result.status !== 200) process.exit(1);
