/**
 * Vine standing: the user's Vine thresholds, where they stand against them, the import
 * of Amazon's Itemized Report and the ETV export for taxes. The definitions (also in the README,
 * "Vine standing", and on the Vine page):
 *
 * - An order's day is its `dateordered` (a bare YYYY-MM-DD as it is, an instant as its calendar
 *   day in the user's zone), or without one the day it was added. An order *counts* when it is
 *   neither Canceled nor review-exempt (removed from the review list by Vine support).
 * - The standing (review rate, evaluation period, today, awaiting approval, ETV): vine-standing.ts.
 */

import { cleanText } from "../../contract/clean-text.ts";
import type {
  ItemizedReportSummary,
  OrderStatus,
  RateRule,
  VineSettings,
  VineSettingsBody,
  VineStanding,
  VineTier,
} from "../../contract/index.ts";
import {
  MARKETPLACE_CURRENCY,
  MARKETPLACES,
  type MarketplaceCode,
} from "../../contract/marketplaces.ts";
import { DEFAULT_VINE_SETTINGS, RATE_RULES, VINE_TIERS } from "../../contract/vine-constants.ts";
import type { VineSettingsRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { languageOrDefault, translator } from "../../i18n/translate.ts";
import { isoDayInZone, offsetMs } from "../../util/calendar-day.ts";
import { AppError, badRequest } from "../../util/errors.ts";
import { amountText } from "../../util/money.ts";
import { createRateWindow } from "../../util/rate-window.ts";
import type { NewOrderRow, OrderPatch, OrdersRepo } from "../orders/orders.repo.ts";
import type { UsersRepo } from "../users/users.repo.ts";
import type { ExportSection } from "../users/users.service.ts";
import { type ReportRow, readItemizedReport } from "./itemized-report.ts";
import type { VineRepo } from "./vine.repo.ts";
import { computeStanding } from "./vine-standing.ts";

const IN_TRANSIT: ReadonlySet<string> = new Set<OrderStatus>(["Ordered", "Shipped"]);

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

type DatedRow = { dateOrdered: string | null; createdAt: string };

/**
 * orderDay for many rows of one zone: a zone's offset changes a few times a year, so it is found
 * once per UTC day (at both ends; equal → the whole UTC day has it, and an instant's day is the UTC
 * date of instant + offset). A UTC day with a change reads each instant on its own. 10,000 orders
 * cost at most ~730 Intl calls instead of 10,000.
 */
export function createDayOf(zone: string): (row: DatedRow) => string {
  const offsets = new Map<number, number | null>();
  const dayOfInstant = (t: number): string => {
    const utcDay = Math.floor(t / DAY_MS);
    let off = offsets.get(utcDay);
    if (off === undefined) {
      const a = offsetMs(utcDay * DAY_MS, zone);
      off = a === offsetMs((utcDay + 1) * DAY_MS - 1, zone) ? a : null;
      offsets.set(utcDay, off);
    }
    return off === null
      ? isoDayInZone(new Date(t), zone)
      : new Date(t + off).toISOString().slice(0, 10);
  };
  return (row) => {
    const d = row.dateOrdered;
    if (d && DAY_ONLY.test(d)) return d;
    const t = Date.parse(d ?? "");
    return dayOfInstant(Number.isNaN(t) ? Date.parse(row.createdAt) : t);
  };
}

/** The order's calendar day in the zone (see the header). */
export const orderDay = (row: DatedRow, zone: string): string => createDayOf(zone)(row);

const moneyText = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

function toSettings(row: VineSettingsRow): VineSettings {
  return {
    tier: (VINE_TIERS as readonly string[]).includes(row.tier)
      ? (row.tier as VineTier)
      : DEFAULT_VINE_SETTINGS.tier,
    rateWindowDays: row.rateWindowDays,
    rateMinimum: row.rateMinimum,
    evaluationStart: row.evaluationStart,
    evaluationEnd: row.evaluationEnd,
    evaluationStartTime: row.evaluationStartTime,
    evaluationEndTime: row.evaluationEndTime,
    rateRule: (RATE_RULES as readonly string[]).includes(row.rateRule)
      ? (row.rateRule as RateRule)
      : DEFAULT_VINE_SETTINGS.rateRule,
    goldItems: row.goldItems,
    goldPercent: row.goldPercent,
    dailyLimitSilver: row.dailyLimitSilver,
    dailyLimitGold: row.dailyLimitGold,
  };
}

/** A CSV field: quoted when needed; text a spreadsheet would run as a formula is defused. */
export function csvField(v: string | number | null): string {
  if (v === null) return "";
  let s = String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Itemized Report uploads allowed per user per hour (a year's report is one upload). */
export const REPORT_UPLOADS_PER_HOUR = 10;

export function createVineService(deps: {
  repo: VineRepo;
  orders: OrdersRepo;
  users: UsersRepo;
  events: EventBus;
  now?: () => Date;
  /** Itemized Report uploads per user per hour (REPORT_UPLOADS_PER_HOUR). */
  reportUploadsPerHour?: number;
}) {
  const { repo, events } = deps;
  const clock = deps.now ?? (() => new Date());
  const zoneOf = (userId: number): string => deps.users.findById(userId)?.timezone || "UTC";

  function getSettings(userId: number): VineSettings {
    const row = repo.findSettings(userId);
    return row ? toSettings(row) : { ...DEFAULT_VINE_SETTINGS };
  }

  function standing(userId: number): VineStanding {
    const zone = zoneOf(userId);
    return computeStanding({
      settings: getSettings(userId),
      rows: repo.standingRows(userId),
      zone,
      now: clock(),
      dayOf: createDayOf(zone),
      marketplace: deps.users.findById(userId)?.vineMarketplace ?? null,
    });
  }

  /**
   * One report row applied to the user's orders (inside the import's transaction), counted in
   * exactly one of created / updated / canceled / unchanged.
   */
  function applyRow(
    userId: number,
    r: ReportRow,
    sum: ItemizedReportSummary,
    nowIso: string,
    currency: string,
  ) {
    const cancel = r.type === "CANCELLATION" || r.cancelledDate !== null;
    const etvCents = Math.abs(r.etvCents);
    const sameNumber = repo.byNumber(userId, r.orderNumber);
    const order =
      sameNumber.find((o) => (o.asin ?? "").toUpperCase() === r.asin) ??
      (sameNumber.length === 1 && !sameNumber[0]!.asin ? sameNumber[0] : undefined);

    if (!order) {
      const status: OrderStatus = cancel ? "Canceled" : r.shippedDate ? "Shipped" : "Ordered";
      const row: NewOrderRow = {
        userId,
        amazonOrderNumber: r.orderNumber,
        productName: r.productName ?? `ASIN ${r.asin}`,
        asin: r.asin,
        estimatedRetailValue: moneyText(etvCents),
        valueCents: etvCents,
        dateOrdered: r.orderDate,
        dateShipped: cancel ? null : r.shippedDate,
        status,
        currency,
        createdAt: nowIso,
        updatedAt: nowIso,
      };
      deps.orders.insert(row);
      if (cancel) sum.canceled++;
      else sum.created++;
      return;
    }

    const patch: OrderPatch = {};
    // A cancellation row carries the value negated: it only fills an empty value.
    if (!cancel ? order.valueCents !== etvCents : order.valueCents === null && etvCents > 0) {
      patch.estimatedRetailValue = moneyText(etvCents);
      patch.valueCents = etvCents;
    }
    if (!order.dateOrdered && r.orderDate) patch.dateOrdered = r.orderDate;
    if (!cancel && !order.dateShipped && r.shippedDate) patch.dateShipped = r.shippedDate;
    if (!order.asin) patch.asin = r.asin;
    if (cancel && IN_TRANSIT.has(order.status)) {
      patch.status = "Canceled";
    } else if (!cancel && r.shippedDate && order.status === "Ordered") {
      patch.status = "Shipped";
    }
    if (Object.keys(patch).length === 0) {
      sum.unchanged++;
      return;
    }
    patch.updatedAt = nowIso;
    deps.orders.update(userId, order.id, patch);
    if (patch.status === "Canceled") sum.canceled++;
    else sum.updated++;
  }

  /** Report uploads per user per hour: each upload is counted, read or not. */
  const reportUploads = createRateWindow({
    limit: deps.reportUploadsPerHour ?? REPORT_UPLOADS_PER_HOUR,
    windowMs: 3_600_000,
    now: deps.now ? () => clock().getTime() : undefined,
  });

  /** Throws 429 with Retry-After once the user has uploaded REPORT_UPLOADS_PER_HOUR reports. */
  function assertReportUploadAllowed(userId: number) {
    const hit = reportUploads.hit(String(userId));
    if (hit.ok) return;
    const seconds = Math.max(1, Math.ceil(hit.retryAfterMs / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new AppError(
      429,
      "report_uploads_limit",
      { count: deps.reportUploadsPerHour ?? REPORT_UPLOADS_PER_HOUR, minutes },
      undefined,
      { "Retry-After": String(seconds) },
    );
  }

  /** The user's Vine marketplace: how the report's dates and amounts are read (US when unknown). */
  function marketplaceOfUser(userId: number): MarketplaceCode {
    const m = deps.users.findById(userId)?.vineMarketplace;
    return m && (MARKETPLACES as readonly string[]).includes(m) ? (m as MarketplaceCode) : "US";
  }

  return {
    getSettings,

    /** Merges the sent settings into the saved ones; the evaluation dates are checked together. */
    saveSettings(userId: number, body: VineSettingsBody): VineSettings {
      const next: VineSettings = { ...getSettings(userId), ...body };
      if (next.evaluationStart === null && next.evaluationEnd !== null) {
        throw badRequest("evaluation_start_missing");
      }
      if (
        next.evaluationStart &&
        next.evaluationEnd &&
        `${next.evaluationStart}T${next.evaluationStartTime}` >=
          `${next.evaluationEnd}T${next.evaluationEndTime}`
      ) {
        throw badRequest("evaluation_end_before_start");
      }
      const row = repo.upsertSettings(userId, next);
      events.publish(userId, "vine-settings.updated");
      return toSettings(row);
    },

    standing,

    /** POST /api/vine/itemized-report: one transaction; the same file twice changes nothing. */
    importItemizedReport(userId: number, bytes: Uint8Array): ItemizedReportSummary {
      assertReportUploadAllowed(userId);
      const marketplace = marketplaceOfUser(userId);
      const read = readItemizedReport(bytes, marketplace);
      const sum: ItemizedReportSummary = {
        rows: read.rows.length + read.errors.length,
        created: 0,
        updated: 0,
        canceled: 0,
        unchanged: 0,
        skipped: read.errors.length,
        errors: read.errors,
        headerRow: read.headerRow,
        dateForm: read.dateForm,
      };
      const nowIso = clock().toISOString();
      const currency = MARKETPLACE_CURRENCY[marketplace];
      repo.transaction(() => {
        for (const r of read.rows) applyRow(userId, r, sum, nowIso, currency);
      });
      sum.errors.sort((a, b) => a.row - b.row);
      if (sum.created + sum.updated + sum.canceled > 0) events.publish(userId, "order.updated");
      return sum;
    },

    /**
     * GET /api/vine/etv.csv: every order of the year (user's zone), then a total per currency.
     * Its words (headers, yes/no, status, the total line) in the user's language; the data
     * (numbers, dates, amounts, currency codes) as they are.
     */
    etvCsv(userId: number, year: number): string {
      const zone = zoneOf(userId);
      const language = languageOrDefault(deps.users.findById(userId)?.language);
      const say = translator(language);
      const statusWord = (status: string) =>
        language === "en" ? status : say(`error.status.${status.replace(/\s+/g, "")}`);
      const lines = [
        (
          [
            "orderNumber",
            "asin",
            "product",
            "orderDate",
            "status",
            "canceled",
            "etv",
            "currency",
          ] as const
        ).map((column) => say(`server.etvCsv.${column}`)),
      ] as (string | number | null)[][];
      const totals = new Map<string, number>();
      const dayOf = createDayOf(zone);
      for (const r of repo.etvRows(userId)) {
        const day = dayOf(r);
        if (Number(day.slice(0, 4)) !== year) continue;
        const canceled = r.status === "Canceled";
        if (!canceled) totals.set(r.currency, (totals.get(r.currency) ?? 0) + (r.valueCents ?? 0));
        lines.push([
          r.amazonOrderNumber === null ? null : cleanText(r.amazonOrderNumber),
          r.asin === null ? null : cleanText(r.asin),
          r.productName === null ? null : cleanText(r.productName),
          day,
          statusWord(r.status),
          say(canceled ? "server.etvCsv.yes" : "server.etvCsv.no"),
          r.valueCents === null ? null : amountText(r.valueCents, r.currency),
          r.currency,
        ]);
      }
      if (totals.size === 0) totals.set("USD", 0);
      for (const [currency, cents] of [...totals].sort()) {
        lines.push([
          say("server.etvCsv.total", { year: String(year) }),
          null,
          null,
          null,
          null,
          null,
          amountText(cents, currency),
          currency,
        ]);
      }
      return `${lines.map((l) => l.map(csvField).join(",")).join("\r\n")}\r\n`;
    },

    /** GET /api/user/export: the Vine settings that apply. */
    exportSection: ((userId: number) => ({
      vineSettings: getSettings(userId),
    })) satisfies ExportSection,
  };
}
export type VineService = ReturnType<typeof createVineService>;
