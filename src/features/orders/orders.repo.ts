/**
 * Order queries. Every query is scoped to one user; filtering, sorting and paging happen in SQL.
 *
 * Every write of orders in the app goes through insert/update/delete here: each runs inside the
 * orders cache's `write`, which moves the user to a new generation after it, so the cached totals
 * and dashboard figures (orders-cache.ts) are recomputed. Code that writes orders must use this
 * repo.
 *
 * The reads are bun:sqlite statements prepared once (per list shape: status filter or not, kind of
 * search, ordering), returning rows already in OrderRow's shape: building a drizzle query and
 * mapping its rows cost more than the SQL itself.
 */
import { and, eq } from "drizzle-orm";
import type { OrderSort, OrderStatus } from "../../contract/index.ts";
import type { Db } from "../../db/client.ts";
import { type OrderRow, orders } from "../../db/schema.ts";
import { ordersCacheFor } from "./orders-cache.ts";

export type NewOrderRow = Omit<typeof orders.$inferInsert, "id">;
export type OrderPatch = Partial<Omit<OrderRow, "id" | "userId" | "createdAt">>;

export type OrderListFilter = {
  /** undefined: every status. */
  status?: OrderStatus;
  /** Already trimmed; empty means no search. */
  q?: string;
  /** undefined: the status filter's own ordering (spec §9), else newest first. */
  sort?: OrderSort;
  limit: number;
  offset: number;
};

/** Escapes LIKE wildcards so that % and _ in a search match themselves. */
export const likeContains = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

type SearchKind = "none" | "trigram" | "like";

/**
 * Case-insensitive substring of the product name or the order number. From 3 characters on, the
 * trigram index orders_search (migration 0003) finds the rows; a quoted FTS5 phrase has no
 * operators or wildcards, so % _ * " and the like match themselves. Shorter text (which the
 * trigram index cannot look up) falls back to LIKE over the user's orders.
 */
function searchKind(q: string | undefined): SearchKind {
  if (!q) return "none";
  return [...q].length >= 3 ? "trigram" : "like";
}

const searchParam = (q: string, kind: SearchKind) =>
  kind === "trigram" ? `"${q.replace(/"/g, '""')}"` : likeContains(q);

/*
 * `+$param` rather than `$param` in the statements below: with a bare parameter compared with an
 * indexed column, in a statement that sorts, groups or joins, SQLite (3.54, as bundled with Bun)
 * prepared the statement again on every run (~15-20 µs per list page, measured against the same
 * statement with literal values). A unary plus leaves the value, the column's affinity and
 * collation and the index plan as they are (checked with EXPLAIN QUERY PLAN). The same holds for a
 * bare LIMIT/OFFSET parameter in a statement with ORDER BY: `LIMIT +$limit` ran a 10-row page in
 * ~13 µs where `LIMIT $limit` took ~25 µs (re-prepared on every run; SQLite 3.54.1, Bun 1.4.5).
 */
const SEARCH_CONDITION: Record<SearchKind, string> = {
  none: "",
  trigram: " AND id IN (SELECT rowid FROM orders_search WHERE orders_search MATCH +$q)",
  like: " AND (product_name LIKE +$q ESCAPE '\\' OR amazon_order_number LIKE +$q ESCAPE '\\')",
};

/**
 * ORDER BY for a chosen sort; ties break by id. Each one walks an index (see schema.ts):
 * (user_id, created_at), (user_id, product_name COLLATE NOCASE), (user_id, status),
 * (user_id, value_cents) backwards, and (user_id, value_cents IS NULL, value_cents). SQLite sorts
 * NULL first when ascending: a leading `col IS NULL` key puts them last.
 */
const SORT_ORDER: Record<OrderSort, string> = {
  newest: "created_at DESC, id DESC",
  oldest: "created_at ASC, id ASC",
  "product-asc": "product_name COLLATE NOCASE ASC, id ASC",
  "product-desc": "product_name COLLATE NOCASE DESC, id DESC",
  "status-asc": "status ASC, id ASC",
  "value-desc": "value_cents DESC, id DESC",
  "value-asc": "value_cents IS NULL, value_cents ASC, id ASC",
};

