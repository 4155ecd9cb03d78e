import { eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { users } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type UserRow = typeof users.$inferSelect;

export function userRepo(db: Db, t: Tables = sqliteTables) {
  const { users } = t;
  return {
    async insert(row: typeof users.$inferInsert): Promise<void> {
      await db.insert(users).values(row);
    },
    async get(id: string): Promise<UserRow | null> {
      return first(await db.select().from(users).where(eq(users.id, id)).limit(1));
    },
    async update(id: string, fields: Partial<Pick<UserRow, "name" | "passwordHash" | "timeZone">>): Promise<void> {
      await db.update(users).set(fields).where(eq(users.id, id));
    },
    async getByEmail(email: string): Promise<UserRow | null> {
      return first(await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1));
    },
  };
}
