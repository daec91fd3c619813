import { describe, expect, test } from "bun:test";
import { findMoney, isMoneyOnly, readNumber } from "./money.ts";
import type { Marketplace } from "./types.ts";

describe("findMoney: every form real mail writes an amount in", () => {
  test.each<[string, Marketplace, string, string]>([
    ["79.99 CAD", "CA", "79.99", "CAD"],
    ["Total 90.39 CAD", "CA", "90.39", "CAD"],
    ["CDN$ 0.00", "CA", "0.00", "CAD"],
    ["0,00 $", "CA", "0.00", "CAD"],
    ["Total de la commande : 1 234,56 $", "CA", "1234.56", "CAD"],
    ["1,010 JPY", "JP", "1010.00", "JPY"],
    ["合計 1,010 JPY", "JP", "1010.00", "JPY"],
    ["￥ 9,103", "JP", "9103.00", "JPY"],
    ["￥０", "JP", "0.00", "JPY"],
    ["０円", "JP", "0.00", "JPY"],
    ["１，２８０円", "JP", "1280.00", "JPY"],
    ["0 JPY", "JP", "0.00", "JPY"],
    ["EUR 60,05", "IT", "60.05", "EUR"],
    ["EUR 0,00", "IT", "0.00", "EUR"],
    ["0,00 €", "FR", "0.00", "EUR"],
    ["1.234,56 €", "DE", "1234.56", "EUR"],
    ["1\u202f234,56\u00a0€", "FR", "1234.56", "EUR"],
    ["EUR 12.99", "DE", "12.99", "EUR"],
    ["£0.00", "UK", "0.00", "GBP"],
    ["A$0.00", "AU", "0.00", "AUD"],
    ["$0.00", "AU", "0.00", "AUD"],
    ["$1,234.56", "US", "1234.56", "USD"],
  ])("%p (%s) → %s %s", (text, market, value, currency) => {
    expect(findMoney(text, market)).toMatchObject({ value, currency });
  });

  test("numbers without a currency, order numbers and quantities are not amounts", () => {
    expect(findMoney("Quantity: 2", "US")).toBeNull();
    expect(findMoney("数量: 1", "JP")).toBeNull();
    expect(findMoney("Order # 113-1234567-1234567", "US")).toBeNull();
    expect(findMoney("ABCEUR 12", "DE")).toBeNull();
  });

  test("an amount alone on its line", () => {
    expect(isMoneyOnly("1,010 JPY", "JP")).toBe(true);
    expect(isMoneyOnly("EUR 0,00", "IT")).toBe(true);
    expect(isMoneyOnly("Total: $3.00", "US")).toBe(false);
  });

  test("a separator before three digits groups, before one or two it is the decimal one", () => {
    expect(readNumber("1.234", "US")).toBe("1234.00");
    expect(readNumber("1,234", "DE")).toBe("1234.00");
    expect(readNumber("107,34", "US")).toBe("107.34");
    expect(readNumber("12.5", "FR")).toBe("12.50");
  });
});
