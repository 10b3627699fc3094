import { describe, expect, it } from "vitest";
import { WORKFLOW_MESSAGES } from "@contract/workflow-constants";
import { EVENT_CODES } from "@contract/workflow-contracts";
import { type TemplateContentInput } from "@contract/milestone-templates";
import { type Milestone, type MilestoneDetail } from "@contract/milestones";
import { zonedToIso } from "~/workflows/milestones/task-form";
import { MILESTONES } from "~/workflows/milestones/texts";
import { appAsAdmin, browserWith, uniq, unescapeHtml, type TestApp } from "../helpers/app";

const { app, admin } = appAsAdmin();
const DATA = { list: "routes%2F_app.milestones._index", page: "routes%2F_app.milestones.%24id" };

/**
 * A docket template: start → "Prepare response" → (port filed, with a form) "Report to client" → finish, or (port
 * withdrawn) finish. Its milestones are due `{{now}}` + the event's `days` ("{{days}}" is not a number: the amount is
 * fixed per template), assigned to `assignee`.
 */
function template(title: string, amount: number, assignee: string): TemplateContentInput {
  const step = (id: string, type: "milestone-start" | "task" | "finish" | "nowhere", stepTitle: string) => ({ id, type, title: stepTitle, durationHours: type === "task" ? 1 : 0 });
  return {
    title,
    uniqueness: "repeatable",
    events: [
      {
        type: "create",
        code: EVENT_CODES.applicationCreated,
        predicates: [],
        action: { title: `${title} milestone`, dueAt: { date: "{{now}}", amount, measures: "Days" }, assignees: [assignee], notes: ["<p>Call the <b>client</b> first</p><script>alert(1)</script>"] },
      },
    ],
    steps: [step("start", "milestone-start", "Start"), step("prepare", "task", "Prepare response"), step("report", "task", "Report to client"), step("finish", "finish", "Finish"), step("100500", "nowhere", "Nowhere")],
    paths: [
      { from: { step: "start" }, to: { step: "prepare", action: { assignees: [assignee] } } },
      {
        from: {
          step: "prepare",
          port: "filed",
          action: {
            form: {
              name: "Filing",
              properties: [
                { name: "Filing date", property: "filingDate", type: "date", required: true, description: "The day it was filed" },
                { name: "Fee", property: "fee", type: "number" },
                { name: "Client told", property: "told", type: "boolean" },
                { name: "Reviewer", property: "reviewer", type: "email", required: true },
                { name: "Copies to", property: "copies", type: "people" },
                { name: "Remarks", property: "remarks", type: "string", isRichText: false },
                { name: "Filed at", property: "filedAt", type: "datetime" },
                { name: "Receipt", property: "receipt", type: "file", ext: ["pdf"] },
              ],
            },
          },
        },
        to: { step: "report", action: { assignees: [assignee] } },
      },
      { from: { step: "prepare", port: "withdrawn" }, to: { step: "finish" } },
      { from: { step: "report" }, to: { step: "finish" } },
    ],
  };
}

/** A workflow for `clientCode` with one active template per `amounts` entry (due in that many days). */
async function docketFor(clientCode: string, assignee: string, amounts: number[]): Promise<string> {
  const w = await app.adminApi("POST", "/api/workflows/v2/workflows", { title: `Docket ${clientCode}`, clientCodes: [clientCode] });
  expect(w.status, await w.clone().text()).toBe(201);
  const workflowId = ((await w.json()) as { id: string }).id;
  for (const [i, amount] of amounts.entries()) {
    const content = template(`T${i} ${clientCode}`, amount, assignee);
    const created = await app.adminApi("POST", `/api/workflows/v2/workflows/${workflowId}/milestones/draft/template`, { data: { title: content.title, events: content.events } });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const put = await app.adminApi("PUT", `/api/workflows/v2/workflows/${workflowId}/milestones/${id}`, content);
    expect(put.status, await put.clone().text()).toBe(200);
    const on = await app.adminApi("POST", `/api/workflows/v2/workflows/${workflowId}/milestones/${id}/activate`);
    expect(on.status, await on.clone().text()).toBe(200);
  }
  return workflowId;
}

