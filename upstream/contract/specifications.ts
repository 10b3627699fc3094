import { z } from "zod";
import { Audit, FIELD_MESSAGES, LIMIT_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, limitText, pageOf } from "./common";
import { defineResource } from "./resource";

/** Specification types (spec 1 §9), in the list filter's order. */
export const SPECIFICATION_TYPES = ["abstract", "flowchart", "summary", "claims", "boilerplate"] as const;
export const SpecificationType = z.enum(SPECIFICATION_TYPES);
export type SpecificationType = z.infer<typeof SpecificationType>;

/** Minimum name length (spec 1 §9). */
const MIN_SPECIFICATION_NAME = 4;

/** The validation texts of spec 1 §5, used by the upstream's 400 messages and the back office's form. */
export const SPECIFICATION_MESSAGES = {
  nameRequired: FIELD_MESSAGES.nameRequired,
  nameShort: "Name must be at least 4 characters.",
  typeRequired: FIELD_MESSAGES.typeRequired,
  templateRequired: "Template content is required",
} as const;

/** A specification (spec 1 §3). `template` is the Handlebars text (the detail screen's templateContent). */
export const Specification = z
  .object({
    id: z.string(),
    name: z.string(),
    type: SpecificationType,
    isPublic: z.boolean(),
    description: z.string(),
    tags: z.array(z.string()),
    template: z.string(),
  })
  .merge(Audit);
export type Specification = z.infer<typeof Specification>;

/** GET /api/specifications/?q=&sort=&page=&pageSize=&types=abstract,claims */
export const SpecificationPage = pageOf(Specification);
export type SpecificationPage = z.infer<typeof SpecificationPage>;

const M = SPECIFICATION_MESSAGES;
export const SpecificationFields = {
  name: limitText(
    z.string({ required_error: M.nameRequired }).trim().min(1, M.nameRequired).min(MIN_SPECIFICATION_NAME, M.nameShort),
    "Name",
    TEXT_LIMITS.name,
  ),
  type: z.enum(SPECIFICATION_TYPES, { required_error: M.typeRequired, invalid_type_error: M.typeRequired }),
  isPublic: z.boolean(),
  description: limitText(z.string(), "Description", TEXT_LIMITS.description, { multiline: true }),
  tags: boundedList(limitText(z.string().trim().min(1), "Tag", TEXT_LIMITS.tag), "tags", LIST_LIMITS.tags),
  template: limitText(
    z.string({ required_error: M.templateRequired }).min(1, M.templateRequired),
    "Template content",
    TEXT_LIMITS.template,
    { multiline: true },
  ),
};

/** POST /api/specifications/ */
export const SpecificationCreate = z.object({
  name: SpecificationFields.name,
  type: SpecificationFields.type,
  isPublic: SpecificationFields.isPublic.optional().default(false),
  description: SpecificationFields.description.optional().default(""),
  tags: SpecificationFields.tags.optional().default([]),
  template: SpecificationFields.template,
});
export type SpecificationCreate = z.input<typeof SpecificationCreate>;

/** PATCH /api/specifications/{id}: only the fields sent change. */
const SpecificationUpdate = z
  .object({
    name: SpecificationFields.name,
    type: SpecificationFields.type,
    isPublic: SpecificationFields.isPublic,
    description: SpecificationFields.description,
    tags: SpecificationFields.tags,
    template: SpecificationFields.template,
  })
  .partial();
type SpecificationUpdate = z.input<typeof SpecificationUpdate>;

/**
 * /api/specifications (spec 1 §7): reading needs specifications.read; creating, changing and deleting
 * specifications.write. The list takes `?types=abstract,claims` (absent: every type; empty: none).
 */
export const SpecificationsResource = defineResource({
  name: "specifications",
  path: "/api/specifications",
  item: Specification,
  create: SpecificationCreate,
  update: SpecificationUpdate,
  permissions: { read: "specifications.read", create: "specifications", write: "specifications" },
  notFound: "Specification not found.",
});

/** POST /api/specifications/params */
export const ParamsBody = z.object({
  template: z.string().max(TEXT_LIMITS.template, LIMIT_MESSAGES.tooLong("Template content", TEXT_LIMITS.template)),
});
/** The top-level context names the template reads (helpers, `this` and block-local names left out), sorted. */
export const ParamsAnswer = z.object({ params: z.array(z.string()) });
export type ParamsAnswer = z.infer<typeof ParamsAnswer>;

/** GET /api/suggest/tags?q= — tags in use, best matches first (at most 20). */
export const TagSuggestions = z.array(z.string());
