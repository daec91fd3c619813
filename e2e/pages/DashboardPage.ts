/** /: the dashboard with its status cards, Recent Orders (inline tracking edit) and stat cards. */
import { expect, type Locator, type Page } from "@playwright/test";

export const DASHBOARD_STATUSES = [
  "Ordered",
  "Shipped",
  "Received",
  "Review Submitted",
  "Review Rejected",
  "Review Approved",
] as const;
export type DashboardStatus = (typeof DASHBOARD_STATUSES)[number];

export class DashboardPage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly allOrders: Locator;
  readonly addOrder: Locator;
  readonly statusCards: Locator;
  readonly recent: Locator;
  readonly recentCards: Locator;
  readonly emptyRecent: Locator;
  readonly stats: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole("main");
    this.heading = this.main.getByRole("heading", { name: "Dashboard", level: 1 });
    this.allOrders = this.main.getByRole("link", { name: "All Orders" });
    this.addOrder = this.main.getByRole("link", { name: "Add Order" });
    this.statusCards = this.main.getByRole("region", { name: "Orders by status" });
    this.recent = this.main.getByRole("region", { name: "Recent Orders" });
    this.recentCards = this.recent.getByRole("article");
    this.emptyRecent = this.recent.getByRole("heading", { name: "No orders found" });
    this.stats = this.main.getByRole("region", { name: "Statistics" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
    await expect(this.heading).toBeVisible();
  }

  /** The header line under the title: "Last update: … · live updates on" or "Loading your orders…". */
  get lastUpdate(): Locator {
    return this.main.getByText(/^(Last update: .+|Loading your orders…)/);
  }

  /** The status card link; its accessible name is "<status>: <count>, <subtitle>[, n ordered today]". */
  statusCard(status: DashboardStatus): Locator {
    return this.statusCards.getByRole("link", { name: new RegExp(`^${status}: `) });
  }

  async expectCount(status: DashboardStatus, count: number): Promise<void> {
    await expect(this.statusCard(status)).toHaveAccessibleName(
      new RegExp(`^${status}: ${count}, `),
    );
  }

  card(productName: string): Locator {
    return this.recentCards.filter({
      has: this.page.getByRole("heading", { name: productName, exact: true }),
    });
  }

  /** The stat card's value ("4", "$26.37", "60%"). */
  statValue(title: "This Month" | "Average Value" | "Review Rate"): Locator {
    return this.stats
      .getByRole("article")
      .filter({ has: this.page.getByRole("heading", { name: title }) })
      .locator(".stat-value");
  }

  trackingButton(productName: string): Locator {
    return this.card(productName).getByRole("button", { name: /^(Add|Edit) tracking: / });
  }

  trackingEditor(productName: string): TrackingEditor {
    return new TrackingEditor(this.card(productName));
  }
}

export class TrackingEditor {
  readonly root: Locator;
  readonly number: Locator;
  readonly carrier: Locator;

  constructor(card: Locator) {
    this.root = card.getByRole("group", { name: /^Tracking for / });
    this.number = this.root.getByLabel("Tracking number");
    this.carrier = this.root.getByLabel("Carrier");
  }
}
