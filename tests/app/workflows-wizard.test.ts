import { describe, expect, it } from "vitest";
import { DEFAULT_MILESTONE_TITLE, DEFAULT_TEMPLATE_TITLE, WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { CONTRACTS, EVENT_CODES } from "@contract/workflow-contracts";
import { type MilestoneTemplate } from "@contract/milestone-templates";
import { CONDITION_TEXTS } from "~/workflows/conditions/texts";
import { EMPTY_CONDITION, groupsText, predicateOf, valueKind, withField, withFunction } from "~/workflows/conditions/model";
import { contractFields } from "@contract/workflow-contracts";
import { WIZARD } from "~/workflows/wizard/texts";
import { SUGGEST_LIMIT } from "@contract/people";
import { ASSIGNEE_SUGGEST_URL } from "~/workflows/assignees";
import { appAsAdmin, browserWith, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();
const DATA = `_data=${encodeURIComponent("routes/_app.workflows.$id.milestones.new")}`;
const url = (id: string) => `/workflows/${id}/milestones/new`;

type Reply = { state: { title: string; tags: string[]; code: string; predicates: unknown[][]; milestoneTitle: string; notes: string[] }; step: number; errors: Record<string, string>; stayed?: boolean; toast: { message: string; description?: string } | null };

async function newWorkflow(): Promise<string> {
  const r = await app.adminApi("POST", "/api/workflows/v2/workflows", { title: `Wizard ${uniq()}` });
  expect(r.status).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

async function templatesOf(id: string): Promise<MilestoneTemplate[]> {
  const r = await app.adminApi("GET", `/api/workflows/v2/workflows/${id}/milestones`);
  expect(r.status).toBe(200);
  return (await r.json()) as MilestoneTemplate[];
}

/** Every step's fields as the page posts them (the steps not shown travel as hidden sections of the same form). */
const complete = (extra: Record<string, string | string[]> = {}): Record<string, string | string[]> => ({
  step: "6",
  intent: "create",
  title: "Office action received",
  tags: "uspto; oa",
  hidden: "on",
  uniqueness: "uniqueAtTime",
  source: "email",
  code: EVENT_CODES.correspondence,
  "predicates.0.0.field": "{{subject}}",
  "predicates.0.0.prevField": "{{subject}}",
  "predicates.0.0.function": "contains",
  "predicates.0.0.prevFunction": "contains",
  "predicates.0.0.value": "Office Action",
  "predicates.0.1.field": "{{receivedAt}}",
  "predicates.0.1.prevField": "{{receivedAt}}",
  "predicates.0.1.function": "after",
  "predicates.0.1.prevFunction": "after",
  "predicates.0.1.due.date": "{{now}}",
  "predicates.0.1.due.amount": "-30",
  "predicates.0.1.due.measures": "Days",
  "predicates.1.0.field": "{{to}}",
  "predicates.1.0.prevField": "{{to}}",
  "predicates.1.0.function": "in",
  "predicates.1.0.prevFunction": "in",
  "predicates.1.0.value": "docket@firm.test; oa@firm.test",
  milestoneTitle: "Respond to {{subject}}",
  "dueAt.date": "{{receivedAt}}",
  "dueAt.amount": "3",
  "dueAt.measures": "Months",
  "dueAt.daysMin": "",
  "dueAt.daysMax": "",
  "dueAt.hoursMin": "9",
  "dueAt.hoursMax": "17",
  "dueAt.calendar": "on",
  "dueAt.categories": "Deadline; USPTO",
  "dueAt.durationHours": "2",
  "clientDueDate.date": "{{now}}",
  "clientDueDate.amount": "1",
  "clientDueDate.measures": "Days",
  assignees: "paralegal@firm.test; {{from}}",
  "notes.0": '<p>Check the <strong>claims</strong></p><script>alert("x")</script><img src="x" onerror="alert(1)">',
  "notes.1": "<p></p>",
  "notes.2": "   ",
  ...extra,
});

describe("milestone template creation wizard", () => {
  it("needs `workflows`: workflows.read alone gets the not-found answer, for the page and for a post", async () => {
    const id = await newWorkflow();
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["workflows.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const page = await reader.get(url(id));
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Nothing here :(");
    expect((await reader.post(url(id), complete())).status).toBe(404);
    expect(await templatesOf(id)).toEqual([]);
    expect((await admin.get(url("no-such-workflow"))).status).toBe(404);
  });

  it("opens on step 1 with the spec's defaults: 'Default template title', 'New milestone', due 1 Days", async () => {
    const id = await newWorkflow();
    const html = await (await admin.get(url(id))).text();
    expect(html).toContain(`value="${DEFAULT_TEMPLATE_TITLE}"`);
    expect(html).toContain(`value="${DEFAULT_MILESTONE_TITLE}"`);
    expect(html).toMatch(/name="dueAt\.amount"[^>]*value="1"/);
    expect(html).toMatch(/<option value="Days" selected="">Days<\/option>/);
    expect(html).toContain(`${WIZARD.stepOf(1, 6)}: ${WIZARD.steps[0]}`);
    expect(html).toContain("0 to 24");
    for (const label of ["Unique at a time", "Unique", "Repeatable"]) expect(html).toContain(`>${label}</option>`);
  });

  it("Next is refused until the step's required value is there, with the spec's messages", async () => {
    const id = await newWorkflow();
    const step1 = await admin.post(`${url(id)}?${DATA}`, { ...complete(), step: "1", intent: "next", title: "  " });
    expect(step1.status).toBe(400);
    expect(((await step1.json()) as Reply).errors).toEqual({ title: M.templateTitleRequired });
    const step2 = await admin.post(`${url(id)}?${DATA}`, { ...complete(), step: "2", intent: "next", source: "", code: "" });
    expect(step2.status).toBe(400);
    expect(((await step2.json()) as Reply).errors).toMatchObject({ code: M.eventCodeRequired });
    const step3 = await admin.post(`${url(id)}?${DATA}`, { ...complete(), step: "3", intent: "next", milestoneTitle: "" });
    expect(((await step3.json()) as Reply).errors).toEqual({ milestoneTitle: M.milestoneTitleRequired });
    const step4 = await admin.post(`${url(id)}?${DATA}`, { ...complete(), step: "4", intent: "next", "dueAt.amount": "1.5", "dueAt.hoursMax": "25" });
    expect(((await step4.json()) as Reply).errors).toEqual({ "dueAt.amount": CONDITION_TEXTS.amount(10_000), "dueAt.hoursMax": WIZARD.hoursLimit });
    const step5 = await admin.post(`${url(id)}?${DATA}`, { ...complete(), step: "5", intent: "next", assignees: "not-an-address" });
    expect(((await step5.json()) as Reply).errors).toEqual({ assignees: WIZARD.assignee("not-an-address") });
    // A complete step moves on; Back moves back without checking.
    const ok = (await (await admin.post(`${url(id)}?${DATA}`, { ...complete(), step: "1", intent: "next" })).json()) as Reply;
    expect([ok.step, ok.errors]).toEqual([2, {}]);
    const back = (await (await admin.post(`${url(id)}?${DATA}`, { ...complete(), step: "3", intent: "back", milestoneTitle: "" })).json()) as Reply;
    expect([back.step, back.errors]).toEqual([2, {}]);
    // Create checks every step and shows the first that is wrong.
    const create = await admin.post(`${url(id)}?${DATA}`, { ...complete(), milestoneTitle: " " });
    expect(create.status).toBe(400);
    expect(((await create.json()) as Reply).step).toBe(3);
    expect(await templatesOf(id)).toEqual([]);
  });

  it("without JavaScript each step's page keeps what was typed in every step", async () => {
    const id = await newWorkflow();
    const page = await admin.post(url(id), { ...complete(), step: "1", intent: "next", title: "Typed <title> & kept" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`${WIZARD.stepOf(2, 6)}: ${WIZARD.steps[1]}`);
    expect(html).toContain('value="Typed &lt;title&gt; &amp; kept"');
    expect(html).toContain('value="Respond to {{subject}}"');
    expect(html).toContain('value="uspto; oa"');
    expect(html).toMatch(/name="dueAt\.hoursMin"[^>]*value="9"/);
    expect(html).toContain("paralegal@firm.test; {{from}}");
    // The conditions editor's inline sections, with the spec's titles.
    expect(html).toContain(CONDITION_TEXTS.editOr.replace(/"/g, "&quot;"));
    expect(html).toContain(CONDITION_TEXTS.editAnd.replace(/"/g, "&quot;"));
    // The last step's button is the spec's.
    const last = await (await admin.post(url(id), { ...complete(), step: "5", intent: "next" })).text();
    expect(last).toContain(`${WIZARD.stepOf(6, 6)}: ${WIZARD.steps[5]}`);
    expect(last).toContain(">Create milestone template</button>");
    // Back to step 1: still there.
    const back = await (await admin.post(url(id), { ...complete(), step: "2", intent: "back", title: "Typed again" })).text();
    expect(back).toContain(`${WIZARD.stepOf(1, 6)}: ${WIZARD.steps[0]}`);
    expect(back).toContain('value="Typed again"');
  });

  it("conditions without JavaScript: groups and conditions added and removed; a new field resets function and value", async () => {
    const id = await newWorkflow();
    const base = { ...complete(), step: "2" };
    const added = (await (await admin.post(`${url(id)}?${DATA}`, { ...base, intent: "predicates:addGroup" })).json()) as Reply;
    expect(added.state.predicates).toHaveLength(3);
    const more = (await (await admin.post(`${url(id)}?${DATA}`, { ...base, intent: "predicates:addCondition:1" })).json()) as Reply;
    expect(more.state.predicates[1]).toHaveLength(2);
    const removed = (await (await admin.post(`${url(id)}?${DATA}`, { ...base, intent: "predicates:removeCondition:1:0" })).json()) as Reply;
    expect(removed.state.predicates).toHaveLength(1);
    // {{subject}} contains → {{receivedAt}}: the function resets to the first for a date, the value to a due date.
    const reset = (await (
      await admin.post(`${url(id)}?${DATA}`, { ...base, intent: "next", "predicates.0.0.field": "{{receivedAt}}" })
    ).json()) as Reply;
    expect(reset.step).toBe(2);
    expect(reset.stayed).toBe(true);
    expect(reset.state.predicates[0]![0]).toEqual({ field: "{{receivedAt}}", function: "before", value: "", due: { date: "{{now}}", amount: "0", measures: "Days" } });
    // A field the event lacks is refused with a message, never sent.
    const unknown = await admin.post(`${url(id)}?${DATA}`, { ...base, intent: "next", "predicates.0.0.field": "{{nope}}", "predicates.0.0.prevField": "{{nope}}" });
    expect(((await unknown.json()) as Reply).errors).toEqual({ "predicates.0.0.field": CONDITION_TEXTS.fieldRequired });
  });

  it("creates the template: the contract's shape, notes sanitized (no <script>, no onerror), empty notes dropped", async () => {
    const id = await newWorkflow();
    const r = await admin.post(url(id), complete());
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe(`/workflows/${id}/milestones`);
    const [t] = await templatesOf(id);
    expect(t).toMatchObject({ title: "Office action received", tags: ["uspto", "oa"], hidden: true, uniqueness: "uniqueAtTime", active: false });
    const event = t!.events[0]!;
    expect(event.code).toBe(EVENT_CODES.correspondence);
    expect(event.predicates).toEqual([
      [
        { field: "{{subject}}", function: "contains", arguments: ["Office Action"] },
        { field: "{{receivedAt}}", function: "after", arguments: [{ date: "{{now}}", amount: -30, measures: "Days" }] },
      ],
      [{ field: "{{to}}", function: "in", arguments: [["docket@firm.test", "oa@firm.test"]] }],
    ]);
    expect(event.action.title).toBe("Respond to {{subject}}");
    expect(event.action.dueAt).toEqual({
      date: "{{receivedAt}}",
      amount: 3,
      measures: "Months",
      limits: { daysMin: null, daysMax: null, hoursMin: 9, hoursMax: 17 },
      calendar: { categories: ["Deadline", "USPTO"], durationHours: 2 },
    });
    expect(event.action.clientDueDate).toBeNull();
    expect(event.action.assignees).toEqual(["paralegal@firm.test", "{{from}}"]);
    expect(event.action.notes).toHaveLength(1);
    expect(event.action.notes[0]).toBe("<p>Check the <strong>claims</strong></p>");
    const list = await (await admin.get(`/workflows/${id}/milestones`)).text();
    expect(list).toContain(WIZARD.created);
  });

  it("the spec's defaults go through when nothing is changed, and a client due date when asked for", async () => {
    const id = await newWorkflow();
    const r = await admin.post(url(id), {
      step: "6",
      intent: "create",
      title: DEFAULT_TEMPLATE_TITLE,
      uniqueness: "repeatable",
      source: "workflow",
      code: EVENT_CODES.milestoneCreated,
      milestoneTitle: DEFAULT_MILESTONE_TITLE,
      "dueAt.date": "{{now}}",
      "dueAt.amount": "1",
      "dueAt.measures": "Days",
      clientDue: "on",
      "clientDueDate.date": "{{dueAt}}",
      "clientDueDate.amount": "-2",
      "clientDueDate.measures": "Business Days",
      "notes.0": "Plain text\n\nsecond line & more",
    });
    expect(r.status).toBe(302);
    const [t] = await templatesOf(id);
    expect(t!.title).toBe(DEFAULT_TEMPLATE_TITLE);
    expect(t!.events[0]!.predicates).toEqual([]);
    expect(t!.events[0]!.action).toMatchObject({
      title: DEFAULT_MILESTONE_TITLE,
      dueAt: { date: "{{now}}", amount: 1, measures: "Days", calendar: null },
      clientDueDate: { date: "{{dueAt}}", amount: -2, measures: "Business Days" },
      notes: ["<p>Plain text</p><p>second line &amp; more</p>"],
    });
  });

  it("an upstream failure: 'Milestone creation failed' / the try-later text, everything typed kept", async () => {
    const id = await newWorkflow();
    const gone = await app.adminApi("DELETE", `/api/workflows/v2/workflows/${id}`);
    expect(gone.status).toBeLessThan(300);
    const r = await admin.post(`${url(id)}?${DATA}`, complete({ title: "Kept title" }));
    expect(r.status).toBe(404);
    const reply = (await r.json()) as Reply;
    expect(reply.toast).toMatchObject({ message: "Milestone creation failed", description: "Please, try again later or contact our development team." });
    expect(reply.state.title).toBe("Kept title");
    expect(reply.state.predicates).toHaveLength(2);
  });
});

describe("assignee suggestions (GET /workflows/assignees)", () => {
  it("the people whose e-mail or name matches, e-mail and name, for whoever assigns docket work; 404 for anyone else", async () => {
    const tag = uniq();
    const paralegal = `paralegal-${tag}@test.local`;
    await app.createUser(paralegal, []);
    // Exactly the §6 permissions of the wizard and of the docket, without users.read.
    for (const permissions of [["workflows"], ["docketing_tasks.read"]]) {
      const who = await browserWith(app, permissions);
      const r = await who.get(`${ASSIGNEE_SUGGEST_URL}?q=${encodeURIComponent(`Paralegal-${tag}`)}`);
      expect(r.status, permissions.join()).toBe(200);
      expect(r.headers.get("Cache-Control")).toBe("no-store");
      expect(await r.json()).toEqual([{ value: paralegal, label: "Test User" }]);
      expect(await (await who.get(`${ASSIGNEE_SUGGEST_URL}?q=%20`)).json()).toEqual([]);
    }
    // By name too ("Test User" is every test user's name): at most SUGGEST_LIMIT.
    const byName = (await (await admin.get(`${ASSIGNEE_SUGGEST_URL}?q=test%20user`)).json()) as { value: string; label: string }[];
    expect(byName.length).toBeGreaterThan(0);
    expect(byName.length).toBeLessThanOrEqual(SUGGEST_LIMIT);
    for (const permissions of [[], ["users.read"], ["workflows.read"]]) {
      const who = await browserWith(app, permissions);
      expect((await who.get(`${ASSIGNEE_SUGGEST_URL}?q=paralegal`)).status, permissions.join()).toBe(404);
    }
  });

  it("without JavaScript the wizard's assignees field is a text input of e-mails", async () => {
    const id = await newWorkflow();
    const html = await (await admin.get(url(id))).text();
    expect(html).toMatch(/<input[^>]*name="assignees"[^>]*type="text"|<input[^>]*type="text"[^>]*name="assignees"/);
  });
});

describe("conditions model (spec 3 §2.5)", () => {
  const fields = contractFields(EVENT_CODES.correspondence);
  it("choosing a field resets function and value; changing the function resets the value by type", () => {
    const c = withField(EMPTY_CONDITION, "{{subject}}", fields);
    expect(c).toMatchObject({ field: "{{subject}}", function: "equals", value: "" });
    const typed = { ...c, value: "OA" };
    expect(withFunction(typed, "contains").value).toBe("");
    expect(withField(typed, "{{to}}", fields)).toMatchObject({ function: "contains", value: "" });
    expect(valueKind("before", "datetime")).toBe("date");
    expect(valueKind("in", "people")).toBe("list");
    expect(valueKind("isEmpty", "string")).toBe("none");
    // Functions come from the contracts, filtered by the field's type.
    const forDates = CONTRACTS.functions.filter((f) => f.types.includes("datetime")).map((f) => f.name);
    expect(forDates).toEqual(["before", "after", "isEmpty", "isNotEmpty"]);
    expect(predicateOf({ ...withField(EMPTY_CONDITION, "{{receivedAt}}", fields), due: { date: "{{now}}", amount: "2", measures: "Weeks" } }, fields)).toEqual({
      field: "{{receivedAt}}",
      function: "before",
      arguments: [{ date: "{{now}}", amount: 2, measures: "Weeks" }],
    });
  });

  it("read-only text mode: AND inside a group, OR between groups", () => {
    const a = { ...withField(EMPTY_CONDITION, "{{subject}}", fields), function: "contains", value: "OA" };
    const b = { ...withField(EMPTY_CONDITION, "{{to}}", fields), function: "in", value: "x@y.test; z@y.test" };
    expect(groupsText([[a, b], [a]], fields)).toBe(
      '({{subject}} contains (ignoring case) "OA" AND {{to}} is one of ("x@y.test", "z@y.test")) OR ({{subject}} contains (ignoring case) "OA")',
    );
    expect(groupsText([], fields)).toBe(CONDITION_TEXTS.always);
  });
});
