// The settings table is the one declaration of every setting: the configuration, the
// environment and flag layers and `notula serve --help` are made from it, and a value
// from the environment or a flag is checked as it is read, naming where it came from.
import { describe, expect, it } from "vitest";
import { Command } from "commander";
import { loadConfig } from "../../src/config/load.js";
import { entries } from "../../src/config/setting.js";
import { SETTINGS } from "../../src/config/settings.js";
import { serveOptions } from "../../src/cli/commands/serve/index.js";
import { tempDir } from "../helpers/server.js";

const dataDir = tempDir();
const load = (flags: Record<string, unknown>, env: Record<string, string | undefined> = {}) =>
  loadConfig({ dataDir, ...flags }, env);

describe("the settings table", () => {
  it("reads each setting from its variable, typed, with the schema's defaults for the rest", () => {
    const c = load(
      {},
      {
        NOTULA_RATE_LIMIT_FREE: "5",
        AWS_DEFAULT_REGION: "eu-west-1",
        NOTULA_WEBHOOK_RETRY_SCHEDULE_MS: "1000, 2000",
        NOTULA_SEARCH_MIN_SIMILARITY: "0.3",
        NOTULA_RATE_LIMIT: "off",
        NOTULA_ALLOW_PRIVATE_WEBHOOKS: "yes",
      },
    );
    expect(c.rateLimit).toEqual({
      enabled: false,
      perMinute: { free: 5, pro: 120, enterprise: 300 },
      perAddressPerMinute: 120,
    });
    expect(c.storage.region).toBe("eu-west-1");
    expect(c.webhooks.retryScheduleMs).toEqual([1000, 2000]);
    expect(c.embeddings.minSimilarity).toBe(0.3);
    expect(c.allowPrivateWebhooks).toBe(true);
    expect(c.port).toBe(8787);
    expect(c.oidc).toBeUndefined();
  });

  it("flags win over the environment; a --no- flag counts only when given", () => {
    expect(load({ port: "9001" }, { NOTULA_PORT: "9000" }).port).toBe(9001);
    expect(load({ rateLimit: true }, { NOTULA_RATE_LIMIT: "off" }).rateLimit.enabled).toBe(false);
    expect(load({ rateLimit: false }).rateLimit.enabled).toBe(false);
    // A metrics port alone turns metrics on, from a flag or the environment.
    expect(load({ metricsPort: "9100" }).metrics).toEqual({ enabled: true, port: 9100 });
    expect(load({}, { NOTULA_METRICS_PORT: "9100" }).metrics.enabled).toBe(true);
    expect(load({}).metrics.enabled).toBe(false);
  });

  it("a bad value names the variable or flag it came from", () => {
    expect(() => load({}, { NOTULA_PORT: "eighty" })).toThrow(/NOTULA_PORT must be a number, got "eighty"/);
    expect(() => load({}, { NOTULA_PORT: "70000" })).toThrow(/^NOTULA_PORT: .*70000/);
    expect(() => load({ port: "1.5" })).toThrow(/^--port: /);
    expect(() => load({}, { NOTULA_RATE_LIMIT: "maybe" })).toThrow(/NOTULA_RATE_LIMIT must be true or false/);
    expect(() => load({}, { NOTULA_ROLE: "boss" })).toThrow(/^NOTULA_ROLE: /);
    expect(() => load({}, { NOTULA_SEARCH_MIN_SIMILARITY: "2" })).toThrow(/NOTULA_SEARCH_MIN_SIMILARITY/);
    // A group's own rules: single sign-on needs all of its parts; TLS both files.
    expect(() => load({}, { NOTULA_OIDC_CLIENT_ID: "notula" })).toThrow(/oidc\.issuer/);
    expect(() => load({ tlsCert: "/c.pem" })).toThrow(/both the certificate and its key/);
  });

  it("every flag of `notula serve` is a setting's, and every setting's flag is on `notula serve`", () => {
    const cmd = serveOptions(new Command());
    const flags = cmd.options.map((o) => o.long);
    const declared = entries(SETTINGS)
      .filter((e) => e.setting.flag)
      .map((e) => e.setting.flag!.split(" ")[0]);
    expect(flags).toEqual(declared);
    // Credentials never get a flag: it would show in the process list.
    expect(entries(SETTINGS).filter((e) => e.setting.secret && e.setting.flag)).toEqual([]);
  });

  it("no two settings read the same variable or flag", () => {
    const names = entries(SETTINGS).flatMap((e) => [...(e.setting.env ?? []), e.setting.flag?.split(" ")[0]]);
    const seen = names.filter(Boolean);
    expect(seen.length).toBe(new Set(seen).size);
  });
});
