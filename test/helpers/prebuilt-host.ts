// A local host of prebuilt native modules, in the shape prebuild-install downloads from a
// package's releases: what a user's `npm install` fetches instead of compiling. Its
// files are the modules this project's own install built, for this Node's ABI. A
// package installed at another version finds nothing here and is compiled, as it would
// be for a user whose platform has no prebuilt file.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { create } from "tar";
import { ROOT } from "./server.js";

export interface PrebuiltHost {
  /** The npm configuration (as environment variables) that points each package's prebuild-install here. */
  env: Record<string, string>;
  /** The files asked for, and whether each was served. */
  requests: { url: string; served: boolean }[];
  close(): Promise<void>;
}

/** Serves `packages` (each with its module under build/Release) as prebuild-install names them. */
export async function startPrebuiltHost(packages: { name: string; module: string }[]): Promise<PrebuiltHost> {
  const files = new Map<string, Buffer>();
  for (const { name, module } of packages) {
    const dir = path.join(ROOT, "node_modules", name);
    const built = path.join(dir, "build", "Release", module);
    if (!fs.existsSync(built)) continue;
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    const file = `${name}-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    const chunks: Buffer[] = [];
    for await (const chunk of create({ gzip: true, cwd: dir, portable: true }, [`build/Release/${module}`]))
      chunks.push(Buffer.from(chunk));
    files.set(`/${name}/v${version}/${file}`, Buffer.concat(chunks));
  }
  const requests: PrebuiltHost["requests"] = [];
  const server = http.createServer((req, res) => {
    const body = files.get(req.url ?? "");
    requests.push({ url: req.url ?? "", served: Boolean(body) });
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/gzip", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = Object.fromEntries(
    packages.map(({ name }) => [`npm_config_${name.replace(/[^a-zA-Z0-9]/g, "_")}_binary_host`, `${base}/${name}`]),
  );
  return {
    env,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
