/** Reads a JSON body and checks it against a contract schema; every failure is a 4xx with a message. */
import type { Context } from "hono";
import type { z } from "zod";
import { cleanStrings } from "../contract/clean-text.ts";
import { AppError, badRequest } from "../util/errors.ts";

/** Objects and lists inside one another a request body may have (ours need 4 at most). */
export const MAX_JSON_DEPTH = 16;
export const TOO_DEEP = `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels of objects and lists)`;

/**
 * True when the JSON text nests objects and lists deeper than `max`: one pass over the text
 * (brackets inside strings do not count), before JSON.parse builds anything.
 */
export function nestedDeeperThan(raw: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return true;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return false;
}

export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type") ?? "";
  const raw = await c.req.text();
  let value: unknown = {};
  if (raw.trim() !== "") {
    if (!/^application\/(.+\+)?json\b/i.test(type)) {
      throw new AppError(415, "Send the request body as JSON (Content-Type: application/json)");
    }
    if (nestedDeeperThan(raw, MAX_JSON_DEPTH)) throw badRequest(TOO_DEEP);
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
