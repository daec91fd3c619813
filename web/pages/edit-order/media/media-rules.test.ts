import { describe, expect, test } from "bun:test";
import { MEDIA_MESSAGES } from "../../../../src/contract/constants.ts";
import { checkFiles, classifyDroppedUrl, move } from "./media-rules.ts";

const f = (name: string, type: string, size = 1000) => ({ name, type, size });
const MB = 1024 * 1024;

describe("checkFiles", () => {
  test("type: not media, unsupported media, supported", () => {
    const r = checkFiles(
      [],
      [],
      [f("a.exe", "application/x-msdownload"), f("b.jpg", "image/jpeg")],
    );
    expect(r.error).toBe(MEDIA_MESSAGES.notMedia);
    expect(r.accepted.map((x) => x.name)).toEqual(["b.jpg"]);
    expect(checkFiles([], [], [f("a.heic", "image/heic")]).error).toBe(MEDIA_MESSAGES.unsupported);
    expect(checkFiles([], [], [f("a.mov", "video/quicktime")]).error).toBe(
      MEDIA_MESSAGES.unsupported,
    );
  });
  test("sizes: 10 MB images, 100 MB video", () => {
    expect(checkFiles([], [], [f("a.png", "image/png", 10 * MB)]).error).toBeNull();
    expect(checkFiles([], [], [f("a.png", "image/png", 10 * MB + 1)]).error).toBe(
      "File size must be less than 10 MB",
    );
    expect(checkFiles([], [], [f("v.mp4", "video/mp4", 100 * MB + 1)]).error).toBe(
      "File size must be less than 100 MB",
    );
  });
  test("counts: stored and uploading files count; one video", () => {
    const stored = Array.from({ length: 8 }, (_, i) => `/api/media/1/${i}.png`);
    const r = checkFiles(
      stored,
      [f("u.png", "image/png")],
      [f("a.png", "image/png"), f("b.png", "image/png")],
    );
    expect(r.accepted).toHaveLength(1);
    expect(r.error).toBe(MEDIA_MESSAGES.tooManyFiles);
    expect(checkFiles(["/api/media/1/x.mp4"], [], [f("v.mp4", "video/mp4")]).error).toBe(
      MEDIA_MESSAGES.videoExists,
    );
    const two = checkFiles([], [], [f("v.mp4", "video/mp4"), f("w.mp4", "video/mp4")]);
    expect(two.accepted).toHaveLength(1);
    expect(two.error).toBe(MEDIA_MESSAGES.tooManyVideos);
  });
});

describe("classifyDroppedUrl", () => {
  test("extensions and photo hosts are fetched; albums refused; others refused", () => {
    expect(classifyDroppedUrl("https://example.com/pics/cat.JPG?x=1")).toEqual({
      kind: "fetch",
      url: "https://example.com/pics/cat.JPG?x=1",
      name: "cat.JPG",
    });
    expect(classifyDroppedUrl("https://example.com/a.mp4").kind).toBe("fetch");
    expect(classifyDroppedUrl("https://lh3.googleusercontent.com/pw/AP1GczN").kind).toBe("fetch");
    expect(classifyDroppedUrl("https://photos.google.com/share/AF1Qip")).toEqual({ kind: "album" });
    expect(classifyDroppedUrl("https://photos.app.goo.gl/abc")).toEqual({ kind: "album" });
    expect(classifyDroppedUrl("https://www.icloud.com/sharedalbum/#B0")).toEqual({ kind: "album" });
    expect(classifyDroppedUrl("https://example.com/page.html").kind).toBe("refuse");
    expect(classifyDroppedUrl("javascript:alert(1)//x.png").kind).toBe("refuse");
    expect(classifyDroppedUrl("not a url").kind).toBe("refuse");
  });
});

test("move", () => {
  expect(move(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
  expect(move(["a", "b", "c"], 2, 1)).toEqual(["a", "c", "b"]);
  expect(move(["a", "b"], 0, 5)).toEqual(["a", "b"]);
});
