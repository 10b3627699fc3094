import { describe, expect, test } from "vitest";
import { CONNECT_MESSAGES, GRAPH_MESSAGES, NOWHERE_PORT } from "@contract/graph";
import { MilestoneTemplate } from "@contract/milestone-templates";
import { harness, message } from "./helpers";
import { WF, createWorkflow, json } from "./workflows-helpers";

/** The upstream refuses a template the graph model finds unsound, on every call that saves one. */
describe("saving a template runs the graph model", () => {
  test("PUT, the draft's PUT and the import answer 400 naming the first problem; a sound graph saves", async () => {
    const h = await harness();
    const t = h.adminToken;
    const w = await createWorkflow(h, { title: "W" });
    const created = MilestoneTemplate.parse(
      await json(await h.call("POST", `${WF}/${w.id}/milestones/draft/template`, { token: t, body: { data: { title: "OA", events: [{ code: "correspondence.recieved" }] } } }), 201),
    );
    const base = `${WF}/${w.id}/milestones/${created.id}`;
    const twice = { ...created, paths: [...created.paths, created.paths[0]!] };
    const refused = await h.call("PUT", base, { token: t, body: twice });
    expect(refused.status).toBe(400);
    expect(await message(refused)).toBe(CONNECT_MESSAGES.duplicate);
    const draft = await h.call("PUT", `${base}/draft`, { token: t, body: twice });
    expect(draft.status).toBe(400);
    const nowhere = { ...created, paths: [...created.paths, { from: { step: "task-1", port: NOWHERE_PORT }, to: { step: "100500" } }] };
    expect(await message(await h.call("PUT", base, { token: t, body: nowhere }))).toBe(GRAPH_MESSAGES.nowherePortNeedsForm);
    const staged = { ...created, roadmap: [{ name: "A", steps: ["task-1"] }, { name: "B", steps: ["task-1"] }] };
    expect(await message(await h.call("PUT", base, { token: t, body: staged }))).toBe(GRAPH_MESSAGES.roadmapStepTwice("New task"));
    const importString = JSON.stringify({ ...twice, active: false });
    const imported = await h.call("POST", `${WF}/${w.id}/milestones/import`, { token: t, body: { importString } });
    expect(imported.status).toBe(400);
    const ok = MilestoneTemplate.parse(await json(await h.call("PUT", base, { token: t, body: { ...created, roadmap: [{ name: "A", steps: ["task-1"] }] } }), 200));
    expect(ok.roadmap).toEqual([{ name: "A", steps: ["task-1"] }]);
  });
});
