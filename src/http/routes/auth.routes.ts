import { Hono } from "hono";
import { loginBody, registerBody } from "../../contract/auth.ts";
import type { AuthService } from "../../features/auth/auth.service.ts";
import { requireAuth } from "../middleware/auth.ts";
import type { AppEnv } from "../types.ts";
import { readBody } from "../validate.ts";

export function authRoutes(auth: AuthService) {
  return new Hono<AppEnv>()
    .post("/register", async (c) => {
      const body = await readBody(c, registerBody);
      const result = await auth.register(body, {
        ip: c.get("clientIp"),
        userAgent: c.req.header("user-agent") ?? null,
      });
      c.get("log").info({ userid: result.user.userid }, "user registered");
      return c.json(result, 201);
    })
    .post("/login", async (c) => {
      const body = await readBody(c, loginBody);
      return c.json(
        await auth.login(body, {
          ip: c.get("clientIp"),
          userAgent: c.req.header("user-agent") ?? null,
        }),
      );
    })
    .post("/logout", requireAuth(auth), (c) => {
      auth.logout(c.get("sessionId"));
      return c.json({ success: true, message: "Signed out" });
    });
}
