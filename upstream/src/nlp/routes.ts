import { Hono, type MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { can } from "../../contract/permissions";
import { FILE_MESSAGES, type FileRef } from "../../contract/files";
import {
  ContextObjectBody,
  GenerateBody,
  ParseBody,
  MAX_DOCUMENT_BYTES,
  type ContextObjectAnswer,
  type DocumentInput,
  type Documentation,
  type GenerateAnswer,
  type ParseAnswer,
} from "../../contract/nlp";
import type { UploadsStore } from "../files/store";
import { HttpError, badRequest, notFound, validate, type AppContext, type AppEnv } from "../lib/http";
import { buildContext } from "./context";
import { DOCUMENT_MESSAGES, DocumentError, decodeBase64, readDocx } from "./docx";
import { TemplateError, loadDocument, render, selectClaims, toParagraphs, usesClaims } from "./generator";
import { CONTEXT_FIELDS, SAMPLE_CONTEXT, helperDocumentation } from "./helpers";

/** Documents travel as base64 inside JSON: a 10 MB file is about 13.4 MB of text. */
const MAX_NLP_BODY = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 512 * 1024;

/** Specifications use the generator; so will prompt chains (their context document). */
const NLP_PERMISSIONS = ["specifications.read", "prompts.read"] as const;

const requireGeneratorUser = createMiddleware<AppEnv>(async (c, next) => {
  const perms = c.get("actor").permissions;
  if (!NLP_PERMISSIONS.some((p) => can(perms, p))) {
    throw new HttpError(403, `You do not have the permission ${NLP_PERMISSIONS[0]}.`);
  }
  await next();
});

async function body(c: AppContext): Promise<unknown> {
  const length = Number(c.req.header("content-length") ?? "0");
  if (length > MAX_NLP_BODY) throw new HttpError(413, "Request body is too large.");
  const text = await c.req.text();
  if (text.length > MAX_NLP_BODY) throw new HttpError(413, "Request body is too large.");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest("Request body must be JSON");
  }
}

/**
 * Bad documents and bad templates are the caller's fault: 400 with a clear message (413 for a document too large once
 * inflated, e.g. a zip bomb), never a 500.
 */
async function clearly<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DocumentError) throw new HttpError(error.status, error.message);
    if (error instanceof TemplateError) throw new HttpError(error.status, error.message);
    throw error;
  }
}

/** /api/nlp/api/v1/* — the document parser and the template generator. */
export function nlpRoutes(deps: { requireAuth: MiddlewareHandler<AppEnv>; uploads: UploadsStore }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", deps.requireAuth, requireGeneratorUser);

  /** The name and bytes of an upload of the caller (`{ fileId }`); 404 when it is not theirs or has expired. */
  const upload = async (c: AppContext, ref: FileRef) => {
    const found = await deps.uploads.read(ref.fileId, c.get("actor").id, MAX_DOCUMENT_BYTES);
    if (!found) throw notFound(FILE_MESSAGES.notFound);
    return { name: found.file.name, bytes: found.bytes };
  };
  /** The document as the generator reads it: sent as base64 or named by `fileId`. */
  const documentOf = (c: AppContext, document: DocumentInput) =>
    "fileId" in document ? upload(c, document) : Promise.resolve(document);

  app.post("/parser/parse", async (c) => {
    const input = validate(ParseBody, await body(c));
    const answer = await clearly(async () => {
      const { document } = input;
      const bytes =
        typeof document === "string" ? decodeBase64(document, MAX_DOCUMENT_BYTES) : (await upload(c, document)).bytes;
      const doc = await readDocx(bytes);
      const claims = buildContext("document.docx", doc).claims;
      if (input.sections.includes("claims") && claims.length === 0) throw new DocumentError(DOCUMENT_MESSAGES.noClaims);
      return { claims: { claims } } satisfies ParseAnswer;
    });
    return c.json(answer);
  });

  app.post("/generator/contextObject", async (c) => {
    const input = validate(ContextObjectBody, await body(c));
    const document = await documentOf(c, input.document);
    const answer = await clearly(async () => {
      const context = await loadDocument(document);
      if (context.claims.length === 0 && input.templates.some((t) => usesClaims(t.body))) {
        throw new DocumentError(DOCUMENT_MESSAGES.noClaims);
      }
      const chosen = input.templates.find((t) => t.claims?.length)?.claims;
      return { [document.name]: selectClaims(context, chosen) } satisfies ContextObjectAnswer;
    });
    return c.json(answer);
  });

  app.post("/generator/generate", async (c) => {
    const input = validate(GenerateBody, await body(c));
    const document = await documentOf(c, input.document);
    const answer = await clearly(async () => {
      const context = await loadDocument(document);
      for (const t of input.templates) {
        if (context.claims.length === 0 && usesClaims(t.body)) throw new DocumentError(DOCUMENT_MESSAGES.noClaims);
      }
      // One job for all the templates: the document is sent to the worker once (the contexts share its arrays).
      const texts = await render(input.templates.map((t) => ({ body: t.body, context: selectClaims(context, t.claims) })));
      const paragraphs = input.templates.flatMap((t, i) => toParagraphs(t.name, texts[i]!));
      return { paragraphs } satisfies GenerateAnswer;
    });
    return c.json(answer);
  });

  app.get("/generator/documentation", (c) =>
    c.json({
      helperFunctions: helperDocumentation(),
      contextObject: {
        description:
          "A template is rendered against the context object of the uploaded Word document: its title, paragraphs, sections by heading and claims. The sample below is what every helper example renders against.",
        fields: CONTEXT_FIELDS.map((f) => ({ ...f })),
        sample: SAMPLE_CONTEXT,
      },
    } satisfies Documentation),
  );
  return app;
}