/** Waits (the engine runs on the job queue) until `check` holds for the milestones of `reference`. */
async function waitFor<T>(load: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await load();
    if (check(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const milestonesOf = (a: TestApp, reference: string) => async () =>
  ((await (await a.adminApi("GET", `/api/workflows/milestones?reference=${encodeURIComponent(reference)}&status=open&pageSize=50`)).json()) as { items: Milestone[] }).items;
const detail = (a: TestApp, id: string) => async () => (await (await a.adminApi("GET", `/api/workflows/milestones/${id}`)).json()) as MilestoneDetail;

async function postEvent(reference: string, clientCode: string) {
  const r = await app.adminApi("POST", "/api/workflows/milestones", { code: EVENT_CODES.applicationCreated, reference, clientCode, data: { title: "Widget" } });
  expect(r.status, await r.clone().text()).toBe(202);
}

type ListData = {
  rows: Array<{ id: string; title: string; reference: string; urgency: string | null; openTasks: Array<{ title: string; assignees: string[] }> }>;
  total: number;
  counts: { overdue: number; week: number };
  query: { mine: boolean; status?: string; sort: string };
};

describe("the docket (/milestones)", () => {
  it("reads a datetime typed in the user's zone as that instant, on either side of daylight saving", () => {
    expect(zonedToIso("2026-11-27T09:30", "America/New_York")).toBe("2026-11-27T14:30:00.000Z");
    expect(zonedToIso("2026-07-01T09:30", "America/New_York")).toBe("2026-07-01T13:30:00.000Z");
    expect(zonedToIso("2026-07-01T09:30", "UTC")).toBe("2026-07-01T09:30:00.000Z");
  });

  it("passes the URL's filters and sort to the upstream; the default is my open milestones, soonest due first", async () => {
    const code = `C${uniq()}`;
    const paralegal = `para-${uniq()}@test.local`;
    await app.createUser(paralegal, ["docketing_tasks.read"]);
    // Three templates: due two days ago, in 30 days, and now (this week; overdue a moment later).
    const workflowId = await docketFor(code, paralegal, [-2, 30, 0]);
    const reference = `REF-${uniq()}`;
    await postEvent(reference, code);
    const created = await waitFor(milestonesOf(app, reference), (items) => items.length === 3 && items.every((m) => m.openTasks === 1), "three milestones");
    const byAmount = (i: number) => created.find((m) => m.templateTitle === `T${i} ${code}`)!;

    const list = async (browser: typeof admin, search: string) => {
      const r = await browser.get(`/milestones?${search}&_data=${DATA.list}`);
      expect(r.status).toBe(200);
      return (await r.json()) as ListData;
    };
    const asc = await list(admin, `filtered=1&workflow=${workflowId}&status=open&sort=dueAt`);
    expect(asc.rows.map((r) => r.id)).toEqual([byAmount(0).id, byAmount(2).id, byAmount(1).id]);
    expect(asc.rows[0]).toMatchObject({ urgency: "overdue", reference, openTasks: [{ title: "Prepare response", assignees: [paralegal] }] });
    const desc = await list(admin, `filtered=1&workflow=${workflowId}&status=open&sort=-dueAt`);
    expect(desc.rows.map((r) => r.id)).toEqual([byAmount(1).id, byAmount(2).id, byAmount(0).id]);
    const overdue = await list(admin, `filtered=1&workflow=${workflowId}&overdue=true&status=open&sort=dueAt`);
    expect(overdue.rows.map((r) => r.id)).toEqual([byAmount(0).id, byAmount(2).id]);
    const week = await list(admin, `filtered=1&workflow=${workflowId}&dueThisWeek=true&status=any&sort=dueAt`);
    expect(week.rows.map((r) => r.id)).toContain(byAmount(2).id);
    expect(week.rows.map((r) => r.id)).not.toContain(byAmount(1).id);
    const byAssignee = await list(admin, `filtered=1&assignee=${encodeURIComponent(paralegal)}&status=open&sort=title`);
    expect(byAssignee.rows.map((r) => r.title)).toEqual([...byAssignee.rows.map((r) => r.title)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(byAssignee.total).toBe(3);
    // The administrator is no assignee: "Only mine" (the default) shows nothing of this workflow.
    const mine = await list(admin, `filtered=1&mine=true&workflow=${workflowId}&status=open&sort=dueAt`);
    expect(mine.total).toBe(0);
    const refused = await list(admin, `sort=bogus&status=nope&page=-3`);
    expect(refused.query).toMatchObject({ mine: true, sort: "dueAt" });

    // The paralegal's morning: no parameters → mine, open, soonest first, with the counts.
    const para = app.browser();
    await para.signIn(paralegal, "secret-123");
    const morning = await list(para, "x=1");
    expect(morning.query).toMatchObject({ mine: true, status: "open", sort: "dueAt" });
    expect(morning.rows.map((r) => r.id)).toEqual(asc.rows.map((r) => r.id));
    expect(morning.counts.overdue).toBe(2);
    expect(morning.counts.week).toBeGreaterThanOrEqual(1);
    const html = unescapeHtml(await (await para.get("/milestones")).text());
    expect(html).toContain(MILESTONES.counts.overdue(2));
    expect(html).toContain(MILESTONES.badges.overdue);
    expect(html).toContain("Prepare response");
  });

  it("is the not-found view without docketing_tasks.read, and in the navigation with it", async () => {
    const code = `C${uniq()}`;
    await docketFor(code, "nobody@test.local", [1]);
    const reference = `REF-${uniq()}`;
    await postEvent(reference, code);
    const [m] = await waitFor(milestonesOf(app, reference), (items) => items.length === 1, "a milestone");
    const outsider = await browserWith(app, ["workflows.read", "users.read"]);
    for (const url of ["/milestones", `/milestones/${m!.id}`]) {
      const r = await outsider.get(url);
      expect(r.status).toBe(404);
      expect(await r.text()).toContain("Nothing here :(");
    }
    const post = await outsider.post(`/milestones/${m!.id}`, { intent: "complete", taskId: "x" });
    expect(post.status).toBe(404);
    expect(await (await outsider.get("/")).text()).not.toContain('href="/milestones"');
    const reader = await browserWith(app, ["docketing_tasks.read"]);
    expect(await (await reader.get("/")).text()).toContain('href="/milestones"');
    expect((await reader.get("/milestones/no-such-milestone")).status).toBe(404);
  });

  it("completes a task with its form: required-field errors keep what was typed; the engine moves the milestone on to its finish", async () => {
    const code = `C${uniq()}`;
    const paralegal = `para-${uniq()}@test.local`;
    await app.createUser(paralegal, ["docketing_tasks.read"]);
    await docketFor(code, paralegal, [5]);
    const reference = `REF-${uniq()}`;
    await postEvent(reference, code);
    const [m] = await waitFor(milestonesOf(app, reference), (items) => items.length === 1 && items[0]!.openTasks === 1, "a milestone");
    const prepare = (await detail(app, m!.id)()).tasks[0]!;
    const para = app.browser();
    await para.signIn(paralegal, "secret-123");

    // The page: the task with its form (every field, the two ports), the notes sanitized, the creating event named.
    const page = unescapeHtml(await (await para.get(`/milestones/${m!.id}`)).text());
    for (const text of ["Prepare response", "Filing date *", "The day it was filed", "Fee", "Client told", "Reviewer *", "Copies to", "filed", "withdrawn", MILESTONES.form.complete])
      expect(page).toContain(text);
    expect(page).toContain("Call the <b>client</b> first");
    expect(page).not.toContain("<script>alert(1)");
    expect(page).toContain(MILESTONES.page.createdByEvent(EVENT_CODES.applicationCreated));

    // Required fields and the port missing: 400, the messages, everything typed kept; nothing completed.
    const typed = { intent: "complete", taskId: prepare.id, f1: "12.5", f4: "ann@example.com; bob@example.com", f5: "Sent by courier" };
    const bad = await para.post(`/milestones/${m!.id}?_data=${DATA.page}`, typed);
    expect(bad.status).toBe(400);
    const reply = (await bad.json()) as { taskId: string; error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(reply.taskId).toBe(prepare.id);
    expect(reply.error).toEqual({ f0: [WORKFLOW_MESSAGES.formRequired("Filing date")], f3: [WORKFLOW_MESSAGES.formRequired("Reviewer")], port: [MILESTONES.form.portRequired] });
    expect(reply.initialValue).toMatchObject({ f1: "12.5", f4: "ann@example.com; bob@example.com", f5: "Sent by courier" });
    // Without JavaScript: the page again with the messages and the values.
    const noJs = await para.post(`/milestones/${m!.id}`, { ...typed, f3: "not an address" });
    expect(noJs.status).toBe(400);
    const noJsHtml = unescapeHtml(await noJs.text());
    expect(noJsHtml).toContain(WORKFLOW_MESSAGES.formRequired("Filing date"));
    expect(noJsHtml).toContain(MILESTONES.validation.email("Reviewer"));
    expect(noJsHtml).toContain("Sent by courier");
    expect(noJsHtml).toContain('value="12.5"');
    expect((await detail(app, m!.id)()).tasks[0]!.status).toBe("open");

    // Valid: 'Task(s) updated' / '1 task(s) successfully updated', back on the milestone following the engine's event.
    // A datetime is the user's wall-clock time (UTC here: no zone told), a file is uploaded and named by its id.
    const receipt = new File(["%PDF-1.4 receipt"], "receipt.pdf", { type: "application/pdf" });
    const ok = await para.postMultipart(`/milestones/${m!.id}`, { ...typed, f0: "2026-12-01", f2: "on", f3: "rev@example.com", f6: "2026-12-01T09:30", f7: receipt, port: "filed" });
    expect(ok.status).toBe(302);
    const location = ok.headers.get("Location")!;
    expect(location).toMatch(new RegExp(`^/milestones/${m!.id}\\?event=`));
    const after = unescapeHtml(await (await para.get(location)).text());
    expect(after).toContain(WORKFLOW_MESSAGES.tasksUpdated);
    expect(after).toContain(WORKFLOW_MESSAGES.tasksUpdatedMessage(1));
    const moved = await waitFor(detail(app, m!.id), (d) => d.tasks.some((t) => t.title === "Report to client"), "the next task");
    expect(moved.tasks[0]).toMatchObject({
      status: "completed",
      completedBy: paralegal,
      values: {
        filingDate: "2026-12-01",
        fee: 12.5,
        told: true,
        reviewer: "rev@example.com",
        copies: ["ann@example.com", "bob@example.com"],
        remarks: "Sent by courier",
        filedAt: "2026-12-01T09:30:00.000Z",
        receipt: expect.any(String),
      },
    });
    const upload = await para.get(`/files/${String(moved.tasks[0]!.values!.receipt)}`);
    expect(await upload.text()).toBe("%PDF-1.4 receipt");
    const history = unescapeHtml(await (await para.get(`/milestones/${m!.id}`)).text());
    expect(history).toContain(`Prepare response completed by ${paralegal}`);
    expect(history).toContain("Report to client");

    // A task no longer open: the spec's 'Task(s) update error' with its text, the upstream's reason inline.
    const again = await para.post(`/milestones/${m!.id}`, { ...typed, f0: "2026-12-01", f3: "rev@example.com", port: "filed" });
    expect(again.status).toBe(409);
    const againHtml = unescapeHtml(await again.text());
    expect(againHtml).toContain(WORKFLOW_MESSAGES.taskUpdateError);
    expect(againHtml).toContain(WORKFLOW_MESSAGES.taskUpdateErrorMessage);
    expect(againHtml).toContain(WORKFLOW_MESSAGES.taskNotOpen);

    // Someone else's task: no form for them, and the upstream refuses a forged post.
    const report = moved.tasks.find((t) => t.title === "Report to client")!;
    const other = await browserWith(app, ["docketing_tasks.read"]);
    const otherPage = unescapeHtml(await (await other.get(`/milestones/${m!.id}`)).text());
    expect(otherPage).toContain(MILESTONES.form.notAllowed);
    const forged = await other.post(`/milestones/${m!.id}?_data=${DATA.page}`, { intent: "complete", taskId: report.id });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { toast: { message: string } }).toast.message).toBe(WORKFLOW_MESSAGES.taskUpdateError);

    // The last task (no form): the milestone finishes.
    const done = await para.post(`/milestones/${m!.id}`, { intent: "complete", taskId: report.id });
    expect(done.status).toBe(302);
    const finished = await waitFor(detail(app, m!.id), (d) => d.status === "completed", "the milestone to finish");
    expect(finished.openTasks).toBe(0);
    const closed = unescapeHtml(await (await para.get(`/milestones/${m!.id}`)).text());
    expect(closed).toContain(MILESTONES.status.completed);
    expect(closed).not.toContain(MILESTONES.form.complete);
  });
});
