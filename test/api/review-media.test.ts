/**
 * Review media API (docs/behaviour.md#validation, docs/api.md): upload by bytes not names, the limits and their messages,
 * nothing kept from a refused request, GPS stripped (photos and video), ownership, traversal, reorder, delete,
 * serving with Range, order deletion, and the export archive.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { IMAGE_MAX_BYTES, MEDIA_MESSAGES, VIDEO_MAX_BYTES } from "../../src/contract/constants.ts";
import { stripGpsFromTiff } from "../../src/media/exif.ts";
import { sniffMedia } from "../../src/media/sniff.ts";
import { createHarness, type Harness } from "../harness.ts";
import {
  exe,
  exifTiff,
  gif,
  indexOfBytes,
  jpegWithGps,
  latitudeBytes,
  MP4_LOCATION_NOTE,
  MP4_MAKE,
  mp4,
  mp4WithLocation,
  ORIENTATION,
  png,
  topAtoms,
  webpWithExif,
} from "../support/media-files.ts";
import { call } from "./helpers.ts";

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(async () => {
  await h.close();
});

type User = { token: string; userid: number };
type Upload = { name: string; bytes: Uint8Array<ArrayBuffer>; type?: string };

async function newOrder(u: User): Promise<number> {
  const { status, body } = await call<{ orderid: number }>(h, "POST", "/api/orders", {
    token: u.token,
    body: { productname: "Desk lamp", asin: "B000LAMP01", status: "Received" },
  });
  expect(status).toBe(201);
  return body.orderid;
}

function form(files: Upload[], field = "images"): FormData {
  const fd = new FormData();
  for (const f of files) {
    fd.append(field, new File([f.bytes], f.name, { type: f.type ?? "application/octet-stream" }));
  }
  return fd;
}

const upload = (u: User, orderId: number, files: Upload[], field?: string) =>
  call<{ urls: string[] } & { error: string }>(h, "POST", `/api/orders/${orderId}/review/images`, {
    token: u.token,
    raw: form(files, field),
  });

const orderImages = async (u: User, id: number) =>
  (await call<{ reviewimages: string[] }>(h, "GET", `/api/orders/${id}`, { token: u.token })).body
    .reviewimages;

function filesOf(u: User, orderId: number): string[] {
  const dir = path.join(h.config.mediaDir, String(u.userid), String(orderId));
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}
const tmpLeft = () => {
  const dir = path.join(h.config.dataDir, "tmp");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.startsWith("media-")) : [];
};
const diskFile = (u: User, url: string) =>
  new Uint8Array(
    fs.readFileSync(
      path.join(h.config.mediaDir, String(u.userid), url.split("/").slice(3).join("/")),
    ),
  );

describe("POST /api/orders/{id}/review/images", () => {
  test("stores JPEG, PNG, GIF, WebP and MP4 by their bytes and answers the whole list", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const first = await upload(u, id, [
      { name: "a.jpg", bytes: jpegWithGps(), type: "image/jpeg" },
      { name: "b.png", bytes: png() },
    ]);
    expect(first.status).toBe(200);
    expect(first.body.urls).toHaveLength(2);
    for (const url of first.body.urls)
      expect(url).toMatch(/^\/api\/media\/\d+\/[\w-]{22}\.(jpg|png)$/);
    expect(first.body.urls[0]).toEndWith(".jpg");
    expect(first.body.urls[1]).toEndWith(".png");

    // Declared names and types do not matter: a PNG called .gif is stored as a PNG.
    const second = await upload(u, id, [
      { name: "c.gif", bytes: gif() },
      { name: "d.webp", bytes: webpWithExif() },
      { name: "clip.jpg", bytes: mp4(), type: "image/jpeg" },
      { name: "e.gif", bytes: png(), type: "image/gif" },
    ]);
    expect(second.status).toBe(200);
    expect(second.body.urls.slice(0, 2)).toEqual(first.body.urls);
    expect(second.body.urls.slice(2).map((x) => x.split(".").pop())).toEqual([
      "gif",
      "webp",
      "mp4",
      "png",
    ]);
    expect(await orderImages(u, id)).toEqual(second.body.urls);
    expect(filesOf(u, id)).toHaveLength(6);
    expect(tmpLeft()).toEqual([]);
  });

  test("a renamed executable with an image name and type is refused, and nothing is kept", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const { status, body } = await upload(u, id, [
      { name: "holiday.jpg", bytes: png() },
      { name: "photo.jpg", bytes: exe(), type: "image/jpeg" },
    ]);
    expect(status).toBe(400);
    expect(body.error).toBe(MEDIA_MESSAGES.notMedia);
    expect(await orderImages(u, id)).toEqual([]);
    expect(filesOf(u, id)).toEqual([]);
    expect(tmpLeft()).toEqual([]);
  });

  test("other pictures and videos are refused with the list of supported formats", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const bmp = new Uint8Array(100);
    bmp.set([0x42, 0x4d]);
    const mov = mp4();
    mov.set(new TextEncoder().encode("qt  "), 8);
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    for (const bytes of [bmp, mov, svg]) {
      const r = await upload(u, id, [{ name: "x.png", bytes }]);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(MEDIA_MESSAGES.unsupported);
    }
    expect(filesOf(u, id)).toEqual([]);
  });

  test("size limits: an image over 10 MB and a video over 100 MB are refused while streaming", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const big = new Uint8Array(IMAGE_MAX_BYTES + 1);
    big.set(png());
    const r = await upload(u, id, [{ name: "big.png", bytes: big }]);
    expect(r.status).toBe(413);
    expect(r.body.error).toBe("File size must be less than 10 MB");
    // exactly the limit is fine
    const ok = await upload(u, id, [{ name: "ok.png", bytes: big.subarray(0, IMAGE_MAX_BYTES) }]);
    expect(ok.status).toBe(200);

    const video = mp4(VIDEO_MAX_BYTES + 1);
    const v = await upload(u, id, [{ name: "long.mp4", bytes: video }]);
    expect(v.status).toBe(413);
    expect(v.body.error).toBe("File size must be less than 100 MB");
    expect(await orderImages(u, id)).toEqual(ok.body.urls);
    expect(filesOf(u, id)).toHaveLength(1);
    expect(tmpLeft()).toEqual([]);
  });

  test("count limits: 10 files per review, 1 video, with the spec's messages", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `${i}.png`, bytes: png(4, 4) }));
    const tooMany = await upload(u, id, eleven);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe(MEDIA_MESSAGES.tooManyFiles);
    expect(filesOf(u, id)).toEqual([]);

    const twoVideos = await upload(u, id, [
      { name: "a.mp4", bytes: mp4() },
      { name: "b.mp4", bytes: mp4() },
    ]);
    expect(twoVideos.status).toBe(400);
    expect(twoVideos.body.error).toBe(MEDIA_MESSAGES.tooManyVideos);

    expect((await upload(u, id, [{ name: "a.mp4", bytes: mp4() }])).status).toBe(200);
    const second = await upload(u, id, [{ name: "b.mp4", bytes: mp4() }]);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe(
      "Only 1 video is allowed per review. Please remove the existing video first",
    );

    const nine = await upload(u, id, eleven.slice(0, 9));
    expect(nine.status).toBe(200);
    expect(nine.body.urls).toHaveLength(10);
    const eleventh = await upload(u, id, [{ name: "x.png", bytes: png(4, 4) }]);
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.error).toBe("Upload limit reached: Maximum 10 images allowed");
    expect(filesOf(u, id)).toHaveLength(10);
  });

  test("two uploads at once cannot pass the limit together", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, bytes: png(4, 4) }));
    const [a, b] = await Promise.all([upload(u, id, six), upload(u, id, six)]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect(await orderImages(u, id)).toHaveLength(6);
    expect(filesOf(u, id)).toHaveLength(6);
  });

  test("bad requests: not multipart, no files, wrong field, empty file, unknown order", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const json = await call(h, "POST", `/api/orders/${id}/review/images`, {
      token: u.token,
      body: { images: [] },
    });
    expect(json.status).toBe(400);
    expect(json.body.error).toContain("multipart/form-data");
    const wrongField = await upload(u, id, [{ name: "a.png", bytes: png() }], "files");
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error).toContain("fields named images");
    const empty = await upload(u, id, [{ name: "a.png", bytes: new Uint8Array(0) }]);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('"a.png" is empty');
    const missing = await upload(u, 999999, [{ name: "a.png", bytes: png() }]);
    expect(missing.status).toBe(404);
    const anon = await call(h, "POST", `/api/orders/${id}/review/images`, { raw: form([]) });
    expect(anon.status).toBe(401);
  });
});

describe("location data", () => {
  test("GPS is gone from a stored JPEG; orientation and the rest stay", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const original = jpegWithGps();
    expect(indexOfBytes(original, latitudeBytes())).toBeGreaterThan(0);
    const { body } = await upload(u, id, [{ name: "gps.jpg", bytes: original }]);
    const stored = diskFile(u, body.urls[0]!);
    expect(stored.length).toBe(original.length);
    expect(indexOfBytes(stored, latitudeBytes())).toBe(-1);
    expect(indexOfBytes(stored, new TextEncoder().encode("GPSLatitude"))).toBe(-1);
    // The EXIF block is still readable: IFD0 keeps Orientation and Make, without the GPS pointer.
    const tiff = stored.subarray(12, 12 + 160);
    const v = new DataView(tiff.buffer, tiff.byteOffset);
    const count = v.getUint16(8);
    const tags = Array.from({ length: count }, (_, i) => v.getUint16(10 + i * 12));
    expect(tags).toEqual([0x0112, 0x010f]);
    expect(v.getUint16(18)).toBe(ORIENTATION);
    expect(indexOfBytes(stored, new TextEncoder().encode("TestCam"))).toBeGreaterThan(0);
    // the served file is the stripped one
    const served = await h.req("GET", body.urls[0]!, { token: u.token });
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(stored);
  });

  test("GPS is gone from PNG eXIf and WebP EXIF chunks (and their XMP)", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const withExif = png(8, 8, [0, 0, 0], [255, 255, 255], exifTiff());
    const { body } = await upload(u, id, [
      { name: "a.png", bytes: withExif },
      { name: "b.webp", bytes: webpWithExif() },
    ]);
    const p = diskFile(u, body.urls[0]!);
    expect(indexOfBytes(p, latitudeBytes())).toBe(-1);
    // Every chunk's CRC is still right after the rewrite.
    for (let at = 8; at < p.length; ) {
      const v = new DataView(p.buffer, p.byteOffset);
      const len = v.getUint32(at);
      expect(v.getUint32(at + 8 + len) >>> 0).toBe(
        Bun.hash.crc32(p.subarray(at + 4, at + 8 + len)) >>> 0,
      );
      at += 12 + len;
    }
    const w = diskFile(u, body.urls[1]!);
    expect(indexOfBytes(w, latitudeBytes(true))).toBe(-1);
    expect(indexOfBytes(w, new TextEncoder().encode("GPSLatitude"))).toBe(-1);
  });

  test("the location is gone from a stored MP4; its make, layout and media data stay", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const { bytes: original, mdat, samples } = mp4WithLocation();
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(indexOfBytes(original, enc("+37.3318"))).toBeGreaterThan(0);
    const { status, body } = await upload(u, id, [{ name: "clip.mp4", bytes: original }]);
    expect(status).toBe(200);
    const stored = diskFile(u, body.urls[0]!);
    expect(stored.length).toBe(original.length);
    // No position left anywhere: udta ©xyz (movie and track), the QuickTime keys, XMP.
    expect(indexOfBytes(stored, enc("+37.3318"))).toBe(-1);
    expect(indexOfBytes(stored, enc(MP4_LOCATION_NOTE))).toBe(-1);
    expect(indexOfBytes(stored, enc("GPSLatitude"))).toBe(-1);
    expect(indexOfBytes(stored, enc("location"))).toBe(-1);
    expect(indexOfBytes(stored, Uint8Array.of(0xa9, 0x78, 0x79, 0x7a))).toBe(-1); // ©xyz
    // The other metadata is where it was: the make, the model, the software.
    for (const kept of [MP4_MAKE, "com.apple.quicktime.make", "Model 9", "GrapevineTest 1.0"]) {
      const at = indexOfBytes(original, enc(kept));
      expect(at).toBeGreaterThan(0);
      expect(indexOfBytes(stored, enc(kept))).toBe(at);
    }
    // Nothing moved: same top-level atoms at the same offsets (the XMP uuid is now free space),
    // the stco still points at the samples, and the samples are the uploaded bytes.
    expect(topAtoms(stored).map(([, at, size]) => [at, size])).toEqual(
      topAtoms(original).map(([, at, size]) => [at, size]),
    );
    expect(topAtoms(stored).map(([t]) => t)).toEqual(["ftyp", "moov", "free", "mdat"]);
    const stco = indexOfBytes(stored, enc("stco"));
    expect(new DataView(stored.buffer).getUint32(stco + 12)).toBe(mdat);
    expect(stored.subarray(mdat)).toEqual(samples);
    expect(sniffMedia(stored.subarray(0, 64))).toEqual({
      kind: "video",
      mime: "video/mp4",
      ext: "mp4",
    });
    const served = await h.req("GET", body.urls[0]!, { token: u.token });
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(stored);
  });

  test("stripGpsFromTiff on little-endian EXIF and on a block without GPS", () => {
    const t = exifTiff(true);
    expect(stripGpsFromTiff(t)).toBe(true);
    expect(indexOfBytes(t, latitudeBytes(true))).toBe(-1);
    expect(stripGpsFromTiff(t)).toBe(false); // nothing left to remove
  });
});

describe("serving, ownership and traversal", () => {
  test("only the owner gets the file, with its type, nosniff and Range for video", async () => {
    const u = await h.register();
    const other = await h.register();
    const id = await newOrder(u);
    const video = mp4(10_000);
    const { body } = await upload(u, id, [
      { name: "a.png", bytes: png() },
      { name: "v.mp4", bytes: video },
    ]);
    const [img, vid] = body.urls as [string, string];

    const r = await h.req("GET", img, { token: u.token });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/png");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");

    const part = await h.req("GET", vid, { token: u.token, headers: { range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-type")).toBe("video/mp4");
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${video.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(video.subarray(100, 200));
    const tail = await h.req("GET", vid, { token: u.token, headers: { range: "bytes=-10" } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(video.subarray(video.length - 10));
    const past = await h.req("GET", vid, { token: u.token, headers: { range: "bytes=99999-" } });
    expect(past.status).toBe(416);

    // another user: 404 with their session, their media token, and on every write
    expect((await h.req("GET", img, { token: other.token })).status).toBe(404);
    const theirs = (
      await call<{ token: string }>(h, "GET", "/api/media/token", { token: other.token })
    ).body.token;
    expect((await h.req("GET", `${img}?token=${theirs}`)).status).toBe(404);
    const del = await call(
      h,
      "DELETE",
      `/api/orders/${id}/review/images/${encodeURIComponent(img)}`,
      {
        token: other.token,
      },
    );
    expect(del.status).toBe(404);
    const re = await call(h, "PUT", `/api/orders/${id}/review/images/order`, {
      token: other.token,
      body: { imageUrls: [vid, img] },
    });
    expect(re.status).toBe(404);
    expect((await upload(other, id, [{ name: "x.png", bytes: png() }])).status).toBe(404);
    expect(await orderImages(u, id)).toEqual([img, vid]);

    // no credentials; a forged token
    expect((await h.req("GET", img)).status).toBe(401);
    expect(
      (
        await h.req(
          "GET",
          `${img}?token=m2.${u.userid}.9999999999.${"A".repeat(16)}.${"A".repeat(43)}`,
        )
      ).status,
    ).toBe(401);
  });

  test("a media token opens the owner's files (for <img> and <video>)", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const { body } = await upload(u, id, [{ name: "a.png", bytes: png() }]);
    const t = await call<{ token: string; expiresAt: string }>(h, "GET", "/api/media/token", {
      token: u.token,
    });
    expect(t.status).toBe(200);
    expect(Date.parse(t.body.expiresAt)).toBeGreaterThan(Date.now() + 3_500_000);
    const r = await h.req("GET", `${body.urls[0]}?token=${encodeURIComponent(t.body.token)}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/png");
    // the media token is not a session: it opens no other API
    expect((await call(h, "GET", "/api/orders", { token: t.body.token })).status).toBe(401);
    expect((await call(h, "GET", "/api/media/token")).status).toBe(401);
  });

  test("traversal attempts in encodedUrl and in the media path are refused and delete nothing", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const { body } = await upload(u, id, [{ name: "a.png", bytes: png() }]);
    const secret = path.join(h.config.dataDir, "app.db");
    for (const attempt of [
      "../../../app.db",
      `/api/media/${id}/../../../app.db`,
      `/api/media/${id}/..%2F..%2Fapp.db`,
      body.urls[0]!.replace(`/media/${id}/`, `/media/${id}/../${id}/`),
      `/api/media/${id}/${"A".repeat(22)}.png/../../x`,
    ]) {
      const r = await call(
        h,
        "DELETE",
        `/api/orders/${id}/review/images/${encodeURIComponent(attempt)}`,
        {
          token: u.token,
        },
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toContain("Not a media URL");
    }
    // the real file path cannot be reached through GET either
    for (const p of [`/api/media/${id}/..%2F..%2F..%2Fapp.db`, `/api/media/${id}/%2e%2e`]) {
      expect((await h.req("GET", p, { token: u.token })).status).toBe(404);
    }
    expect(fs.existsSync(secret)).toBe(true);
    expect(await orderImages(u, id)).toEqual(body.urls);
    // an unknown (well-formed) URL of this order: 404
    const unknown = `/api/media/${id}/${"B".repeat(22)}.png`;
    const r = await call(
      h,
      "DELETE",
      `/api/orders/${id}/review/images/${encodeURIComponent(unknown)}`,
      {
        token: u.token,
      },
    );
    expect(r.status).toBe(404);
  });
});

describe("delete and reorder", () => {
  test("DELETE removes the URL and its file; reorder persists; a non-permutation is refused", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    const { body } = await upload(u, id, [
      { name: "a.png", bytes: png() },
      { name: "b.png", bytes: png(8, 8) },
      { name: "c.gif", bytes: gif() },
    ]);
    const [a, b, c] = body.urls as [string, string, string];

    const re = await call(h, "PUT", `/api/orders/${id}/review/images/order`, {
      token: u.token,
      body: { imageUrls: [c, a, b] },
    });
    expect(re.status).toBe(200);
    expect(await orderImages(u, id)).toEqual([c, a, b]);

    for (const bad of [
      [c, a],
      [c, a, b, a],
      [c, a, `/api/media/${id}/${"C".repeat(22)}.png`],
      [],
    ]) {
      const r = await call(h, "PUT", `/api/orders/${id}/review/images/order`, {
        token: u.token,
        body: { imageUrls: bad },
      });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain("current media");
    }
    expect(await orderImages(u, id)).toEqual([c, a, b]);

    const del = await call(
      h,
      "DELETE",
      `/api/orders/${id}/review/images/${encodeURIComponent(a)}`,
      {
        token: u.token,
      },
    );
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true } as never);
    expect(await orderImages(u, id)).toEqual([c, b]);
    expect(filesOf(u, id)).toHaveLength(2);
    expect((await h.req("GET", a, { token: u.token })).status).toBe(404);
  });

  test("deleting the order removes its files; deleting the account removes the user's folder", async () => {
    const u = await h.register();
    const keep = await newOrder(u);
    const gone = await newOrder(u);
    await upload(u, keep, [{ name: "a.png", bytes: png() }]);
    await upload(u, gone, [
      { name: "b.png", bytes: png() },
      { name: "v.mp4", bytes: mp4() },
    ]);
    expect(filesOf(u, gone)).toHaveLength(2);
    expect((await call(h, "DELETE", `/api/orders/${gone}`, { token: u.token })).status).toBe(200);
    expect(fs.existsSync(path.join(h.config.mediaDir, String(u.userid), String(gone)))).toBe(false);
    expect(filesOf(u, keep)).toHaveLength(1);

    const acc = await call(h, "DELETE", "/api/user", {
      token: u.token,
      body: { password: "secret1" },
    });
    expect(acc.status).toBe(200);
    expect(fs.existsSync(path.join(h.config.mediaDir, String(u.userid)))).toBe(false);
  });
});

describe("export", () => {
  test("the JSON export lists reviews and media; the archive holds the files", async () => {
    const u = await h.register();
    const id = await newOrder(u);
    await call(h, "PUT", `/api/orders/${id}`, {
      token: u.token,
      body: { rating: 4, reviewsubject: "Bright", reviewtext: "Lights the whole desk." },
    });
    const photo = png(16, 16);
    const { body } = await upload(u, id, [{ name: "a.png", bytes: photo }]);

    const json = await call<{
      orders: { orderid: number; reviewtext: string; rating: number; reviewimages: string[] }[];
      reviewMedia: { orderid: number; url: string; archivePath: string }[];
    }>(h, "GET", "/api/user/export", { token: u.token });
    expect(json.status).toBe(200);
    expect(json.body.orders[0]).toMatchObject({
      orderid: id,
      rating: 4,
      reviewtext: "Lights the whole desk.",
      reviewimages: body.urls,
    });
    const name = body.urls[0]!.split("/").pop();
    expect(json.body.reviewMedia).toEqual([
      {
        orderid: id,
        position: 0,
        url: body.urls[0]!,
        archivePath: `media/${id}/${name}`,
        contentType: "image/png",
      } as never,
    ]);

    const res = await h.req("GET", "/api/user/export/archive", { token: u.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-tar");
    const tar = new Uint8Array(await res.arrayBuffer());
    // Unpack with the system tar: what a person restoring would do.
    const dir = fs.mkdtempSync(path.join(h.config.dataDir, "untar-"));
    fs.writeFileSync(path.join(dir, "x.tar"), tar);
    const p = Bun.spawnSync(["tar", "-xf", "x.tar"], { cwd: dir });
    expect(p.exitCode).toBe(0);
    const root = fs.readdirSync(dir).find((n) => n.startsWith("grapevine-export-"))!;
    const doc = JSON.parse(fs.readFileSync(path.join(dir, root, "export.json"), "utf8"));
    expect(doc.orders[0].reviewsubject).toBe("Bright");
    const restored = new Uint8Array(fs.readFileSync(path.join(dir, root, `media/${id}/${name}`)));
    expect(restored).toEqual(photo);
    expect(fs.readFileSync(path.join(dir, root, "README.txt"), "utf8")).toContain("reviewMedia");
  });
});
