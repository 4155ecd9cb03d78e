// Builds the service's object graph over a data dir: database, repositories,
// services. Shared by `notula serve` and the `notula admin` commands.
import path from "node:path";
import { createRepositories } from "./db/repos/index.js";
import { openDatabase } from "./db/open.js";
import { createServices } from "./services/index.js";
import { loadSecretBox } from "./services/secret-box.js";

export function openRuntime(dataDir: string, options: { allowPrivateWebhooks?: boolean } = {}) {
  const database = openDatabase(path.join(dataDir, "notula.db"));
  const repos = createRepositories(database.db);
  const services = createServices(repos, {
    secrets: loadSecretBox(dataDir),
    allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
  });
  return { database, repos, services, close: () => database.close() };
}

export type Runtime = ReturnType<typeof openRuntime>;
