/**
 * Carrier detection with numbers built here from the carriers' published check-digit rules, so
 * the tests do not depend on anyone else's fixtures (test/corpus-tracking.test.ts runs the public
 * corpus on top of these).
 */
import { describe, expect, test } from "bun:test";
import { detectCarrier, matchFormats, normaliseTrackingNumber } from "./carrier-detect.ts";

const digitValue = (ch: string) =>
  /\d/.test(ch) ? Number(ch) : (((ch.toUpperCase().charCodeAt(0) - 3) % 10) + 10) % 10;

/** Weighted mod 10 (weights alternate from the left); the check digit makes the total a multiple of 10. */
function mod10(body: string, evens: number, odds: number): number {
  let sum = 0;
  [...body].forEach((ch, i) => {
    sum += digitValue(ch) * (i % 2 === 0 ? evens : odds);
  });
  return (10 - (sum % 10)) % 10;
}

/** UPS 1Z: 16 characters after 1Z, the last a check digit (odd positions ×1, even ×2). */
const ups = (body15: string) => `1Z${body15}${mod10(body15, 1, 2)}`;

/** FedEx Express 12 digits: weights 3,1,7 repeating, mod 11 then mod 10. */
function fedex12(body11: string): string {
  const w = [3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1];
  const sum = [...body11].reduce((s, ch, i) => s + Number(ch) * (w[i] ?? 0), 0);
  return `${body11}${(sum % 11) % 10}`;
}

/** FedEx Ground 15 digits: mod 10 with odd positions ×1, even ×3. */
const fedexGround = (body14: string) => `${body14}${mod10(body14, 1, 3)}`;

/** USPS IMpb 22 digits ("94" or "92" …): mod 10 with odd positions ×3, even ×1. */
const usps22 = (body21: string) => `${body21}${mod10(body21, 3, 1)}`;

/** S10 international: 2 letters, 8 digits, check digit (weights 8 6 4 2 3 5 9 7, mod 11), country. */
function s10(service: string, eight: string, country: string): string {
  const w = [8, 6, 4, 2, 3, 5, 9, 7];
  const r = [...eight].reduce((s, ch, i) => s + Number(ch) * (w[i] ?? 0), 0) % 11;
  const check = r === 1 ? 0 : r === 0 ? 5 : 11 - r;
  return `${service}${eight}${check}${country}`;
}

/** Changes the last character to the next digit: a mistyped check digit. */
const typo = (n: string) => `${n.slice(0, -1)}${(Number(n.slice(-1)) + 1) % 10}`;

const UPS_1 = ups("A1B2C3030123456");
const UPS_2 = ups("879E93034683444");
const FEDEX_12 = fedex12("77161342373");
const FEDEX_15 = fedexGround("04144176022896");
const USPS_94 = usps22("940011120620640626078");
const USPS_92 = usps22("920019030600853000429");

describe("detectCarrier: numbers whose check digit validates", () => {
  test("UPS 1Z numbers, however they are typed", () => {
    expect(detectCarrier(UPS_1)).toBe("UPS");
    expect(detectCarrier(UPS_2)).toBe("UPS");
    expect(detectCarrier(UPS_1.toLowerCase())).toBe("UPS");
    expect(detectCarrier(` ${UPS_1.replace(/(.{4})/g, "$1 ")} `)).toBe("UPS");
    expect(detectCarrier(UPS_1.replace(/(.{4})/g, "$1-"))).toBe("UPS");
  });

  test("FedEx Express (12) and FedEx Ground (15)", () => {
    expect(detectCarrier(FEDEX_12)).toBe("FEDEX");
    expect(detectCarrier(FEDEX_15)).toBe("FEDEX");
    expect(detectCarrier(FEDEX_12.replace(/(.{4})/g, "$1 "))).toBe("FEDEX");
  });

  test("USPS IMpb numbers (94…, 92…) and with the 420+ZIP routing code", () => {
    expect(detectCarrier(USPS_94)).toBe("USPS");
    expect(detectCarrier(USPS_92)).toBe("USPS");
    expect(detectCarrier(`42060601${USPS_94}`)).toBe("USPS");
  });

  test("S10 international numbers belong to the post of their country when it is a marketplace's", () => {
    expect(detectCarrier(s10("EC", "20792016", "US"))).toBe("USPS");
    expect(detectCarrier(s10("RB", "12345678", "GB"))).toBe("ROYALMAIL");
    expect(detectCarrier(s10("CP", "12345678", "FR"))).toBe("LAPOSTE");
    expect(detectCarrier(s10("RR", "12345678", "IT"))).toBe("POSTEITALIANE");
    expect(detectCarrier(s10("CX", "12345678", "ES"))).toBe("CORREOS");
    expect(detectCarrier(s10("EJ", "12345678", "JP"))).toBe("JAPANPOST");
    expect(detectCarrier(s10("LM", "12345678", "CA"))).toBe("CANADAPOST");
    expect(detectCarrier(s10("CC", "12345678", "AU"))).toBe("AUSPOST");
    expect(detectCarrier(s10("RR", "12345678", "DE"))).toBe("DHL");
    // Another country's post is not one we offer; a mistyped check digit is nobody's.
    expect(detectCarrier(s10("RB", "12345678", "CN"))).toBeNull();
    expect(detectCarrier(`${typo(s10("RB", "12345678", "GB").slice(0, 11))}GB`)).toBeNull();
  });

  test("DHL eCommerce numbers are DHL's", () => {
    expect(detectCarrier("GM2951173225174494")).toBe("DHL");
  });
});

