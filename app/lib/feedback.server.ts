import { FEEDBACK_PATH } from "@contract/feedback";
import { isUpstreamError, type Api } from "./upstream.server";

/** The feedback board's URL, cached for a minute: the shell asks on every page whether to show the help button. */
let cache: { at: number; url: string | null } | null = null;
const TTL_MS = 60_000;

export async function feedbackUrl(api: Api): Promise<string | null> {
  if (cache && Date.now() - cache.at < TTL_MS) return cache.url;
  let url: string | null = null;
  try {
    const text = (await api.text(FEEDBACK_PATH)).trim();
    url = /^https?:\/\//i.test(text) ? text : null;
  } catch (error) {
    if (!isUpstreamError(error, 404)) throw error;
  }
  cache = { at: Date.now(), url };
  return url;
}

export async function feedbackAvailable(api: Api): Promise<boolean> {
  try {
    return (await feedbackUrl(api)) !== null;
  } catch {
    return false;
  }
}
