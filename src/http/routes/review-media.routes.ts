/**
 * Review media over HTTP (docs/api.md):
 *
 * - POST   /api/orders/{id}/review/images              multipart, repeated `images` → { urls }
 * - DELETE /api/orders/{id}/review/images/{encodedUrl} → { success }
 * - PUT    /api/orders/{id}/review/images/order        { imageUrls } → { success, urls }
 *   (these three behind requireAuth, mounted at /api/orders)
 * - GET    /api/media/token                            → { token, expiresAt } (bearer)
 * - GET    /api/media/{orderid}/{name}[?token=]        the file, Range for video (bearer or token)
 * - GET    /api/user/export/archive                    the export as a .tar with the media files
 *
 * The upload body is streamed (media.service.ts); the 1 MB JSON limit of /api/* does not apply to
 * it (app.ts asks isMediaUploadPath, src/http/upload-paths.ts).
 */
import fs from "node:fs";
import { Hono } from "hono";
import { reorderMediaBody } from "../../contract/reviews.ts";
import type { AuthService } from "../../features/auth/auth.service.ts";
import type { MediaService } from "../../features/reviews/media.service.ts";
import type { UsersService } from "../../features/users/users.service.ts";
import { AppError, errorBody } from "../../util/errors.ts";
import { bearerToken, TOKEN_INVALID, TOKEN_REQUIRED } from "../middleware/auth.ts";
import type { AppEnv } from "../types.ts";
import { intParam, readBody } from "../validate.ts";

/** Mounted behind requireAuth at /api/orders. */
export function reviewMediaRoutes(media: MediaService) {
  return new Hono<AppEnv>()
    .post("/:id/review/images", async (c) => {
      const id = intParam(c, "id");
      const len = c.req.header("content-length");
      const result = await media.upload(
        c.get("user").id,
        id,
        c.req.raw.body,
        c.req.header("content-type"),
        len && /^\d+$/.test(len) ? Number(len) : null,
      );
      return c.json(result);
    })
    .put("/:id/review/images/order", async (c) => {
      const id = intParam(c, "id");
      const body = await readBody(c, reorderMediaBody);
      return c.json(await media.reorder(c.get("user").id, id, body.imageUrls));
    })
    .delete("/:id/review/images/:encodedUrl", async (c) => {
      const id = intParam(c, "id");
      // Hono has already decoded the parameter once: "%2Fapi%2Fmedia%2F5%2Fx.jpg" → "/api/media/5/x.jpg".
      const url = c.req.param("encodedUrl");
      return c.json(await media.remove(c.get("user").id, id, url));
    });
}

type ByteRange = { start: number; end: number } | "unsatisfiable" | null;

/** A single `bytes=` range (RFC 9110); several ranges or a malformed header → the whole file. */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

/** GET /api/media/*: its own authentication, since <img> and <video> cannot send a header. */
export function mediaFileRoutes(deps: { auth: AuthService; media: MediaService }) {
  const session = (authorization: string | undefined) => {
    const token = bearerToken(authorization);
    return token ? deps.auth.authenticate(token) : null;
  };
  const sessionUser = (authorization: string | undefined) =>
    session(authorization)?.user.id ?? null;
  return new Hono<AppEnv>()
    .get("/token", (c) => {
      const s = session(c.req.header("authorization"));
      if (s === null) {
        const hasHeader = Boolean(c.req.header("authorization"));
        return c.json(errorBody(hasHeader ? TOKEN_INVALID : TOKEN_REQUIRED), 401);
      }
      c.header("Cache-Control", "no-store");
      return c.json(deps.media.issueToken(s.user.id, s.sessionId));
    })
    .get("/:orderId/:name", async (c) => {
      const query = c.req.query("token");
      const userId = query
        ? deps.media.verifyToken(query)
        : sessionUser(c.req.header("authorization"));
      if (userId === null) {
        throw new AppError(401, query ? "media_link_expired" : "media_token_required");
      }
      const f = await deps.media.file(userId, c.req.param("orderId"), c.req.param("name"));
      const headers: Record<string, string> = {
        "Content-Type": f.mime,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox",
        "Content-Disposition": "inline",
        "Accept-Ranges": "bytes",
        // Names are never reused, and the token in the URL changes every hour.
        "Cache-Control": "private, max-age=3600",
      };
      const range = parseRange(c.req.header("range"), f.size);
      if (range === "unsatisfiable") {
        return new Response(null, {
          status: 416,
          headers: { ...headers, "Content-Range": `bytes */${f.size}` },
        });
      }
      const file = Bun.file(f.path);
      if (!fs.existsSync(f.path)) throw new AppError(404, "media_not_found");
      if (range) {
        return new Response(file.slice(range.start, range.end + 1), {
          status: 206,
          headers: {
            ...headers,
            "Content-Range": `bytes ${range.start}-${range.end}/${f.size}`,
            "Content-Length": String(range.end - range.start + 1),
          },
        });
      }
      return new Response(file, {
        status: 200,
        headers: { ...headers, "Content-Length": String(f.size) },
      });
    });
}

/** GET /api/user/export/archive (behind requireAuth): the export with the media files, as .tar. */
export function exportArchiveRoute(users: UsersService) {
  return new Hono<AppEnv>().get("/", async (c) => {
    const { name, stream } = await users.exportArchive(c.get("user").id);
    return new Response(stream, {
      status: 200,
      headers: {
        "Content-Type": "application/x-tar",
        "Content-Disposition": `attachment; filename="${name}.tar"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
