/**
 * The two routes whose request bodies stream to disk under their own limits instead of the 1 MB
 * JSON limit (app.ts asks before its body limit runs): the mail import (mail-import.routes.ts)
 * and review media uploads (review-media.routes.ts). Apart from those modules, so the app can ask
 * without building their routes (src/http/lazy-routes.ts).
 */
export const IMPORT_PATH = "/api/imap/import";

export const isMediaUploadPath = (method: string, p: string) =>
  method === "POST" && /^\/api\/orders\/[^/]+\/review\/images\/?$/.test(p);