/**
 * The per-filter ordering of spec §9 when no sort is chosen; each walks its
 * (user_id, status, ...) index. Statuses without one use newest first.
 */
const FILTER_ORDER: Partial<Record<OrderStatus, string>> = {
  Received: "date_delivered IS NULL, date_delivered ASC, id ASC",
  // Real dates first, then dates guessed from the text, each earliest first; no date last.
  Shipped:
    "CASE WHEN expected_delivery_date IS NULL THEN 2 WHEN expected_delivery_estimated THEN 1 ELSE 0 END, expected_delivery_date ASC, id ASC",
  "Review Submitted": "date_review_submitted IS NULL, date_review_submitted ASC, id ASC",
  "Review Approved": "date_review_approved DESC, id DESC",
  "Review Rejected": "date_review_rejected IS NULL, date_review_rejected ASC, id ASC",
};

/** OrderRow's columns, named and ordered as drizzle's select() returns them. */
const ROW_COLUMNS = `id, user_id AS userId, amazon_order_number AS amazonOrderNumber,
  product_name AS productName, product_url AS productUrl, product_image AS productImage, asin,
  ship_to_address AS shipToAddress, estimated_retail_value AS estimatedRetailValue,
  value_cents AS valueCents, expected_delivery_date AS expectedDeliveryDate,
  expected_delivery_date_text AS expectedDeliveryDateText,
  expected_delivery_estimated AS expectedDeliveryEstimated, date_ordered AS dateOrdered,
  date_delivered AS dateDelivered, status, rating, review_subject AS reviewSubject,
  review_text AS reviewText, review_images AS reviewImages, review_reference AS reviewReference,
  date_review_submitted AS dateReviewSubmitted, date_review_approved AS dateReviewApproved,
  date_review_rejected AS dateReviewRejected, tracking_number AS trackingNumber, carrier,
  delivery_details AS deliveryDetails, last_tracking_update AS lastTrackingUpdate,
  created_at AS createdAt, updated_at AS updatedAt`;

/** A row as SQLite gives it: the boolean column is still 0/1. */
type RawOrderRow = Omit<OrderRow, "expectedDeliveryEstimated"> & {
  expectedDeliveryEstimated: number | boolean;
};

/** Turns raw rows into OrderRows in place (drizzle's boolean mapping: 1 is true). */
function toRows(raw: RawOrderRow[]): OrderRow[] {
  for (const r of raw) r.expectedDeliveryEstimated = r.expectedDeliveryEstimated === 1;
  return raw as OrderRow[];
}
const toRow = (raw: RawOrderRow | null): OrderRow | undefined =>
  raw ? toRows([raw])[0] : undefined;

/**
 * From this offset on, a page first finds its ids by walking the index (reading index keys only),
 * then reads just those rows; below it, one statement that reads rows as it walks is faster.
 */
const DEEP_OFFSET = 1000;

type Params = Record<string, string | number>;

