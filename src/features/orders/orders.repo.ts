/**
 * Order queries. Every query is scoped to one user; filtering, sorting and paging happen in SQL,
 * each walking an index (see schema.ts), so nothing is kept between requests.
 *
 * Written in SQL, with the row's columns from the drizzle schema (order-model.ts ROW_COLUMNS),
 * where drizzle cannot say it as cheaply: the list's statements (a status filter or not, a kind of
 * search through LIKE or the FTS5 index, orderings with CASE keys, `+$param` to keep SQLite from
 * preparing them again on every run, deep pages through the index) are prepared once per shape
 * and return rows already in OrderRow's shape (building a drizzle query and mapping a page's rows
 * cost more than the SQL itself); the writes are one statement per set of columns written,
 * prepared the first time (a mailbox backfill inserts and updates thousands of orders; drizzle
 * built and prepared each statement again, about a fifth of the write's cost). The single-row and
 * whole-list look-ups are drizzle's.
 */
import type { Statement } from "bun:sqlite";
import { and, asc, desc, eq, getTableColumns, isNotNull, isNull, sql } from "drizzle-orm";
import type { OrderSort, OrderStatus } from "../../contract/index.ts";
import type { Db } from "../../db/client.ts";
import { type OrderRow, orders } from "../../db/schema.ts";
import { type RawOrderRow, ROW_COLUMNS, toRows } from "./order-model.ts";

export type NewOrderRow = Omit<typeof orders.$inferInsert, "id">;
export type OrderPatch = Partial<Omit<OrderRow, "id" | "userId" | "createdAt">>;

export type OrderListFilter = {
  /** undefined: every status. */
  status?: OrderStatus;
  /** Already trimmed; empty means no search. */
  q?: string;
  /** undefined: the status filter's own ordering (docs/behaviour.md#constants-and-limits), else newest first. */
  sort?: OrderSort;
  limit: number;
  offset: number;
};

/** Escapes LIKE wildcards so that % and _ in a search match themselves. */
export const likeContains = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * What a search matches, decided here alone:
 * - text of ASCII characters only (what reviewers type for a product or an order number) matches
 *   a case-insensitive substring of the product name or the order number, as LIKE compares
 *   (ASCII letters fold);
 * - from 3 characters on, text with other characters matches through the trigram index
 *   orders_search (migration 0003), which folds the case of every letter (ä finds Ä);
 * - shorter text of other characters, which the trigram index cannot look up, uses LIKE.
 * - text shaped like an ASIN (10 letters and digits, at least one digit: "B0ABCD1234") also finds
 *   the order of that ASIN, in any case; walked in list order like "like".
 * A quoted FTS5 phrase and an escaped LIKE pattern have no operators or wildcards: % _ * " and
 * the like match themselves.
 */
type SearchRule = "none" | "like" | "fts" | "asin";

const ASIN_SHAPE = /^(?=.*\d)[A-Za-z0-9]{10}$/;

function searchRule(q: string | undefined): SearchRule {
  if (!q) return "none";
  if (ASIN_SHAPE.test(q)) return "asin";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range
  if (/^[\x00-\x7f]*$/.test(q) || [...q].length < 3) return "like";
  return "fts";
}

/**
 * How a statement finds the matches: "like" tests each of the user's rows in the list's order;
 * "fts" looks the text up in the trigram index; "fts-like" looks ASCII text of 3 or more
 * characters up in the trigram index (which finds every row LIKE would, and a few more: it folds
 * the Kelvin sign to k and the long s to s) and lets LIKE decide, so both plans agree. Which plan
 * a page takes is decided in `list` from the counts of matches and of the filter.
 */
type SearchPlan = "none" | "like" | "fts" | "fts-like" | "asin";

/** `table` qualifies the columns where the search index's own columns of those names are joined. */
const likeCondition = (table = "") =>
  ` AND (${table}product_name LIKE +$like ESCAPE '\\' OR ${table}amazon_order_number LIKE +$like ESCAPE '\\')`;
