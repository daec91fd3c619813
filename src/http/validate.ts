/** Reads a JSON body and checks it against a contract schema; every failure is a 4xx with a message. */
import type { Context } from "hono";
import type { z } from "zod";
import { cleanStrings } from "../contract/clean-text.ts";
import { type ErrorDetail, readIssue } from "../contract/errors.ts";
import { AppError, badRequest, errorSentence } from "../util/errors.ts";

/** Objects and lists inside one another a request body may have (ours need 4 at most). */
export const MAX_JSON_DEPTH = 16;

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
      throw new AppError(415, "body_not_json_type");
    }
    if (nestedDeeperThan(raw, MAX_JSON_DEPTH))
      throw badRequest("body_too_deep", { max: MAX_JSON_DEPTH });
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest("body_invalid_json");
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("body_not_object");
  }
  // Invisible control characters are stripped from every string before the schema sees it.
  const parsed = schema.safeParse(cleanStrings(value));
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}

/**
 * The 400 of a failed schema check: the first issue's code and values, and every issue in
 * `details` by its path. A schema's own messages carry their code (`says`, src/contract/errors.ts);
 * a check zod words itself (none of ours should) answers `field_invalid` naming the path.
 */
export function invalidRequest(error: z.ZodError): AppError {
  const details: ErrorDetail[] = error.issues.map((i) => {
    const path = i.path.join(".");
    const { code, values } = readIssue(i.message) ?? {
      code: path === "" ? ("invalid_request" as const) : ("field_invalid" as const),
      values: path === "" ? {} : { path },
    };
    return { path, message: errorSentence("en", code, values), code, values };
  });
  const first = details[0];
  return first
    ? badRequest(first.code, first.values, details)
    : badRequest("invalid_request", undefined, details);
}

/** A positive integer route parameter, or a 400 naming it. */
export function intParam(c: Context, name: string): number {
  const v = c.req.param(name) ?? "";
  if (!/^\d{1,15}$/.test(v) || Number(v) < 1) throw badRequest("param_not_positive", { name });
  return Number(v);
}
