/** Configuration from the environment, and log-line redaction. */
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { redactUrl } from "../../src/log.ts";

describe("loadConfig", () => {
  test("defaults", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe("0.0.0.0");
    expect(c.dataDir).toBe(path.resolve("./data"));
    expect(c.dbFile).toBe(path.join(path.resolve("./data"), "app.db"));
    expect(c.logDir).toBe(path.join(path.resolve("./data"), "logs"));
    expect(c.mediaDir).toBe(path.join(path.resolve("./data"), "media"));
    expect(c.logLevel).toBe("info");
    expect(c.logRetentionDays).toBe(14);
    expect(c.allowRegistration).toBe(true);
    expect(c.sessionDays).toBe(30);
    expect(c.trustProxy).toBe(false);
    expect(c.diskFreeMinMb).toBe(200);
    expect(c.shutdownGraceSeconds).toBe(25);
    expect(c.alertsAllowLoopback).toBe(false);
    expect(c.webPushContact).toBeNull();
    expect(c.signupHourlyLimit).toBe(3);
    expect(Object.isFrozen(c)).toBe(true);
  });

  test("blank values fall back to the defaults", () => {
    const c = loadConfig({ PORT: " ", LOG_LEVEL: "", ALLOW_REGISTRATION: "  ", DATA_DIR: " " });
    expect(c.port).toBe(3000);
    expect(c.logLevel).toBe("info");
    expect(c.allowRegistration).toBe(true);
    expect(c.dataDir).toBe(path.resolve("./data"));
  });

  test("valid values are read", () => {
    const c = loadConfig({
      PORT: " 8080 ",
      HOST: "127.0.0.1",
      DATA_DIR: "/srv/grapevine",
      LOG_LEVEL: "DEBUG",
      ALLOW_REGISTRATION: "no",
      TRUST_PROXY: "Yes",
      SESSION_DAYS: "7",
      LOG_RETENTION_DAYS: "1",
      DISK_FREE_MIN_MB: "0",
      SHUTDOWN_GRACE_SECONDS: "60",
    });
    expect(c.diskFreeMinMb).toBe(0);
    expect(c.shutdownGraceSeconds).toBe(60);
    expect(c.port).toBe(8080);
    expect(c.host).toBe("127.0.0.1");
    expect(c.dataDir).toBe("/srv/grapevine");
    expect(c.dbFile).toBe("/srv/grapevine/app.db");
    expect(c.logLevel).toBe("debug");
    expect(c.allowRegistration).toBe(false);
    expect(c.trustProxy).toBe(true);
    expect(c.sessionDays).toBe(7);
    expect(c.logRetentionDays).toBe(1);
  });

  test("alert, push contact and sign-up settings", () => {
    const c = loadConfig({
      ALERTS_ALLOW_LOOPBACK: "true",
      WEB_PUSH_CONTACT: " mailto:push@example.net ",
      SIGNUP_HOURLY_LIMIT: "10",
    });
    expect(c.alertsAllowLoopback).toBe(true);
    expect(c.webPushContact).toBe("mailto:push@example.net");
    expect(c.signupHourlyLimit).toBe(10);
    expect(loadConfig({ WEB_PUSH_CONTACT: "https://vine.example.org" }).webPushContact).toBe(
      "https://vine.example.org",
    );
  });

  test("boolean spellings", () => {
    for (const v of ["1", "true", "TRUE", "yes", "on"]) {
      expect(loadConfig({ ALLOW_REGISTRATION: v }).allowRegistration).toBe(true);
    }
    for (const v of ["0", "false", "False", "no", "off"]) {
      expect(loadConfig({ ALLOW_REGISTRATION: v }).allowRegistration).toBe(false);
    }
  });

  const bad: [Record<string, string>, string][] = [
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ PORT: "0" }, "PORT"],
    [{ PORT: "-1" }, "PORT"],
    [{ PORT: "3000.5" }, "PORT"],
    [{ PORT: "1e3" }, "PORT"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ ALLOW_REGISTRATION: "maybe" }, "ALLOW_REGISTRATION"],
    [{ TRUST_PROXY: "sometimes" }, "TRUST_PROXY"],
    [{ SESSION_DAYS: "0" }, "SESSION_DAYS"],
    [{ LOG_RETENTION_DAYS: "forever" }, "LOG_RETENTION_DAYS"],
    [{ DISK_FREE_MIN_MB: "200MB" }, "DISK_FREE_MIN_MB"],
    [{ SHUTDOWN_GRACE_SECONDS: "-5" }, "SHUTDOWN_GRACE_SECONDS"],
    [{ ALERTS_ALLOW_LOOPBACK: "perhaps" }, "ALERTS_ALLOW_LOOPBACK"],
    [{ WEB_PUSH_CONTACT: "admin@example.com" }, "WEB_PUSH_CONTACT"],
    [{ WEB_PUSH_CONTACT: "http://vine.example.org" }, "WEB_PUSH_CONTACT"],
    [{ SIGNUP_HOURLY_LIMIT: "0" }, "SIGNUP_HOURLY_LIMIT"],
  ];
  for (const [env, name] of bad) {
    const [key, value] = Object.entries(env)[0]!;
    test(`${key}=${value} throws a ConfigError naming ${name} and the value`, () => {
      let err: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).toContain(name);
      expect(message).toContain(`"${value}"`);
      expect(message).not.toContain("\n");
    });
  }
});

describe("redactUrl", () => {
  test("replaces token= values, whatever the position or case", () => {
    expect(redactUrl("/api/events?token=abc.def-123")).toBe("/api/events?token=[redacted]");
    expect(redactUrl("/api/events?x=1&token=abc&y=2")).toBe("/api/events?x=1&token=[redacted]&y=2");
    expect(redactUrl("/api/events?TOKEN=abc")).toBe("/api/events?TOKEN=[redacted]");
    expect(redactUrl("/api/events?token=a&token=b")).toBe(
      "/api/events?token=[redacted]&token=[redacted]",
    );
    expect(redactUrl("/api/events?token=abc#frag")).toBe("/api/events?token=[redacted]#frag");
    expect(redactUrl("/api/events?token=")).toBe("/api/events?token=[redacted]");
  });

  test("leaves other parameters and paths alone", () => {
    expect(redactUrl("/api/orders?page=2")).toBe("/api/orders?page=2");
    expect(redactUrl("/api/token=abc")).toBe("/api/token=abc");
    expect(redactUrl("/api/x?mytoken=abc")).toBe("/api/x?mytoken=abc");
  });
});
