import { z } from "zod";
import { Audit, FIELD_MESSAGES, LIMIT_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, limitText } from "./common";
import { defineResource } from "./resource";

/**
 * Message (e-mail) templates (spec 2 §2 Messages, §3 Message template, §5, §7, §9). Subject and body are Handlebars
 * rendered against a matter's context; to, cc and bcc are recipient lists whose entries are e-mail addresses or the
 * recipient variables of §9 (resolved per matter when a message is sent).
 */

/** Bounds of a message template (docs/decisions/messages.md). */
export const MESSAGE_LIMITS = {
  /** A subject line, Handlebars included. */
  subject: 2_000,
  /** The Handlebars body of an e-mail. */
  body: 200_000,
  /** Entries of one recipient list (to, cc or bcc). */
  recipients: 100,
  /** One recipient: an e-mail address or a variable (the longest variable is far shorter). */
  recipient: TEXT_LIMITS.email,
} as const;

/** The roles of §9's recipient variables, in the spec's order. */
export const RECIPIENT_ROLES = [
  "assignees",
  "applicants",
  "clients",
  "inventors",
  "foreignAssociates",
  "inHouseAttorneys",
  "inHouseParalegals",
  "legalAssistants",
  "patentAgents",
  "paralegals",
  "responsibleAttorneys",
  "secretaries",
] as const;
/** Roles whose people are ranked (§9: assignees, applicants, clients also take .primary and .secondary). */
const RANKED_ROLES: ReadonlySet<string> = new Set(["assignees", "applicants", "clients"]);
/** Which of a person's addresses (§9: .work, .mailing, .home); none means the person's default address. */
const ADDRESS_KINDS = ["work", "mailing", "home"] as const;
const RANKS = ["primary", "secondary"] as const;

/**
 * Every recipient variable of §9, generated from the one definition above: `@role` and `@role.{work|mailing|home}`
 * for every role, and for the ranked roles also `@role.{primary|secondary}` and `@role.{primary|secondary}.{kind}`
 * (the primary assignee's work address). 72 variables.
 */
export const RECIPIENT_VARIABLES: readonly string[] = RECIPIENT_ROLES.flatMap((role) => {
  const bases = [`@${role}`, ...(RANKED_ROLES.has(role) ? RANKS.map((r) => `@${role}.${r}`) : [])];
  return bases.flatMap((base) => [base, ...ADDRESS_KINDS.map((kind) => `${base}.${kind}`)]);
});
const VARIABLES = new Set(RECIPIENT_VARIABLES);

/**
 * An e-mail address by the same rule as a user's e-mail (zod's): a local part of letters, digits and `_'+-.`, a
 * domain of labels and a top-level domain of letters. "E-mail-shaped" in the looser sense (anything, an @, a dot)
 * let markup such as `<script>@x.com` into a template that is rendered and sent.
 */
const EMAIL = z.string().email();

/** §5: a recipient is valid if empty, an e-mail address, or one of the allowed variables. */
export function isRecipient(value: string): boolean {
  const v = value.trim();
  return v === "" || VARIABLES.has(v) || EMAIL.safeParse(v).success;
}

export const MESSAGE_MESSAGES = {
  nameRequired: FIELD_MESSAGES.nameRequired,
  badRecipient: (value: string) => `“${value}” is not an e-mail address or a recipient variable.`,
} as const;

const recipient = limitText(z.string().trim(), "Recipient", MESSAGE_LIMITS.recipient).refine(
  isRecipient,
  (value) => ({ message: MESSAGE_MESSAGES.badRecipient(value.trim()) }),
);
/** A recipient list: the empty entries are dropped (an empty entry is valid, and means nobody). */
const recipients = boundedList(recipient, "recipients", MESSAGE_LIMITS.recipients).transform((list) =>
  list.filter((r) => r !== ""),
);

