import { expect } from "vitest";
import { type StepType } from "@contract/workflow-constants";
import { MilestoneTemplate, type TemplateContentInput } from "@contract/milestone-templates";
import { Workflow } from "@contract/workflows";
import { MilestoneDetail, WorkflowEvent } from "@contract/milestones";
import type { Harness } from "./helpers";

export const WF = "/api/workflows/v2/workflows";

export async function until<T>(probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

export async function createWorkflow(h: Harness, body: Record<string, unknown>, token = h.adminToken) {
  return Workflow.parse(await json(await h.call("POST", WF, { token, body }), 201));
}

const step = (id: string, type: StepType, extra: Record<string, unknown> = {}) => ({ id, type, title: id, ...extra });
const path = (from: string, to: string, extra: { from?: Record<string, unknown>; to?: Record<string, unknown> } = {}) => ({
  from: { step: from, ...extra.from },
  to: { step: to, ...extra.to },
});
export const g = { step, path };

/** A template created through the wizard, then given `content` and activated. */
export async function activeTemplate(h: Harness, workflowId: string, content: TemplateContentInput, token = h.adminToken) {
  const created = MilestoneTemplate.parse(
    await json(
      await h.call("POST", `${WF}/${workflowId}/milestones/draft/template`, {
        token,
        body: { workflowId, data: { title: content.title, uniqueness: content.uniqueness, events: content.events } },
      }),
      201,
    ),
  );
  if (content.steps) await json(await h.call("PUT", `${WF}/${workflowId}/milestones/${created.id}`, { token, body: content }), 200);
  const active = MilestoneTemplate.parse(await json(await h.call("POST", `${WF}/${workflowId}/milestones/${created.id}/activate`, { token }), 200));
  expect(active.active).toBe(true);
  return active;
}

/** Posts an event and waits until the engine processed it. */
export async function emit(h: Harness, body: Record<string, unknown>, token = h.adminToken, headers: Record<string, string> = {}) {
  const res = await h.call("POST", "/api/workflows/milestones", { token, body, headers });
  expect([200, 202]).toContain(res.status);
  const ev = WorkflowEvent.parse(await res.json());
  return processed(h, ev.id, token);
}

export async function processed(h: Harness, id: string, token = h.adminToken) {
  return until(async () => {
    const e = WorkflowEvent.parse(await (await h.call("GET", `/api/workflows/events/${encodeURIComponent(id)}`, { token })).json());
    return e.status === "processed" ? e : null;
  });
}

export async function milestone(h: Harness, id: string, token = h.adminToken) {
  return MilestoneDetail.parse(await json(await h.call("GET", `/api/workflows/milestones/${id}`, { token }), 200));
}

/** Completes a task and waits for its `workflow.next` event. */
export async function complete(h: Harness, taskId: string, body: Record<string, unknown> = {}, token = h.adminToken) {
  const res = await json<{ eventId: string }>(await h.call("POST", `/api/workflows/tasks/${taskId}/complete`, { token, body }), 200);
  return processed(h, res.eventId, token);
}
