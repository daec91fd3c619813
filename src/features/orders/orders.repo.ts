/** Order queries. Every query is scoped to one user; filtering, sorting and paging happen in SQL. */
import { and, asc, count, desc, eq, inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { ORDER_SORTS, type OrderSort, type OrderStatus } from "../../contract/index.ts";
import type { Db } from "../../db/client.ts";
import { type OrderRow, orders } from "../../db/schema.ts";

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

function searchCondition(kind: SearchKind): SQL | undefined {
  const q = sql.placeholder("q");
  if (kind === "trigram") {
    return sql`${orders.id} IN (SELECT rowid FROM orders_search WHERE orders_search MATCH ${q})`;
  }
  if (kind === "like") {
    return sql`(${orders.productName} LIKE ${q} ESCAPE '\\' OR ${orders.amazonOrderNumber} LIKE ${q} ESCAPE '\\')`;
  }
  return undefined;
}

const byIdAsc = asc(orders.id);
const byIdDesc = desc(orders.id);
/** SQLite sorts NULL first when ascending: this key puts them last. Descending needs no help. */
const nullsLast = (col: SQLWrapper) => sql`${col} IS NULL`;
const nocase = sql`${orders.productName} COLLATE NOCASE`;

/**
 * ORDER BY for a chosen sort; ties break by id. Each one walks an index (see schema.ts):
 * (user_id, created_at), (user_id, product_name COLLATE NOCASE), (user_id, status),
 * (user_id, value_cents) backwards, and (user_id, value_cents IS NULL, value_cents).
 */
function sortOrder(sort: OrderSort): SQL[] {
  switch (sort) {
    case "newest":
      return [desc(orders.createdAt), byIdDesc];
    case "oldest":
      return [asc(orders.createdAt), byIdAsc];
    case "product-asc":
      return [sql`${nocase} ASC`, byIdAsc];
    case "product-desc":
      return [sql`${nocase} DESC`, byIdDesc];
    case "status-asc":
      return [asc(orders.status), byIdAsc];
    case "value-desc":
      return [desc(orders.valueCents), byIdDesc];
    case "value-asc":
      return [nullsLast(orders.valueCents), asc(orders.valueCents), byIdAsc];
  }
}

/** The per-filter ordering of spec §9 when no sort is chosen; null when the filter has none. */
function filterOrder(status: OrderStatus | undefined): SQL[] | null {
  switch (status) {
    case "Received":
      return [nullsLast(orders.dateDelivered), asc(orders.dateDelivered), byIdAsc];
    case "Shipped":
      // Real dates first, then dates guessed from the text, each earliest first; no date last.
      return [
        sql`CASE WHEN ${orders.expectedDeliveryDate} IS NULL THEN 2 WHEN ${orders.expectedDeliveryEstimated} THEN 1 ELSE 0 END`,
        asc(orders.expectedDeliveryDate),
        byIdAsc,
      ];
    case "Review Submitted":
      return [nullsLast(orders.dateReviewSubmitted), asc(orders.dateReviewSubmitted), byIdAsc];
    case "Review Approved":
      return [desc(orders.dateReviewApproved), byIdDesc];
    case "Review Rejected":
      return [nullsLast(orders.dateReviewRejected), asc(orders.dateReviewRejected), byIdAsc];
    default:
      return null;
  }
}

export function createOrdersRepo(db: Db) {
  /**
   * The list's statements are prepared once per shape (status filter or not, kind of search,
   * ordering) and reused with placeholders: no SQL is built or compiled per request.
   */
  function prepareShape(hasStatus: boolean, search: SearchKind, orderKey: OrderSort | OrderStatus) {
    const where = and(
      eq(orders.userId, sql.placeholder("user")),
      hasStatus ? eq(orders.status, sql.placeholder("status")) : undefined,
      searchCondition(search),
    );
    const order = (ORDER_SORTS as readonly string[]).includes(orderKey)
      ? sortOrder(orderKey as OrderSort)
      : (filterOrder(orderKey as OrderStatus) ?? sortOrder("newest"));
    // The page's ids are found first (walking an index, sorting only keys), then only those rows
    // are read.
    const ids = db
      .select({ id: orders.id })
      .from(orders)
      .where(where)
      .orderBy(...order)
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"));
    return {
      page: db
        .select()
        .from(orders)
        .where(inArray(orders.id, ids))
        .orderBy(...order)
        .prepare(),
      total: totalStatement(hasStatus, search, where),
    };
  }

  /** COUNT(*) of the matches; a trigram search counts from the search index's hits. */
  function totalStatement(
    hasStatus: boolean,
    search: SearchKind,
    where: SQL | undefined,
  ): { get(params: Record<string, string | number>): { n: number } | null | undefined } {
    if (search !== "trigram") return db.select({ n: count() }).from(orders).where(where).prepare();
    return db.$client.query<{ n: number }, Record<string, string | number>>(
      `SELECT COUNT(*) AS n FROM orders_search JOIN orders ON orders.id = orders_search.rowid
        WHERE orders_search MATCH $q AND orders.user_id = $user${hasStatus ? " AND orders.status = $status" : ""}`,
    );
  }
  type Shape = ReturnType<typeof prepareShape>;
  const shapes = new Map<string, Shape>();
  function statementsFor(hasStatus: boolean, search: SearchKind, orderKey: string): Shape {
    const key = `${hasStatus}|${search}|${orderKey}`;
    let s = shapes.get(key);
    if (!s) {
      s = prepareShape(hasStatus, search, orderKey as OrderSort | OrderStatus);
      shapes.set(key, s);
    }
    return s;
  }

  const findStmt = db
    .select()
    .from(orders)
    .where(and(eq(orders.id, sql.placeholder("id")), eq(orders.userId, sql.placeholder("user"))))
    .prepare();
  const recentStmt = db
    .select()
    .from(orders)
    .where(eq(orders.userId, sql.placeholder("user")))
    .orderBy(desc(orders.createdAt), byIdDesc)
    .limit(sql.placeholder("n"))
    .prepare();

  return {
    findForUser: (userId: number, id: number): OrderRow | undefined =>
      findStmt.get({ id, user: userId }),

    insert: (row: NewOrderRow): OrderRow => db.insert(orders).values(row).returning().get(),

    update: (userId: number, id: number, patch: OrderPatch): OrderRow | undefined =>
      db
        .update(orders)
        .set(patch)
        .where(and(eq(orders.id, id), eq(orders.userId, userId)))
        .returning()
        .get(),

    delete: (userId: number, id: number): boolean =>
      db.$client.query("DELETE FROM orders WHERE id = ? AND user_id = ?").run(id, userId).changes >
      0,

    /** One page of the user's orders and the number of all that match. */
    list(userId: number, f: OrderListFilter): { rows: OrderRow[]; total: number } {
      const search = searchKind(f.q);
      const orderKey = f.sort ?? (filterOrder(f.status) ? (f.status as OrderStatus) : "newest");
      const { page, total } = statementsFor(Boolean(f.status), search, orderKey);
      const params: Record<string, string | number> = { user: userId };
      if (f.status) params.status = f.status;
      if (f.q && search !== "none") params.q = searchParam(f.q, search);
      const rows = page.all({ ...params, limit: f.limit, offset: f.offset });
      return { rows, total: total.get(params)?.n ?? 0 };
    },

    /** Every order of the user, oldest first (the data export). */
    listAll: (userId: number): OrderRow[] =>
      db.select().from(orders).where(eq(orders.userId, userId)).orderBy(byIdAsc).all(),

    /** The newest orders by creation. */
    recent: (userId: number, n: number): OrderRow[] => recentStmt.all({ user: userId, n }),
  };
}
export type OrdersRepo = ReturnType<typeof createOrdersRepo>;
