/**
 * The e-mail connector's intake: `POST /api/ms-graph-email-connector/messages` (administration: the connector's
 * service account) records a received message as the docket's `correspondence.recieved` event for its matter. The
 * message id is the idempotency key: the connector may deliver a message twice.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { EVENT_CODES } from "../../contract/workflow-contracts";
import type { Db } from "../db";
import { jsonBody, requirePermission, type AppEnv } from "../lib/http";
import { queueWorkflowEvent } from "../workflows/events";

const ReceivedMessage = z.object({
  messageId: z.string().trim().min(1, "messageId is required").max(500),
  reference: z.string().trim().min(1, "reference is required").max(200),
  clientCode: z.string().trim().max(100).optional(),
  from: z.string().max(254),
  to: z.array(z.string().max(254)).max(100).default([]),
  subject: z.string().max(2_000).default(""),
  body: z.string().max(200_000).default(""),
  receivedAt: z.string().max(40).optional(),
});

export function emailReceivedRoutes(deps: { db: Db; now: () => number; requireAuth: MiddlewareHandler<AppEnv> }) {
  const app = new Hono<AppEnv>({ strict: false });
  app.post("/messages", deps.requireAuth, requirePermission("administration"), async (c) => {
    const m = await jsonBody(c, ReceivedMessage);
    const { id, created } = deps.db.transaction(() =>
      queueWorkflowEvent(
        deps.db,
        {
          id: `email:${m.messageId}`,
          code: EVENT_CODES.correspondence,
          reference: m.reference,
          clientCode: m.clientCode ?? null,
          source: "email",
          actor: c.get("actor").email,
          data: { from: m.from, to: m.to, subject: m.subject, body: m.body, receivedAt: m.receivedAt ?? new Date(deps.now()).toISOString() },
        },
        deps.now,
      ),
    )();
    return c.json({ eventId: id, created }, created ? 202 : 200);
  });
  return app;
}