export const MessageFields = {
  name: limitText(
    z.string({ required_error: MESSAGE_MESSAGES.nameRequired }).trim().min(1, MESSAGE_MESSAGES.nameRequired),
    "Name",
    TEXT_LIMITS.name,
  ),
  description: limitText(z.string().trim(), "Description", TEXT_LIMITS.description, { multiline: true }),
  tags: boundedList(limitText(z.string().trim().min(1), "Tag", TEXT_LIMITS.tag), "tags", LIST_LIMITS.tags),
  subject: limitText(z.string(), "Subject", MESSAGE_LIMITS.subject),
  body: limitText(z.string(), "Body", MESSAGE_LIMITS.body, { multiline: true }),
  recipients,
};

/** A message template (spec 2 §3). */
export const Message = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    subject: z.string(),
    body: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
  })
  .merge(Audit);
export type Message = z.infer<typeof Message>;

const F = MessageFields;
/** POST /api/messages/ — only the name is required. */
export const MessageCreate = z.object({
  name: F.name,
  description: F.description.optional().default(""),
  tags: F.tags.optional().default([]),
  subject: F.subject.optional().default(""),
  body: F.body.optional().default(""),
  to: F.recipients.optional().default([]),
  cc: F.recipients.optional().default([]),
  bcc: F.recipients.optional().default([]),
});
export type MessageCreate = z.input<typeof MessageCreate>;

/** PATCH /api/messages/{id}: only the fields sent change. */
const MessageUpdate = z
  .object({
    name: F.name,
    description: F.description,
    tags: F.tags,
    subject: F.subject,
    body: F.body,
    to: F.recipients,
    cc: F.recipients,
    bcc: F.recipients,
  })
  .partial();
type MessageUpdate = z.input<typeof MessageUpdate>;

/** /api/messages (spec 2 §7): messages.read lists and reads; `messages` creates, clones, edits and deletes. */
export const MessagesResource = defineResource({
  name: "messages",
  path: "/api/messages",
  item: Message,
  create: MessageCreate,
  update: MessageUpdate,
  permissions: { read: "messages.read", create: "messages", write: "messages" },
  notFound: "Message not found.",
  clone: true,
});

/** GET /api/messages/suggest/recipients?q= — people's e-mails and variables containing q, at most 20. */
export const RecipientSuggestions = z.array(z.string());
export const RECIPIENT_SUGGEST_LIMIT = 20;

/** POST /api/messages/preview — subject and body rendered against the sample context (a template error: 400). */
export const MessagePreviewBody = z.object({ subject: F.subject, body: F.body });
export const MessagePreview = z.object({ subject: z.string(), body: z.string() });
export type MessagePreview = z.infer<typeof MessagePreview>;

/** The tooLong message of a recipient list, for tests and forms. */
export const TOO_MANY_RECIPIENTS = LIMIT_MESSAGES.tooMany("recipients", MESSAGE_LIMITS.recipients);

/**
 * The sample matter a preview renders subject and body against (docs/decisions/messages.md): the fields a docketing
 * e-mail reads. Shown next to the editor so an author knows what to write.
 */
export const MESSAGE_SAMPLE_CONTEXT = {
  matter: {
    number: "ACME-0042-US",
    title: "Self-calibrating torque sensor",
    applicationNumber: "17/123,456",
    filingDate: "2024-03-15",
    jurisdiction: "US",
    status: "Pending",
  },
  client: { name: "Acme Robotics Inc.", reference: "AR-2291" },
  deadline: { label: "Response to Office Action", dueDate: "2026-02-16", finalDate: "2026-05-15" },
  responsibleAttorney: { name: "Jordan Lee", email: "jordan.lee@example.com" },
  inventors: [{ name: "Ana Ruiz" }, { name: "Wei Chen" }],
  sender: { name: "Docketing Team", email: "docketing@example.com" },
} as const;

/** GET /api/messages/?q=&sort=&page=&pageSize= */
export const MessagePage = MessagesResource.page;
