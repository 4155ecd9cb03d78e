import { eq, sql } from "drizzle-orm";
import type { Db } from "../open.js";
import { users } from "../schema/index.js";

export type UserRow = typeof users.$inferSelect;

export function userRepo(db: Db) {
  // Read on every request that shows a user: prepared once.
  const getStmt = db.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare();
  return {
    insert(row: UserRow): void {
      db.insert(users).values(row).run();
    },
    get(id: string): UserRow | null {
      return getStmt.get({ id }) ?? null;
    },
    update(id: string, fields: Partial<Pick<UserRow, "name" | "passwordHash">>): void {
      db.update(users).set(fields).where(eq(users.id, id)).run();
    },
    getByEmail(email: string): UserRow | null {
      return db.select().from(users).where(eq(users.email, email.toLowerCase())).get() ?? null;
    },
  };
}
