/**
 * The one adapter to the docket system (FIP), over HTTP with a bearer key: `GET {base}/api/matters/{externalId}`
 * answers `{ matterNumber, fipId, auditDate }`; `GET {base}/api/matters?changedSince=` lists matters changed since.
 * Governed like the patent office (request time-out, too-many-requests delay) by the same settings.
 */
import { GovernedHttp, MissingSettingError, type OfficeSettings } from "../patent-office/adapter";
import { PermanentJobError } from "../queue/worker";

export type DocketConfig = { baseUrl?: string; apiKey?: string; matterUrlTemplate?: string };
export type DocketMatter = { fipId: string; matterNumber: string; auditDate: string | null };

export const FIP_MESSAGES = {
  missingUrl: "FIP_API_URL is not set: the docket system's API base URL is needed to synchronize matters.",
  missingKey: "FIP_API_KEY is not set: the docket system's API key is needed to synchronize matters.",
  notFound: (fipId: string) => `The docket system has no matter ${fipId}.`,
  badFipId: (fipId: string) => `${fipId} is not a FIP id (expected a prefix, a colon and the matter id).`,
  timeout: (ms: number) => `The docket system did not answer within ${ms} ms.`,
  tooMany: "The docket system answered 429 Too Many Requests again after waiting.",
  status: (status: number) => `The docket system answered ${status}.`,
  unreachable: (why: string) => `The docket system could not be reached: ${why}.`,
} as const;

/** The external matter id: the part of the FIP id after its colon (spec 2 §3). */
export function externalMatterId(fipId: string): string | null {
  const i = fipId.indexOf(":");
  const id = i >= 0 ? fipId.slice(i + 1).trim() : "";
  return id && /^[A-Za-z0-9._-]{1,100}$/.test(id) ? id : null;
}

export class DocketSystem {
  private readonly http: GovernedHttp;

  constructor(
    private readonly config: DocketConfig,
    settings: () => OfficeSettings,
    fetchImpl: typeof fetch = fetch,
  ) {
    this.http = new GovernedHttp("docket system", settings, fetchImpl);
  }

  missing(): string | null {
    if (!this.config.baseUrl) return FIP_MESSAGES.missingUrl;
    if (!this.config.apiKey) return FIP_MESSAGES.missingKey;
    return null;
  }

  /** The external matter page for `fipId` from FIP_MATTER_URL ("{id}" replaced), or null when not configured. */
  matterUrl(fipId: string): string | null {
    const id = externalMatterId(fipId);
    return this.config.matterUrlTemplate && id ? this.config.matterUrlTemplate.replace("{id}", encodeURIComponent(id)) : null;
  }

  private async get(path: string, signal?: AbortSignal): Promise<Response> {
    const missing = this.missing();
    if (missing) throw new MissingSettingError(missing);
    return this.http.request(
      `${this.config.baseUrl!.replace(/\/+$/, "")}${path}`,
      { method: "GET", signal, headers: { accept: "application/json", authorization: `Bearer ${this.config.apiKey!}`, "cache-control": "no-cache" } },
      FIP_MESSAGES,
    );
  }

  async getMatter(fipId: string, signal?: AbortSignal): Promise<DocketMatter> {
    const id = externalMatterId(fipId);
    if (!id) throw new PermanentJobError(FIP_MESSAGES.badFipId(fipId));
    const res = await this.get(`/api/matters/${encodeURIComponent(id)}`, signal);
    if (res.status === 404) {
      await res.body?.cancel();
      throw new PermanentJobError(FIP_MESSAGES.notFound(fipId));
    }
    if (!res.ok) throw new Error(FIP_MESSAGES.status(res.status));
    const m = (await res.json()) as { matterNumber?: unknown; auditDate?: unknown };
    return { fipId, matterNumber: String(m.matterNumber ?? ""), auditDate: typeof m.auditDate === "string" ? m.auditDate : null };
  }

  /** FIP ids of the matters changed since `since` (all when null). */
  async changedMatters(since: string | null, signal?: AbortSignal): Promise<string[]> {
    const res = await this.get(`/api/matters${since ? `?changedSince=${encodeURIComponent(since)}` : ""}`, signal);
    if (!res.ok) throw new Error(FIP_MESSAGES.status(res.status));
    const body = (await res.json()) as { data?: { fipId?: unknown }[] };
    return (body.data ?? []).flatMap((m) => (typeof m.fipId === "string" ? [m.fipId] : [])).slice(0, 10_000);
  }
}
