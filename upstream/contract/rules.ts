import { z } from "zod";
import { Audit, FIELD_MESSAGES, TEXT_LIMITS, boundedList, limitText } from "./common";
import { MEASURES } from "./deadlines";
import { defineResource } from "./resource";

/**
 * Docketing rules (spec 2 §2 Rules names the routes, §7 the CRUD and clone calls; the fields are ours:
 * docs/decisions/docketing-rules.md): a triggering event in a jurisdiction and the deadlines it starts.
 */

export const RULE_LIMITS = {
  /** A jurisdiction: "US", "EP", "PCT", "US (design)". */
  jurisdiction: 100,
  /** The triggering event: "Office Action mailed". */
  trigger: 200,
  /** A deadline's label. */
  label: 200,
  /** Deadlines of one rule. */
  deadlines: 20,
  /** The largest amount of a period (1,000 days is under three years; 1,000 years is absurd but harmless). */
  amount: 1_000,
  /** Extensions of one deadline. */
  extensions: 12,
} as const;

export const RULE_MESSAGES = {
  nameRequired: FIELD_MESSAGES.nameRequired,
  triggerRequired: "Triggering event is required",
  labelRequired: "Label is required",
  deadlinesRequired: "Add at least one deadline.",
  amount: `Enter a whole number from 0 to ${RULE_LIMITS.amount.toLocaleString("en-US")}.`,
  extensions: `Enter a whole number of extensions from 0 to ${RULE_LIMITS.extensions}.`,
  measure: "Choose a measure.",
} as const;

const M = RULE_MESSAGES;
const amount = z
  .number({ required_error: M.amount, invalid_type_error: M.amount })
  .int(M.amount)
  .min(0, M.amount)
  .max(RULE_LIMITS.amount, M.amount);
const measure = z.enum(MEASURES, { required_error: M.measure, invalid_type_error: M.measure });

const Extension = z.object({
  times: z
    .number({ invalid_type_error: M.extensions })
    .int(M.extensions)
    .min(0, M.extensions)
    .max(RULE_LIMITS.extensions, M.extensions),
  amount,
  measure,
});

export const Deadline = z.object({
  label: limitText(z.string({ required_error: M.labelRequired }).trim().min(1, M.labelRequired), "Label", RULE_LIMITS.label),
  amount,
  measure,
  extension: Extension,
});
export type Deadline = z.infer<typeof Deadline>;

export const RuleFields = {
  name: limitText(z.string({ required_error: M.nameRequired }).trim().min(1, M.nameRequired), "Name", TEXT_LIMITS.name),
  description: limitText(z.string().trim(), "Description", TEXT_LIMITS.description, { multiline: true }),
  jurisdiction: limitText(z.string().trim(), "Jurisdiction", RULE_LIMITS.jurisdiction),
  trigger: limitText(
    z.string({ required_error: M.triggerRequired }).trim().min(1, M.triggerRequired),
    "Triggering event",
    RULE_LIMITS.trigger,
  ),
  deadlines: boundedList(Deadline, "deadlines", RULE_LIMITS.deadlines).min(1, M.deadlinesRequired),
  rollWeekends: z.boolean(),
};

/** A docketing rule. */
export const Rule = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    jurisdiction: z.string(),
    trigger: z.string(),
    deadlines: z.array(Deadline),
    rollWeekends: z.boolean(),
  })
  .merge(Audit);
export type Rule = z.infer<typeof Rule>;

const F = RuleFields;
/** POST /api/rules/ */
export const RuleCreate = z.object({
  name: F.name,
  description: F.description.optional().default(""),
  jurisdiction: F.jurisdiction.optional().default(""),
  trigger: F.trigger,
  deadlines: F.deadlines,
  rollWeekends: F.rollWeekends.optional().default(true),
});
export type RuleCreate = z.input<typeof RuleCreate>;

/** PATCH /api/rules/{id}: only the fields sent change. */
const RuleUpdate = z.object(F).partial();
type RuleUpdate = z.input<typeof RuleUpdate>;

/**
 * /api/rules (spec 2 §7, CRUD and clone): templates.read lists and reads (spec 2 §6); `templates` creates, changes,
 * clones and deletes, as for the Word and Visio templates (docs/decisions/docketing-rules.md).
 */
export const RulesResource = defineResource({
  name: "rules",
  path: "/api/rules",
  item: Rule,
  create: RuleCreate,
  update: RuleUpdate,
  permissions: { read: "templates.read", create: "templates", write: "templates" },
  notFound: "Rule not found.",
  clone: true,
});
export const RulePage = RulesResource.page;

;
