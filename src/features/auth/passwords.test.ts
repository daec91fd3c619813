import { expect, test } from "bun:test";
import { createPasswords } from "./passwords.ts";

test("the server hashes with argon2id at Bun's default cost; a cheaper cost is only taken when given", async () => {
  const server = createPasswords();
  const stored = await server.hash("correct horse");
  expect(stored).toStartWith("$argon2id$v=19$m=65536,t=2,");
  expect(await server.verify("correct horse", stored)).toBe(true);
  expect(await server.verify("wrong horse", stored)).toBe(false);

  const cheap = createPasswords({ memoryCost: 4096, timeCost: 1 });
  const quick = await cheap.hash("correct horse");
  expect(quick).toStartWith("$argon2id$v=19$m=4096,t=1,");
  // A verify reads the cost from the hash: either side checks the other's hashes.
  expect(await server.verify("correct horse", quick)).toBe(true);
  expect(await cheap.verify("correct horse", stored)).toBe(true);
});
