/**
 * Every endpoint that takes a body refuses bad input with a 4xx and a message a person can act on,
 * and changes nothing: malformed JSON, non-objects, wrong types, missing fields, huge bodies and
 * non-JSON content types.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../harness.ts";
import { call, dbSnapshot, type ErrorBody, login, userCount } from "./helpers.ts";

let h: Harness;
let token: string;

beforeAll(async () => {
  h = createHarness();
  await h.register("owner@example.com", "secret1", "Owner");
  token = (await h.register("bea@example.com", "secret1", "Bea")).token;
  await call(h, "PATCH", "/api/user/timezone", { token, body: { timezone: "Europe/Berlin" } });
});
afterAll(async () => {
  await h.close();
});

type Endpoint = {
  method: string;
  url: string;
  auth: boolean;
  /** A body that would be accepted (used to build the bad ones). */
  valid: Record<string, unknown>;
  /** A body with a wrong type, and the message expected for it. */
  wrongType: [Record<string, unknown>, string];
  /** The message when the body is empty: names the first required field. */
  missing: string;
};

const endpoints: Endpoint[] = [
  {
    method: "POST",
    url: "/api/auth/register",
    auth: false,
    valid: { email: "new@example.com", password: "secret1", displayname: "New" },
    wrongType: [{ email: 5, password: "secret1", displayname: "New" }, "Email must be text"],
    missing: "Email is required",
  },
  {
    method: "POST",
    url: "/api/auth/login",
    auth: false,
    valid: { email: "bea@example.com", password: "secret1" },
    wrongType: [{ email: "bea@example.com", password: 123456 }, "Password must be text"],
    missing: "Email is required",
  },
  {
    method: "PUT",
    url: "/api/user/profile",
    auth: true,
    valid: { displayname: "Changed", email: "bea@example.com" },
    wrongType: [{ displayname: ["Bea"], email: "bea@example.com" }, "Display name must be text"],
    missing: "Display name is required",
  },
  {
    method: "PUT",
    url: "/api/user/password",
    auth: true,
    valid: { currentPassword: "secret1", newPassword: "changed-1" },
    wrongType: [
      { currentPassword: true, newPassword: "changed-1" },
      "Current password must be text",
    ],
    missing: "Current password is required",
  },
  {
    method: "PATCH",
    url: "/api/user/timezone",
    auth: true,
    valid: { timezone: "Asia/Tokyo" },
    wrongType: [{ timezone: 5 }, "Time zone must be text"],
    missing: "Time zone is required",
  },
  {
    method: "DELETE",
    url: "/api/user",
    auth: true,
    valid: { password: "secret1" },
    wrongType: [{ password: { value: "secret1" } }, "Password must be text"],
    missing: "Password is required",
  },
];

/** Sends the request and checks status, message, and that users and sessions did not change. */
async function expectRefused(
  e: Endpoint,
  opts: Parameters<Harness["req"]>[2],
  status: number,
  message: string | RegExp,
) {
  const before = dbSnapshot(h);
  const users = userCount(h);
  const res = await h.req(e.method, e.url, { ...opts, token: e.auth ? token : null });
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = (await res.json()) as ErrorBody;
  if (typeof message === "string") expect(body.error).toBe(message);
  else expect(body.error).toMatch(message);
  expect(userCount(h)).toBe(users);
  expect(dbSnapshot(h)).toBe(before);
  return body;
}

const json = (raw: string) => ({ raw, headers: { "content-type": "application/json" } });

for (const e of endpoints) {
  describe(`${e.method} ${e.url}`, () => {
    test("malformed JSON is 400 'The request body is not valid JSON'", async () => {
      for (const raw of ['{"email": ', "{'email': 'a'}", "not json", "{}}"]) {
        await expectRefused(e, json(raw), 400, "The request body is not valid JSON");
      }
    });

    test("a body that is not an object is 400", async () => {
      for (const raw of [JSON.stringify([e.valid]), "[]", "null", '"text"', "42", "true"]) {
        await expectRefused(e, json(raw), 400, "The request body must be a JSON object");
      }
    });

    test("a field of the wrong type is 400 with a message naming it", async () => {
      const [body, message] = e.wrongType;
      const err = await expectRefused(e, { body }, 400, message);
      expect(err.details?.length).toBeGreaterThan(0);
    });

    test("an empty object or empty body is 400 naming the first missing field", async () => {
      const err = await expectRefused(e, { body: {} }, 400, e.missing);
      const paths = (err.details ?? []).map((d) => d.path);
      for (const field of Object.keys(e.valid)) expect(paths).toContain(field);
      await expectRefused(e, json(""), 400, e.missing);
    });

    test("each missing field is named", async () => {
      for (const field of Object.keys(e.valid)) {
        const body = { ...e.valid };
        delete body[field];
        const err = await expectRefused(e, { body }, 400, /is required$/);
        expect(err.details?.map((d) => d.path)).toEqual([field]);
      }
    });

    test("a body over 1 MB is 413", async () => {
      const big = { ...e.valid, padding: "x".repeat(2 * 1024 * 1024) };
      await expectRefused(
        e,
        { body: big },
        413,
        "The request body is too large (the limit is 1 MB)",
      );
      // a declared Content-Length over the limit is refused before the body is read
      await expectRefused(
        e,
        {
          raw: JSON.stringify(big),
          headers: {
            "content-type": "application/json",
            "content-length": String(2 * 1024 * 1024 + 100),
          },
        },
        413,
        "The request body is too large (the limit is 1 MB)",
      );
    });

    test("a body that is not sent as JSON is 415", async () => {
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]) {
        await expectRefused(
          e,
          { raw: JSON.stringify(e.valid), headers: { "content-type": type } },
          415,
          "Send the request body as JSON (Content-Type: application/json)",
        );
      }
    });
  });
}

describe("bodies that are accepted", () => {
  test("application/json with a charset parameter is read", async () => {
    const res = await h.req("PATCH", "/api/user/timezone", {
      token,
      raw: JSON.stringify({ timezone: "Asia/Tokyo" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(200);
    const data = await call<{ timezone: string }>(h, "GET", "/api/user/data", { token });
    expect(data.body.timezone).toBe("Asia/Tokyo");
    await call(h, "PATCH", "/api/user/timezone", { token, body: { timezone: "Europe/Berlin" } });
  });

  test("unknown fields are ignored and cannot set other columns", async () => {
    const before = dbSnapshot(h);
    const res = await call(h, "PUT", "/api/user/profile", {
      token,
      body: {
        displayname: "Bea",
        email: "bea@example.com",
        id: 1,
        userid: 1,
        password_hash: "x",
        passwordHash: "x",
        timezone: "Asia/Tokyo",
      },
    });
    expect(res.status).toBe(200);
    const after = JSON.parse(dbSnapshot(h)) as {
      users: { id: number; timezone: string; password_hash: string }[];
    };
    const was = JSON.parse(before) as typeof after;
    expect(after.users.map((u) => u.id)).toEqual(was.users.map((u) => u.id));
    expect(after.users[1]!.timezone).toBe("Europe/Berlin");
    expect(after.users[1]!.password_hash).toBe(was.users[1]!.password_hash);
    expect((await login(h, "bea@example.com", "secret1")).status).toBe(200);
  });
});
