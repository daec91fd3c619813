/** Reads a JSON body and checks it against a contract schema; every failure is a 4xx with a message. */
import type { Context } from "hono";
import type { z } from "zod";
import { cleanStrings } from "../contract/fields.ts";
import { AppError, badRequest } from "../lib/errors.ts";

export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type") ?? "";
  const raw = await c.req.text();
  let value: unknown = {};
  if (raw.trim() !== "") {
    if (!/^application\/(.+\+)?json\b/i.test(type)) {
      throw new AppError(415, "Send the request body as JSON (Content-Type: application/json)");
    }
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest("The request body is not valid JSON");
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("The request body must be a JSON object");
  }
  // Invisible control characters are stripped from every string before the schema sees it.
  const parsed = schema.safeParse(cleanStrings(value));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw badRequest(issues[0]?.message ?? "Invalid request", issues);
  }
  return parsed.data;
}

/** A positive integer route parameter, or a 400 naming it. */
export function intParam(c: Context, name: string): number {
  const v = c.req.param(name) ?? "";
  if (!/^\d{1,15}$/.test(v) || Number(v) < 1) throw badRequest(`${name} must be a positive number`);
  return Number(v);
}
