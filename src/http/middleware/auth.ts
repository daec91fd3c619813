import type { MiddlewareHandler } from "hono";
import type { AuthService } from "../../features/auth/auth.service.ts";
import { errorBody } from "../../util/errors.ts";
import type { AppEnv } from "../types.ts";

/**
 * The two answers the web app signs out on, recognised by their codes (docs/api.md "Errors";
 * the sentences: "Access token required", "Invalid token").
 */
export const TOKEN_REQUIRED = "token_required";
export const TOKEN_INVALID = "token_invalid";

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

export function requireAuth(auth: AuthService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization")?.trim() ?? "";
    if (header === "" || /^Bearer$/i.test(header)) return c.json(errorBody(TOKEN_REQUIRED), 401);
    const token = bearerToken(header);
    const found = token ? auth.authenticate(token) : null;
    if (!found) return c.json(errorBody(TOKEN_INVALID), 401);
    c.set("user", found.user);
    c.set("sessionId", found.sessionId);
    await next();
  };
}

export function requireAdmin(auth: AuthService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!auth.isAdmin(c.get("user"))) {
      return c.json(errorBody("admin_only"), 403);
    }
    await next();
  };
}
