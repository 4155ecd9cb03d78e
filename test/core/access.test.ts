// The access policy's rules, written out by hand: the matrix test (test/server/
// access-matrix.test.ts) holds the server to the policy; this holds the policy to
// the rules docs/rest-api.md states.
import { describe, expect, it } from "vitest";
import {
  folderPolicy,
  invitePolicy,
  notePolicy,
  noteView,
  ownedPolicy,
  workspacePolicy,
  type Actor,
} from "../../src/core/access.js";

const actor = (userId: string, role: "admin" | "member", hidden: string[] = [], workspaceId = "ws_1"): Actor => ({
  workspaceId,
  userId,
  role,
  hiddenFolderIds: new Set(hidden),
});
const admin = actor("usr_admin", "admin", ["fld_board"]);
const ana = actor("usr_ana", "member"); // in the private board folder
const bo = actor("usr_bo", "member", ["fld_board"]);
const stranger = actor("usr_x", "admin", [], "ws_2");
const note = (createdBy: string, visibility: "only-me" | "workspace" | "public", folderIds: string[] = []) => ({
  workspaceId: "ws_1",
  createdBy,
  visibility,
  folderIds,
});

describe("the access policy", () => {
  it("a private folder hides its notes from everyone outside it, admins included", () => {
    const board = note("usr_ana", "workspace", ["fld_board", "fld_team"]);
    expect(notePolicy.see(ana, board)).toBe(true);
    expect(notePolicy.see(bo, board)).toBe(false);
    expect(notePolicy.see(admin, board)).toBe(false);
    expect(notePolicy.delete(admin, board)).toBe(false);
  });

  it("only-me is the creator's alone; workspace and public notes are everyone's in the workspace, and no one's outside it", () => {
    expect(notePolicy.see(ana, note("usr_ana", "only-me"))).toBe(true);
    expect(notePolicy.see(admin, note("usr_ana", "only-me"))).toBe(false);
    for (const v of ["workspace", "public"] as const) {
      expect(notePolicy.see(bo, note("usr_ana", v))).toBe(true);
      expect(notePolicy.see(stranger, note("usr_ana", v))).toBe(false);
    }
  });

  it("who sees a note edits it; its creator and admins widen and delete it", () => {
    const n = note("usr_ana", "workspace");
    expect(notePolicy.edit(bo, n)).toBe(true);
    expect(notePolicy.widen(bo, n)).toBe(false);
    expect(notePolicy.delete(bo, n)).toBe(false);
    expect(notePolicy.widen(ana, n)).toBe(true);
    expect(notePolicy.delete(admin, n)).toBe(true);
  });

  it("folders: members file notes in what they see; owners and admins change the folder; a member creates only their own", () => {
    const board = { id: "fld_board", workspaceId: "ws_1", ownerUserId: "usr_ana", isPrivate: true };
    const team = { id: "fld_team", workspaceId: "ws_1", ownerUserId: "usr_admin", isPrivate: false };
    expect(folderPolicy.see(bo, board)).toBe(false);
    expect(folderPolicy.file(bo, team)).toBe(true);
    expect(folderPolicy.manage(bo, team)).toBe(false);
    expect(folderPolicy.file(bo, board)).toBe(false);
    expect(folderPolicy.manage(admin, team)).toBe(true);
    expect(folderPolicy.manage(admin, board)).toBe(false);
    expect(folderPolicy.manage(ana, board)).toBe(true);
    expect(folderPolicy.create(bo, "usr_bo")).toBe(true);
    expect(folderPolicy.create(bo, "usr_ana")).toBe(false);
    expect(folderPolicy.create(admin, "usr_ana")).toBe(true);
  });

  it("workspace, AI configuration and admin invites are for admins; owned things for their owner and admins", () => {
    expect(workspacePolicy.manage(bo)).toBe(false);
    expect(workspacePolicy.configureAi(bo)).toBe(false);
    expect(workspacePolicy.manage(admin)).toBe(true);
    expect(invitePolicy.create(bo, "admin")).toBe(false);
    expect(invitePolicy.create(bo, "member")).toBe(true);
    expect(invitePolicy.manage(bo, { workspaceId: "ws_1", ownerUserId: "usr_admin" })).toBe(false);
    expect(ownedPolicy.manage(bo, { workspaceId: "ws_1", ownerUserId: "usr_bo" })).toBe(true);
    expect(ownedPolicy.manage(bo, { workspaceId: "ws_1", ownerUserId: null })).toBe(false);
    expect(ownedPolicy.manage(admin, { workspaceId: "ws_1", ownerUserId: null })).toBe(true);
    expect(ownedPolicy.manage(stranger, { workspaceId: "ws_1", ownerUserId: "usr_x" })).toBe(false);
  });

  it("the repositories' filter carries the hidden folders, sorted", () => {
    expect(noteView(actor("u", "member", ["b", "a"]))).toEqual({
      workspaceId: "ws_1",
      viewerUserId: "u",
      hiddenFolderIds: ["a", "b"],
    });
  });
});
