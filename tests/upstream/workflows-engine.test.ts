import { describe, expect, test } from "vitest";
import { pageOf } from "@contract/common";
import { NOWHERE_ID, WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { Milestone } from "@contract/milestones";
import { computeDue, evaluatePredicate, matches, resolveConditional, resolvePeople } from "../../upstream/src/workflows/expressions";
import { START, harness, message } from "./helpers";
import { tokenWith } from "./token-with";
import { WF, activeTemplate, complete, createWorkflow, emit, g, json, milestone, processed } from "./workflows-helpers";

const MAIL = "correspondence.recieved";

describe("expressions", () => {
  const now = Date.parse("2025-01-31T10:30:00.000Z"); // a Friday
  test("due dates: calendar measures keep the time of day, month ends clamp, business days skip weekends, hours and minutes, limits", () => {
    expect(computeDue({ date: "{{now}}", amount: 1, measures: "Days" }, {}, now)).toBe("2025-02-01T10:30:00.000Z");
    expect(computeDue({ date: "{{now}}", amount: 1, measures: "Months" }, {}, now)).toBe("2025-02-28T10:30:00.000Z");
    expect(computeDue({ date: "{{now}}", amount: 1, measures: "Business Days" }, {}, now)).toBe("2025-02-03T10:30:00.000Z");
    expect(computeDue({ date: "{{now}}", amount: 2, measures: "Weeks" }, {}, now)).toBe("2025-02-14T10:30:00.000Z");
    expect(computeDue({ date: "{{filed}}", amount: 1, measures: "Years" }, { filed: "2024-02-29" }, now)).toBe("2025-02-28T00:00:00.000Z");
    expect(computeDue({ date: "{{now}}", amount: 90, measures: "Minutes" }, {}, now)).toBe("2025-01-31T12:00:00.000Z");
    expect(computeDue({ date: "{{now}}", amount: 20, measures: "Hours" }, {}, now)).toBe("2025-02-01T06:30:00.000Z");
    expect(computeDue({ date: "{{now}}", amount: 20, measures: "Hours", limits: { hoursMin: 9, hoursMax: 17 } }, {}, now)).toBe("2025-02-01T09:00:00.000Z");
    expect(computeDue({ date: "{{now}}", amount: 3, measures: "Months", limits: { daysMax: 30 } }, {}, now)).toBe("2025-03-02T10:30:00.000Z");
    expect(computeDue({ date: "{{milestone.variables.x}}", amount: 1, measures: "Days" }, { milestone: { variables: {} } }, now)).toBeNull();
  });

  test("predicates by type; OR of ANDs; conditional alternatives (the last is the else); people variables", () => {
    const scope = { subject: "Office Action mailed", from: "PTO@uspto.gov", score: 7, filed: "2025-01-10", to: ["a@x.com", "b@x.com"], urgent: true };
    const p = (field: string, fn: string, ...args: unknown[]) => ({ field: `{{${field}}}`, function: fn, arguments: args }) as Parameters<typeof evaluatePredicate>[0];
    expect(evaluatePredicate(p("subject", "contains", "office action"), scope, now)).toBe(true);
    expect(evaluatePredicate(p("subject", "equals", "Office Action mailed"), scope, now)).toBe(true);
    expect(evaluatePredicate(p("subject", "startsWith", "notice"), scope, now)).toBe(false);
    expect(evaluatePredicate(p("from", "in", ["pto@uspto.gov", "epo@epo.org"]), scope, now)).toBe(true);
    expect(evaluatePredicate(p("to", "in", ["b@x.com"]), scope, now)).toBe(true);
    expect(evaluatePredicate(p("to", "notIn", ["c@x.com"]), scope, now)).toBe(true);
    expect(evaluatePredicate(p("score", "greaterThan", 5), scope, now)).toBe(true);
    expect(evaluatePredicate(p("score", "lessThan", 5), scope, now)).toBe(false);
    expect(evaluatePredicate(p("filed", "before", { date: "{{now}}", amount: -7, measures: "Days" }), scope, now)).toBe(true);
    expect(evaluatePredicate(p("filed", "after", "2025-01-20"), scope, now)).toBe(false);
    expect(evaluatePredicate(p("missing", "isEmpty"), scope, now)).toBe(true);
    expect(evaluatePredicate(p("urgent", "isTrue"), scope, now)).toBe(true);
    expect(evaluatePredicate(p("missing", "equals", "x"), scope, now)).toBe(false);
    const yes = p("urgent", "isTrue");
    const no = p("score", "lessThan", 1);
    expect(matches([], scope, now)).toBe(true);
    expect(matches([[yes, no]], scope, now)).toBe(false);
    expect(matches([[yes, no], [yes]], scope, now)).toBe(true);
    const alternatives = [
      { predicates: [[no]], value: "first" },
      { predicates: [[yes]], value: "second" },
      { predicates: [], value: "else" },
    ];
    expect(resolveConditional(alternatives, scope, now)).toBe("second");
    expect(resolveConditional([alternatives[0]!, alternatives[2]!], scope, now)).toBe("else");
    expect(resolveConditional(["plain@x.com"], scope, now)).toEqual(["plain@x.com"]);
    expect(resolvePeople(["Boss@X.com", "{{to}}", "{{missing}}"], scope)).toEqual(["boss@x.com", "a@x.com", "b@x.com"]);
  });
});

describe("the docket engine", () => {
  test("an event creates a milestone (title, dates, assignees, notes, first tasks) when its predicates hold; idempotent events", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "Docket", clientCodes: ["ACME"] });
    const tpl = await activeTemplate(h, w.id, {
      title: "Office action response",
      events: [
        {
          code: MAIL,
          predicates: [[{ field: "{{subject}}", function: "contains", arguments: ["office action"] }], [{ field: "{{from}}", function: "equals", arguments: ["boss@acme.com"] }]],
          action: {
            title: "Respond to {{subject}}",
            dueAt: { date: "{{receivedAt}}", amount: 3, measures: "Months" },
            clientDueDate: { date: "{{receivedAt}}", amount: 2, measures: "Business Days" },
            assignees: ["para@firm.com", "{{from}}"],
            notes: ["<p>Check the <b>claims</b></p>"],
          },
        },
      ],
    });
    const mail = (subject: string, from = "pto@uspto.gov") => ({ code: MAIL, reference: "ACME-001-US", data: { subject, from, receivedAt: "2025-01-31T08:00:00.000Z" } });
    const skipped = await emit(h, mail("Filing receipt"));
    expect(skipped.milestones).toEqual([]);
    const ev = await emit(h, { ...mail("Non-final Office Action"), clientCode: "ACME" }, h.adminToken, { "Idempotency-Key": "mail-1" });
    expect(ev.milestones).toHaveLength(1);
    const m = await milestone(h, ev.milestones[0]!);
    expect(m).toMatchObject({
      title: "Respond to Non-final Office Action",
      templateId: tpl.id,
      templateTitle: "Office action response",
      workflowTitle: "Docket",
      reference: "ACME-001-US",
      clientCode: "ACME",
      status: "open",
      dueAt: "2025-04-30T08:00:00.000Z",
      clientDueDate: "2025-02-04T08:00:00.000Z",
      assignees: ["para@firm.com", "pto@uspto.gov"],
      notes: ["<p>Check the <b>claims</b></p>"],
      openTasks: 1,
    });
    expect(m.tasks.map((t) => [t.title, t.status, t.assignees, t.durationHours, t.dueAt])).toEqual([
      ["New task", "open", ["para@firm.com", "pto@uspto.gov"], 1, new Date(START + 3_600_000).toISOString()],
    ]);
    expect(m.history[0]).toMatchObject({ kind: "created", eventId: ev.id, actor: "admin@example.com" });
    // The same key again: the same event, not processed twice.
    const again = await h.call("POST", "/api/workflows/milestones", { token: h.adminToken, body: mail("Non-final Office Action"), headers: { "Idempotency-Key": "mail-1" } });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(ev.id);
    const byAuthor = await emit(h, mail("Hello", "boss@acme.com"));
    expect(byAuthor.milestones).toHaveLength(1); // the second OR group
    const page = pageOf(Milestone).parse(await json(await h.call("GET", "/api/workflows/milestones?reference=ACME-001-US", { token: h.adminToken }), 200));
    expect(page.total).toBe(2);
  });

  test("uniqueness per matter: unique once ever, uniqueAtTime not while one is open, repeatable always", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "W" });
    for (const uniqueness of ["unique", "uniqueAtTime", "repeatable"] as const) {
      await activeTemplate(h, w.id, { title: uniqueness, uniqueness, events: [{ code: MAIL }] });
    }
    const titles = async (reference: string) => {
      const ev = await emit(h, { code: MAIL, reference, data: {} });
      const out: string[] = [];
      for (const id of ev.milestones) out.push((await milestone(h, id)).templateTitle);
      return out.sort();
    };
    expect(await titles("R1")).toEqual(["repeatable", "unique", "uniqueAtTime"]);
    expect(await titles("R1")).toEqual(["repeatable"]);
    expect(await titles("R2")).toEqual(["repeatable", "unique", "uniqueAtTime"]);
    // Finish R1's uniqueAtTime milestone: another may open, the unique one never again.
    const open = pageOf(Milestone).parse(await json(await h.call("GET", "/api/workflows/milestones?reference=R1&status=open", { token: h.adminToken }), 200));
    const uat = open.items.find((m) => m.templateTitle === "uniqueAtTime")!;
    await complete(h, (await milestone(h, uat.id)).tasks[0]!.id);
    expect((await milestone(h, uat.id)).status).toBe("completed");
    expect(await titles("R1")).toEqual(["repeatable", "uniqueAtTime"]);
  });

  test("tasks: the AND join waits for all inputs, conditional alternatives use the form, nowhere closes a branch, finish completes", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "W" });
    const form = { name: "Review", properties: [{ name: "Approved", property: "approved", type: "boolean" }, { name: "Reviewer", property: "reviewer", type: "string", required: true, saveTo: "{{milestone.variables.reviewer}}" }] };
    const tpl = await activeTemplate(h, w.id, {
      title: "Join",
      events: [{ code: MAIL, action: { assignees: ["lead@firm.com"] } }],
      steps: [
        g.step("start", "milestone-start"),
        g.step("a", "task", { durationHours: 2 }),
        g.step("b", "task"),
        g.step("j", "and"),
        g.step("c", "task"),
        g.step("finish", "finish"),
        g.step(NOWHERE_ID, "nowhere"),
      ],
      paths: [
        g.path("start", "a", { to: { action: { title: "Draft {{milestone.title}}" } } }),
        g.path("start", "b"),
        g.path("a", "j", { from: { action: { form } } }),
        g.path("b", "j"),
        g.path("b", NOWHERE_ID),
        g.path("j", "c", {
          to: {
            action: {
              assignees: [
                { predicates: [[{ field: "{{milestone.variables.reviewer}}", function: "equals", arguments: ["Ann"] }]], value: ["ann@firm.com"] },
                { predicates: [], value: ["other@firm.com"] },
              ],
              dueAt: { date: "{{now}}", amount: 2, measures: "Business Days" },
            },
          },
        }),
        g.path("c", "finish"),
      ],
    });
    const ev = await emit(h, { code: MAIL, reference: "M-1", data: {} });
    const id = ev.milestones[0]!;
    let m = await milestone(h, id);
    expect(m.tasks.map((t) => [t.stepId, t.title, t.durationHours])).toEqual([
      ["a", "Draft New milestone", 2],
      ["b", "b", 1],
    ]);
    const a = m.tasks[0]!;
    expect(a.form?.name).toBe("Review");
    const missing = await h.call("POST", `/api/workflows/tasks/${a.id}/complete`, { token: h.adminToken, body: { values: { approved: true } } });
    expect(await message(missing)).toBe(`reviewer: ${M.formRequired("Reviewer")}`);
    await complete(h, a.id, { values: { approved: true, reviewer: "Ann" } });
    m = await milestone(h, id);
    expect(m.tasks.map((t) => t.stepId)).toEqual(["a", "b"]); // the join still waits for b
    expect(m.variables).toEqual({ reviewer: "Ann" });
    await complete(h, m.tasks[1]!.id);
    m = await milestone(h, id);
    const c = m.tasks.find((t) => t.stepId === "c")!;
    expect(c).toMatchObject({ status: "open", assignees: ["ann@firm.com"], dueAt: "2025-01-03T00:00:00.000Z" });
    expect(m.history.map((x) => x.kind)).toEqual(["created", "task.completed", "task.completed", "branch.closed"]);
    const again = await h.call("POST", `/api/workflows/tasks/${a.id}/complete`, { token: h.adminToken, body: {} });
    expect(again.status).toBe(409);
    expect(await message(again)).toBe(M.taskNotOpen);
    // Statistics and counts come from these tasks.
    const stats = await json(await h.call("GET", `${WF}/${w.id}/milestones/${tpl.id}/steps/a/statistics`, { token: h.adminToken }), 200);
    expect(stats).toEqual([{ status: "completed", count: 1 }]);
    expect(await json(await h.call("GET", `${WF}/${w.id}/milestones/${tpl.id}/steps/c/tasks/count`, { token: h.adminToken }), 200)).toBe(1);
    expect(await json(await h.call("POST", `${WF}/${w.id}/milestones/${tpl.id}/steps/c/options`, { token: h.adminToken, body: { isCriticalDate: true } }), 200)).toBe(1);
    expect((await milestone(h, id)).tasks.find((t) => t.stepId === "c")!.isCriticalDate).toBe(true);
    await complete(h, c.id);
    m = await milestone(h, id);
    expect(m.status).toBe("completed");
    expect(m.openTasks).toBe(0);
    expect(m.history.at(-1)).toMatchObject({ kind: "finished" });
  });

  test("deactivating stops new milestones, open ones continue; a template with open milestones is not deleted", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "W" });
    const tpl = await activeTemplate(h, w.id, { title: "T", events: [{ code: MAIL }] });
    const first = await emit(h, { code: MAIL, reference: "R", data: {} });
    await json(await h.call("POST", `${WF}/${w.id}/milestones/${tpl.id}/deactivate`, { token: h.adminToken }), 200);
    expect((await emit(h, { code: MAIL, reference: "R", data: {} })).milestones).toEqual([]);
    const refused = await h.call("DELETE", `${WF}/${w.id}/milestones/${tpl.id}`, { token: h.adminToken });
    expect(await message(refused)).toBe(M.templateOpenMilestones(1));
    const m = await milestone(h, first.milestones[0]!);
    await complete(h, m.tasks[0]!.id);
    expect((await milestone(h, m.id)).status).toBe("completed");
  });

  test("the product's own sources: a portfolio application created, an e-mail received", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "W" });
    await activeTemplate(h, w.id, { title: "New application", uniqueness: "unique", events: [{ code: "portfolio.application.created", action: { title: "Docket {{reference}}" } }] });
    await activeTemplate(h, w.id, { title: "Mail", events: [{ code: MAIL, predicates: [[{ field: "{{email.subject}}", function: "contains", arguments: ["oa"] }]] }] });
    expect((await h.call("POST", "/api/applications", { token: h.adminToken, body: { id: "US17000001", title: "Widget" } })).status).toBe(201);
    await processed(h, "application.created:US17000001");
    const list = pageOf(Milestone).parse(await json(await h.call("GET", "/api/workflows/milestones?reference=US17000001", { token: h.adminToken }), 200));
    expect(list.items.map((m) => m.title)).toEqual(["Docket US17000001"]);
    const res = await json<{ eventId: string }>(
      await h.call("POST", "/api/ms-graph-email-connector/messages", { token: h.adminToken, body: { messageId: "<m1@x>", reference: "US17000001", from: "pto@uspto.gov", subject: "New OA" } }),
      202,
    );
    expect((await processed(h, res.eventId)).milestones).toHaveLength(1);
    expect((await h.call("POST", "/api/ms-graph-email-connector/messages", { token: h.adminToken, body: { messageId: "<m1@x>", reference: "US17000001", from: "x" } })).status).toBe(200);
  });

  test("the docket list: mine, assignee, workflow, overdue, due this week, status, sort, page; who may complete a task", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "W" });
    const other = await createWorkflow(h, { title: "Other", clientCodes: ["OTH"] });
    await activeTemplate(h, w.id, { title: "T", events: [{ code: MAIL, action: { assignees: ["{{who}}"], dueAt: { date: "{{due}}", amount: 0, measures: "Days" } } }] });
    await activeTemplate(h, other.id, { title: "O", events: [{ code: MAIL, action: { dueAt: { date: "{{due}}", amount: 0, measures: "Days" } } }] });
    await emit(h, { code: MAIL, reference: "A", data: { who: "para@example.com", due: "2024-12-20" } }); // overdue
    await emit(h, { code: MAIL, reference: "B", data: { who: "para@example.com", due: "2025-01-03" } }); // this week (Mon Dec 30 – Sun Jan 5)
    await emit(h, { code: MAIL, reference: "C", data: { who: "boss@example.com", due: "2025-02-01" } });
    await emit(h, { code: MAIL, reference: "D", clientCode: "OTH", data: { due: "2025-01-02" } });
    const para = await tokenWith(h, "para@example.com", ["docketing_tasks.read"]);
    const refs = async (query: string, token = para) =>
      pageOf(Milestone).parse(await json(await h.call("GET", `/api/workflows/milestones?${query}`, { token }), 200)).items.map((m) => m.reference);
    expect(await refs("")).toEqual(["A", "D", "B", "C"]);
    expect(await refs("sort=-dueAt")).toEqual(["C", "B", "D", "A"]);
    expect(await refs("mine=true")).toEqual(["A", "B"]);
    expect(await refs("assignee=boss@example.com")).toEqual(["C"]);
    expect(await refs(`workflow=${other.id}`)).toEqual(["D"]);
    expect(await refs("overdue=true")).toEqual(["A"]);
    expect(await refs("dueThisWeek=true")).toEqual(["D", "B"]);
    expect(await refs("status=completed")).toEqual([]);
    const paged = pageOf(Milestone).parse(await json(await h.call("GET", "/api/workflows/milestones?pageSize=2&page=2", { token: para }), 200));
    expect([paged.total, paged.items.map((m) => m.reference)]).toEqual([4, ["B", "C"]]);
    // para completes her own task with docketing_tasks.read; not boss's.
    const all = pageOf(Milestone).parse(await json(await h.call("GET", "/api/workflows/milestones", { token: para }), 200)).items;
    const mine = await milestone(h, all.find((m) => m.reference === "B")!.id, para);
    const theirs = await milestone(h, all.find((m) => m.reference === "C")!.id, para);
    expect((await h.call("POST", `/api/workflows/tasks/${theirs.tasks[0]!.id}/complete`, { token: para, body: {} })).status).toBe(403);
    await complete(h, mine.tasks[0]!.id, {}, para);
    const done = await milestone(h, mine.id, para);
    expect(done.status).toBe("completed");
    expect(done.history.find((x) => x.kind === "task.completed")).toMatchObject({ actor: "para@example.com", at: new Date(START).toISOString() });
    // A person's docket follows its milestones' status.
    expect(await refs("mine=true&status=completed")).toEqual(["B"]);
    expect(await refs("mine=true&status=open&sort=-dueAt")).toEqual(["A"]);
    expect(await refs("mine=true&overdue=true")).toEqual(["A"]);
    expect((await refs("mine=true&sort=title")).sort()).toEqual(["A", "B"]);
  });
});
