import { describe, expect, test } from "bun:test";
import type { AlertChannel } from "../../../../src/contract/alerts.ts";
import {
  createBody,
  type Draft,
  describeTarget,
  draftOf,
  requiredFields,
  toggleEvent,
  updateBody,
  userEvents,
} from "./channel-draft.ts";

const newDraft = (patch: Partial<Draft> = {}): Draft => ({ ...draftOf(null, false), ...patch });

function channel(patch: Partial<AlertChannel>): AlertChannel {
  return {
    id: 7,
    type: "ntfy",
    name: "Phone",
    enabled: true,
    events: ["shipped"],
    quietHours: null,
    paused: null,
    deliveries: [],
    createdAt: "2026-11-01T10:00:00.000Z",
    ...patch,
  };
}
const ntfyChannel = (auth: "none" | "token" | "password", username?: string) =>
  channel({
    ntfy: {
      serverUrl: "https://ntfy.example.com",
      topic: "gr••••",
      auth,
      ...(auth === "token" ? { token: "tk_a••••" } : {}),
      ...(username ? { username } : {}),
    },
  });
const webhookChannel = channel({
  type: "webhook",
  webhook: { url: "https://hooks.example.com/••••", format: "discord" },
});

describe("the events a user may choose", () => {
  test("the server's own events only for the administrator", () => {
    expect(userEvents(false)).not.toContain("disk_nearly_full");
    expect(userEvents(false)).not.toContain("mailbox_supervisor_failing");
    expect(userEvents(false)).toContain("shipped");
    expect(userEvents(true)).toContain("disk_nearly_full");
    expect(userEvents(true)).toContain("mailbox_supervisor_failing");
  });

  test("ticking adds the event, clearing removes only it", () => {
    expect(toggleEvent(["shipped"], "delivered", true)).toEqual(["shipped", "delivered"]);
    expect(toggleEvent(["shipped", "delivered"], "shipped", false)).toEqual(["delivered"]);
  });
});

describe("the draft a form opens with", () => {
  test("a new channel: ntfy on ntfy.sh, every event the user may choose, quiet 22:00–07:00 off", () => {
    const d = draftOf(null, false);
    expect(d).toMatchObject({
      type: "ntfy",
      serverUrl: "https://ntfy.sh",
      access: "none",
      quiet: false,
      quietStart: "22:00",
      quietEnd: "07:00",
      enabled: true,
    });
    expect(d.events).toEqual(userEvents(false));
    expect(draftOf(null, true).events).toEqual(userEvents(true));
  });

  test("a saved channel: its own values, secrets empty", () => {
    const d = draftOf(
      channel({
        ...ntfyChannel("password", "vera"),
        enabled: false,
        quietHours: { start: "23:00", end: "06:30" },
      }),
      false,
    );
    expect(d).toMatchObject({
      serverUrl: "https://ntfy.example.com",
      topic: "",
      access: "password",
      username: "vera",
      password: "",
      events: ["shipped"],
      quiet: true,
      quietStart: "23:00",
      quietEnd: "06:30",
      enabled: false,
    });
    expect(draftOf(webhookChannel, false)).toMatchObject({
      type: "webhook",
      format: "discord",
      url: "",
    });
  });
});

describe("required fields", () => {
  test("a new channel needs its topic or URL; a saved one keeps them when left empty", () => {
    expect(requiredFields(false)).toMatchObject({ serverUrl: true, topic: true, url: true });
    expect(requiredFields(true)).toMatchObject({ serverUrl: true, topic: false, url: false });
  });
});

