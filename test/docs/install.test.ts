// An honest install: the Node.js range notula declares is one every installed package
// supports (npm warns EBADENGINE otherwise, and a package that needs a newer Node may
// crash at run time), the README states the same minimum, and every package with an
// install script is named in allowScripts, so npm runs the scripts notula depends on.
import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const installed = Object.entries(lock.packages as Record<string, any>).filter(([p]) => p.startsWith("node_modules/"));
const nameOf = (p: string) => p.slice(p.lastIndexOf("node_modules/") + "node_modules/".length);

describe("the install", () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it("declares a Node.js range every installed package supports", () => {
    const refusing = installed
      .filter(([, v]) => v.engines?.node && !semver.satisfies(oldest, v.engines.node))
      .map(([p, v]) => `${nameOf(p)}@${v.version} needs node ${v.engines.node}`);
    expect(refusing).toEqual([]);
  });

  it("says in the README the Node.js it declares", () => {
    expect(readFileSync("README.md", "utf8")).toContain(`Node.js ${oldest} or newer`);
  });

  it("approves the install script of every package that has one", () => {
    const approved = new Set(Object.keys(pkg.allowScripts ?? {}));
    const unapproved = installed.filter(([p, v]) => v.hasInstallScript && !approved.has(nameOf(p))).map(([p]) => p);
    expect(unapproved).toEqual([]);
  });

  it("says in the README what each dependency is for", () => {
    const readme = readFileSync("README.md", "utf8");
    const named = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies })
      .filter((n) => !n.startsWith("@types/"))
      .filter((n) => !readme.includes(n));
    expect(named).toEqual([]);
  });
});
