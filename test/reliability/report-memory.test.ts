/**
 * A hostile .xlsx must not take the server's memory. Each file is made here
 * (zips written by the test), uploaded to the REAL server process (test/support/app-process.ts),
 * and must get a 400 with a sentence while the process's peak RSS (VmHWM, reset before each upload
 * through /proc/<pid>/clear_refs) stays within 100 MB of what it was before.
 *
 * Before the bounded reader, these files took: one cell at XFD1048576 past 2.5 GB, one at CZZ19000
 * 865 MB (and 200), a 300 MB .bin entry 748 MB (and 200), four entries on one 150 MB blob 1.35 GB,
 * 200 parts claiming 600 KB each 217 threads.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { REPORT_HEADERS } from "../../src/contract/vine-constants.ts";
import { type AppProcess, startApp } from "../support/app-process.ts";
import { buildXlsx, declareSize, shareBlob, xlsxParts, zipNative } from "../support/xlsx.ts";

const MB = 1024 * 1024;

function procMem(pid: number): { rss: number; hwm: number } {
  const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? 0);
  return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
}
/** Resets the process's peak RSS to its current RSS (Linux: "5" to clear_refs). */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

const report = [
  ["Itemized Report 2026"],
  [null],
  [...REPORT_HEADERS],
  ["111-0000001-0000001", "B0AAAAAAA1", "Mug", "ORDER", "11/03/2026", null, null, 24.99],
];

let app: AppProcess;
let token: string;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-report-mem-"));
  app = await startApp({ DATA_DIR: dataDir });
  token = await app.register("report-mem@example.com");
});
afterAll(async () => {
  app.proc.kill("SIGTERM");
  await app.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function upload(bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name));
  const res = await fetch(`${app.base}/api/vine/itemized-report`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { error?: string; rows?: number } };
}

describe("hostile spreadsheets against the real server", () => {
  test("each is refused with a sentence, and the peak RSS stays within 100 MB", async () => {
    // Every module the import uses is loaded before the baseline.
    const warm = await upload(buildXlsx(report), "report.xlsx");
    expect(warm.status).toBe(200);
    expect(warm.body.rows).toBe(1);

    const zeros = (n: number) => new Uint8Array(n);
    const withPart = (name: string, data: Uint8Array) =>
      zipNative({ ...xlsxParts(report), [name]: data });
    const lying = zipNative({ ...xlsxParts(report), "xl/worksheets/sheet1.xml": zeros(200 * MB) });
    declareSize(lying, "xl/worksheets/sheet1.xml", 1000);
    const tiny: Record<string, Uint8Array> = { ...xlsxParts(report) };
    for (let i = 0; i < 200; i++) tiny[`xl/media/part${i}.bin`] = zeros(10);
    const manyParts = zipSync(tiny);
    for (let i = 0; i < 200; i++) declareSize(manyParts, `xl/media/part${i}.bin`, 600 * 1024);

    const cases: [string, Uint8Array, string][] = [
      [
        "one cell at XFD1048576",
        zipSync(
          xlsxParts(report, {
            extraSheetXml: '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>',
          }),
        ),
        "The report has more than 20000 rows; split it by year",
      ],
      [
        "one cell at CZZ19000",
        zipSync(
          xlsxParts(report, { extraSheetXml: '<row r="19000"><c r="CZZ19000"><v>1</v></c></row>' }),
        ),
        "This spreadsheet has a cell at CZZ19000, beyond the report's 8 columns",
      ],
      [
        "a 300 MB .bin entry",
        withPart("xl/media/image1.bin", zeros(300 * MB)),
        "This spreadsheet is too large to be an Itemized Report",
      ],
      [
        "four entries on one 150 MB blob",
        shareBlob(withPart("xl/media/blob.bin", zeros(150 * MB)), "xl/media/blob.bin", [
          "xl/media/b.bin",
          "xl/media/c.bin",
          "xl/media/d.bin",
        ]),
        "This spreadsheet is too large to be an Itemized Report",
      ],
      [
        "200 parts claiming 600 KB each",
        manyParts,
        "This .xlsx file has 207 parts; an Itemized Report has about ten",
      ],
      [
        "a sheet of 200 MB that says it is 1,000 bytes",
        lying,
        "This .xlsx file is damaged (the part xl/worksheets/sheet1.xml unpacks to more than it says)",
      ],
    ];
    const pid = app.proc.pid;
    for (const [what, bytes, sentence] of cases) {
      expect(bytes.length).toBeLessThan(1024 * 1024); // within the API's body limit
      const before = procMem(pid);
      const reset = resetPeak(pid);
      const r = await upload(bytes, "hostile.xlsx");
      const after = procMem(pid);
      const grew = (reset ? after.hwm : after.rss) - before.rss;
      console.log(
        `${what}: ${r.status}, ${(bytes.length / 1024).toFixed(0)} KB upload, RSS ${(before.rss / MB).toFixed(0)} MB → peak ${(after.hwm / MB).toFixed(0)} MB (+${(grew / MB).toFixed(1)} MB)`,
      );
      expect({ what, status: r.status }).toEqual({ what, status: 400 });
      expect(r.body.error ?? "").toStartWith(sentence);
      expect(grew).toBeLessThan(100 * MB);
    }
    // Nothing was imported from them.
    const orders = await app.call("GET", "/api/orders?status=all", { token });
    expect(orders.body).toHaveLength(1);
  }, 60_000);
});
