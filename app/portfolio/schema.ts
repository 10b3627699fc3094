import { z } from "zod";
import {
  APPLICATION_LIMITS as L,
  ApplicationId,
  ProductInput,
  TagName,
  PORTFOLIO_MESSAGES,
  TagScore,
} from "@contract/portfolio";
import { PORTFOLIO } from "./texts";

/**
 * The portfolio's form schemas, shared by the browser (conform, instant feedback) and the actions (the authority),
 * built from the contract's (spec 2 §5). Numbers and checkboxes arrive as text: conform's zod parser coerces them.
 */

/** Add tag: non-empty, no comma or semicolon, not already on the application (`existing`); score default 0. */
export const addTagSchema = (existing: readonly string[]) =>
  z.object({
    applicationId: ApplicationId,
    tag: TagName.refine((name) => !existing.includes(name), PORTFOLIO_MESSAGES.tagExists),
    score: TagScore,
  });

/** A product row of the edit-fields form: every §3 field; the name required (a row without one is a mistake). */
const ProductForm = ProductInput.extend({
  name: z
    .string({ required_error: PORTFOLIO.validation.productNameRequired })
    .trim()
    .min(1, PORTFOLIO.validation.productNameRequired)
    .pipe(ProductInput.shape.name),
});

const score = (label: string) =>
  z.number({ invalid_type_error: `${label} must be a number` }).finite(`${label} must be a number`).optional();

/** Edit fields: aiSummary (HTML), broadScore, detectableScore (empty: none), products (at most 100). */
export const EditFieldsSchema = z.object({
  applicationId: ApplicationId,
  aiSummary: z
    .string()
    .max(L.aiSummary, `AI summary must be at most ${L.aiSummary.toLocaleString("en-US")} characters.`)
    .optional(),
  broadScore: score("Broad score"),
  detectableScore: score("Detectable score"),
  products: z.array(ProductForm).max(L.products, PORTFOLIO.validation.tooManyProducts).optional(),
});

/** The largest JSON text the New Application editor takes (the page body limit is 1 MB). */
const MAX_APPLICATION_JSON = 900_000;

const A = PORTFOLIO.add;

/**
 * New Application: the text must parse as JSON and hold a non-empty string id (spec 2 §5). Each problem shows the
 * spec's failure text and then what is wrong. The rest of the object is the upstream's to check (its 400 names the
 * field).
 */
export const NewApplicationSchema = z.object({
  application: z
    .string({ required_error: PORTFOLIO.validation.createFailed })
    .max(MAX_APPLICATION_JSON, A.tooLong(MAX_APPLICATION_JSON))
    .superRefine((text, ctx) => {
      const problem = applicationJsonProblem(text);
      if (problem) {
        ctx.addIssue({ code: "custom", message: PORTFOLIO.validation.createFailed });
        ctx.addIssue({ code: "custom", message: problem });
      }
    }),
});

/** Why `text` is not an application to create, or null. */
export function applicationJsonProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return A.notJson(error instanceof Error ? error.message : String(error));
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return A.notObject;
  const id = (value as { id?: unknown }).id;
  if (typeof id !== "string" || !id.trim()) return A.needsId;
  return null;
}