const FTS_CONDITION = " AND id IN (SELECT rowid FROM orders_search WHERE orders_search MATCH +$q)";

/*
 * `+$param` rather than `$param` in the statements below: with a bare parameter compared with an
 * indexed column, in a statement that sorts, groups or joins, SQLite (3.54, as bundled with Bun)
 * prepared the statement again on every run (~15-20 µs per list page, measured against the same
 * statement with literal values). A unary plus leaves the value, the column's affinity and
 * collation and the index plan as they are (checked with EXPLAIN QUERY PLAN). The same holds for a
 * bare LIMIT/OFFSET parameter in a statement with ORDER BY: `LIMIT +$limit` ran a 10-row page in
 * ~13 µs where `LIMIT $limit` took ~25 µs (re-prepared on every run; SQLite 3.54.1, Bun 1.4.5).
 */
const SEARCH_CONDITION: Record<SearchPlan, string> = {
  none: "",
  like: likeCondition(),
  fts: FTS_CONDITION,
  "fts-like": FTS_CONDITION + likeCondition(),
  asin: ` AND (asin = +$asin COLLATE NOCASE${likeCondition().replace(" AND (", " OR ")}`,
};

/** The named parameters a plan's statements take besides user, status, limit and offset. */
function searchParams(q: string, plan: SearchPlan): Params {
  const ftsPhrase = `"${q.replace(/"/g, '""')}"`;
  if (plan === "like") return { like: likeContains(q) };
  if (plan === "fts") return { q: ftsPhrase };
  if (plan === "fts-like") return { q: ftsPhrase, like: likeContains(q) };
  if (plan === "asin") return { asin: q, like: likeContains(q) };
  return {};
}

/**
 * ORDER BY for a chosen sort; ties break by id. Each one walks an index (see schema.ts):
 * (user_id, created_at), (user_id, product_name COLLATE NOCASE), (user_id, status),
 * (user_id, currency, value_cents DESC, id DESC), and (user_id, currency, value_cents IS NULL,
 * value_cents). SQLite sorts NULL first when ascending: a leading `col IS NULL` key puts them last.
 * The value sorts order by currency (A-Z) first, then amount: amounts in different currencies are
 * never compared (the sort's label says "by currency").
 */
const SORT_ORDER: Record<OrderSort, string> = {
  newest: "created_at DESC, id DESC",
  oldest: "created_at ASC, id ASC",
  "product-asc": "product_name COLLATE NOCASE ASC, id ASC",
  "product-desc": "product_name COLLATE NOCASE DESC, id DESC",
  "status-asc": "status ASC, id ASC",
  "value-desc": "currency ASC, value_cents DESC, id DESC",
  "value-asc": "currency ASC, value_cents IS NULL, value_cents ASC, id ASC",
};

/**
 * The per-filter ordering of docs/behaviour.md#constants-and-limits when no sort is chosen; each walks its
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

const toRow = (raw: RawOrderRow | null): OrderRow | undefined =>
  raw ? toRows([raw])[0] : undefined;

/** The table's columns by OrderRow key: SQL name and drizzle's value mapping (boolean → 0/1). */
const COLUMNS = getTableColumns(orders);
type Column = (typeof COLUMNS)[keyof typeof COLUMNS];
/** At most this many write statements are kept (the sets of columns come from code, not input). */
const MAX_WRITE_STATEMENTS = 64;

/**
 * The columns a write sets, in the object's key order, as drizzle reads them: keys whose value is
 * undefined are left out (the column keeps its default, or its value on an update). A key that
 * is not a column is a programming error.
 */
function writtenColumns(values: Record<string, unknown>): { keys: string[]; columns: Column[] } {
  const keys: string[] = [];
  const columns: Column[] = [];
  for (const key of Object.keys(values)) {
    if (values[key] === undefined) continue;
    const column = (COLUMNS as Record<string, Column>)[key];
    if (!column) throw new Error(`orders: no column for "${key}"`);
    keys.push(key);
    columns.push(column);
  }
  return { keys, columns };
}

