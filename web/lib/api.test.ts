import { describe, expect, test } from "bun:test";
import {
  ApiError,
  errorMessage,
  isAuthFailure,
  SignedOutError,
  serverFaultMessage,
  setSignedOutHandler,
  throwIfNotOk,
} from "./api.ts";

const json = (status: number, body: unknown, statusText = "") =>
  new Response(JSON.stringify(body), { status, statusText });

describe("isAuthFailure (docs/messages.md)", () => {
  test("401/403 whose JSON error is one of the two phrases", () => {
    expect(isAuthFailure(401, '{"error":"Invalid token"}')).toBe(true);
    expect(isAuthFailure(403, '{"error":"Access token required"}')).toBe(true);
  });
  test("other JSON errors, even on 401, are not auth failures", () => {
    expect(isAuthFailure(401, '{"error":"Incorrect email or password"}')).toBe(false);
    expect(isAuthFailure(403, '{"error":"Only the administrator can do this"}')).toBe(false);
    // The phrase inside a longer JSON error field does not count: the field must equal it.
    expect(isAuthFailure(401, '{"error":"Invalid token format"}')).toBe(false);
  });
  test("a non-JSON body counts when it contains a phrase", () => {
    expect(isAuthFailure(401, "Unauthorized: Invalid token")).toBe(true);
    expect(isAuthFailure(401, "Unauthorized")).toBe(false);
  });
  test("other statuses never count", () => {
    expect(isAuthFailure(400, '{"error":"Invalid token"}')).toBe(false);
    expect(isAuthFailure(500, "Access token required")).toBe(false);
  });
});

describe("throwIfNotOk", () => {
  test("ok responses pass", async () => {
    await throwIfNotOk(new Response("{}", { status: 200 }));
  });

  test("an error is '<status>: <body>' and keeps the server's message", async () => {
    const err = await throwIfNotOk(json(409, { error: "Email taken" })).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('409: {"error":"Email taken"}');
    expect(err.serverMessage).toBe("Email taken");
    expect(errorMessage(err, "fallback")).toBe("Email taken");
  });

  test("an empty body falls back to the status text", async () => {
    const err = await throwIfNotOk(
      new Response("", { status: 502, statusText: "Bad Gateway" }),
    ).catch((e) => e);
    expect(err.message).toBe("502: Bad Gateway");
    expect(errorMessage(err, "Failed to update profile")).toBe("Failed to update profile");
  });

  test("an invalid token signs out and stops with SignedOutError", async () => {
    let signedOut = 0;
    setSignedOutHandler(() => {
      signedOut++;
    });
    const err = await throwIfNotOk(json(401, { error: "Invalid token" })).catch((e) => e);
    expect(err).toBeInstanceOf(SignedOutError);
    expect(signedOut).toBe(1);
    expect(errorMessage(err, "fallback")).toBe("fallback");
  });

  test("authRedirect:false reports the auth failure as an ApiError instead", async () => {
    let signedOut = 0;
    setSignedOutHandler(() => {
      signedOut++;
    });
    const err = await throwIfNotOk(json(401, { error: "Invalid token" }), {
      authRedirect: false,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(401);
    expect(signedOut).toBe(0);
  });
});

describe("server faults in the server's words", () => {
  const full = "The server's disk is full; nothing was saved. Free some space and try again.";
  const caught = async (res: Response) => {
    try {
      await throwIfNotOk(res);
    } catch (err) {
      return err;
    }
    throw new Error("no error");
  };
  test("a 507 (disk full) and a 503 (database busy) are shown as the server wrote them", async () => {
    const e507 = await caught(json(507, { error: full }));
    expect(errorMessage(e507, "Failed to update order status. Please try again.")).toBe(full);
    expect(serverFaultMessage(e507)).toBe(full);
    const e503 = await caught(json(503, { error: "The database is busy; try again" }));
    expect(serverFaultMessage(e503)).toBe("The database is busy; try again");
  });
  test("other failures keep the toast's own description", async () => {
    expect(serverFaultMessage(await caught(json(400, { error: "Bad date" })))).toBeNull();
    expect(serverFaultMessage(new Error("network"))).toBeNull();
  });
});
