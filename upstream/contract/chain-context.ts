import { z } from "zod";
import { RUN_LIMITS } from "./chain-runs";
import { Invention } from "./inventions";
import { Claim, ContextObject } from "./nlp";

/**
 * A chain's context (spec 3 §2.9 Context tab, §3 Context), kept per user and chain on the upstream
 * (docs/decisions/chain-context.md): the invention chosen in the search, the context document (its name and what the
 * generator read from it) and its claims with the user's selection. A run of the chain reads it.
 *
 * GET    /api/v2/nlp/chains/{id}/context → ChainContext (empty when none was kept)
 * PUT    /api/v2/nlp/chains/{id}/context   ChainContext → ChainContext
 * DELETE /api/v2/nlp/chains/{id}/context → 204
 * prompts.read; each user reads and writes only their own; 404 for a chain that does not exist.
 */
const RUN_CHAT_CHARS = RUN_LIMITS.chatMessageChars;

export const CHAIN_CONTEXT_LIMITS = {
  /** Characters of the context as JSON: what a run accepts as its context (RUN_LIMITS.contextChars). */
  chars: 500_000,
  claims: 500,
  /** Messages of the chat's conversation kept (the oldest go first). */
  chat: 200,
} as const;

export const CHAIN_CONTEXT_MESSAGES = {
  tooLarge: `The context document is too long for a chain's context (at most ${CHAIN_CONTEXT_LIMITS.chars.toLocaleString("en-US")} characters once read).`,
  tooManyClaims: `A context document may have at most ${CHAIN_CONTEXT_LIMITS.claims} claims.`,
} as const;

/** A claim of the context document and whether the user chose it (spec 3 §3 Claim: `selected`). */
export const ContextClaim = Claim.extend({ selected: z.boolean() });
export type ContextClaim = z.infer<typeof ContextClaim>;

export const ChainContext = z.object({
  invention: Invention.nullable().default(null),
  /** The context document: its file name and the generator's context object of it. */
  document: z.object({ name: z.string().max(255), context: ContextObject }).nullable().default(null),
  /** The document's claims in claim-number order. */
  claims: z.array(ContextClaim).max(CHAIN_CONTEXT_LIMITS.claims, CHAIN_CONTEXT_MESSAGES.tooManyClaims).default([]),
  /**
   * The conversation with the chain's chat, oldest first: the user's messages (author CURRENT_USER, with the run that
   * answers it) and the answers (author assistant). A chat run is sent it as its history.
   */
  chat: z
    .array(z.object({ author: z.string().max(200), text: z.string().max(RUN_CHAT_CHARS), runId: z.string().max(100).optional() }))
    .max(CHAIN_CONTEXT_LIMITS.chat)
    .default([]),
  updatedAt: z.string().nullable().default(null),
});
export type ChainContext = z.infer<typeof ChainContext>;

export const EMPTY_CHAIN_CONTEXT: ChainContext = { invention: null, document: null, claims: [], chat: [], updatedAt: null };

/**
 * The claims sorted by number with the selection applied (spec 3 §5 claims selection): `single` keeps at most one
 * chosen claim (the first of `chosen` that exists); otherwise every chosen one.
 */
export function claimSelection<C extends { claimNumber: number }>(claims: readonly C[], chosen: readonly number[], single = false) {
  const wanted = new Set(chosen);
  const sorted = [...claims].sort((a, b) => a.claimNumber - b.claimNumber);
  const first = single ? sorted.find((c) => wanted.has(c.claimNumber))?.claimNumber : undefined;
  return sorted.map((c) => ({ ...c, selected: single ? c.claimNumber === first : wanted.has(c.claimNumber) }));
}
