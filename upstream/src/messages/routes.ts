import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  MESSAGE_SAMPLE_CONTEXT,
  MessagePreviewBody,
  MessagesResource,
  RECIPIENT_SUGGEST_LIMIT,
  RECIPIENT_VARIABLES,
  type MessagePreview,
} from "../../contract/messages";
import { TEXT_LIMITS } from "../../contract/limits";
import { TEMPLATE_SYNTAX_MESSAGES, templateSyntaxError } from "../../contract/template-syntax";
import type { UsersStore } from "../people/store";
import { HttpError, jsonBody, requirePermission, validate, type AppEnv } from "../lib/http";
import { TemplateError, renderTemplates } from "../lib/templating";
import { resourceRoutes } from "../lib/resource-routes";
import type { MessagesStore } from "./store";

const SuggestQuery = z.object({ q: z.string().max(TEXT_LIMITS.search).optional().default("") });

/** Recipient variables containing `needle` (lower case), those starting with it (after the @) first. */
export function suggestVariables(needle: string, limit: number): string[] {
  const bare = needle.replace(/^@/, "");
  const hits = RECIPIENT_VARIABLES.filter((v) => v.toLowerCase().includes(bare));
  const starts = (v: string) => v.toLowerCase().startsWith(`@${bare}`);
  return [...hits.filter(starts), ...hits.filter((v) => !starts(v))].slice(0, limit);
}

/**
 * Renders a message's subject and body against the sample context, in one job (lib/templating: off the event loop,
 * bounded); a template error becomes 400 naming the field.
 */
async function renderMessage(subject: string, body: string): Promise<MessagePreview> {
  const fields = [
    { label: "Subject", template: subject },
    { label: "Body", template: body },
  ];
  try {
    const [s, b] = await renderTemplates(fields.map((f) => ({ template: f.template, context: MESSAGE_SAMPLE_CONTEXT })));
    return { subject: s!, body: b! };
  } catch (error) {
    if (error instanceof TemplateError) {
      throw new HttpError(error.status, error.status === 400 ? `${fields[error.index]?.label ?? "Body"}: ${error.message}` : error.message);
    }
    throw error;
  }
}

/**
 * A subject or body Handlebars cannot parse is refused when it is saved (400 naming the field, line and column), not
 * found when the message is sent.
 */
function checkTemplates<T extends { subject?: string; body?: string }>(input: T): T {
  for (const [field, label] of [["subject", "Subject"], ["body", "Body"]] as const) {
    const problem = input[field] === undefined ? null : templateSyntaxError(input[field]);
    if (problem) throw new HttpError(400, TEMPLATE_SYNTAX_MESSAGES.at(label, problem));
  }
  return input;
}

/**
 * /api/messages/* (spec 2 §7): the resource kit's CRUD and clone, `GET /suggest/recipients?q=` (the e-mails of
 * the people of the back office, then §9's variables; a text starting with @ only the variables; at most 20) and
 * `POST /preview` (subject and body rendered against the sample context). Both need messages.read.
 */
export function messageRoutes(deps: {
  messages: MessagesStore;
  users: Pick<UsersStore, "suggestEmails">;
  requireAuth: MiddlewareHandler<AppEnv>;
}) {
  const { messages, users, requireAuth } = deps;
  const read = requirePermission(MessagesResource.permissions.read);
  return resourceRoutes(MessagesResource, messages, {
    requireAuth,
    hooks: {
      beforeCreate: (input) => checkTemplates(input),
      beforeUpdate: (input) => checkTemplates(input),
      routes: (app) => {
        app.get("/suggest/recipients", requireAuth, read, (c) => {
          const needle = validate(SuggestQuery, c.req.query()).q.trim().toLowerCase();
          if (!needle) return c.json([]);
          const variables = suggestVariables(needle, RECIPIENT_SUGGEST_LIMIT);
          const people = needle.startsWith("@") ? [] : users.suggestEmails(needle, RECIPIENT_SUGGEST_LIMIT);
          return c.json([...people, ...variables].slice(0, RECIPIENT_SUGGEST_LIMIT));
        });
        app.post("/preview", requireAuth, read, async (c) => {
          const { subject, body } = await jsonBody(c, MessagePreviewBody);
          return c.json(await renderMessage(subject, body));
        });
      },
    },
  });
}
