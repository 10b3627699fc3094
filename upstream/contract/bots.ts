import { z } from "zod";

/** GET /api/auth/bots/bot/scripts — the script names, sorted. */
export const ScriptNames = z.array(z.string());

/** One stored version of a bot script (spec 1 §3): its Key (path) and Metadata (message and date). */
export const ScriptVersion = z.object({
  Key: z.string(),
  Metadata: z.object({ message: z.string(), date: z.string() }),
});
export type ScriptVersion = z.infer<typeof ScriptVersion>;

/** GET /api/auth/bots/{script}/versions — newest first. */
export const ScriptVersions = z.array(ScriptVersion);

/** GET /api/auth/bots/{email}/script/exists */
export const ScriptExists = z.object({ exists: z.boolean() });

/** Answer of POST /api/auth/bots/{email}/script (multipart: file, optional message and script). */
export const ScriptUploaded = ScriptVersion.extend({ script: z.string(), version: z.number().int() });
export type ScriptUploaded = z.infer<typeof ScriptUploaded>;

/** Script names: letters, digits, hyphen, dot, underscore; 1–100 characters, not starting with a dot. */
export const SCRIPT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/** A version key is `{script}/v{version}/{file name}`. */
export function scriptKeyOf(script: string, version: number, fileName: string): string {
  return `${script}/v${version}/${fileName}`;
}

/** The version number in a key, or null (spec 1 §3: "The version number is parsed from the Key"). */
export function versionOf(key: string): number | null {
  const m = /^[^/]+\/v(\d+)\//.exec(key);
  return m ? Number(m[1]) : null;
}

/** The script name of a key: its first path segment (spec 1 §3). */
export function scriptOf(key: string | null | undefined): string | null {
  if (!key) return null;
  const first = key.split("/")[0];
  return first ? first : null;
}

/** Only keys ending in "js" are offered (spec 1 §3). */
export const isOffered = (key: string) => key.endsWith("js");

/** Upload limit of one script file. */
export const MAX_SCRIPT_BYTES = 2 * 1024 * 1024;
