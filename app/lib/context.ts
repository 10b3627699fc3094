/** What server.ts hands every loader and action (see `getLoadContext` there). */
export type UpstreamFetch = (path: string, init?: RequestInit) => Promise<Response>;

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
  }
}

export {};
