import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { CHAIN_CONTEXT_LIMITS, ChainContext, claimSelection } from "@contract/chain-context";
import { INVENTION_SEARCH, InventionSearchAnswer } from "@contract/inventions";
import { ParseAnswer } from "@contract/nlp";
import { requireRoute } from "~/auth/guard.server";
import { failureToast } from "~/lib/actions.server";
import { files } from "~/lib/files.server";
import { fileField, readForm, textOf } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import type { Api } from "~/lib/upstream.server";
import { DOCUMENT_UPLOAD } from "~/specifications/sample.server";
import { generator } from "~/specifications/specifications.server";
import { chains } from "../chains.server";
import { CONTEXT } from "./texts";

const contextPath = (chainId: string) => `/api/v2/nlp/chains/${encodeURIComponent(chainId)}/context`;

/** The user's context of a chain on the upstream (docs/decisions/chain-context.md), and the invention search. */
export const chainContext = {
  get: (api: Api, chainId: string) => api.get(ChainContext, contextPath(chainId)),
  put: (api: Api, chainId: string, context: ChainContext) => api.put(ChainContext, contextPath(chainId), context),
  searchInventions: (api: Api, qs: string, from = 0) =>
    api.get(InventionSearchAnswer, "/api/inventions/search", { qs, size: INVENTION_SEARCH.size, from }),
};

/** The Context tab's address: `?tab=context` with the search kept. */
export const contextTabUrl = (chainId: string, q = "", from = 0) => {
  const params = new URLSearchParams({ tab: "context" });
  if (q) params.set("q", q);
  if (from > 0) params.set("from", String(from));
  return `/chains/${encodeURIComponent(chainId)}?${params}`;
};

/**
 * What the Context tab shows: the kept context and, for `?q=`, a page of the invention search. A failed search
 * answers `failed` and no page (spec 3 §5: its errors are silently ignored; the page keeps what it showed).
 */
export async function contextTabData(api: Api, chainId: string, url: URL) {
  const q = (url.searchParams.get("q") ?? "").slice(0, INVENTION_SEARCH.maxText);
  const sent = Number(url.searchParams.get("from"));
  const from = Number.isInteger(sent) && sent > 0 ? Math.min(sent, INVENTION_SEARCH.maxFrom) : 0;
  const [context, search] = await Promise.all([
    chainContext.get(api, chainId),
    q.trim()
      ? chainContext.searchInventions(api, q, from).then(
          (page) => ({ q, page, failed: false }),
          () => ({ q, page: null, failed: true }),
        )
      : Promise.resolve({ q, page: null, failed: false }),
  ]);
  return { context, search };
}
export type ContextTabData = Awaited<ReturnType<typeof contextTabData>>;

/** The claims the user ticked, as numbers (bounded by the claims a context may hold). */
const chosenClaims = (form: FormData) =>
  form
    .getAll("claim")
    .slice(0, CHAIN_CONTEXT_LIMITS.claims)
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0);

/**
 * The Context tab's posts (prompts.read: anyone who may open the chain keeps their own context): `invention` (choose
 * one found by the search, or `invention-clear`), `upload` (a .docx: stored, parsed for claims and read by the
 * generator; the file itself is not kept), `document-clear`, `claims` (the ticked claims). Each answers with a
 * redirect back to the tab, a refusal with the error toast.
 */
export async function contextAction(args: ActionFunctionArgs) {
  const { api } = await requireRoute(args);
  const chainId = args.params.id ?? "";
  await chains.getOr404(api, chainId);
  const form = await readForm(args.request);
  const back = contextTabUrl(chainId, textOf(form, "q"), Number(textOf(form, "from")) || 0);
  const flash = toasts(args.context);
  const context = await chainContext.get(api, chainId);
  const intent = textOf(form, "intent");
  try {
    if (intent === "invention") {
      const id = textOf(form, "invention");
      const found = id ? (await chainContext.searchInventions(api, id)).data.find((i) => i.id === id) : undefined;
      if (!found) return flash.redirectWithError(back, { message: CONTEXT.inventionGone });
      await chainContext.put(api, chainId, { ...context, invention: found });
    } else if (intent === "invention-clear") {
      await chainContext.put(api, chainId, { ...context, invention: null });
    } else if (intent === "document-clear") {
      await chainContext.put(api, chainId, { ...context, document: null, claims: [] });
    } else if (intent === "claims") {
      await chainContext.put(api, chainId, { ...context, claims: claimSelection(context.claims, chosenClaims(form)) });
    } else if (intent === "upload") {
      // Spec 3 §5: a chain's context document is a .docx, as the specification workbench's.
      const upload = fileField(form, "document", DOCUMENT_UPLOAD);
      if (upload.error !== null) return flash.redirectWithError(back, { message: CONTEXT.contextFailed, description: upload.error });
      await chainContext.put(api, chainId, { ...context, ...(await readDocument(api, upload.file)) });
    } else {
      return redirect(back);
    }
  } catch (error) {
    return flash.redirectWithError(back, failureToast(CONTEXT.contextFailed, error));
  }
  return flash.redirectWithSuccess(back, CONTEXT.saved);
}

/** The document's claims (parser/parse, sections [claims]) and context object (generator/contextObject). */
async function readDocument(api: Api, file: File): Promise<Pick<ChainContext, "document" | "claims">> {
  const stored = await files.upload(api, file);
  try {
    const document = { fileId: stored.id };
    const [parsed, contexts] = await Promise.all([
      api.post(ParseAnswer, "/api/nlp/api/v1/parser/parse", { document, sections: ["claims"] }),
      generator.contextObject(api, [], document),
    ]);
    const name = Object.keys(contexts)[0] ?? file.name;
    const read = contexts[name];
    if (!read) throw new Error("The generator answered no context object.");
    const claims = claimSelection(parsed.claims.claims, []);
    return { document: { name, context: read }, claims };
  } finally {
    // What a run needs is kept in the context; the upload itself is not needed again.
    await files.discard(api, stored.id);
  }
}
