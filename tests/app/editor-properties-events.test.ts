import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MilestoneTemplate } from "@contract/milestone-templates";
import { DEFAULT_MILESTONE_TITLE, WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { EVENT_CODES } from "@contract/workflow-contracts";
import { FORM_TEXTS } from "~/workflows/editor/forms/texts";
import { ADMIN, startApp, uniq, unescapeHtml, type Browser, type TestApp } from "../helpers/app";

/** The template's events in the table editor's Properties, without JavaScript (spec 3 §2.6, §3 Event, §5). */
const API = "/api/workflows/v2/workflows";
const DATA = "routes%2F_app.workflows.%24id.milestones_.%24milestoneId";

let app: TestApp;
let admin: Browser;
beforeAll(async () => {
  app = await startApp();
  admin = app.browser();
  await admin.signIn(ADMIN.email, ADMIN.password);
});
afterAll(() => app?.close());

describe("the template's events in Properties without JavaScript", () => {
  it("shows them; Add event and Add note post and come back edited; a missing event is refused beside the form; Apply keeps them in the draft", async () => {
    const w = await app.adminApi("POST", API, { title: `Events ${uniq()}`, clientCodes: [`E${uniq()}`] });
    const workflowId = ((await w.json()) as { id: string }).id;
    const t = await app.adminApi("POST", `${API}/${workflowId}/milestones/draft/template`, { data: { title: "Office action", events: [{ code: EVENT_CODES.applicationCreated }] } });
    const templateId = ((await t.json()) as { id: string }).id;
    const url = `/workflows/${workflowId}/milestones/${templateId}`;

    const page = unescapeHtml(await (await admin.get(url)).text());
    expect(page).toContain(FORM_TEXTS.events.legend);
    expect(page).toContain(FORM_TEXTS.events.event(1));
    expect(page).toMatch(/name="events\.0\.code"/);
    expect(page).toContain(FORM_TEXTS.events.add);

    const base = {
      intent: "edit",
      op: "setProperties",
      form: "template-properties",
      title: "Office action",
      uniqueness: "repeatable",
      tags: "",
      eventCount: "1",
      "events.0.origin": "0",
      "events.0.type": "create",
      "events.0.code": EVENT_CODES.applicationCreated,
      "events.0.title": "Office action {{reference}}",
      "events.0.outcome": "",
    };
    const answer = async (r: Response) => ({ status: r.status, body: (await r.json()) as { form?: string; message?: string; values?: Record<string, string> } });

    const added = await answer(await admin.post(`${url}?_data=${DATA}`, { ...base, intent: ["edit", "events:add"] }));
    expect(added.status).toBe(200);
    expect(added.body.form).toBe("template-properties");
    expect(added.body.values).toMatchObject({ eventCount: "2", "events.0.title": "Office action {{reference}}", "events.1.title": DEFAULT_MILESTONE_TITLE, "events.1.code": "" });
    const noted = await answer(await admin.post(`${url}?_data=${DATA}`, { ...added.body.values!, intent: ["edit", "events.0:addNote"] }));
    expect(noted.body.values).toMatchObject({ "events.0.notes.0": "" });

    // The new event names no event: refused, beside the form, what was typed kept.
    const refused = await answer(await admin.post(`${url}?_data=${DATA}`, { ...noted.body.values!, intent: "edit" }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ form: "template-properties", message: WORKFLOW_MESSAGES.eventCodeRequired });
    expect(refused.body.values).toMatchObject({ "events.0.title": "Office action {{reference}}" });

    const applied = await admin.post(`${url}?_data=${DATA}`, {
      ...noted.body.values!,
      intent: "edit",
      "events.0.notes.0": "<p>Call the client</p>",
      "events.1.type": "update",
      "events.1.code": EVENT_CODES.applicationUpdated,
      "events.1.outcome": "finish",
    });
    expect(applied.status).toBeLessThan(400);
    const draft = MilestoneTemplate.parse(await (await app.adminApi("GET", `${API}/${workflowId}/milestones/${templateId}/draft`)).json());
    expect(draft.events.map((e) => [e.type, e.code, e.action.title, e.action.notes, e.action.finish, e.action.delete])).toEqual([
      ["create", EVENT_CODES.applicationCreated, "Office action {{reference}}", ["<p>Call the client</p>"], false, false],
      ["update", EVENT_CODES.applicationUpdated, DEFAULT_MILESTONE_TITLE, [], true, false],
    ]);
  });
});
