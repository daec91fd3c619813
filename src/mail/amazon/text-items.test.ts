import { describe, expect, test } from "bun:test";
import { textItems, wholeName } from "./text-items.ts";

const read = (lines: string[], market: Parameters<typeof textItems>[3], textMail = true) =>
  textItems(lines, 0, lines.length, market, textMail).map((i) => [
    i.productname,
    i.quantity,
    i.price,
  ]);

describe("items written as lines (layouts of test/fixtures/mail/real/)", () => {
  test("amazon.co.jp 2025: '* name' / '数量: N' / 'N JPY'", () => {
    const lines = [
      "* シリコンスプーン 24本セット",
      "数量: 1",
      "0 JPY",
      "* 木製コースター 丸型 6枚入り",
      "数量: 2",
      "0 JPY",
      "合計",
      "0 JPY",
    ];
    expect(read(lines, "JP")).toEqual([
      ["シリコンスプーン 24本セット", 1, "0.00"],
      ["木製コースター 丸型 6枚入り", 2, "0.00"],
    ]);
  });

  test("amazon.de text part of the 2025 HTML: '[whole name]' / cut name / Menge / cents run together", () => {
    const lines = [
      "[Abgeschlossen]",
      "Bestellt",
      "[Gartenschlauch-Set 20 m mit Brause]",
      "Gartenschlauch-Set 20 m mit...",
      "Verkauf durch Amazon.de",
      "Zustand: Neu",
      "Menge: 2",
      "2499€",
      "Summe 0.00€",
    ];
    expect(read(lines, "DE", true)).toEqual([["Gartenschlauch-Set 20 m mit Brause", 2, "24.99"]]);
  });

  test("amazon.co.jp 2011: quantity and quoted name, the price on the format line", () => {
    const lines = [
      '1 "やさしい写真入門 (カメラ教室シリーズ)"',
      "単行本; ￥ 1,600",
      '2 "ボールペン 0.5mm 黒 10本パック"',
      "文房具; ￥ 900",
    ];
    expect(read(lines, "JP")).toEqual([
      ["やさしい写真入門 (カメラ教室シリーズ)", 1, "1600.00"],
      ["ボールペン 0.5mm 黒 10本パック", 2, "900.00"],
    ]);
  });

  test("amazon.co.jp 2013: price on the same line, or below a name with 'N点' (the line's amount)", () => {
    const lines = [
      "Amazon.com Int'l Sales, Inc.の商品:",
      "はじめての水彩画 ￥ 1,470",
      "マスキングテープ 15mm 5色セット 3点",
      "￥ 1,260",
      "小計： ￥ 2,730",
      "合計： ￥ 2,730",
    ];
    expect(read(lines, "JP")).toEqual([
      ["はじめての水彩画", 1, "1470.00"],
      ["マスキングテープ 15mm 5色セット", 3, "420.00"],
    ]);
  });

  test("amazon.de 2016 text mail: '1 x name' / seller / amount; labels with amounts are no items", () => {
    const lines = [
      "1 x Schreibtischlampe LED dimmbar",
      "Verkauft von: Beispielhandel",
      "EUR 32,90",
      "Zwischensumme: EUR 32,90",
      "Endbetrag inkl. USt.: EUR 32,90",
    ];
    expect(read(lines, "DE")).toEqual([["Schreibtischlampe LED dimmbar", 1, "32.90"]]);
  });

  test("a bare line above an amount is an item only in text mail; a quantity line never", () => {
    const lines = ["Quantity: 1", "$9.99", "Stainless bottle", "$12.00"];
    expect(read(lines, "US", false)).toEqual([]);
    expect(read(lines, "US", true)).toEqual([["Stainless bottle", 1, "12.00"]]);
  });

  test("the whole name from lines that continue the name a subject cut", () => {
    const lines = ["* Stainless Steel Lunch Box, 3-Compartment Bento Container", "Quantity: 2"];
    expect(wholeName("Stainless Steel Lunch Box,...", lines)).toBe(
      "Stainless Steel Lunch Box, 3-Compartment Bento Container",
    );
    expect(wholeName("Stainless Steel Lunch Box", lines)).toBeNull();
    expect(wholeName("Other product name...", lines)).toBeNull();
  });
});