const driverValues = (values: Record<string, unknown>, keys: string[], columns: Column[]) =>
  keys.map((k, i) => {
    const v = values[k];
    return (v === null ? null : columns[i]!.mapToDriverValue(v)) as string | number | null;
  });

/**
 * From this offset on, a page first finds its ids by walking the index (reading index keys only),
 * then reads just those rows; below it, one statement that reads rows as it walks is faster.
 */
const DEEP_OFFSET = 1000;

type Params = Record<string, string | number>;

export function createOrdersRepo(db: Db) {
  const sqlite = db.$client;

  type Shape = {
    page: (params: Params, deep: boolean) => RawOrderRow[];
    total: (params: Params) => number;
  };
  function prepareShape(hasStatus: boolean, plan: SearchPlan, order: string): Shape {
    const where = `user_id = +$user${hasStatus ? " AND status = +$status" : ""}${SEARCH_CONDITION[plan]}`;
    const shallow = sqlite.prepare<RawOrderRow, [Params]>(
      `SELECT ${ROW_COLUMNS} FROM orders WHERE ${where} ORDER BY ${order} LIMIT +$limit OFFSET +$offset`,
    );
    let deep: typeof shallow | null = null;
    // A search through the index counts the index's hits that are the user's.
    const total = sqlite.prepare<{ n: number }, [Params]>(
      plan === "fts" || plan === "fts-like"
        ? `SELECT COUNT(*) AS n FROM orders_search JOIN orders ON orders.id = orders_search.rowid
            WHERE orders_search MATCH +$q AND orders.user_id = +$user${hasStatus ? " AND orders.status = +$status" : ""}${plan === "fts-like" ? likeCondition("orders.") : ""}`
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
  function shapeFor(hasStatus: boolean, plan: SearchPlan, order: string): Shape {
    const key = `${hasStatus}|${plan}|${order}`;
    let s = shapes.get(key);
    if (!s) {
      s = prepareShape(hasStatus, plan, order);
      shapes.set(key, s);
    }
    return s;
  }

  /** One page of the user's orders and the number of all that match. */
  function list(userId: number, f: OrderListFilter): { rows: OrderRow[]; total: number } {
    const q = f.q ?? "";
    const rule = searchRule(q);
    const order = f.sort
      ? SORT_ORDER[f.sort]
      : ((f.status && FILTER_ORDER[f.status]) ?? SORT_ORDER.newest);
    const hasStatus = Boolean(f.status);
    const base: Params = { user: userId };
    if (f.status) base.status = f.status;
    // The total: a search of 3 or more characters is looked up in the trigram index.
    const countPlan: SearchPlan =
      rule === "like" && [...q].length >= 3 ? "fts-like" : rule === "none" ? "none" : rule;
    const total = shapeFor(hasStatus, countPlan, order).total({
      ...base,
      ...searchParams(q, countPlan),
    });
    // Past the last match there is nothing to read.
    if (f.offset >= total) return { rows: [], total };
    let pagePlan = countPlan;
    if (countPlan === "fts-like") {
      // Walking the list's order and testing each row reads about (offset + limit) × scope / total
      // rows; the index look-up reads about `total` entries whatever the page. Walk when fewer.
      const scope = shapeFor(hasStatus, "none", order).total(base);
      if ((f.offset + f.limit) * scope <= total * total) pagePlan = "like";
    }
    const params = { ...base, ...searchParams(q, pagePlan), limit: f.limit, offset: f.offset };
    const rows = shapeFor(hasStatus, pagePlan, order).page(params, f.offset >= DEEP_OFFSET);
    return { rows: toRows(rows), total };
  }

  /** Write statements by the columns they set (see writtenColumns). */
  const writeStatements = new Map<string, Statement<RawOrderRow, (string | number | null)[]>>();
  function writeStatement(key: string, build: () => string) {
    let stmt = writeStatements.get(key);
    if (!stmt) {
      if (writeStatements.size >= MAX_WRITE_STATEMENTS) {
        for (const s of writeStatements.values()) s.finalize();
        writeStatements.clear();
      }
      stmt = sqlite.prepare<RawOrderRow, (string | number | null)[]>(build());
      writeStatements.set(key, stmt);
    }
    return stmt;
  }

  // The simple look-ups in drizzle, prepared once: their cost is in the SQL, not in building it.
  const byId = db
    .select()
    .from(orders)
    .where(and(eq(orders.id, sql.placeholder("id")), eq(orders.userId, sql.placeholder("user"))))
    .prepare();
  const recentQuery = db
    .select()
    .from(orders)
    .where(eq(orders.userId, sql.placeholder("user")))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(sql.placeholder("n"))
    .prepare();
  const allQuery = db
    .select()
    .from(orders)
    .where(eq(orders.userId, sql.placeholder("user")))
    .orderBy(asc(orders.id))
    .prepare();
  const untrackedQuery = db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, sql.placeholder("user")),
        eq(orders.status, "Shipped"),
        isNull(orders.trackingNumber),
        isNotNull(orders.dateShipped),
      ),
    )
    .orderBy(asc(orders.dateShipped), asc(orders.id))
    .prepare();
  const deleteQuery = db
    .delete(orders)
    .where(and(eq(orders.id, sql.placeholder("id")), eq(orders.userId, sql.placeholder("user"))))
    .returning({ id: orders.id })
    .prepare();
  const findForUser = (userId: number, id: number): OrderRow | undefined =>
    byId.get({ id, user: userId });

  return {
    findForUser,

    insert: (row: NewOrderRow): OrderRow => {
      const { keys, columns } = writtenColumns(row);
      const stmt = writeStatement(`i|${keys.join(",")}`, () => {
        const names = columns.map((c) => `"${c.name}"`).join(", ");
        const params = columns.map((_, i) => `?${i + 1}`).join(", ");
        return `INSERT INTO orders (${names}) VALUES (${params}) RETURNING ${ROW_COLUMNS}`;
      });
      const saved = toRow(stmt.get(...driverValues(row, keys, columns)));
      if (!saved) throw new Error("orders: the insert returned no row");
      return saved;
    },

    /** The order after the patch; undefined when the user has no such order. */
    update: (userId: number, id: number, patch: OrderPatch): OrderRow | undefined => {
      const { keys, columns } = writtenColumns(patch);
      if (keys.length === 0) return findForUser(userId, id);
      const stmt = writeStatement(`u|${keys.join(",")}`, () => {
        const sets = columns.map((c, i) => `"${c.name}" = ?${i + 1}`).join(", ");
        const n = columns.length;
        return `UPDATE orders SET ${sets} WHERE id = ?${n + 1} AND user_id = ?${n + 2} RETURNING ${ROW_COLUMNS}`;
      });
      return toRow(stmt.get(...driverValues(patch, keys, columns), id, userId));
    },

    delete: (userId: number, id: number): boolean =>
      deleteQuery.all({ id, user: userId }).length > 0,

    list,

    /** Every order of the user, oldest first (the data export). */
    listAll: (userId: number): OrderRow[] => allQuery.all({ user: userId }),

    /**
     * "Shipped, not tracked": Shipped, no tracking number, a shipped date from
     * the Itemized Report; oldest shipment first.
     */
    untracked: (userId: number): OrderRow[] => untrackedQuery.all({ user: userId }),

    /** Runs fn in one SQLite transaction (rolled back if it throws). */
    transaction: <T>(fn: () => T): T => sqlite.transaction(fn)(),

    /** The newest orders by creation. */
    recent: (userId: number, n: number): OrderRow[] => recentQuery.all({ user: userId, n }),
  };
}
export type OrdersRepo = ReturnType<typeof createOrdersRepo>;
