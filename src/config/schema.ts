// The one typed configuration of the service, made from the settings table
// (config/settings.ts). Nothing else reads process.env.
import type { z } from "zod";
import { schemaOf, type ConfigOf } from "./setting.js";
import { SETTINGS } from "./settings.js";

export type Config = ConfigOf<typeof SETTINGS>;

export const configSchema = schemaOf(SETTINGS) as z.ZodType<Config>;

/** The configuration once the server knows its address: publicUrl always set, nothing changes after. */
export type ResolvedConfig = DeepReadonly<Config & { publicUrl: string }>;

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