describe("a new channel's request", () => {
  test("ntfy with a token: trimmed, no user name or password", () => {
    const body = createBody(
      newDraft({
        name: "  Phone ",
        serverUrl: " https://ntfy.example.com ",
        topic: " grapevine-1 ",
        access: "token",
        token: " tk_1 ",
        username: "left over",
        password: "left over",
      }),
    );
    expect(body).toEqual({
      type: "ntfy",
      name: "Phone",
      events: userEvents(false),
      quietHours: null,
      serverUrl: "https://ntfy.example.com",
      topic: "grapevine-1",
      token: "tk_1",
      username: undefined,
      password: undefined,
    });
  });

  test("ntfy with a user name and password; quiet hours when switched on", () => {
    const body = createBody(
      newDraft({
        topic: "t",
        access: "password",
        username: " vera ",
        password: " p w ",
        quiet: true,
      }),
    );
    expect(body).toMatchObject({
      token: undefined,
      username: "vera",
      password: " p w ",
      quietHours: { start: "22:00", end: "07:00" },
    });
  });

  test("a webhook: its URL and format, nothing of ntfy", () => {
    const body = createBody(
      newDraft({
        type: "webhook",
        url: " https://hooks.example.com/x ",
        format: "slack",
        token: "x",
      }),
    );
    expect(body).toEqual({
      type: "webhook",
      name: "",
      events: userEvents(false),
      quietHours: null,
      url: "https://hooks.example.com/x",
      format: "slack",
    });
  });
});

describe("a saved channel's request", () => {
  test("empty topic and token keep the saved ones; on/off and events always sent", () => {
    const ch = ntfyChannel("token");
    const body = updateBody({ ...draftOf(ch, false), enabled: false }, ch);
    expect(body).toEqual({
      name: "Phone",
      events: ["shipped"],
      quietHours: null,
      enabled: false,
      serverUrl: "https://ntfy.example.com",
    });
  });

  test("a new topic and token replace the saved ones", () => {
    const ch = ntfyChannel("token");
    const body = updateBody({ ...draftOf(ch, false), topic: " t2 ", token: " tk_2 " }, ch);
    expect(body).toMatchObject({ topic: "t2", token: "tk_2" });
    expect(body).not.toHaveProperty("username");
  });

  test("another access kind removes the old kind's secrets", () => {
    const ch = ntfyChannel("token");
    expect(updateBody({ ...draftOf(ch, false), access: "none" }, ch)).toMatchObject({
      token: null,
      username: null,
      password: null,
    });
    const toPassword = updateBody(
      { ...draftOf(ch, false), access: "password", username: "vera", password: "pw" },
      ch,
    );
    expect(toPassword).toMatchObject({ token: null, username: "vera", password: "pw" });
  });

  test("user name sent only when changed, password only when typed", () => {
    const ch = ntfyChannel("password", "vera");
    const same = updateBody(draftOf(ch, false), ch);
    expect(same).not.toHaveProperty("username");
    expect(same).not.toHaveProperty("password");
    const changed = updateBody({ ...draftOf(ch, false), username: " max ", password: "new" }, ch);
    expect(changed).toMatchObject({ username: "max", password: "new" });
  });

  test("a webhook: format always, the URL only when typed", () => {
    expect(updateBody(draftOf(webhookChannel, false), webhookChannel)).not.toHaveProperty("url");
    const body = updateBody(
      { ...draftOf(webhookChannel, false), url: " https://hooks.example.com/y ", format: "json" },
      webhookChannel,
    );
    expect(body).toMatchObject({ url: "https://hooks.example.com/y", format: "json" });
    expect(body).not.toHaveProperty("serverUrl");
  });
});

describe("where a channel sends", () => {
  test("ntfy server and topic; the webhook format's first word and URL; the device", () => {
    expect(describeTarget(ntfyChannel("none"))).toBe("https://ntfy.example.com · topic gr••••");
    expect(
      describeTarget(channel({ type: "webhook", webhook: { url: "u", format: "json" } })),
    ).toBe("JSON · u");
    expect(
      describeTarget(
        channel({ type: "webpush", webpush: { service: "fcm", deviceName: "Pixel" } }),
      ),
    ).toBe("Pixel · fcm");
  });
});
