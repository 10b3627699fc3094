// The few parts of oidc-provider (v9, untyped JavaScript) the test OpenID provider uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type ClaimsResult = Record<string, unknown> & { sub: string };
  export type Account = { accountId: string; claims: (use: string, scope: string) => Promise<ClaimsResult> };
  export type Configuration = {
    clients?: Array<Record<string, unknown>>;
    pkce?: { required?: () => boolean };
    claims?: Record<string, string[]>;
    scopes?: string[];
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    features?: Record<string, { enabled: boolean }>;
    interactions?: { url: (ctx: unknown, interaction: { uid: string }) => string };
    cookies?: { keys: string[] };
    ttl?: Record<string, number>;
    [key: string]: unknown;
  };
  export type InteractionDetails = { uid: string; prompt: { name: string }; params: Record<string, string> };
  export class GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: new (properties: { accountId: string; clientId: string }) => GrantInstance;
    on(event: string, listener: (...args: unknown[]) => void): void;
  }
}
