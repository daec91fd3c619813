/** Address classes of outgoing.ts: the table a reviewer can check at a glance. */
import { describe, expect, test } from "bun:test";
import {
  checkTarget,
  classifyAddress,
  isRefusedAddress,
  OutgoingError,
  pushEndpointProblem,
  sendOutgoing,
} from "./outgoing.ts";

describe("classifyAddress", () => {
  const cases: [string, ReturnType<typeof classifyAddress>][] = [
    ["192.168.1.20", "ok"],
    ["10.0.0.5", "ok"],
    ["100.64.1.2", "ok"], // Tailscale
    ["8.8.8.8", "ok"],
    ["2001:db8::1", "ok"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["192.0.0.192", "metadata"],
    ["fe80::1", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["::a9fe:a9fe", "metadata"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["64:ff9b:1::a9fe:a9fe", "metadata"],
    ["2002:a9fe:a9fe::1", "metadata"],
    ["2001:0:a9fe:a9fe::1", "metadata"], // Teredo server 169.254.169.254
    ["0.0.0.0", "unusable"],
    ["0.1.2.3", "unusable"],
    ["::", "unusable"],
    ["224.0.0.1", "unusable"],
    ["ff02::1", "unusable"],
    ["255.255.255.255", "unusable"],
    ["127.0.0.1", "loopback"],
    ["127.9.9.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:7f00:1::", "loopback"],
    ["not-an-address", "ok"],
  ];
  for (const [address, want] of cases) {
    test(`${address} → ${want}`, () => expect(classifyAddress(address)).toBe(want));
  }

  test("loopback is refused unless the policy allows it; metadata always", () => {
    expect(isRefusedAddress("127.0.0.1", { allowLoopback: false })).toBe(true);
    expect(isRefusedAddress("127.0.0.1", { allowLoopback: true })).toBe(false);
    expect(isRefusedAddress("169.254.169.254", { allowLoopback: true })).toBe(true);
    expect(isRefusedAddress("192.168.1.20", { allowLoopback: false })).toBe(false);
  });
});

test("push endpoints: https to a push service; loopback only when allowed", () => {
  const off = { allowLoopback: false };
  expect(pushEndpointProblem("https://fcm.googleapis.com/fcm/send/x", off)).toBeNull();
  expect(pushEndpointProblem("https://web.push.apple.com/x", off)).toBeNull();
  expect(pushEndpointProblem("https://a.b.push.apple.com/x", off)).toBeNull();
  expect(pushEndpointProblem("https://push.apple.com.evil.test/x", off)).not.toBeNull();
  expect(pushEndpointProblem("https://u:p@fcm.googleapis.com/x", off)).not.toBeNull();
  expect(pushEndpointProblem("http://127.0.0.1:9/push/x", off)).not.toBeNull();
  expect(pushEndpointProblem("http://127.0.0.1:9/push/x", { allowLoopback: true })).toBeNull();
});

/** The failure a promise ends with (none: the test fails). */
async function failure(p: Promise<unknown>): Promise<OutgoingError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof OutgoingError)) throw new Error(`not an OutgoingError: ${String(err)}`);
  return err;
}

describe("failures as catalog ids with values (the English words from locales/en.json)", () => {
  const off = { allowLoopback: false };

  test("a refused address: which sentence, the host, the address and why", async () => {
    const resolve = async () => [{ address: "169.254.169.254", family: 4 }];
    const named = await failure(checkTarget("http://metadata.test/x", { resolve, policy: off }));
    expect(named.kind).toBe("refused-address");
    expect(named.text).toEqual({
      code: "alerts.server.addressResolves",
      values: { host: "metadata.test", address: "169.254.169.254", why: "metadata" },
    });
    expect(named.message).toBe(
      "metadata.test resolves to 169.254.169.254, a link-local or cloud metadata address, which alerts are never sent to",
    );
    const literal = await failure(checkTarget("http://127.0.0.1:8080/x", { policy: off }));
    expect(literal.text).toEqual({
      code: "alerts.server.addressIs",
      values: { host: "127.0.0.1:8080", why: "loopback" },
    });
    expect(literal.message).toBe(
      "127.0.0.1:8080 is this server's own address: alerts go there only when the administrator sets ALERTS_ALLOW_LOOPBACK=true",
    );
    const ftp = await failure(checkTarget("ftp://example.com/x", { policy: off }));
    expect(ftp.text).toEqual({ code: "alerts.server.onlyHttp" });
    expect(ftp.message).toBe("Only http:// and https:// addresses are allowed");
  });

  test("a connection failure: the host and the seconds waited", async () => {
    // A port nothing listens on: one that was just closed.
    const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = server.port;
    server.stop(true);
    const err = await failure(
      sendOutgoing(
        { url: `http://127.0.0.1:${port}/x`, body: "{}" },
        { policy: { allowLoopback: true }, timeoutMs: 2000 },
      ),
    );
    expect(err.kind).toBe("connect");
    expect(err.text).toEqual({
      code: "alerts.server.unreachable",
      values: { host: `127.0.0.1:${port}`, seconds: 2 },
    });
    expect(err.message).toBe(
      `127.0.0.1:${port} could not be reached as a web server (the connection failed, was refused or had no answer within 2 seconds)`,
    );
  });
});
