import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";
import {
  MessageFields,
  MessagePreview,
  MessagesResource,
  RecipientSuggestions,
  type Message,
} from "@contract/messages";
import { TEMPLATE_SYNTAX_MESSAGES, templateSyntaxError } from "@contract/template-syntax";
import { reasonOf } from "~/lib/actions.server";
import { textOf } from "~/lib/form.server";
import { formatDateTime } from "~/lib/format";
import { resourceClient } from "~/lib/resource.server";
import type { Api } from "~/lib/upstream.server";
import { MessageSchema } from "./schema";

/** The messages collection (spec 2 §7), through the resource kit. */
export const messages = resourceClient(MessagesResource);

export const suggestRecipients = (api: Api, q: string) =>
  api.get(RecipientSuggestions, "/api/messages/suggest/recipients", { q });

/** A field holding Handlebars: its parse error (line and column) under the field, everything typed kept. */
const handlebars = (field: z.ZodTypeAny) =>
  field.superRefine((value: unknown, ctx) => {
    const problem = typeof value === "string" ? templateSyntaxError(value) : null;
    if (problem) ctx.addIssue({ code: "custom", message: TEMPLATE_SYNTAX_MESSAGES.where(problem) });
  });

/**
 * The save action's schema: the form's, and subject and body must parse as Handlebars. Only the server checks that
 * (the parser is too big for the form's bundle); the upstream refuses the same.
 */
export const MessageActionSchema = MessageSchema.extend({
  subject: handlebars(MessageFields.subject.optional().default("")),
  body: handlebars(MessageFields.body.optional().default("")),
});

/** What a preview answers: the rendered subject and body, or why they cannot be rendered. */
export type PreviewResult = { subject: string; body: string; error: null } | { subject: null; body: null; error: string };

/**
 * The Preview button (editorAction's `preview` intent): the posted subject and body rendered upstream against the
 * sample context; conform's reply keeps everything typed (and shows the fields' messages, if any).
 */
export async function previewMessage({ api, form }: { api: Api; form: FormData }) {
  const reply = parseWithZod(form, { schema: MessageSchema }).reply();
  let preview: PreviewResult;
  try {
    const answer = await api.post(MessagePreview, "/api/messages/preview", {
      subject: textOf(form, "subject"),
      body: textOf(form, "body"),
    });
    preview = { ...answer, error: null };
  } catch (error) {
    preview = { subject: null, body: null, error: reasonOf(error) };
  }
  return { ...reply, preview, toast: null };
}

/** A message as its list row shows it. */
export const messageRow = (m: Message, timeZone: string) => ({
  id: m.id,
  name: m.name,
  description: m.description,
  tags: m.tags,
  updatedAt: formatDateTime(m.updatedAt, timeZone),
  updatedBy: m.updatedBy ?? m.createdBy,
});
