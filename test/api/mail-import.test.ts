/**
 * POST /api/imap/import: .eml files and Google Takeout .mbox files through the
 * mail pipeline, the upload streamed to DATA_DIR/tmp and removed afterwards (busboy through
 * src/media/multipart.ts); bad uploads. The body limits and multipart bodies in small chunks are
 * in mail-import-upload.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";
import { form, importHelpers, mbox, vine } from "./mail-import-helpers.ts";
import { amazonMail, plainMail } from "./mail-messages.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const enc = new TextEncoder();
const dec = new TextDecoder();
const { orders, tmpEntries, upload } = importHelpers(() => h);

describe("POST /api/imap/import", () => {
  test("two .eml files and an mbox of several messages: the right summary and orders", async () => {
    const u = await h.register();
    const eml1 = vine(
      "111-0000001-0000001",
      "B0FIRST001",
      "Ceramic Pour Over Coffee Dripper",
      "e1@amazon.com",
    );
    const eml2 = amazonMail({
      kind: "ordered",
      order: "111-0000002-0000002",
      items: [{ name: "Fake Gift Card", asin: "B0SPOOFED1", price: "0.00" }],
      total: "0.00",
      messageId: "e2@amazon.com",
      auth: "mx.google.com; dkim=fail header.i=@amazon.com; dmarc=fail header.from=amazon.com",
    });
    const box = mbox([
      vine("111-0000003-0000003", "B0THIRD003", "Silicone Baking Mat Set", "m1@amazon.com"),
      amazonMail({
        kind: "shipped",
        order: "111-0000003-0000003",
        items: [],
        messageId: "m2@amazon.com",
        tracking: "1Z879E930346834440",
        carrier: "UPS",
      }),
      plainMail({
        from: "newsletter@shop.example",
        subject: "Weekly news",
        messageId: "m3@shop.example",
        body: "Hello,\n\nFrom the team: thanks for reading.\n>From a quoted line\n",
      }),
      amazonMail({
        kind: "ordered",
        order: "111-0000004-0000004",
        items: [{ name: "Paid Headphones", asin: "B0PAID0004", price: "59.99" }],
        total: "64.19",
        messageId: "m4@amazon.com",
      }),
      vine(
        "111-0000001-0000001",
        "B0FIRST001",
        "Ceramic Pour Over Coffee Dripper",
        "e1@amazon.com",
      ), // the .eml again
    ]);
    expect(box).toContain("\n>From the team");
    const { status, body } = await upload(
      u.token,
      form([
        ["order.eml", eml1],
        ["spoof.eml", eml2],
        ["All mail Including Spam and Trash.mbox", box],
      ]),
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      messagesRead: 7,
      ordersCreated: 2,
      ordersUpdated: 1,
      messages: { created: 2, updated: 1, unchanged: 0, notUnderstood: 0, skipped: 4 },
      skipped: { spoofed: 1, "not-amazon": 1, "not-vine": 1, duplicate: 1 },
      notUnderstoodByMarketplace: {},
      modeLimited: 1,
      importMode: "vine",
      otherByMarketplace: {},
    });
    const list = orders(u.userid);
    expect(list.map((o) => [o.amazonordernumber, o.status])).toEqual([
      ["111-0000001-0000001", "Ordered"],
      ["111-0000003-0000003", "Shipped"],
    ]);
    expect(list[1]?.trackingnumber).toBe("1Z879E930346834440");
    expect(h.services.mailIngest.stats(u.userid).emailsscanned).toBe(6);
    // one notification for the whole import
    const notes = h.services.notifications.list(u.userid);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.message).toContain("from your imported mail");
    expect(tmpEntries()).toEqual([]);

    // the same files again: every message is a duplicate, nothing changes
    const again = await upload(
      u.token,
      form([
        ["order.eml", eml1],
        ["x.mbox", box],
      ]),
    );
    expect(again.body).toMatchObject({
      messagesRead: 6,
      ordersCreated: 0,
      ordersUpdated: 0,
      messages: { created: 0, updated: 0, unchanged: 0, notUnderstood: 0, skipped: 6 },
      skipped: { duplicate: 6 },
      otherByMarketplace: {},
    });
    expect(orders(u.userid)).toHaveLength(2);
    expect(h.services.notifications.list(u.userid)).toHaveLength(1);
  });

  test("the unquoted message reaches the pipeline with its >From line restored", async () => {
    const u = await h.register();
    const seen: string[] = [];
    const real = h.services.mailIngest.ingestMany;
    h.services.mailIngest.ingestMany = (userId, raws, opts) => {
      for (const raw of raws) seen.push(typeof raw === "string" ? raw : dec.decode(raw));
      return real(userId, raws, opts);
    };
    const msg = plainMail({
      from: "a@b.example",
      subject: "x",
      messageId: "q@b",
      body: "From the team\n>From quoted\n",
    });
    await upload(u.token, form([["box.mbox", mbox([msg])]]));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(msg.replace(/\r\n/g, "\n"));
  });

  test("another user's orders and counters are not touched", async () => {
    const a = await h.register();
    const b = await h.register();
    await upload(
      b.token,
      form([["b.eml", vine("222-0000001-0000001", "B0BOWNER01", "Bee's Wrap", "b1@amazon.com")]]),
    );
    const before = JSON.stringify(orders(b.userid));
    const res = await upload(
      a.token,
      form([
        ["a.eml", vine("222-0000009-0000009", "B0AOWNER01", "Ant Farm", "a1@amazon.com")],
        [
          "b.eml",
          amazonMail({
            kind: "delivered",
            order: "222-0000001-0000001",
            items: [],
            messageId: "b2@amazon.com",
          }),
        ],
      ]),
    );
    expect(res.body).toMatchObject({
      ordersCreated: 1,
      ordersUpdated: 0,
      skipped: { "no-matching-order": 1 },
    });
    expect(JSON.stringify(orders(b.userid))).toBe(before);
    expect(h.services.mailIngest.stats(b.userid).emailsscanned).toBe(1);
  });

  test("a 5 MB mbox is imported as a stream and its temp file removed", async () => {
    const u = await h.register();
    const parts: string[] = [];
    let size = 0;
    let i = 0;
    while (size < 5 * 1024 * 1024) {
      const m =
        i % 50 === 0
          ? vine(
              `333-${String(i).padStart(7, "0")}-0000001`,
              `B0BULK${String(i).padStart(4, "0")}`,
              `Bulk Item ${i}`,
              `bulk${i}@amazon.com`,
            )
          : plainMail({
              from: `list${i % 7}@news.example`,
              subject: `Issue ${i}`,
              messageId: `bulk${i}@news.example`,
              body: `${"News text. ".repeat(400)}\n`,
            });
      parts.push(m);
      size += m.length;
      i++;
    }
    const { status, body } = await upload(u.token, form([["Takeout.mbox", mbox(parts)]]));
    expect(status).toBe(200);
    expect(body.messagesRead).toBe(i);
    expect(body.ordersCreated).toBe(Math.ceil(i / 50));
    expect(body.skipped["not-amazon"]).toBe(i - Math.ceil(i / 50));
    expect(tmpEntries()).toEqual([]);
  });

  test("a 200 MB mbox generated while it is sent: imported with bounded memory", async () => {
    const u = await h.register();
    const boundary = "----memTestBoundary";
    const limit = 200 * 1024 * 1024;
    const filler = `${"Newsletter text that nobody reads, line after line. ".repeat(60)}\n`.repeat(
      3,
    );
    let sent = 0;
    let n = 0;
    let started = false;
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (!started) {
          started = true;
          ctrl.enqueue(
            enc.encode(
              `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.mbox"\r\n\r\n`,
            ),
          );
          return;
        }
        if (sent >= limit) {
          ctrl.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
          ctrl.close();
          return;
        }
        const parts: string[] = [];
        for (let k = 0; k < 24; k++) {
          const i = n++;
          const m =
            i % 100 === 1
              ? vine(
                  `555-${String(i).padStart(7, "0")}-0000001`,
                  `B0M${String(i).padStart(7, "0")}`,
                  `Memory Item ${i}`,
                  `mem${i}@amazon.com`,
                )
              : plainMail({
                  from: "list@news.example",
                  subject: `Issue ${i}`,
                  messageId: `mem${i}@news.example`,
                  body: filler,
                });
          parts.push(`From ${i}@xxx Tue Jan 14 15:04:05 +0000 2025\n${m.replace(/\r\n/g, "\n")}\n`);
        }
        const bytes = enc.encode(parts.join(""));
        sent += bytes.length;
        ctrl.enqueue(bytes);
      },
    });
    Bun.gc(true);
    const rss = () => process.memoryUsage.rss() / 1024 / 1024;
    const before = rss();
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 20);
    const res = await upload(u.token, body, {
      "content-type": `multipart/form-data; boundary=${boundary}`,
    });
    clearInterval(timer);
    expect(res.status).toBe(200);
    expect(res.body.messagesRead).toBe(n);
    expect(res.body.ordersCreated).toBe(Math.floor((n - 2) / 100) + 1);
    // Streaming peaks at ~90 MB over the start when run alone and up to ~150 MB inside the whole
    // suite (the generator's garbage and other tests' heap in the same process); holding the
    // upload (or the mbox) in memory would add its 200 MB on top of that.
    expect(peak - before).toBeLessThan(200);
    expect(tmpEntries()).toEqual([]);
  }, 120_000);

  describe("bad uploads", () => {
    const cases: [string, () => BodyInit, Record<string, string>, RegExp][] = [
      [
        "no files (only another field)",
        () => form([], [["note", "hi"]]),
        {},
        /^No files were uploaded/,
      ],
      ["an empty multipart body", () => form([]), {}, /^No files were uploaded/],
      ["an empty file", () => form([["empty.eml", ""]]), {}, /^"empty\.eml" is empty$/],
      [
        "a file that is neither",
        () => form([["photo.pdf", "%PDF-1.7\n%âãÏÓ\n1 0 obj"]]),
        {},
        /"photo\.pdf" is neither an email message \(\.eml\) nor a mailbox \(\.mbox\)/,
      ],
      [
        "JSON instead of multipart",
        () => JSON.stringify({ files: [] }),
        { "content-type": "application/json" },
        /multipart\/form-data/,
      ],
      [
        "multipart without a boundary",
        () => "x",
        { "content-type": "multipart/form-data" },
        /multipart\/form-data/,
      ],
      [
        "a body cut off before its end",
        () =>
          '--XyZ\r\nContent-Disposition: form-data; name="files"; filename="a.eml"\r\n\r\nFrom: a@b.c\r\n',
        { "content-type": "multipart/form-data; boundary=XyZ" },
        /ended before it was complete/,
      ],
    ];
    for (const [name, body, headers, message] of cases) {
      test(`${name} → 400 with a message, nothing imported, no temp files`, async () => {
        const u = await h.register();
        const res = await upload(u.token, body(), headers);
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(message);
        expect(h.services.mailIngest.stats(u.userid).emailsscanned).toBe(0);
        expect(tmpEntries()).toEqual([]);
      });
    }

    test("one bad file among good ones: 400 and none of them imported", async () => {
      const u = await h.register();
      const res = await upload(
        u.token,
        form([
          ["ok.eml", vine("444-0000001-0000001", "B0GOODGOOD", "Good", "g@amazon.com")],
          ["bad.txt", "hello world"],
        ]),
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('"bad.txt"');
      expect(orders(u.userid)).toHaveLength(0);
    });

    test("an upload interrupted midway: 400, nothing imported, temp files removed", async () => {
      const u = await h.register();
      let step = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(ctrl) {
          step++;
          if (step === 1) {
            ctrl.enqueue(
              enc.encode(
                `--b1\r\nContent-Disposition: form-data; name="files"; filename="x.mbox"\r\n\r\n`,
              ),
            );
          } else if (step < 5)
            ctrl.enqueue(
              enc.encode(
                mbox([vine("666-0000001-0000001", "B0CUTCUT01", "Cut", `cut${step}@amazon.com`)]),
              ),
            );
          else ctrl.error(new Error("connection reset"));
        },
      });
      const res = await upload(u.token, body, {
        "content-type": "multipart/form-data; boundary=b1",
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/interrupted/);
      expect(orders(u.userid)).toHaveLength(0);
      expect(tmpEntries()).toEqual([]);
    });

    test("without a token: 401", async () => {
      const res = await call(h, "POST", "/api/imap/import", {
        raw: form([["a.eml", "From: x\r\n\r\n"]]),
      });
      expect(res.status).toBe(401);
    });
  });

  test("the 1 MB JSON limit no longer applies to the import, and still applies elsewhere", async () => {
    const u = await h.register();
    const big = plainMail({
      from: "a@b.example",
      subject: "big",
      messageId: "big@b",
      body: `${"x".repeat(100)}\n`.repeat(15_000),
    });
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const res = await upload(u.token, form([["big.eml", big]]));
    expect(res.status).toBe(200);
    expect(res.body.skipped).toEqual({ "not-amazon": 1 });
    const json = await call(h, "POST", "/api/orders", {
      token: u.token,
      raw: JSON.stringify({ productname: "x".repeat(1_100_000), asin: "B0X" }),
      headers: { "content-type": "application/json" },
    });
    expect(json.status).toBe(413);
  });
});
