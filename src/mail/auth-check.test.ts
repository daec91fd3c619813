/** The spoof check: the top Authentication-Results, DKIM/DMARC for the From domain. */
import { describe, expect, test } from "bun:test";
import { aligned, checkAuthentication, parseAuthenticationResults } from "./auth-check.ts";

const ar = (value: string) => ({ name: "authentication-results", value });

const GMAIL_PASS = `mx.google.com;
       dkim=pass header.i=@amazon.com header.s=eaxkvsyelrnxjh4cicqyjjmtjpetuwjx header.b=bX9XNvUN;
       dkim=pass header.i=@amazonses.com header.s=6gbrjpgwjskckoa6a5zn6fwqkn67xbtw header.b=HB0AZLJH;
       spf=pass (google.com: domain of 2025@bounces.amazon.com designates 54.240.13.143 as permitted sender) smtp.mailfrom=2025@bounces.amazon.com;
       dmarc=pass (p=QUARANTINE sp=QUARANTINE dis=NONE) header.from=amazon.com`;

describe("parseAuthenticationResults", () => {
  test("reads the server, methods, results and properties; comments are ignored", () => {
    const r = parseAuthenticationResults(GMAIL_PASS);
    expect(r.authservId).toBe("mx.google.com");
    expect(r.results.map((x) => `${x.method}=${x.result}`)).toEqual([
      "dkim=pass",
      "dkim=pass",
      "spf=pass",
      "dmarc=pass",
    ]);
    expect(r.results[0]?.props["header.i"]).toBe("@amazon.com");
    expect(r.results[3]?.props["header.from"]).toBe("amazon.com");
  });

  test("a comment containing ';' or '=' does not split or add results", () => {
    const r = parseAuthenticationResults(
      'mx.example; dkim=fail (bad; sig=x) header.d=amazon.com; dmarc=pass header.from="amazon.com"',
    );
    expect(r.results.map((x) => `${x.method}=${x.result}`)).toEqual(["dkim=fail", "dmarc=pass"]);
    expect(r.results[1]?.props["header.from"]).toBe("amazon.com");
  });

  test("'none' carries no result", () => {
    expect(parseAuthenticationResults("mx.example.org 1; none").results).toEqual([]);
  });
});

describe("aligned", () => {
  test("same domain, parent or child of an organisation domain", () => {
    expect(aligned("amazon.com", "amazon.com")).toBe(true);
    expect(aligned("amazon.com", "marketplace.amazon.com")).toBe(true);
    expect(aligned("bounces.amazon.co.uk", "amazon.co.uk")).toBe(true);
    expect(aligned("co.uk", "amazon.co.uk")).toBe(false);
    expect(aligned("amazonses.com", "amazon.com")).toBe(false);
    expect(aligned("evilamazon.com", "amazon.com")).toBe(false);
    expect(aligned("com", "amazon.com")).toBe(false);
  });
});

describe("checkAuthentication", () => {
  test("Gmail's header with an aligned DKIM pass and DMARC pass: authenticated", () => {
    const v = checkAuthentication([ar(GMAIL_PASS)], "amazon.com");
    expect(v.verdict).toBe("pass");
    expect(v.detail).toContain("mx.google.com");
  });

  test("dkim=fail for the Amazon domain: spoofed", () => {
    const v = checkAuthentication(
      [ar("mx.google.com; dkim=fail header.i=@amazon.com header.b=x; spf=softfail")],
      "amazon.com",
    );
    expect(v.verdict).toBe("spoofed");
    expect(v.detail).toContain("dkim=fail");
  });

  test("dkim=permerror: spoofed", () => {
    expect(
      checkAuthentication([ar("mx.example; dkim=permerror header.d=amazon.com")], "amazon.com")
        .verdict,
    ).toBe("spoofed");
  });

  test("dmarc=fail for the From domain: spoofed, even beside a DKIM pass", () => {
    const v = checkAuthentication(
      [
        ar(
          "mx.google.com; dkim=pass header.d=amazon.com; dmarc=fail (p=REJECT) header.from=amazon.com",
        ),
      ],
      "amazon.com",
    );
    expect(v.verdict).toBe("spoofed");
    expect(v.detail).toContain("dmarc=fail");
  });

  test("unsigned (dkim=none) or signed only by amazonses.com: spoofed (Amazon signs its mail)", () => {
    expect(
      checkAuthentication(
        [ar("mx.google.com; dkim=none; spf=pass smtp.mailfrom=x@amazon.com")],
        "amazon.com",
      ).verdict,
    ).toBe("spoofed");
    const ses = checkAuthentication(
      [ar("mx.google.com; dkim=pass header.i=@amazonses.com; spf=pass")],
      "amazon.com",
    );
    expect(ses.verdict).toBe("spoofed");
    expect(ses.detail).toContain("amazonses.com");
    expect(checkAuthentication([ar("mx.example; none")], "amazon.com").verdict).toBe("spoofed");
  });

  test("DMARC pass without an aligned DKIM result (aligned SPF): authenticated", () => {
    expect(
      checkAuthentication(
        [
          ar(
            "mx.example; spf=pass smtp.mailfrom=bounces.amazon.com; dmarc=pass header.from=amazon.com",
          ),
        ],
        "amazon.com",
      ).verdict,
    ).toBe("pass");
  });

  test("only the TOP header counts: a forged pass lower down does not help, a forged fail does not hurt", () => {
    const forgedPass = ar(
      "mx.attacker; dkim=pass header.d=amazon.com; dmarc=pass header.from=amazon.com",
    );
    const topFail = ar(
      "mx.google.com; dkim=fail header.d=amazon.com; dmarc=fail header.from=amazon.com",
    );
    expect(checkAuthentication([topFail, forgedPass], "amazon.com").verdict).toBe("spoofed");
    const forgedFail = ar("mx.attacker; dkim=fail header.d=amazon.com");
    expect(checkAuthentication([ar(GMAIL_PASS), forgedFail], "amazon.com").verdict).toBe("pass");
  });

  test("a DMARC result for another domain is not about this From", () => {
    expect(
      checkAuthentication(
        [ar("mx.example; dkim=pass header.d=amazon.co.uk; dmarc=fail header.from=example.org")],
        "amazon.co.uk",
      ).verdict,
    ).toBe("pass");
  });

  test("no Authentication-Results header: absent (the caller's rule decides)", () => {
    const v = checkAuthentication([{ name: "received", value: "from x" }], "amazon.com");
    expect(v.verdict).toBe("absent");
  });
});
