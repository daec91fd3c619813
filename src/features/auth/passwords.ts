/**
 * Password hashing, in one place: argon2id through `Bun.password`. The server uses Bun's default
 * cost (64 MiB of memory, 2 passes: about 0.1 s a hash on a small NAS, which is what makes a
 * stolen database slow to guess). A verify reads the cost from the stored hash, so hashes made
 * with any cost keep working.
 *
 * The test harness passes a cheaper cost of the same algorithm (`ServiceOverrides.passwordCost`):
 * the suite registers hundreds of users, and at the default cost a busy 2-CPU machine made
 * sign-up-heavy tests run past their time limits.
 */
export type PasswordCost = { memoryCost: number; timeCost: number };

export type Passwords = {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
};

export function createPasswords(cost?: PasswordCost): Passwords {
  return {
    hash: (password) =>
      cost
        ? Bun.password.hash(password, { algorithm: "argon2id", ...cost })
        : Bun.password.hash(password),
    verify: (password, hash) => Bun.password.verify(password, hash),
  };
}
