/**
 * A real IMAP server for the mailbox tests: Debian's Dovecot 2.3, started with a config file of its
 * own in a temp folder, listening on 127.0.0.1 on a free port, without TLS.
 *
 * - It runs unprivileged: as the current user, or as `nobody` when the tests run as root (the temp
 *   folder is handed to that user).
 * - Users live in a passwd-file with plain passwords (the app-password path). Changing a password
 *   with `setPassword` takes effect on the next login (Dovecot re-reads the file when it changes).
 * - Maildir under the temp folder; IDLE works (inotify); Gmail-like special-use folders under a
 *   configurable parent ("[Gmail]" or "[Google Mail]") plus plain folders.
 * - `mail_max_userip_connections = 100`, no auth penalty and no failure delay, so tests stay fast.
 * - With `oauth2: {introspectionUrl}` an oauth2 passdb (after the passwd-file one) accepts
 *   XOAUTH2/OAUTHBEARER with any access token the endpoint calls active
 *   (`introspection_mode = post`, answer `{"active":"true","username":<address>}`): the Gmail OAuth
 *   path runs for real against test/support/fake-google.ts. Any address logs in that way (the
 *   userdb is static); add it to `users` too to append mail with a password.
 * - `restart()` stops the server and starts it again on the same port (the down/up test);
 *   `stop()` ends it. Only the master process we spawned is signalled, by its recorded PID.
 *
 *   const dc = await startDovecot({ users: [{ user: "alice@example.test", pass: "pw" }] });
 *   await dc.append("alice@example.test", source);
 *   ...
 *   await dc.stop();
 *
 * Test files use it through test/support/imap-suite.ts (one Dovecot per file, the app wired to it).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ImapFlow } from "imapflow";

export const DOVECOT_BIN = "/usr/sbin/dovecot";
export const DOVECOT_INSTALL = "apt-get install -y dovecot-imapd";

export type DovecotUser = { user: string; pass: string };

export type DovecotOAuth2 = {
  /** Where Dovecot POSTs `token=<access token>` (introspection_mode = post). */
  introspectionUrl: string;
  /** The OAuth mechanisms offered (default both; imapflow prefers OAUTHBEARER). */
  mechanisms?: Array<"xoauth2" | "oauthbearer">;
};

export type Dovecot = {
  host: string;
  port: number;
  dir: string;
  /** The master process's PID (changes after restart). */
  pid: () => number;
  users: () => DovecotUser[];
  /** Adds a user or changes a password; resolves once the next login sees it. */
  setPassword: (user: string, pass: string) => Promise<void>;
  /** APPENDs a raw message as that user (via IMAP) and returns its UID. */
  append: (
    user: string,
    raw: string | Buffer,
    opts?: { folder?: string; flags?: string[]; date?: Date },
  ) => Promise<number>;
  /**
   * Delivers a message straight into the user's INBOX maildir (works while the server is down,
   * like mail arriving at Gmail while we cannot reach it). The user must have logged in once.
   */
  deliver: (user: string, raw: string) => void;
  /** Flags of every message in a folder, by UID. */
  messages: (user: string, folder?: string) => Promise<Array<{ uid: number; flags: string[] }>>;
  /** Creates a folder (the test sets up extra folders). */
  createFolder: (user: string, folder: string) => Promise<void>;
  /** An IMAP client logged in as the user (the caller logs out). */
  client: (user: string) => Promise<ImapFlow>;
  /** Stops the server; resolves once its port is free. */
  down: () => Promise<void>;
  /** Starts it again on the same port. */
  up: () => Promise<void>;
  restart: () => Promise<void>;
  stop: () => Promise<void>;
  /** The server's log (for failure messages). */
  log: () => string;
};

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

async function portOpen(port: number): Promise<boolean> {
  try {
    const sock = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
    sock.end();
    return true;
  } catch {
    return false;
  }
}

function passwdLine(u: DovecotUser): string {
  if (/[:\n]/.test(u.user) || /[:\n]/.test(u.pass)) throw new Error("no ':' in test users");
  return `${u.user}:{PLAIN}${u.pass}::::::`;
}

let instances = 0;

