/**
 * A TCP proxy in front of the test Dovecot that injects the faults of a home server's internet
 * connection and of Gmail's refusals:
 *
 * - "pass": bytes go both ways untouched (the default);
 * - `stall()`: the connections open now stop carrying bytes, both ways, but stay open (a NAT that
 *   forgot the connection, a server that hangs); connections made afterwards are treated as the
 *   mode says (or stall too, with `stall({ newToo: true })`, like a SIGSTOPped server);
 * - `drop()`: the connections open now are cut;
 * - "refuse": new connections are accepted and closed at once, before the greeting;
 * - `script(reply)`: new connections talk to a tiny scripted IMAP server instead of Dovecot: a
 *   greeting with its capabilities, CAPABILITY, ID, NOOP, LOGOUT, and `LOGIN` answered with
 *   `reply` (the tagged answer without its tag, e.g. `NO [THROTTLED] Too fast`); canned answers
 *   as Gmail gives them, against the real app.
 *
 * `connections` counts the connections accepted, `logins` the LOGINs the script answered.
 */
import net from "node:net";

export type FaultProxy = {
  host: string;
  port: number;
  /** Connections accepted since start. */
  connections: () => number;
  /** LOGIN commands answered by the script. */
  logins: () => number;
  pass: () => void;
  stall: (opts?: { newToo?: boolean }) => void;
  drop: () => void;
  refuse: () => void;
  script: (loginReply: string) => void;
  close: () => Promise<void>;
};

type Mode =
  | { kind: "pass" }
  | { kind: "stall" }
  | { kind: "refuse" }
  | { kind: "script"; reply: string };

type Pair = { client: net.Socket; upstream: net.Socket | null; stalled: boolean };

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: Mode = { kind: "pass" };
  let accepted = 0;
  let logins = 0;
  const pairs = new Set<Pair>();

  function pipe(pair: Pair) {
    const up = net.connect({ host: target.host, port: target.port });
    pair.upstream = up;
    const forward = (from: net.Socket, to: net.Socket) => {
      from.on("data", (chunk) => {
        // A stalled pair swallows bytes: nothing reaches the other side, nothing comes back.
        if (!pair.stalled) to.write(chunk);
      });
      from.on("close", () => to.destroy());
      from.on("error", () => to.destroy());
    };
    forward(pair.client, up);
    forward(up, pair.client);
  }

  function scripted(pair: Pair, reply: string) {
    const c = pair.client;
    c.write("* OK [CAPABILITY IMAP4rev1 ID LITERAL+ AUTH=PLAIN] Scripted Gmail ready\r\n");
    let buf = "";
    let literal = 0;
    c.setEncoding("latin1");
    c.on("data", (chunk: string) => {
      buf += chunk;
      for (;;) {
        if (literal > 0) {
          if (buf.length < literal) return;
          buf = buf.slice(literal);
          literal = 0;
        }
        const end = buf.indexOf("\r\n");
        if (end < 0) return;
        const line = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const lit = /\{(\d+)(\+?)\}$/.exec(line);
        if (lit) {
          // A literal argument follows: read past it, then the rest of the command line.
          literal = Number(lit[1]);
          if (!lit[2]) c.write("+ go ahead\r\n");
          pending = pending ? `${pending} ${line}` : line;
          continue;
        }
        const full = pending ? `${pending} ${line}` : line;
        pending = "";
        answer(full);
      }
    });
    let pending = "";
    function answer(line: string) {
      const [tag = "*", cmd = ""] = line.split(" ");
      switch (cmd.toUpperCase()) {
        case "CAPABILITY":
          c.write(`* CAPABILITY IMAP4rev1 ID LITERAL+ AUTH=PLAIN\r\n${tag} OK done\r\n`);
          return;
        case "ID":
          c.write(`* ID NIL\r\n${tag} OK done\r\n`);
          return;
        case "NOOP":
          c.write(`${tag} OK done\r\n`);
          return;
        case "LOGIN":
          logins++;
          c.write(`${tag} ${reply}\r\n`);
          return;
        case "LOGOUT":
          c.write(`* BYE bye\r\n${tag} OK done\r\n`);
          c.end();
          return;
        default:
          c.write(`${tag} BAD not in this script\r\n`);
      }
    }
  }

  const server = net.createServer((client) => {
    accepted++;
    client.on("error", () => {});
    const pair: Pair = { client, upstream: null, stalled: false };
    pairs.add(pair);
    client.on("close", () => pairs.delete(pair));
    switch (mode.kind) {
      case "refuse":
        client.destroy();
        return;
      case "script":
        scripted(pair, mode.reply);
        return;
      case "stall":
        pair.stalled = true;
        pipe(pair);
        return;
      default:
        pipe(pair);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    host: target.host,
    port,
    connections: () => accepted,
    logins: () => logins,
    pass: () => {
      mode = { kind: "pass" };
    },
    stall: (opts = {}) => {
      for (const p of pairs) p.stalled = true;
      // Only the open connections: a refuse() or script() set before still holds for new ones.
      if (opts.newToo) mode = { kind: "stall" };
    },
    drop: () => {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream?.destroy();
      }
      pairs.clear();
    },
    refuse: () => {
      mode = { kind: "refuse" };
    },
    script: (reply) => {
      mode = { kind: "script", reply };
    },
    close: async () => {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
