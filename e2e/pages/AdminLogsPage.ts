/** /admin/logs: the server's daily log files with View, Download and Delete. */
import { expect, type Locator, type Page } from "@playwright/test";

export const LOG_FILE_NAME = /^grapevine-\d{4}-\d{2}-\d{2}\.log$/;

export class AdminLogsPage {
  readonly heading: Locator;
  readonly table: Locator;
  /** Body rows only (the header row holds column headers, not cells). */
  readonly fileRows: Locator;
  readonly errorHeading: Locator;
  readonly adminsOnlyHeading: Locator;
  readonly tryAgain: Locator;
  readonly emptyHeading: Locator;
  readonly viewer: LogViewer;
  readonly confirmDelete: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.heading = main.getByRole("heading", { name: "Log Files", level: 1 });
    this.table = main.getByRole("table");
    this.fileRows = this.table.getByRole("row").filter({ has: page.getByRole("cell") });
    this.errorHeading = main.getByRole("heading", { name: "Error Loading Log Files" });
    this.adminsOnlyHeading = main.getByRole("heading", { name: "Administrators Only" });
    this.tryAgain = main.getByRole("button", { name: "Try Again" });
    this.emptyHeading = main.getByRole("heading", { name: "No Log Files Found" });
    this.viewer = new LogViewer(page);
    this.confirmDelete = page.getByRole("dialog", { name: "Delete log file" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/logs");
    await expect(this.heading).toBeVisible();
  }

  row(name: string): Locator {
    return this.fileRows.filter({ has: this.page.getByRole("cell", { name, exact: true }) });
  }

  /** The name in the first cell of each listed file. */
  async fileNames(): Promise<string[]> {
    await expect(this.fileRows.first()).toBeVisible();
    const names: string[] = [];
    for (const row of await this.fileRows.all()) {
      names.push((await row.getByRole("cell").first().innerText()).trim());
    }
    return names;
  }

  async view(name: string): Promise<LogViewer> {
    await this.row(name).getByRole("button", { name: "View" }).click();
    await expect(this.viewer.root).toBeVisible();
    return this.viewer;
  }

  downloadButton(name: string): Locator {
    return this.row(name).getByRole("button", { name: "Download" });
  }

  deleteButton(name: string): Locator {
    return this.row(name).getByRole("button", { name: "Delete" });
  }
}

export class LogViewer {
  readonly root: Locator;
  readonly search: Locator;
  readonly content: Locator;
  readonly refresh: Locator;
  readonly close: Locator;

  constructor(page: Page) {
    this.root = page.getByRole("dialog", { name: /^Log file / });
    this.search = this.root.getByRole("searchbox", { name: "Search this log" });
    this.content = this.root.getByRole("log", { name: "Log content" });
    this.refresh = this.root.getByRole("button", { name: "Refresh" });
    this.close = this.root.getByRole("button", { name: "Close" });
  }

  /** The lines shown in the viewer right now. */
  async lines(): Promise<string[]> {
    const text = await this.content.innerText();
    return text.split("\n").filter((l) => l.trim() !== "");
  }
}
