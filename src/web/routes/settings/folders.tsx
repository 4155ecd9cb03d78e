// Settings → folders: create, rename, make private or shared, delete; a folder's members.
import { viewerOf, type WebContext } from "../../context.js";
import { FolderPage, FoldersPage } from "../../pages/workspace.js";
import { render } from "../../render.js";
import type { Hono } from "hono";
import type { Services } from "../../../services/index.js";
import type { WebEnv } from "../../context.js";
import { text, name, param, type Status, type Extra, type Page, type SettingsKit } from "./kit.js";

export function folderSettings(app: Hono<WebEnv>, services: Services, { form, flash }: SettingsKit) {
  const foldersPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = viewerOf(c);
    return render(
      c,
      <FoldersPage viewer={viewer} folders={await services.folders.list(viewer.principal)} {...extra} />,
      status,
    );
  };
  app.get("/settings/folders", async (c) => foldersPage(c, await flash.take(c)));
  app.post(
    "/settings/folders",
    form(foldersPage, async (c, f) => {
      const viewer = viewerOf(c);
      const folderName = name(f, "folder", 200);
      await services.folders.create(viewer.principal, {
        name: folderName,
        ownerUserId: viewer.userId,
        isPrivate: text(f, "private") === "1",
      });
      return flash.redirect(c, "/settings/folders", { notice: `Folder “${folderName}” created.` });
    }),
  );
  app.post(
    "/settings/folders/:id",
    form(foldersPage, async (c, f) => {
      const folder = await services.folders.update(viewerOf(c).principal, param(c, "id"), {
        name: name(f, "folder", 200),
      });
      return flash.redirect(c, "/settings/folders", { notice: `Renamed to ${folder.name}.` });
    }),
  );
  app.post(
    "/settings/folders/:id/privacy",
    form(foldersPage, async (c, f) => {
      const isPrivate = text(f, "private") === "1";
      const folder = await services.folders.update(viewerOf(c).principal, param(c, "id"), { isPrivate });
      return flash.redirect(c, "/settings/folders", {
        notice: isPrivate
          ? `${folder.name} is private now: only its members see its notes.`
          : `${folder.name} is no longer private: its notes follow their own visibility again.`,
      });
    }),
  );
  app.post(
    "/settings/folders/:id/delete",
    form(foldersPage, async (c) => {
      await services.folders.delete(viewerOf(c).principal, param(c, "id"));
      return flash.redirect(c, "/settings/folders", { notice: "The folder is deleted; its notes stay." });
    }),
  );

  const folderPage = async (c: WebContext, extra: Extra = {}, status: Status = 200) => {
    const viewer = viewerOf(c);
    const { folder, members, mayManage } = await services.folders.detail(viewer.principal, param(c, "id"));
    const inFolder = new Set(members.map((m) => m.userId));
    const everyone = mayManage
      ? (await services.directory.listMembers(viewer.principal, { limit: 500, offset: 0 })).items
      : [];
    return render(
      c,
      <FolderPage
        viewer={viewer}
        folder={folder}
        members={members}
        mayManage={mayManage}
        others={everyone
          .filter((m) => !inFolder.has(m.userId))
          .map((m) => ({ userId: m.userId, name: m.name, email: m.email }))}
        groups={mayManage ? await services.directory.listGroups(viewer.principal) : []}
        {...extra}
      />,
      status,
    );
  };
  const toFolder = (c: WebContext) => `/settings/folders/${encodeURIComponent(param(c, "id"))}`;
  app.get("/settings/folders/:id", async (c) => folderPage(c, await flash.take(c)));
  app.post(
    "/settings/folders/:id/members",
    form(folderPage, async (c, f) => {
      await services.folders.addMember(viewerOf(c).principal, param(c, "id"), text(f, "userId"));
      return flash.redirect(c, toFolder(c), { notice: "Added." });
    }),
  );
  app.post(
    "/settings/folders/:id/members/:userId/remove",
    form(folderPage, async (c) => {
      await services.folders.removeMember(viewerOf(c).principal, param(c, "id"), param(c, "userId"));
      return flash.redirect(c, toFolder(c), { notice: "Removed from the folder." });
    }),
  );
  app.post(
    "/settings/folders/:id/groups",
    form(folderPage, async (c, f) => {
      const n = await services.folders.addGroup(viewerOf(c).principal, param(c, "id"), text(f, "groupId"));
      return flash.redirect(c, toFolder(c), {
        notice: n ? `${n} ${n === 1 ? "person" : "people"} added.` : "Everyone in that group was a member already.",
      });
    }),
  );
}
