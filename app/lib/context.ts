import type { DirectUpstream } from "../../upstream/src/lib/direct";

/**
 * What server.ts hands every loader and action (see `getLoadContext` there). `direct`: the embedded upstream's
 * in-process path (docs/decisions/in-process-upstream.md), which `createApi` prefers; absent with UPSTREAM_URL.
 */
export type UpstreamFetch = ((path: string, init?: RequestInit) => Promise<Response>) & { direct?: DirectUpstream };

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Calls the upstream: the embedded one in-process, or UPSTREAM_URL over HTTP. `path` starts with /api/. */
    upstream: UpstreamFetch;
    /** The Content-Security-Policy nonce of this response. */
    nonce: string;
    /** The browser's address, as Express sees it (after TRUST_PROXY). */
    clientAddress: string;
    /** The secrets that sign the session and flash cookies, newest first. */
    sessionSecrets: string[];
    /** Whether cookies carry the Secure flag. */
    cookieSecure: boolean;
    /**
     * Set by app/entry.server.tsx: the document it answered and that answer's bytes, which server/remix-adapter.ts
     * writes as they are when Remix sends that very response on (not a HEAD's or an error's replacement).
     */
    renderedDocument?: { response: Response; body: Buffer };
  }
}

export {};
