/**
 * The server's render of a signed-in first screen (README, "The first screen"). The
 * renderer is the web app itself, built by scripts/build-web.ts into dist/render/ (web/server-render.tsx):
 * it is loaded on the first request for it, never at start, so a server nobody opens does not
 * carry React DOM's server renderer. A render that fails or takes too long is null: the page then
 * draws itself in the browser as it always could.
 */
import path from "node:path";
import type { FirstScreenQuery, FirstScreenRenderer } from "../../contract/first-screen.ts";
import type { Logger } from "../../log.ts";

/** Where the build writes the renderer, inside dist/ (src/http/middleware/static.ts does not serve it). */
export const RENDER_DIR = "render";
/**
 * A render later than this is not worth waiting for: the browser would have drawn the page by
 * then. Answered null; the render itself goes on (the renderer draws one page at a time).
 */
export const RENDER_TIME_LIMIT_MS = 3000;

export type FirstScreenRender = FirstScreenQuery & {
  /** The session's token: the render's requests are the user's own. */
  token: string;
  /** Answers one of the app's GETs (`/api/...`) inside the server. */
  fetch(path: string, init: RequestInit): Promise<Response>;
};

export function createFirstScreenService(deps: {
  distDir: string;
  log: Logger;
  /** Loads the renderer (tests); the build's dist/render/server-render.js by default. */
  loadRenderer?: (file: string) => Promise<FirstScreenRenderer>;
  timeLimitMs?: number;
}) {
  const file = path.resolve(deps.distDir, RENDER_DIR, "server-render.js");
  const loadRenderer =
    deps.loadRenderer ?? ((f: string) => import(f) as Promise<FirstScreenRenderer>);
  const timeLimitMs = deps.timeLimitMs ?? RENDER_TIME_LIMIT_MS;
  let renderer: Promise<FirstScreenRenderer | null> | undefined;
  const load = () => {
    renderer ??= loadRenderer(file).catch((err: unknown) => {
      deps.log.warn({ err, file }, "no server render of first screens (run `bun run build`)");
      return null;
    });
    return renderer;
  };

  return {
    /** The first screen's HTML (the inside of the page's #root), or null. */
    async render(request: FirstScreenRender): Promise<string | null> {
      const r = await load();
      if (!r) return null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => {
          deps.log.warn(
            { path: request.path, ms: timeLimitMs },
            "a first screen's render ran late",
          );
          resolve(null);
        }, timeLimitMs);
      });
      const drawn = r
        .renderFirstScreen({
          pathname: request.path,
          search: request.search,
          token: request.token,
          language: request.language,
          viewport: { width: request.width, height: request.height },
          fetch: request.fetch,
        })
        .catch((err: unknown) => {
          deps.log.warn({ err, path: request.path }, "the server render of a first screen failed");
          return null;
        });
      try {
        return await Promise.race([drawn, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
export type FirstScreenService = ReturnType<typeof createFirstScreenService>;
