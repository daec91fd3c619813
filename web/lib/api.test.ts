import { describe, expect, test } from "bun:test";
import { setLanguage } from "../i18n/index.ts";
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
  test("a 401/403 whose code says the session is missing or invalid", () => {
    expect(isAuthFailure(401, '{"error":"Invalid token","code":"token_invalid"}')).toBe(true);
    expect(isAuthFailure(403, '{"error":"Access token required","code":"token_required"}')).toBe(
      true,
    );
  });
  test("recognised by the code, not by the words", () => {
    // Another language's words, or new English ones, still sign out.
    expect(isAuthFailure(401, '{"error":"Ungültiges Token","code":"token_invalid"}')).toBe(true);
    // The old phrase without the code does not.
    expect(isAuthFailure(401, '{"error":"Invalid token"}')).toBe(false);
    expect(isAuthFailure(401, "Unauthorized: Invalid token")).toBe(false);
  });
  test("other codes, even on 401, are not auth failures", () => {
    expect(
      isAuthFailure(401, '{"error":"Incorrect email or password","code":"sign_in_wrong"}'),
    ).toBe(false);
    expect(
      isAuthFailure(403, '{"error":"Only the administrator can do this","code":"admin_only"}'),
    ).toBe(false);
    // An expired media link is a 401 too, but the session is fine.
    expect(isAuthFailure(401, '{"error":"…","code":"media_link_expired"}')).toBe(false);
  });
  test("other statuses never count", () => {
    expect(isAuthFailure(400, '{"error":"Invalid token","code":"token_invalid"}')).toBe(false);
    expect(isAuthFailure(500, '{"code":"token_required"}')).toBe(false);
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
    const err = await throwIfNotOk(
      json(401, { error: "Invalid token", code: "token_invalid", values: {} }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(SignedOutError);
    expect(signedOut).toBe(1);
    expect(errorMessage(err, "fallback")).toBe("fallback");
  });

  test("authRedirect:false reports the auth failure as an ApiError instead", async () => {
    let signedOut = 0;
    setSignedOutHandler(() => {
      signedOut++;
    });
    const err = await throwIfNotOk(
      json(401, { error: "Invalid token", code: "token_invalid", values: {} }),
      { authRedirect: false },
    ).catch((e) => e);
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

describe("a code's sentence in the reader's language", () => {
  const failed = (status: number, body: unknown) =>
    throwIfNotOk(json(status, body)).then(
      () => {
        throw new Error("no error");
      },
      (e: unknown) => e,
    );
  const inGerman = async (fn: () => Promise<void>) => {
    await setLanguage("de");
    try {
      await fn();
    } finally {
      await setLanguage("en");
    }
  };

  test("the code and values are kept on the ApiError", async () => {
    const err = (await failed(422, {
      error:
        "UPS does not know tracking number 1Z9 yet. It will be checked again at the next update.",
      code: "tracking_number_unknown",
      values: { carrier: "UPS", number: "1Z9" },
    })) as ApiError;
    expect(err.code).toBe("tracking_number_unknown");
    expect(err.values).toEqual({ carrier: "UPS", number: "1Z9" });
  });

  test("a German reader gets the German sentence, with the values in it", async () => {
    const err = await failed(422, {
      error:
        "UPS does not know tracking number 1Z9 yet. It will be checked again at the next update.",
      code: "tracking_number_unknown",
      values: { carrier: "UPS", number: "1Z9" },
    });
    await inGerman(async () => {
      expect(errorMessage(err, "Fehler")).toBe(
        "UPS kennt die Sendungsnummer 1Z9 noch nicht. Sie wird bei der nächsten Aktualisierung erneut geprüft.",
      );
    });
    // The English reader gets the English sentence, the same as the server's.
    expect(errorMessage(err, "fallback")).toBe(
      "UPS does not know tracking number 1Z9 yet. It will be checked again at the next update.",
    );
  });

  test("a refused alert address reads German: which sentence and its values", async () => {
    const english =
      "home.test resolves to 127.0.0.1, this server's own address: alerts go there only when the administrator sets ALERTS_ALLOW_LOOPBACK=true";
    const err = await failed(400, {
      error: english,
      code: "alert_address_refused",
      values: {
        kind: "addressResolves",
        host: "home.test",
        address: "127.0.0.1",
        why: "loopback",
        reason: english,
      },
    });
    expect(errorMessage(err, "fallback")).toBe(english);
    await inGerman(async () => {
      expect(errorMessage(err, "Fehler")).toBe(
        "Diese Adresse ist nicht erlaubt: home.test verweist auf 127.0.0.1, die eigene Adresse dieses Servers: Benachrichtigungen gehen nur dorthin, wenn der Administrator ALERTS_ALLOW_LOOPBACK=true setzt",
      );
    });
  });

  test("a field's name and an order status are shown as German words, not English ones", async () => {
    const required = await failed(400, {
      error: "Product name is required",
      code: "field_required",
      values: { field: "productname" },
    });
    const status = await failed(400, {
      error:
        "This order is already Review Approved: only an order on its way can be marked delivered",
      code: "mark_delivered_status",
      values: { status: "Review Approved" },
    });
    await inGerman(async () => {
      expect(errorMessage(required, "Fehler")).toBe("Produktname ist erforderlich");
      expect(errorMessage(status, "Fehler")).toBe(
        "Diese Bestellung ist bereits „Rezension freigegeben“: Nur eine Bestellung, die unterwegs ist, kann als geliefert markiert werden",
      );
    });
    expect(errorMessage(required, "fallback")).toBe("Product name is required");
  });

  test("a server fault (507) is in the reader's language too", async () => {
    const err = await failed(507, {
      error: "The server's disk is full; nothing was saved. Free some space and try again.",
      code: "disk_full",
      values: {},
    });
    await inGerman(async () => {
      expect(serverFaultMessage(err)).toBe(
        "Der Datenträger des Servers ist voll; nichts wurde gespeichert. Geben Sie Speicherplatz frei und versuchen Sie es erneut.",
      );
    });
  });

  test("a code this app does not know shows the server's own words", async () => {
    const err = await failed(400, {
      error: "Something new the server says",
      code: "some_future_code",
      values: {},
    });
    await inGerman(async () => {
      expect(errorMessage(err, "Fehler")).toBe("Something new the server says");
    });
    // No code and no words: the caller's fallback.
    expect(errorMessage(await failed(500, {}), "Failed to save")).toBe("Failed to save");
  });
});
