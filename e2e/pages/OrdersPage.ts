/** /orders: search, status filter, sort, order cards with inline status change, pagination. */
import { expect, type Locator, type Page } from "@playwright/test";

export class OrdersPage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly subtitle: Locator;
  readonly addOrder: Locator;
  readonly search: Locator;
  readonly statusFilter: Locator;
  readonly sort: Locator;
  readonly list: Locator;
  readonly cards: Locator;
  readonly empty: Locator;
  readonly pagination: Locator;
  readonly showing: Locator;
  readonly pageSize: Locator;
  readonly previous: Locator;
  readonly next: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole("main");
    this.heading = this.main.getByRole("heading", { name: "Orders", level: 1 });
    this.subtitle = this.main.getByText(/^Manage your Amazon Vine orders/);
    this.addOrder = this.main.getByRole("link", { name: "Add Order" });
    this.search = this.main.getByRole("searchbox", { name: "Search orders" });
    this.statusFilter = this.main.getByRole("combobox", { name: "Status filter" });
    this.sort = this.main.getByRole("combobox", { name: "Sort" });
    this.list = this.main.getByRole("region", { name: "Order list" });
    this.cards = this.list.getByRole("article");
    this.empty = this.main.getByRole("heading", { name: "No orders found" });
    this.pagination = this.main.getByRole("navigation", { name: "Pagination" });
    this.showing = this.pagination.getByText(/^Showing \d+ to \d+ of \d+ results$/);
    this.pageSize = this.pagination.getByRole("combobox", { name: "Show" });
    this.previous = this.pagination.getByRole("button", { name: "Previous page" });
    this.next = this.pagination.getByRole("button", { name: "Next page" });
  }

  async goto(query = "status=all"): Promise<void> {
    await this.page.goto(`/orders?${query}`);
    await expect(this.heading).toBeVisible();
  }

  card(productName: string): Locator {
    return this.cards.filter({
      has: this.page.getByRole("heading", { name: productName, exact: true }),
    });
  }

  pageButton(n: number): Locator {
    return this.pagination.getByRole("button", { name: `Page ${n}`, exact: true });
  }

  /** The product names of the cards on screen, in order. */
  async productNames(): Promise<string[]> {
    return (await this.cards.getByRole("heading").allInnerTexts()).map((t) => t.trim());
  }

  changeStatusButton(productName: string): Locator {
    return this.card(productName).getByRole("button", { name: /^Change status: / });
  }

  statusSelect(productName: string): Locator {
    return this.card(productName).getByRole("combobox", { name: /^Status of / });
  }

  editReview(productName: string): Locator {
    return this.card(productName).getByRole("link", { name: /^Edit Review: / });
  }

  async expectShowing(text: string): Promise<void> {
    await expect(this.showing).toHaveText(text);
  }
}
