import type { Command } from "commander";

export interface DataDirFlags {
  dataDir?: string;
}

export const dataDirOption = (cmd: Command) => cmd.option("--data-dir <dir>", "data dir (NOTULA_DATA_DIR)");

/** Where the models are kept: under the data dir (--data-dir, NOTULA_DATA_DIR, else the default). */
export async function dataDirOf(flags: DataDirFlags) {
  const { defaultDataDir } = await import("../../../config/load.js");
  return flags.dataDir ?? defaultDataDir();
}
