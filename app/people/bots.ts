import { isOffered, versionOf, type ScriptVersion } from "@contract/bots";

/** One version as the Version picker shows it. */
export type VersionOption = { key: string; version: number | null; message: string; date: string };

/** The bot fields' state: scripts offered, the chosen script and version key, their versions, the candidate found. */
export type BotChoices = {
  scripts: string[];
  script: string;
  scriptKey: string;
  versions: VersionOption[];
  /** The script auto-selected from the email's local part (shown with the hint), if any. */
  candidate: string | null;
};

const localPart = (email: string) => {
  const at = email.indexOf("@");
  return (at >= 0 ? email.slice(0, at) : email).trim().toLowerCase();
};

export const botChoices = {
  off: (): BotChoices => ({ scripts: [], script: "", scriptKey: "", versions: [], candidate: null }),
  /** The script whose name equals the email's local part, case-insensitive (spec 1 §4). */
  candidateOf: (scripts: readonly string[], email: string): string | null => {
    const local = localPart(email);
    return local ? (scripts.find((s) => s.toLowerCase() === local) ?? null) : null;
  },
  /** Only keys ending in "js"; version parsed from the key (spec 1 §3). Newest first, as the upstream answers. */
  offered: (versions: readonly ScriptVersion[]): VersionOption[] =>
    versions
      .filter((v) => isOffered(v.Key))
      .map((v) => ({ key: v.Key, version: versionOf(v.Key), message: v.Metadata.message, date: v.Metadata.date })),
};

export type BotState = BotChoices & { isBot: boolean };

/** The bot state an action answered with (the no-JavaScript round trip), if any. */
export function botStateOf(data: unknown): BotState | null {
  if (!data || typeof data !== "object" || !("bot" in data)) return null;
  const bot = (data as { bot: unknown }).bot;
  return bot && typeof bot === "object" && "scripts" in bot ? (bot as BotState) : null;
}
