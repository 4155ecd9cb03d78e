import { eq } from "drizzle-orm";
import type { Db } from "../open.js";
import { users } from "../schema.js";

export type UserRow = typeof users.$inferSelect;

export function userRepo(db: Db) {
  return {
    insert(row: UserRow): void {
      db.insert(users).values(row).run();
    },
    get(id: string): UserRow | null {
      return db.select().from(users).where(eq(users.id, id)).get() ?? null;
    },
    getByEmail(email: string): UserRow | null {
      return db.select().from(users).where(eq(users.email, email.toLowerCase())).get() ?? null;
    },
  };
}