describe("detectCarrier: Amazon Logistics by its shape", () => {
  test("TBA, TBC and TBM followed by 12 digits", () => {
    expect(detectCarrier("TBA123456789012")).toBe("AMAZON");
    expect(detectCarrier("tba 3216 7730 2718")).toBe("AMAZON");
    expect(detectCarrier("TBC987654321098")).toBe("AMAZON");
    expect(detectCarrier("TBM502887274000")).toBe("AMAZON");
  });

  test("other TB letters, wrong lengths and letters among the digits are not Amazon", () => {
    for (const n of [
      "TBB123456789012",
      "TBD123456789012",
      "TBA12345678901",
      "TBA1234567890123",
      "TBA12345678901A",
      "TB123456789012",
    ]) {
      expect(detectCarrier(n)).toBeNull();
    }
  });

  test('the library\'s "Amazon International" shape (a letter and 10 digits) is not claimed', () => {
    expect(detectCarrier("C1004444443")).toBeNull();
    expect(detectCarrier("A1234567890")).toBeNull();
    expect(matchFormats("C1004444443").some((m) => m.format === "Amazon International")).toBe(
      false,
    );
  });
});

describe("detectCarrier: never claims a carrier it cannot tell", () => {
  test("a mistyped check digit gives null", () => {
    for (const n of [UPS_1, FEDEX_12, FEDEX_15, USPS_94, USPS_92]) {
      expect(detectCarrier(typo(n))).toBeNull();
    }
  });

  test("short, empty, random and degenerate input gives null", () => {
    for (const n of [
      "",
      "   ",
      "1Z",
      "1234567",
      "hello world",
      "000000000000",
      "000000000000000",
      "1111111111111111111111",
      "1Z1111111111111111",
      "!!!!!!!!!!!!",
      "x".repeat(64),
      "9".repeat(64),
    ]) {
      expect(detectCarrier(n)).toBeNull();
    }
  });

  test("shapes other carriers share, and carriers we do not offer, give null (DHL Express, OnTrac)", () => {
    // DHL Express: 10 digits, the last is the first nine mod 7 (Purolator and others share it)
    const dhl = `331881002${331881002 % 7}`;
    expect(matchFormats(dhl).map((m) => m.owner)).toContain("other");
    expect(detectCarrier(dhl)).toBeNull();
    const ontrac = `C1103150000187${mod10("1103150000187", 1, 2)}`;
    expect(detectCarrier(ontrac)).toBeNull();
  });

  test("a bare 20-digit number that only validates as USPS with 91 in front is not claimed", () => {
    const body = "0293150379919276659";
    const withPrefix = mod10(`91${body}`, 3, 1);
    const n = `${body}${withPrefix}`;
    expect(detectCarrier(`91${n}`)).toBe("USPS");
    expect(detectCarrier(n)).toBeNull();
  });

  test("a 34-digit USPS number behind 420+ZIP wins over the broad FedEx 34-digit shape", () => {
    // Build a number that passes both check digits: FedEx's over the last 13 digits before the
    // check, USPS's over the 21 digits after the routing code. Digit 14 only counts for USPS.
    const fedexCheck = (d: string) => {
      const w = [1, 7, 3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1];
      return ([...d.slice(20, 33)].reduce((s, ch, i) => s + Number(ch) * (w[i] ?? 0), 0) % 11) % 10;
    };
    let found = "";
    for (let x = 0; x < 10 && !found; x++) {
      const body = `42060601234592${x}123456700123456789`;
      const c = fedexCheck(body);
      if (mod10(body.slice(12), 3, 1) === c) found = `${body}${c}`;
    }
    expect(found).toHaveLength(34);
    const owners = matchFormats(found).map((m) => m.owner);
    expect(owners).toContain("USPS");
    expect(owners).not.toContain("FEDEX");
    expect(detectCarrier(found)).toBe("USPS");
  });
});

test("normaliseTrackingNumber keeps letters and digits, upper-cased", () => {
  expect(normaliseTrackingNumber(" 1z 12-34 ")).toBe("1Z1234");
});
