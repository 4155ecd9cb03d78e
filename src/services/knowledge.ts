import type { Repositories } from "../db/repos/index.js";
import type { KnowledgeRow } from "../db/repos/knowledge.js";
import { newId } from "../core/ids.js";
import { ForbiddenError, NotFoundError } from "../core/errors.js";
import { ownedPolicy } from "../core/access.js";
import { paginate } from "./pagination.js";
import type { Principal } from "../core/principal.js";
import { iso, type Clock } from "../core/clock.js";
import type { Jobs } from "../jobs/job.js";

const present = (a: KnowledgeRow) => ({
  id: a.id,
  title: a.title,
  content: a.content,
  createdAt: iso(a.createdAt),
  updatedAt: iso(a.updatedAt),
});

export function createKnowledgeService(repos: Repositories, now: Clock, jobs: Jobs) {
  return {
    async create(p: Principal, input: { title: string; content: string }) {
      const t = now();
      const row = {
        id: newId("kb"),
        workspaceId: p.workspaceId,
        title: input.title,
        content: input.content,
        createdBy: p.userId,
        createdAt: t,
        updatedAt: t,
      };
      await repos.transaction(async () => {
        await repos.knowledge.insert(row);
        await jobs.enqueue("index-passages", { source: "article", id: row.id });
      });
      return present(row);
    },
    async list(p: Principal, limit: number, offset: number) {
      const rows = await repos.knowledge.list(p.workspaceId, limit, offset);
      const { page, pagination } = paginate(rows, limit, offset);
      return { items: page.map(present), pagination };
    },
    async delete(p: Principal, id: string) {
      const article = await repos.knowledge.getById(id);
      if (!article || article.workspaceId !== p.workspaceId) throw new NotFoundError(`Article ${id} not found.`);
      if (!ownedPolicy.manage(p, { workspaceId: article.workspaceId, ownerUserId: article.createdBy }))
        throw new ForbiddenError("Only the article's author or an admin can delete it.");
      if (!(await repos.knowledge.delete(p.workspaceId, id))) throw new NotFoundError(`Article ${id} not found.`);
      await repos.passages.remove("article", id);
      return { success: true, message: `Article ${id} deleted.` };
    },
  };
}
