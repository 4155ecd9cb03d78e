// Errors that say what to do: a profile that does not exist, by name; a variable people
// try that notula does not read, with the one it does; a refused key, by where it came from.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, run, startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
});
afterAll(() => server?.stop());

describe("errors that say what to do", () => {
  it("names a profile that does not exist", async () => {
    const env = { ...cliEnv(server), NOTULA_API_KEY: "", NOTULA_URL: "" };
    const r = await run(["--profile", "nosuch", "notes", "list"], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/No profile "nosuch": `notula profiles list` shows the profiles there are/);
  });

  it("warns of a variable notula does not read, with the one it does; not of the server's settings", async () => {
    const env = cliEnv(server);
    const tried = await run(["notes", "list", "--json"], {
      env: { ...env, NOTULA_SERVER: server.url, NOTULA_TOKEN: "x", NOTULA_PROFLE: "work" },
    });
    expect(tried.code, tried.stderr).toBe(0);
    expect(tried.stderr).toContain("warning: notula does not read NOTULA_SERVER; did you mean NOTULA_URL?");
    expect(tried.stderr).toContain("warning: notula does not read NOTULA_TOKEN; did you mean NOTULA_API_KEY?");
    expect(tried.stderr).toContain("warning: notula does not read NOTULA_PROFLE; did you mean NOTULA_PROFILE?");
    const settings = await run(["notes", "list", "--json"], {
      env: { ...env, NOTULA_PORT: "9000", NOTULA_LOG_LEVEL: "info", NOTULA_SOMETHING_ELSE_ENTIRELY: "1" },
    });
    expect(settings.stderr).toBe("");
  });

  it("says where a refused key came from, and what to do about it", async () => {
    const env = cliEnv(server);
    const fromEnv = await run(["notes", "list"], { env: { ...env, NOTULA_API_KEY: "ntl_wrong" } });
    expect(fromEnv.code).toBe(4);
    expect(fromEnv.stderr).toMatch(/The key in NOTULA_API_KEY was refused: check it, or unset it/);
    const fromFlag = await run(["notes", "list", "--api-key", "ntl_wrong"], { env: { ...env, NOTULA_API_KEY: "" } });
    expect(fromFlag.code).toBe(4);
    expect(fromFlag.stderr).toMatch(/The key given with --api-key was refused/);
  });
});