export async function startDovecot(
  opts: {
    users?: DovecotUser[];
    gmailFolder?: string;
    extraFolders?: string[];
    oauth2?: DovecotOAuth2;
    /** Offers COMPRESS=DEFLATE (RFC 4978) as Gmail does, through Dovecot's imap_zlib plugin. */
    compress?: boolean;
  } = {},
): Promise<Dovecot> {
  if (!fs.existsSync(DOVECOT_BIN)) {
    throw new Error(
      `Dovecot is not installed (${DOVECOT_BIN} is missing). Install it with: ${DOVECOT_INSTALL}`,
    );
  }
  const gmail = opts.gmailFolder ?? "[Gmail]";
  const extra = opts.extraFolders ?? ["Vine", "Processed"];
  const users = new Map<string, string>();
  for (const u of opts.users ?? [{ user: "alice@example.test", pass: "app-pass-1" }]) {
    users.set(u.user, u.pass);
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-dovecot-"));
  const isRoot = process.getuid?.() === 0;
  // Root runs it as nobody; anyone else runs it as themselves.
  const uid = isRoot ? 65534 : (process.getuid?.() ?? 0);
  const gid = isRoot ? 65534 : (process.getgid?.() ?? 0);
  const nameOf = (file: string, id: number, fallback: string) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .find((l) => l.split(":")[2] === String(id))
      ?.split(":")[0] ?? fallback;
  const userName = nameOf("/etc/passwd", uid, isRoot ? "nobody" : os.userInfo().username);
  const groupName = nameOf("/etc/group", gid, isRoot ? "nogroup" : userName);

  for (const sub of ["run", "state", "home"])
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const passwdFile = path.join(dir, "passwd");
  const logFile = path.join(dir, "dovecot.log");
  const writePasswd = () => {
    const tmp = `${passwdFile}.tmp`;
    fs.writeFileSync(
      tmp,
      `${[...users].map(([user, pass]) => passwdLine({ user, pass })).join("\n")}\n`,
    );
    if (isRoot) fs.chownSync(tmp, uid, gid);
    fs.renameSync(tmp, passwdFile);
  };
  writePasswd();
  fs.writeFileSync(logFile, "");

  const port = freePort();
  const oauthMechs = opts.oauth2 ? (opts.oauth2.mechanisms ?? ["xoauth2", "oauthbearer"]) : [];
  let oauthPassdb = "";
  if (opts.oauth2) {
    const oauthFile = path.join(dir, "dovecot-oauth2.conf.ext");
    fs.writeFileSync(
      oauthFile,
      [
        `introspection_mode = post`,
        `introspection_url = ${opts.oauth2.introspectionUrl}`,
        `force_introspection = yes`,
        `username_attribute = username`,
        `active_attribute = active`,
        `active_value = true`,
        `timeout_msecs = 5000`,
        "",
      ].join("\n"),
    );
    oauthPassdb = `passdb {
  driver = oauth2
  mechanisms = ${oauthMechs.join(" ")}
  args = ${oauthFile}
}
`;
  }
  const folderBlocks = [
    `  mailbox "${gmail}/All Mail" {\n    special_use = \\All\n    auto = create\n  }`,
    `  mailbox "${gmail}/Sent Mail" {\n    special_use = \\Sent\n    auto = create\n  }`,
    `  mailbox "${gmail}/Trash" {\n    special_use = \\Trash\n    auto = create\n  }`,
    `  mailbox "${gmail}/Spam" {\n    special_use = \\Junk\n    auto = create\n  }`,
    `  mailbox "${gmail}/Drafts" {\n    special_use = \\Drafts\n    auto = create\n  }`,
    ...extra.map((f) => `  mailbox "${f}" {\n    auto = subscribe\n  }`),
  ].join("\n");
  const conf = `# Grapevine test instance: unprivileged, plain text, 127.0.0.1 only.
instance_name = grapevine-test-${process.pid}-${++instances}
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${logFile}
info_log_path = ${logFile}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = ${["plain", "login", ...oauthMechs].join(" ")}
auth_failure_delay = 0
default_internal_user = ${userName}
default_internal_group = ${groupName}
default_login_user = ${userName}
first_valid_uid = ${Math.min(uid, 500)}
first_valid_gid = ${Math.min(gid, 500)}
mail_location = maildir:~/Maildir
mailbox_idle_check_interval = 1 secs
imap_idle_notify_interval = 1 mins
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwdFile}
${opts.oauth2 ? "  mechanisms = plain login\n" : ""}}
${oauthPassdb}userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${dir}/home/%u
}
namespace inbox {
  inbox = yes
  separator = /
  prefix =
${folderBlocks}
}
protocol imap {
  mail_max_userip_connections = 100
${opts.compress ? "  mail_plugins = $mail_plugins imap_zlib\n" : ""}}
# Each imap process's title names its user and command ("IDLE" while it idles).
verbose_proctitle = yes
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
  # No auth penalty (failed logins would otherwise wait up to 15 s).
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service auth {
  chroot =
}
service auth-worker {
  user = ${userName}
}
`;
  const confFile = path.join(dir, "dovecot.conf");
  fs.writeFileSync(confFile, conf);
  if (isRoot) chownTree(dir, uid, gid);

  let proc: ReturnType<typeof Bun.spawn> | null = null;
  const log = () => {
    try {
      return fs.readFileSync(logFile, "utf8");
    } catch {
      return "";
    }
  };

  async function up() {
    if (proc) return;
    // A session of its own: its process group id is the master's PID, so down() can end the
    // imap processes too (the 2.3 master leaves them running when it gets SIGTERM).
    const cmd = ["/usr/bin/setsid", DOVECOT_BIN, "-F", "-c", confFile];
    const argv = isRoot
      ? ["/usr/bin/setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", ...cmd]
      : cmd;
    proc = Bun.spawn(argv, {
      cwd: dir,
      stdout: "ignore",
      stderr: "pipe",
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    });
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (proc.exitCode !== null) break;
      if (await portOpen(port)) return;
      await Bun.sleep(25);
    }
    const stderr =
      proc.exitCode !== null ? await new Response(proc.stderr as ReadableStream).text() : "";
    await down();
    throw new Error(`Dovecot did not start on port ${port}.\n${stderr}\n${log()}`);
  }

  async function down() {
    const p = proc;
    if (!p) return;
    proc = null;
    const group = -p.pid;
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(group, sig);
      } catch {
        // the group is gone already
      }
    };
    signal("SIGTERM");
    const killer = setTimeout(() => signal("SIGKILL"), 5000);
    await p.exited;
    clearTimeout(killer);
    // Whatever of our group is still alive (imap processes) goes now.
    await Bun.sleep(20);
    signal("SIGKILL");
    const until = Date.now() + 5000;
    while (Date.now() < until && (await portOpen(port))) await Bun.sleep(25);
  }

  await up();

  async function client(user: string): Promise<ImapFlow> {
    const pass = users.get(user);
    if (pass === undefined) throw new Error(`unknown test user ${user}`);
    const c = new ImapFlow({
      host: "127.0.0.1",
      port,
      secure: false,
      doSTARTTLS: false,
      auth: { user, pass },
      logger: false,
      disableAutoIdle: true,
    });
    c.on("error", () => {});
    await c.connect();
    return c;
  }

  async function withClient<T>(user: string, fn: (c: ImapFlow) => Promise<T>): Promise<T> {
    const c = await client(user);
    try {
      return await fn(c);
    } finally {
      await c.logout().catch(() => c.close());
    }
  }

  return {
    host: "127.0.0.1",
    port,
    dir,
    pid: () => proc?.pid ?? 0,
    users: () => [...users].map(([user, pass]) => ({ user, pass })),
    async setPassword(user, pass) {
      users.set(user, pass);
      writePasswd();
      // Dovecot looks at the passwd-file's mtime at most once a second.
      await Bun.sleep(1100);
    },
    append: (user, raw, o = {}) =>
      withClient(user, async (c) => {
        const res = await c.append(o.folder ?? "INBOX", raw, o.flags ?? [], o.date);
        const uid = res ? res.uid : undefined;
        if (!uid) throw new Error("APPEND gave no UID");
        return uid;
      }),
    deliver(user, raw) {
      const maildir = path.join(dir, "home", user, "Maildir");
      if (!fs.existsSync(path.join(maildir, "new"))) throw new Error(`${user} has no maildir yet`);
      const name = `${Date.now()}.M${Math.floor(Math.random() * 1e9)}P${process.pid}.grapevine-test`;
      const tmp = path.join(maildir, "tmp", name);
      fs.writeFileSync(tmp, raw.replace(/\r?\n/g, "\n"));
      if (isRoot) fs.chownSync(tmp, uid, gid);
      fs.renameSync(tmp, path.join(maildir, "new", name));
    },
    messages: (user, folder = "INBOX") =>
      withClient(user, async (c) => {
        const lock = await c.getMailboxLock(folder);
        try {
          const out: Array<{ uid: number; flags: string[] }> = [];
          if (c.mailbox && c.mailbox.exists === 0) return out;
          for await (const m of c.fetch("1:*", { uid: true, flags: true })) {
            out.push({ uid: m.uid, flags: [...(m.flags ?? [])] });
          }
          return out;
        } finally {
          lock.release();
        }
      }),
    createFolder: (user, folder) =>
      withClient(user, async (c) => {
        await c.mailboxCreate(folder);
      }),
    client,
    down,
    up,
    async restart() {
      await down();
      await up();
    },
    async stop() {
      await down();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    log,
  };
}

function chownTree(p: string, uid: number, gid: number) {
  fs.chownSync(p, uid, gid);
  if (fs.statSync(p).isDirectory()) {
    for (const e of fs.readdirSync(p)) chownTree(path.join(p, e), uid, gid);
  }
}
