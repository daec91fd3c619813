/** Admin Logs: only the first user (the admin) sees it; view, search, download and delete. */
import fs from "node:fs/promises";
import { LOG_FILE_NAME } from "./pages/AdminLogsPage.ts";
import { signInWithToken } from "./support/api.ts";
import { expect, test } from "./support/fixtures.ts";
import { plantOldLogFile } from "./support/logs.ts";

test.describe("Admin Logs as the admin", () => {
  test.beforeEach(async ({ page, admin }) => {
    await signInWithToken(page, admin.token, "/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  });

  test("the admin opens Admin Logs from the user menu and sees today's log file", async ({
    page,
    admin,
    shell,
    adminLogsPage,
  }) => {
    await shell.expectUserMenuShows(admin.displayname, admin.email);
    await shell.choose("Admin Logs");
    await expect(page).toHaveURL("/admin/logs");
    await expect(adminLogsPage.heading).toBeVisible();

    await expect(adminLogsPage.table.getByRole("columnheader")).toHaveText([
      "Name",
      "Size",
      "Modified",
      "Actions",
    ]);
    const names = await adminLogsPage.fileNames();
    expect(names.filter((n) => LOG_FILE_NAME.test(n)).length).toBeGreaterThan(0);
    const row = adminLogsPage.row(names[0]!);
    for (const action of ["View", "Download", "Delete"]) {
      await expect(row.getByRole("button", { name: action, exact: true })).toBeVisible();
    }
  });

  test("View opens the full-screen viewer; Search filters its lines; Close closes it", async ({
    page,
    request,
    adminLogsPage,
  }) => {
    // A request the server logs with a marker no other line has.
    const marker = `e2e-marker-${Date.now()}`;
    expect((await request.get(`/api/health?probe=${marker}`)).ok()).toBe(true);

    await adminLogsPage.goto();
    const [newest] = await adminLogsPage.fileNames();
    expect(newest).toMatch(LOG_FILE_NAME);
    const viewer = await adminLogsPage.view(newest!);

    // Full screen: the viewer covers the window.
    const viewport = page.viewportSize()!;
    const box = await viewer.root.getByRole("article").boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(viewport.width - 1);
    expect(box?.height).toBeGreaterThanOrEqual(viewport.height - 1);
    await expect(viewer.root.getByText(newest!, { exact: true })).toBeVisible();

    // The log shows request lines, among them the marked one (refresh if it came in late).
    await expect(async () => {
      await viewer.refresh.click();
      await expect(viewer.content).toContainText(marker, { timeout: 1_000 });
    }).toPass();
    const allLines = await viewer.lines();
    expect(allLines.length).toBeGreaterThan(1);
    expect(allLines.some((l) => l.includes('"msg":"request"'))).toBe(true);

    await viewer.search.fill(marker);
    await expect(viewer.root.getByText("1 matching line", { exact: true })).toBeVisible();
    const matching = await viewer.lines();
    expect(matching).toHaveLength(1);
    expect(matching[0]).toContain(marker);

    await viewer.search.fill(`${marker}-nothing-like-this`);
    await expect(viewer.content).toHaveText("No matching lines.");

    await viewer.search.fill("");
    await expect(async () => {
      expect((await viewer.lines()).length).toBeGreaterThanOrEqual(allLines.length);
    }).toPass();

    await viewer.close.click();
    await expect(viewer.root).toHaveCount(0);
    await expect(adminLogsPage.table).toBeVisible();
  });

  test("Download saves the log file under its own name", async ({ page, shell, adminLogsPage }) => {
    await adminLogsPage.goto();
    const [newest] = await adminLogsPage.fileNames();

    const downloading = page.waitForEvent("download");
    await adminLogsPage.downloadButton(newest!).click();
    await shell.expectToast("Download Started");
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(newest);
    const text = await fs.readFile(await download.path(), "utf8");
    expect(text).toContain('"msg":"request"');
  });

  test("Delete asks for confirmation, then removes the file", async ({ shell, adminLogsPage }) => {
    const old = await plantOldLogFile("2001-02-03", [
      '{"level":"info","msg":"an old line"}',
      '{"level":"info","msg":"another old line"}',
    ]);
    await adminLogsPage.goto();
    await expect(adminLogsPage.row(old)).toBeVisible();

    // Cancel keeps the file.
    await adminLogsPage.deleteButton(old).click();
    await expect(adminLogsPage.confirmDelete).toBeVisible();
    await expect(adminLogsPage.confirmDelete).toContainText(
      "Are you sure you want to delete the file? This action cannot be undone",
    );
    await adminLogsPage.confirmDelete.getByRole("button", { name: "Cancel" }).click();
    await expect(adminLogsPage.confirmDelete).toBeHidden();
    await expect(adminLogsPage.row(old)).toBeVisible();

    // Confirming deletes it.
    await adminLogsPage.deleteButton(old).click();
    await adminLogsPage.confirmDelete.getByRole("button", { name: "Delete", exact: true }).click();
    await shell.expectToast("File Deleted");
    await expect(adminLogsPage.confirmDelete).toBeHidden();
    await expect(adminLogsPage.row(old)).toHaveCount(0);
    await expect(adminLogsPage.fileRows.first()).toBeVisible();
  });
});

test.describe("Admin Logs as another user", () => {
  test("a user who is not the admin has no Admin Logs and cannot list the files", async ({
    page,
    request,
    signedInUser,
    shell,
    adminLogsPage,
  }) => {
    expect(signedInUser.user.userid).not.toBe(1);
    await shell.openUserMenu();
    await expect(shell.header.getByText(signedInUser.email, { exact: true })).toBeVisible();
    await expect(shell.accountItem).toBeVisible();
    await expect(shell.adminLogsItem).toHaveCount(0);
    await shell.closeUserMenu();

    const res = await request.get("/api/admin/logs", {
      headers: { Authorization: `Bearer ${signedInUser.token}` },
    });
    expect(res.status()).toBe(403);

    // Told it is the administrator's, with no Try Again that could never work.
    await adminLogsPage.goto();
    await expect(adminLogsPage.adminsOnlyHeading).toBeVisible();
    await expect(adminLogsPage.errorHeading).toHaveCount(0);
    await expect(adminLogsPage.tryAgain).toHaveCount(0);
    await expect(adminLogsPage.table).toHaveCount(0);
    // Refused, but still signed in.
    await expect(page).toHaveURL("/admin/logs");
    await expect(shell.userMenuButton).toBeVisible();
  });
});
