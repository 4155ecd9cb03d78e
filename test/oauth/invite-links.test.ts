// Invite links in headless Chromium: a new person creates an account and joins with
// the invite's role, groups and folders; the account then signs in through OAuth.
import { type Browser } from "playwright-core";
import path from "node:path";
import { launchChromium } from "../helpers/browser.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient, type Client } from "../helpers/http.js";
import { ROOT, startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: Client;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = httpClient(server.url, server.key);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("invite links", () => {
  it("an email invite creates the account and joins with its groups; the link then stops working", async () => {
    const group = (await api("POST", "/v1/workspace/groups", { name: "Design" })).body.userGroup;
    const { invite } = (
      await api("POST", "/v1/workspace/invites", { email: "new@example.com", role: "admin", groupIds: [group.id] })
    ).body;
    const page = await browser.newPage();
    await page.goto(`${server.url}/invite/${invite.code}`);
    expect(await page.textContent("h1")).toBe("Join My Workspace");
    expect(await page.inputValue("#email")).toBe("new@example.com");
    await page.fill("#name", "New Person");
    await page.fill("#password", "short");
    await page.fill("#confirm", "short");
    await page.$eval("#password", (el: any) => el.removeAttribute("minlength"));
    await page.$eval("#confirm", (el: any) => el.removeAttribute("minlength"));
    await page.click("button[type=submit]");
    expect(await page.textContent(".error")).toMatch(/at least 8 characters/);
    // The two passwords must agree; what was typed stays.
    await page.fill("#password", "a good long password");
    await page.fill("#confirm", "a good long passwore");
    await page.click("button[type=submit]");
    expect(await page.textContent(".error")).toBe("The two passwords differ.");
    expect(await page.inputValue("#name")).toBe("New Person");
    await page.fill("#password", "a good long password");
    await page.fill("#confirm", "a good long password");
    await page.click("button[type=submit]");
    // Joined and signed in, on the notes (off the form's address: a reload submits nothing).
    await page.waitForURL(/\/notes$/);
    expect(await page.textContent("[role=status]")).toContain("Welcome to My Workspace: you have joined.");
    await page.reload();
    expect(await page.locator("[role=status]").count()).toBe(0);
    await page.screenshot({ path: path.join(ROOT, "test-artifacts", "invite-joined.png") });

    const members = (await api("GET", "/v1/workspace/members?search=new@example.com")).body.items;
    expect(members).toHaveLength(1);
    expect(members[0]).toMatchObject({ name: "New Person", role: "admin", groups: [{ id: group.id, name: "Design" }] });
    expect((await api("GET", "/v1/workspace/invites")).body.items.map((i: { id: string }) => i.id)).not.toContain(
      invite.id,
    );

    await page.goto(`${server.url}/invite/${invite.code}`);
    expect(await page.textContent("h1")).toBe("Invite not found");
    await page.close();
  });

  it("a URL invite takes any email, from everyone given it until it is deleted; forged forms are refused", async () => {
    const folder = (
      await api("POST", "/v1/folders", { name: "Shared", ownerUserId: (await api("GET", "/v1/me")).body.user.id })
    ).body.folder;
    const { invite } = (await api("POST", "/v1/invites", { isUrlInvite: true, folderIds: [folder.id] })).body;
    const forged = await fetch(`${server.url}/invite/${invite.code}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: "x", name: "Mallory", email: "m@example.com", password: "password123" }),
    });
    expect(forged.status).toBe(400);
    const page = await browser.newPage();
    await page.goto(`${server.url}/invite/${invite.code}`);
    await page.fill("#name", "Link User");
    await page.fill("#email", "link@example.com");
    await page.fill("#password", "another long password");
    await page.fill("#confirm", "another long password");
    await page.click("button[type=submit]");
    await page.waitForURL(/\/notes$/);
    expect(await page.textContent("[role=status]")).toContain("Welcome to My Workspace: you have joined.");
    const member = (await api("GET", "/v1/workspace/members?search=link@example.com")).body.items[0];
    expect(member).toMatchObject({ role: "member", folders: [{ id: folder.id, name: "Shared" }] });
    await page.close();
    // The same link, for the next person given it.
    const second = await browser.newPage();
    await second.goto(`${server.url}/invite/${invite.code}`);
    await second.fill("#name", "Second Link User");
    await second.fill("#email", "link2@example.com");
    await second.fill("#password", "yet another long password");
    await second.fill("#confirm", "yet another long password");
    await second.click("button[type=submit]");
    await second.waitForURL(/\/notes$/);
    const next = (await api("GET", "/v1/workspace/members?search=link2@example.com")).body.items[0];
    expect(next).toMatchObject({ role: "member", folders: [{ id: folder.id, name: "Shared" }] });
    await second.close();
    // Deleted, the link is gone for everyone.
    expect((await api("DELETE", `/v1/invites/${invite.id}`)).status).toBe(200);
    expect((await fetch(`${server.url}/invite/${invite.code}`)).status).toBe(404);
    expect((await fetch(`${server.url}/invite/not-a-code`)).status).toBe(404);
  });
});
