/**
 * Per-user cache of figures computed from a user's orders: the list's X-Total-Count per filter and
 * the dashboard's counts and stats. They are counts and sums over every order of the user (about
 * 0.2-1 ms each at 10,000 orders) that change only when an order of that user is written.
 *
 * Why a cached figure can never be stale:
 * - Every order write of the app goes through the orders repo (orders.repo.ts), which runs it in
 *   `write(userId, ...)`: AFTER the write, that user's generation goes up and their cached figures
 *   are dropped. CODE THAT WRITES ORDERS MUST USE THE ORDERS REPO (or call `write`/`bump` here).
 * - As a safety net for writes that do not (raw SQL on this connection, as the tests' seeds do, a
 *   cascade from deleting a user, another process or connection such as the sqlite3 shell or a
 *   benchmark's seeder), each read also compares SQLite's `total_changes()` (every row this
 *   connection ever changed) and `PRAGMA data_version` (commits by other connections) with the
 *   values seen last: any change not made by `write` drops every user's figures. Both checks cost
 *   about 2 µs; other writes (sessions, notifications) are rare, and only cost a recomputation.
 * - Nothing is stored while a transaction is open: figures read inside one could be rolled back.
 * - One cache per database connection (a WeakMap on the connection), so two databases in one
 *   process (the tests open one per harness) never share figures; JavaScript runs one request at a
 *   time and bun:sqlite is synchronous, so nothing can write between a check and its computation.
 *
 * Bounded: at most MAX_USERS users (least recently read dropped first) and MAX_KEYS_PER_USER
 * figures per user (oldest dropped first; search texts, pages and new days add keys), plus one
 * generation number per user who wrote since start. Figures given a weight (the list pages' JSON,
 * weighed in bytes) share MAX_WEIGHT: past it, the least recently read users' figures go
 * first, then the reading user's oldest; a single figure over MAX_WEIGHT / 8 is not kept at all.
 * Deleting a user drops their figures and generation (users.repo.ts). Stored values are shared:
 * callers must not mutate them.
 */
import type { Database } from "bun:sqlite";
import type { Db } from "../../db/client.ts";

export const MAX_USERS = 1000;
export const MAX_KEYS_PER_USER = 64;
/** Total weight of weighed figures kept (bytes of JSON: 4 MB of memory at most). */
export const MAX_WEIGHT = 4_000_000;

type Figure = { value: unknown; weight: number };
type UserFigures = { generation: number; values: Map<string, Figure>; weight: number };

export type OrdersCache = {
  /**
   * The user's figure for `key` in their current generation; computed and kept when missing.
   * `weigh` gives a large figure its weight (see MAX_WEIGHT); small figures need none.
   */
  get<T>(userId: number, key: string, compute: () => T, weigh?: (value: T) => number): T;
  /** Runs a write of the user's orders, then moves the user to a new generation (even on error). */
  write<T>(userId: number, fn: () => T): T;
  /** The user's orders changed some other way: drop their figures. */
  bump(userId: number): void;
  /** The user was deleted. */
  dropUser(userId: number): void;
  /** The user's generation: how many writes of their orders this cache has seen (tests, debugging). */
  generation(userId: number): number;
  /** Whether figures of the user are held (tests, debugging). */
  holds(userId: number): boolean;
  /** How many users and figures are held, and their total weight (tests, debugging). */
  size(): { users: number; figures: number; weight: number };
};

function createOrdersCache(sqlite: Database): OrdersCache {
  const changesStmt = sqlite.prepare<{ n: number }, []>("SELECT total_changes() AS n");
  const versionStmt = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  const changes = () => changesStmt.get()?.n ?? -1;
  const version = () => versionStmt.get()?.data_version ?? -1;

  const users = new Map<number, UserFigures>();
  /** Generations outlive evicted figures, so a number is never reused for a user. */
  const generations = new Map<number, number>();
  let lastRead = -1;
  let weight = 0;
  let seenChanges = changes();
  let seenVersion = version();

  function dropFigures(userId: number) {
    const figures = users.get(userId);
    if (!figures) return;
    weight -= figures.weight;
    users.delete(userId);
  }

  function dropOldestKey(figures: UserFigures) {
    const oldest = figures.values.keys().next().value;
    if (oldest === undefined) return;
    const w = figures.values.get(oldest)?.weight ?? 0;
    figures.values.delete(oldest);
    figures.weight -= w;
    weight -= w;
  }

  /** Drops everything when the database changed in a way `write` did not account for. */
  function checkForeignWrites() {
    const n = changes();
    const v = version();
    if (n !== seenChanges || v !== seenVersion) {
      users.clear();
      weight = 0;
      lastRead = -1;
      seenChanges = n;
      seenVersion = v;
    }
  }

  function bump(userId: number) {
    generations.set(userId, (generations.get(userId) ?? 0) + 1);
  }

  /** Keeps `value` for the user, within MAX_KEYS_PER_USER and MAX_WEIGHT. */
  function keep(userId: number, figures: UserFigures, key: string, value: unknown, w: number) {
    if (w > MAX_WEIGHT / 8) return;
    if (figures.values.size >= MAX_KEYS_PER_USER) dropOldestKey(figures);
    figures.values.set(key, { value, weight: w });
    figures.weight += w;
    weight += w;
    // Least recently read users first (Map order is the recency order), then this user's oldest.
    for (const other of users.keys()) {
      if (weight <= MAX_WEIGHT || other === userId) break;
      dropFigures(other);
    }
    while (weight > MAX_WEIGHT) dropOldestKey(figures);
  }

  return {
    get<T>(userId: number, key: string, compute: () => T, weigh?: (value: T) => number): T {
      checkForeignWrites();
      const generation = generations.get(userId) ?? 0;
      let figures = users.get(userId);
      if (!figures || figures.generation !== generation) {
        if (figures) dropFigures(userId);
        figures = { generation, values: new Map(), weight: 0 };
        users.set(userId, figures);
        if (users.size > MAX_USERS) {
          const oldest = users.keys().next().value;
          if (oldest !== undefined) dropFigures(oldest);
        }
      } else if (lastRead !== userId) {
        users.delete(userId); // re-insert: Map order is the recency order
        users.set(userId, figures);
      }
      lastRead = userId;
      const held = figures.values.get(key);
      if (held) return held.value as T;
      const value = compute();
      if (!sqlite.inTransaction) keep(userId, figures, key, value, weigh ? weigh(value) : 0);
      return value;
    },

    write<T>(userId: number, fn: () => T): T {
      const before = changes();
      try {
        return fn();
      } finally {
        bump(userId);
        // This write is accounted for; anything else since the last check still drops everything.
        if (before === seenChanges) seenChanges = changes();
      }
    },

    bump,

    dropUser(userId: number) {
      dropFigures(userId);
      generations.delete(userId);
      if (lastRead === userId) lastRead = -1;
    },

    generation: (userId: number) => generations.get(userId) ?? 0,

    holds: (userId: number) => users.has(userId),

    size() {
      let figures = 0;
      for (const f of users.values()) figures += f.values.size;
      return { users: users.size, figures, weight };
    },
  };
}

const caches = new WeakMap<Database, OrdersCache>();

/** The one cache of this database connection, shared by the orders, dashboard and users repos. */
export function ordersCacheFor(db: Db): OrdersCache {
  let cache = caches.get(db.$client);
  if (!cache) {
    cache = createOrdersCache(db.$client);
    caches.set(db.$client, cache);
  }
  return cache;
}
