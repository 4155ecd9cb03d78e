// The action items page, and ticking an item from it or from a note's page.
import { Hono } from "hono";
import type { Services } from "../../services/index.js";
import { csrfOk, requireViewer, viewerOf, type WebEnv } from "../context.js";
import { formExpired } from "../form-expired.js";
import { render } from "../render.js";
import { ActionItemsPage } from "../pages/action-items.js";

/** Where a tick sends the person back: a page of this app, never another site. */
const backTo = (value: unknown) =>
  typeof value === "string" && /^\/(?![/\\])[^\s]*$/.test(value) ? value : "/action-items";

export function actionItemPages(services: Services) {
  const app = new Hono<WebEnv>();
  app.use("/action-items", requireViewer);
  app.use("/action-items/*", requireViewer);

  app.get("/action-items", async (c) => {
    const viewer = viewerOf(c);
    const page = { limit: 100, offset: 0 } as const;
    const mine = await services.actionItems.list(viewer.principal, { ...page, assignee: "me", status: "open" });
    const open = await services.actionItems.list(viewer.principal, { ...page, status: "open" });
    const done = await services.actionItems.list(viewer.principal, { limit: 20, offset: 0, status: "done" });
    const yours = new Set(mine.items.map((i) => i.id));
    return render(
      c,
      <ActionItemsPage
        viewer={viewer}
        mine={mine.items}
        others={open.items.filter((i) => !yours.has(i.id))}
        done={done.items}
        today={services.actionItems.today()}
      />,
    );
  });

  app.post("/action-items/:id", async (c) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return formExpired(c);
    await services.actionItems.update(viewerOf(c).principal, c.req.param("id"), { done: f.done === "1" });
    return c.redirect(backTo(f.back), 303);
  });
  return app;
}