export function createOrdersRepo(db: Db) {
  const sqlite = db.$client;
  const cache = ordersCacheFor(db);

  type Shape = {
    page: (params: Params, deep: boolean) => RawOrderRow[];
    total: (params: Params) => number;
  };
  function prepareShape(hasStatus: boolean, search: SearchKind, order: string): Shape {
    const where = `user_id = +$user${hasStatus ? " AND status = +$status" : ""}${SEARCH_CONDITION[search]}`;
    const shallow = sqlite.prepare<RawOrderRow, [Params]>(
      `SELECT ${ROW_COLUMNS} FROM orders WHERE ${where} ORDER BY ${order} LIMIT +$limit OFFSET +$offset`,
    );
    let deep: typeof shallow | null = null;
    // A trigram search counts the search index's hits that are the user's.
    const total = sqlite.prepare<{ n: number }, [Params]>(
      search === "trigram"
        ? `SELECT COUNT(*) AS n FROM orders_search JOIN orders ON orders.id = orders_search.rowid
            WHERE orders_search MATCH +$q AND orders.user_id = +$user${hasStatus ? " AND orders.status = +$status" : ""}`
        : `SELECT COUNT(*) AS n FROM orders WHERE ${where}`,
    );
    return {
      page(params, isDeep) {
        if (!isDeep) return shallow.all(params);
        deep ??= sqlite.prepare<RawOrderRow, [Params]>(
          `SELECT ${ROW_COLUMNS} FROM orders WHERE id IN
             (SELECT id FROM orders WHERE ${where} ORDER BY ${order} LIMIT +$limit OFFSET +$offset)
           ORDER BY ${order}`,
        );
        return deep.all(params);
      },
      total: (params) => total.get(params)?.n ?? 0,
    };
  }
  const shapes = new Map<string, Shape>();
  function shapeFor(hasStatus: boolean, search: SearchKind, order: string): Shape {
    const key = `${hasStatus}|${search}|${order}`;
    let s = shapes.get(key);
    if (!s) {
      s = prepareShape(hasStatus, search, order);
      shapes.set(key, s);
    }
    return s;
  }

  const byId = sqlite.prepare<RawOrderRow, [number, number]>(
    `SELECT ${ROW_COLUMNS} FROM orders WHERE id = ?1 AND user_id = ?2`,
  );
  const recentStmt = sqlite.prepare<RawOrderRow, [number, number]>(
    `SELECT ${ROW_COLUMNS} FROM orders WHERE user_id = +?1 ORDER BY created_at DESC, id DESC LIMIT +?2`,
  );
  const allStmt = sqlite.prepare<RawOrderRow, [number]>(
    `SELECT ${ROW_COLUMNS} FROM orders WHERE user_id = +?1 ORDER BY id ASC`,
  );
  const deleteStmt = sqlite.prepare<unknown, [number, number]>(
    "DELETE FROM orders WHERE id = ?1 AND user_id = ?2",
  );

  return {
    findForUser: (userId: number, id: number): OrderRow | undefined => toRow(byId.get(id, userId)),

    insert: (row: NewOrderRow): OrderRow =>
      cache.write(row.userId, () => db.insert(orders).values(row).returning().get()),

    update: (userId: number, id: number, patch: OrderPatch): OrderRow | undefined =>
      cache.write(userId, () =>
        db
          .update(orders)
          .set(patch)
          .where(and(eq(orders.id, id), eq(orders.userId, userId)))
          .returning()
          .get(),
      ),

    delete: (userId: number, id: number): boolean =>
      cache.write(userId, () => deleteStmt.run(id, userId).changes > 0),

    /** One page of the user's orders and the number of all that match (cached per generation). */
    list(userId: number, f: OrderListFilter): { rows: OrderRow[]; total: number } {
      const search = searchKind(f.q);
      const order = f.sort
        ? SORT_ORDER[f.sort]
        : ((f.status && FILTER_ORDER[f.status]) ?? SORT_ORDER.newest);
      const shape = shapeFor(Boolean(f.status), search, order);
      const params: Params = { user: userId };
      if (f.status) params.status = f.status;
      if (f.q && search !== "none") params.q = searchParam(f.q, search);
      // The total does not depend on the ordering or the page: one figure per filter.
      const total = cache.get(
        userId,
        `total|${f.status ?? ""}|${search === "none" ? "" : f.q}`,
        () => shape.total(params),
      );
      params.limit = f.limit;
      params.offset = f.offset;
      // Past the last match there is nothing to read.
      const rows = f.offset >= total ? [] : shape.page(params, f.offset >= DEEP_OFFSET);
      return { rows: toRows(rows), total };
    },

    /** Every order of the user, oldest first (the data export). */
    listAll: (userId: number): OrderRow[] => toRows(allStmt.all(userId)),

    /** The newest orders by creation. */
    recent: (userId: number, n: number): OrderRow[] => toRows(recentStmt.all(userId, n)),
  };
}
export type OrdersRepo = ReturnType<typeof createOrdersRepo>;
