/** Address classes of outgoing.ts: the table a reviewer can check at a glance. */
import { describe, expect, test } from "bun:test";
import { classifyAddress, isRefusedAddress, pushEndpointProblem } from "./outgoing.ts";

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
