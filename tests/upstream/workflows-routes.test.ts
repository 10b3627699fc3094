import { describe, expect, test } from "vitest";
import { pageOf } from "@contract/common";
import { WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { CONTRACTS } from "@contract/workflow-contracts";
import { MilestoneTemplate } from "@contract/milestone-templates";
import { Workflow } from "@contract/workflows";
import { harness, message } from "./helpers";
import { tokenWith } from "./token-with";
import { WF, activeTemplate, createWorkflow, emit, json } from "./workflows-helpers";

describe("/api/workflows/v2/workflows", () => {
  test("create (title trimmed, required), list, PUT, default, delete refused for the default with a reason", async () => {
    const h = await harness();
    const t = h.adminToken;
    const first = await createWorkflow(h, { title: "  Patents US ", clientCodes: ["ACME", "acme", "BETA"] });
    expect(first).toMatchObject({ title: "Patents US", clientCodes: ["acme", "BETA"], isDefault: true });
    const bad = await h.call("POST", WF, { token: t, body: { title: "   " } });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toContain(M.titleRequired);
    const second = await createWorkflow(h, { title: "Trademarks", clientCodes: [] });
    expect(second.isDefault).toBe(false);
    const taken = await h.call("POST", WF, { token: t, body: { title: "X", clientCodes: ["ACME"] } });
    expect(taken.status).toBe(409);
    expect(await message(taken)).toBe(M.clientCodeTaken("ACME", "Patents US"));
    const page = pageOf(Workflow).parse(await json(await h.call("GET", `${WF}?sort=name`, { token: t }), 200));
    expect(page.items.map((w) => w.title)).toEqual(["Patents US", "Trademarks"]);
    const put = Workflow.parse(await json(await h.call("PUT", `${WF}/${second.id}`, { token: t, body: { title: "Trademarks EU", clientCodes: ["GAMMA"] } }), 200));
    expect(put).toMatchObject({ title: "Trademarks EU", clientCodes: ["GAMMA"] });
    const refused = await h.call("DELETE", `${WF}/${first.id}`, { token: t });
    expect(refused.status).toBe(409);
    expect(await message(refused)).toBe(M.defaultNotDeletable);
    expect(Workflow.parse(await json(await h.call("POST", `${WF}/${second.id}/makeDefault`, { token: t }), 200)).isDefault).toBe(true);
    expect(await json(await h.call("GET", `${WF}/settings`, { token: t }), 200)).toEqual({ defaultWorkflow: second.id });
    expect(Workflow.parse(await json(await h.call("GET", `${WF}/by/default`, { token: t }), 200)).id).toBe(second.id);
    expect((await h.call("DELETE", `${WF}/${first.id}`, { token: t })).status).toBe(204);
    expect(await message(await h.call("GET", `${WF}/${first.id}`, { token: t }))).toBe(M.workflowNotFound);
  });

  test("contracts: event sources and codes, functions by type, terminal statuses", async () => {
    const h = await harness();
    const c = await json<typeof CONTRACTS>(await h.call("GET", `${WF}/settings/contracts`, { token: h.adminToken }), 200);
    expect(c).toEqual(CONTRACTS);
    expect(c.eventSources.map((s) => s.source)).toEqual(expect.arrayContaining(["milestone-start", "workflow-form", "workflow", "portfolio", "email"]));
    const codes = c.eventSources.flatMap((s) => s.events.map((e) => e.code));
    expect(codes).toEqual(expect.arrayContaining(["workflow.milestone.created", "workflow.next", "correspondence.recieved"]));
    expect(c.functions.find((f) => f.name === "before")?.types).toEqual(["date", "datetime"]);
    expect(c.functions.find((f) => f.name === "in")?.types).toContain("people");
    expect(c.miscellaneous.task.terminalStatuses).toEqual(["completed", "closed"]);
  });

  test("export, import (invalid JSON, a failing field, success), clone taking over references", async () => {
    const h = await harness();
    const t = h.adminToken;
    const w = await createWorkflow(h, { title: "Main", clientCodes: ["ACME", "BETA"] });
    await activeTemplate(h, w.id, { title: "Filing", events: [{ code: "portfolio.application.created" }] });
    const exported = await json<{ workflow: { title: string }; templates: { title: string; active: boolean }[] }>(await h.call("GET", `${WF}/${w.id}/export`, { token: t }), 200);
    expect(exported.workflow).toEqual({ title: "Main", clientCodes: ["ACME", "BETA"] });
    expect(exported.templates.map((x) => [x.title, x.active])).toEqual([["Filing", true]]);

    const invalid = await h.call("POST", `${WF}/import`, { token: t, body: { importString: "{not json" } });
    expect(invalid.status).toBe(400);
    expect(await message(invalid)).toBe(M.importInvalid);
    const failing = await h.call("POST", `${WF}/import`, { token: t, body: { importString: JSON.stringify({ workflow: { title: "" }, templates: [] }) } });
    expect(await message(failing)).toBe(`Reason: workflow.title: ${M.titleRequired}`);
    const imported = Workflow.parse(await json(await h.call("POST", `${WF}/import`, { token: t, body: { importString: JSON.stringify(exported) } }), 201));
    // Client codes another workflow holds stay there; templates arrive offline.
    expect(imported).toMatchObject({ title: "Main", clientCodes: [], isDefault: false });
    const importedTemplates = MilestoneTemplate.array().parse(await json(await h.call("GET", `${WF}/${imported.id}/milestones`, { token: t }), 200));
    expect(importedTemplates.map((x) => [x.title, x.active])).toEqual([["Filing", false]]);

    const none = await h.call("POST", `${WF}/${w.id}/clone`, { token: t });
    expect(await message(none)).toBe(`references: ${M.cloneReferenceRequired}`);
    const clone = Workflow.parse(await json(await h.call("POST", `${WF}/${w.id}/clone?references=BETA`, { token: t }), 201));
    expect(clone).toMatchObject({ title: "Main (clone)", clientCodes: ["BETA"] });
    expect(Workflow.parse(await json(await h.call("GET", `${WF}/${w.id}`, { token: t }), 200)).clientCodes).toEqual(["ACME"]);
    const cloneTemplates = MilestoneTemplate.array().parse(await json(await h.call("GET", `${WF}/${clone.id}/milestones`, { token: t }), 200));
    expect(cloneTemplates.map((x) => [x.title, x.active])).toEqual([["Filing", true]]);
    // Events of BETA now go to the clone.
    const ev = await emit(h, { code: "portfolio.application.created", reference: "US-1", clientCode: "beta" });
    const m = await json<{ workflowId: string }>(await h.call("GET", `/api/workflows/milestones/${ev.milestones[0]}`, { token: t }), 200);
    expect(m.workflowId).toBe(clone.id);
    const count = await json(await h.call("GET", "/api/workflows/migration/inventions/BETA/count", { token: t }), 200);
    expect(count).toEqual({ reference: "BETA", count: 1 });
    const titled = Workflow.parse(await json(await h.call("POST", `${WF}/${w.id}/clone?references=ACME&title=Renamed`, { token: t }), 201));
    expect(titled.title).toBe("Renamed");
  });

  test("templates: wizard create, list by title, activate/deactivate, drafts refused, delete; uniqueness and type fields", async () => {
    const h = await harness();
    const t = h.adminToken;
    const w = await createWorkflow(h, { title: "W" });
    const created = MilestoneTemplate.parse(
      await json(
        await h.call("POST", `${WF}/${w.id}/milestones/draft/template`, {
          token: t,
          body: { workflowId: w.id, data: { title: "Office action", uniqueness: "uniqueAtTime", tags: ["oa"], hidden: true, events: [{ code: "correspondence.recieved", action: { notes: ["<p>Hi<script>x</script></p>", ""] } }] } },
        }),
        201,
      ),
    );
    expect(created).toMatchObject({ active: false, isDraft: false, hasDraft: false, type: "template", uniqueness: "uniqueAtTime", hidden: true });
    expect(created.events[0]!.action).toMatchObject({ title: "New milestone", dueAt: { date: "{{now}}", amount: 1, measures: "Days" }, notes: ["<p>Hi</p>"] });
    const noEvent = await h.call("POST", `${WF}/${w.id}/milestones/draft/template`, { token: t, body: { data: { title: "x", events: [] } } });
    expect(await message(noEvent)).toContain(M.eventCodeRequired);
    const on = MilestoneTemplate.parse(await json(await h.call("POST", `${WF}/${w.id}/milestones/${created.id}/activate`, { token: t }), 200));
    expect(on.active).toBe(true);
    const content = { ...on, paths: on.paths.filter((p) => p.to.step !== "finish") };
    const unreachable = await h.call("PUT", `${WF}/${w.id}/milestones/${on.id}`, { token: t, body: content });
    expect(await message(unreachable)).toBe(M.finishUnreachable);
    const draft = MilestoneTemplate.parse(await json(await h.call("PUT", `${WF}/${w.id}/milestones/${on.id}/draft`, { token: t, body: { ...content, title: "Office action v2" } }), 200));
    expect(draft).toMatchObject({ type: "draft", isDraft: true, draftOf: on.id });
    expect(MilestoneTemplate.parse(await json(await h.call("GET", `${WF}/${w.id}/milestones/${on.id}`, { token: t }), 200)).hasDraft).toBe(true);
    const toggleDraft = await h.call("POST", `${WF}/${w.id}/milestones/${draft.id}/deactivate`, { token: t });
    expect(toggleDraft.status).toBe(409);
    expect(await message(toggleDraft)).toBe(M.draftsNotToggled);
    expect((await h.call("DELETE", `${WF}/${w.id}/milestones/${on.id}/draft/discard`, { token: t })).status).toBe(204);
    await activeTemplate(h, w.id, { title: "Annuity", events: [{ code: "workflow.next" }] });
    const list = MilestoneTemplate.array().parse(await json(await h.call("GET", `${WF}/${w.id}/milestones`, { token: t }), 200));
    expect(list.map((x) => x.title)).toEqual(["Annuity", "Office action"]);
    const off = MilestoneTemplate.parse(await json(await h.call("POST", `${WF}/${w.id}/milestones/${on.id}/deactivate`, { token: t }), 200));
    expect(off.active).toBe(false);
    expect(await json(await h.call("GET", `${WF}/tags`, { token: t }), 200)).toEqual(["oa"]);
    expect((await h.call("DELETE", `${WF}/${w.id}/milestones/${on.id}`, { token: t })).status).toBe(204);
    expect(await message(await h.call("GET", `${WF}/${w.id}/milestones/${on.id}`, { token: t }))).toBe(M.templateNotFound);
  });

  test("permissions: workflows.read reads, `workflows` writes, docketing_tasks.read reads the docket; 403 otherwise", async () => {
    const h = await harness();
    const w = await createWorkflow(h, { title: "W" });
    const tpl = await activeTemplate(h, w.id, { title: "T", events: [{ code: "workflow.next" }] });
    const reader = await tokenWith(h, "reader@example.com", ["workflows.read"]);
    expect((await h.call("GET", WF, { token: reader })).status).toBe(200);
    expect((await h.call("GET", `${WF}/${w.id}/export`, { token: reader })).status).toBe(200);
    expect((await h.call("GET", `${WF}/${w.id}/milestones/${tpl.id}/steps/task-1/statistics`, { token: reader })).status).toBe(200);
    for (const [method, url] of [
      ["POST", WF],
      ["PUT", `${WF}/${w.id}`],
      ["DELETE", `${WF}/${w.id}`],
      ["POST", `${WF}/${w.id}/clone?references=A`],
      ["POST", `${WF}/${w.id}/makeDefault`],
      ["POST", `${WF}/import`],
      ["POST", `${WF}/${w.id}/milestones/${tpl.id}/deactivate`],
      ["POST", "/api/workflows/milestones"],
    ] as const) {
      expect((await h.call(method, url, { token: reader, body: { title: "x" } })).status, `${method} ${url}`).toBe(403);
    }
    expect((await h.call("GET", "/api/workflows/milestones", { token: reader })).status).toBe(403);
    const docket = await tokenWith(h, "docket@example.com", ["docketing_tasks.read"]);
    expect((await h.call("GET", "/api/workflows/milestones", { token: docket })).status).toBe(200);
    expect((await h.call("GET", `${WF}/settings/contracts`, { token: docket })).status).toBe(200);
    expect((await h.call("GET", WF, { token: docket })).status).toBe(403);
    const none = await tokenWith(h, "none@example.com", ["messages"]);
    expect((await h.call("GET", `${WF}/${w.id}`, { token: none })).status).toBe(403);
    expect((await h.call("GET", `${WF}/${w.id}`)).status).toBe(401);
    expect(await message(await h.call("GET", `${WF}/nope`, { token: reader }))).toBe(M.workflowNotFound);
    expect(await message(await h.call("GET", "/api/workflows/milestones/nope", { token: docket }))).toBe(M.milestoneNotFound);
  });
});
