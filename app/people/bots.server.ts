import { ScriptExists, ScriptNames, ScriptUploaded, ScriptVersions } from "@contract/bots";
import { formatDateTime } from "~/lib/format";
import type { Api } from "~/lib/upstream.server";
import { botChoices, type BotChoices } from "./bots";

const enc = encodeURIComponent;

/** The bots part of the upstream contract (spec 1 §7). */
export const bots = {
  scripts: (api: Api) => api.get(ScriptNames, "/api/auth/bots/bot/scripts"),
  versions: (api: Api, script: string) => api.get(ScriptVersions, `/api/auth/bots/${enc(script)}/versions`),
  upload: async (api: Api, email: string, form: FormData) => {
    const response = await api.raw("POST", `/api/auth/bots/${enc(email)}/script`, { body: form });
    return ScriptUploaded.parse(await response.json());
  },
  /** Spec 1 §7: a failed existence check silently yields false. */
  exists: async (api: Api, email: string) => {
    try {
      return (await api.get(ScriptExists, `/api/auth/bots/${enc(email)}/script/exists`)).exists;
    } catch {
      return false;
    }
  },
  /** Spec 1 §7: a failed script delete silently yields false. */
  removeScript: async (api: Api, email: string) => {
    try {
      await api.send("DELETE", `/api/auth/bots/${enc(email)}/script`);
      return true;
    } catch {
      return false;
    }
  },
};

/**
 * What the bot fields show for a form state (spec 1 §4 Bot toggle), computed on the server: the script list, the
 * candidate (script named like the email's local part) when no script is chosen yet, and the chosen script's versions.
 */
export async function resolveBotChoices(
  api: Api,
  state: { isBot: boolean; email: string; script: string; scriptKey: string; preselectFirst: boolean },
  timeZone = "UTC",
): Promise<BotChoices> {
  if (!state.isBot) return botChoices.off();
  const scripts = await bots.scripts(api);
  let script = scripts.includes(state.script) ? state.script : "";
  let candidate: string | null = null;
  if (!script) {
    candidate = botChoices.candidateOf(scripts, state.email);
    script = candidate ?? "";
  }
  const versions = (script ? botChoices.offered(await bots.versions(api, script)) : []).map((v) => ({
    ...v,
    date: formatDateTime(v.date, timeZone),
  }));
  let scriptKey = versions.some((v) => v.key === state.scriptKey) ? state.scriptKey : "";
  if (!scriptKey && state.preselectFirst) scriptKey = versions[0]?.key ?? "";
  return { scripts, script, scriptKey, versions, candidate };
}
