/**
 * The one adapter to the patent office, over HTTP, shaped like the USPTO Open Data Portal API: the key in
 * `X-API-KEY`, `GET {base}/api/v1/patent/applications/{number}` and `POST {base}/api/v1/patent/applications/search`
 * answering `{ count, patentFileWrapperDataBag: [{ applicationNumberText, applicationMetaData, ... }] }`.
 * The settings of the USPTO configuration govern it (docs/decisions/patent-office-adapter.md): every request is
 * aborted after `requestTimeoutMs`; a 429 stops every request for `tooManyRequestsDelayMs` (or Retry-After when
 * longer) and is retried up to 3 times.
 */
import { PermanentJobError } from "../queue/worker";

export type OfficeConfig = { baseUrl?: string; apiKey?: string };
export type OfficeSettings = { requestTimeoutMs: number; tooManyRequestsDelayMs: number };

export type OfficeApplication = {
  applicationNumber: string;
  title: string;
  abstract: string;
  claims: string;
  customerNumber: string | null;
  changedAt: string | null;
};

/** Thrown when a setting the adapter needs is missing; names it. */
export class MissingSettingError extends PermanentJobError {}

/** The office has no such application (404): retrying will not make it exist. */
export class NotAtOfficeError extends PermanentJobError {}

export const OFFICE_MESSAGES = {
  missingUrl: "USPTO_API_URL is not set: the patent office's API base URL is needed to download applications.",
  missingKey: "USPTO_API_KEY is not set: the patent office's API key is needed to download applications.",
  notFound: (id: string) => `The patent office has no application ${id}.`,
  timeout: (ms: number) => `The patent office did not answer within ${ms} ms.`,
  tooMany: "The patent office answered 429 Too Many Requests again after waiting.",
  status: (status: number, body: string) => `The patent office answered ${status}${body ? `: ${body.slice(0, 200)}` : ""}.`,
  unreachable: (why: string) => `The patent office could not be reached: ${why}.`,
} as const;

type Bag = {
  applicationNumberText?: string;
  lastIngestionDateTime?: string;
  applicationMetaData?: { inventionTitle?: string; customerNumber?: string | number; abstractText?: string };
  claimBag?: { claimText?: string }[];
};

const MAX_429_RETRIES = 3;

/** Any HTTP JSON API governed by a timeout and a shared too-many-requests pause (also used by the FIP adapter). */
export class GovernedHttp {
  private pausedUntil = 0;

  constructor(
    private readonly name: string,
    private readonly settings: () => OfficeSettings,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep,
  ) {}

  async request(url: string, init: RequestInit & { signal?: AbortSignal }, messages: { timeout(ms: number): string; tooMany: string; unreachable(why: string): string }): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) await this.sleep(wait, init.signal ?? undefined);
      const { requestTimeoutMs, tooManyRequestsDelayMs } = this.settings();
      const timeout = AbortSignal.timeout(requestTimeoutMs);
      const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
      let res: Response;
      try {
        res = await this.fetchImpl(url, { ...init, signal });
      } catch (error) {
        if (timeout.aborted) throw new Error(messages.timeout(requestTimeoutMs));
        if (init.signal?.aborted) throw error;
        throw new Error(messages.unreachable((error as Error).cause ? String((error as Error).cause) : (error as Error).message));
      }
      if (res.status !== 429) return res;
      await res.body?.cancel();
      if (attempt >= MAX_429_RETRIES) throw new Error(messages.tooMany);
      const retryAfter = Number(res.headers.get("retry-after")) * 1000;
      this.pausedUntil = Date.now() + Math.max(tooManyRequestsDelayMs, Number.isFinite(retryAfter) ? retryAfter : 0);
    }
  }

  get label() {
    return this.name;
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function toApplication(bag: Bag): OfficeApplication {
  const meta = bag.applicationMetaData ?? {};
  return {
    applicationNumber: String(bag.applicationNumberText ?? ""),
    title: String(meta.inventionTitle ?? ""),
    abstract: String(meta.abstractText ?? ""),
    claims: (bag.claimBag ?? []).map((c) => String(c.claimText ?? "")).join("\n\n"),
    customerNumber: meta.customerNumber === undefined || meta.customerNumber === null ? null : String(meta.customerNumber),
    changedAt: bag.lastIngestionDateTime ?? null,
  };
}

export class PatentOffice {
  private readonly http: GovernedHttp;

  constructor(
    private readonly config: OfficeConfig,
    settings: () => OfficeSettings,
    fetchImpl: typeof fetch = fetch,
  ) {
    this.http = new GovernedHttp("patent office", settings, fetchImpl);
  }

  /** The first missing setting's message, or null when configured. */
  missing(): string | null {
    if (!this.config.baseUrl) return OFFICE_MESSAGES.missingUrl;
    if (!this.config.apiKey) return OFFICE_MESSAGES.missingKey;
    return null;
  }

  private async call(path: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const missing = this.missing();
    if (missing) throw new MissingSettingError(missing);
    const url = `${this.config.baseUrl!.replace(/\/+$/, "")}${path}`;
    return this.http.request(
      url,
      { ...init, signal, headers: { accept: "application/json", "x-api-key": this.config.apiKey!, ...(init.headers as Record<string, string>) } },
      OFFICE_MESSAGES,
    );
  }

  /** The application's record; a 404 is a PermanentJobError (retrying will not make it exist). */
  async getApplication(id: string, signal?: AbortSignal): Promise<OfficeApplication> {
    const number = id.replace(/[^A-Za-z0-9]/g, "");
    const res = await this.call(`/api/v1/patent/applications/${encodeURIComponent(number)}`, { method: "GET" }, signal);
    if (res.status === 404) {
      await res.body?.cancel();
      throw new NotAtOfficeError(OFFICE_MESSAGES.notFound(id));
    }
    if (!res.ok) throw new Error(OFFICE_MESSAGES.status(res.status, await res.text()));
    const body = (await res.json()) as { patentFileWrapperDataBag?: Bag[] };
    const bag = body.patentFileWrapperDataBag?.[0];
    if (!bag) throw new NotAtOfficeError(OFFICE_MESSAGES.notFound(id));
    return toApplication(bag);
  }

  /** Applications of `customerNumber` changed since `since` (ISO date-time; all when null), every page. */
  async searchByCustomer(customerNumber: string, since: string | null, signal?: AbortSignal): Promise<OfficeApplication[]> {
    const out: OfficeApplication[] = [];
    const limit = 100;
    for (let offset = 0; ; offset += limit) {
      const body = {
        q: `applicationMetaData.customerNumber:${customerNumber}`,
        rangeFilters: since ? [{ field: "lastIngestionDateTime", valueFrom: since, valueTo: "*" }] : [],
        pagination: { offset, limit },
      };
      const res = await this.call(
        "/api/v1/patent/applications/search",
        { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } },
        signal,
      );
      if (res.status === 404) {
        await res.body?.cancel();
        return out; // the ODP answers 404 when nothing matches
      }
      if (!res.ok) throw new Error(OFFICE_MESSAGES.status(res.status, await res.text()));
      const page = (await res.json()) as { count?: number; patentFileWrapperDataBag?: Bag[] };
      const bags = page.patentFileWrapperDataBag ?? [];
      out.push(...bags.map(toApplication));
      if (bags.length < limit || out.length >= (page.count ?? 0) || out.length >= 10_000) return out;
    }
  }
}
