import { describe, expect, test } from "vitest";
import { RUN_LIMITS, RUN_MESSAGES, type RunEvent, type RunLimits, type RunWithEvents } from "@contract/chain-runs";
import { CHAIN_QUERY_MESSAGES } from "@contract/chain-query";
import { type FakeLlm } from "../../upstream/src/llm/fake-server";
import { withFakeLlm } from "../helpers/fake-llm";
import { createAiAdmin } from "../../upstream/src/ai-admin/service";
import { eventStream } from "../../upstream/src/chain-runs/routes";
import { ChainRuns } from "../../upstream/src/chain-runs/service";
import { openDatabase } from "../../upstream/src/db";
import { decodePayload, harness, message, type Harness } from "./helpers";
import { allEvents, fakeModelOrg, promptLink, sseEvents, stopWhen } from "./chain-runs-helpers";

let fake: FakeLlm;
withFakeLlm((started) => (fake = started));

const STREAM = "/api/v2/nlp/chains/stream";

async function setup(): Promise<{ h: Harness; organization: string; model: string }> {
  const h = await harness();
  return { h, ...(await fakeModelOrg(h, fake)) };
}

const start = (h: Harness, organization: string, chain: unknown[], extra: Record<string, unknown> = {}, token = h.adminToken) =>
  h.call("POST", STREAM, { token, body: { item: { organizations: [organization] }, template: { chain }, variables: { topic: "a widget" }, ...extra } });

const texts = (events: RunEvent[]) => events.flatMap((e) => (e.type === "stream" ? [e.data.content] : [])).join("");
const types = (events: RunEvent[]) => events.map((e) => e.type);

describe("chain runs against the fake provider", () => {
  test("a prompt link streams its tokens as numbered events; its output, usage and the run are recorded", async () => {
    const { h, organization, model } = await setup();
    const res = await start(h, organization, [promptLink(model)]);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const runId = res.headers.get("x-run-id")!;
    const events = await allEvents(res);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(types(events)[0]).toBe("chain-start");
    expect(types(events)).toContain("link-start");
    expect(events.filter((e) => e.type === "stream").length).toBeGreaterThan(3);
    expect(texts(events)).toBe("Echo: Draft a claim for a widget");
    const finish = events.find((e) => e.type === "link-finish");
    expect(finish?.data).toMatchObject({ link: 0, variable: "PROMPT_1_OUTPUT", output: "Echo: Draft a claim for a widget", usage: { promptTokens: 11, completionTokens: 7 } });
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "finished" } });
    const run = (await (await h.call("GET", `/api/v2/nlp/chains/runs/${runId}`, { token: h.adminToken })).json()) as RunWithEvents;
    expect(run).toMatchObject({ status: "finished", usage: { promptTokens: 11, completionTokens: 7 }, error: null });
    expect(run.events).toEqual(events);
  });

  test("a 429 is a retry event with the spec's text, then the answer", async () => {
    const { h, organization, model } = await setup();
    fake.fail({ status: 429 });
    const events = await allEvents(await start(h, organization, [promptLink(model)]));
    const retry = events.find((e) => e.type === "retry");
    expect(retry?.data).toMatchObject({ message: "An error occured. Retrying...", attempt: 1 });
    expect(texts(events)).toBe("Echo: Draft a claim for a widget");
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "finished" } });
  });

  test("a stream cut mid-way is an error 'Partial event stream received' and the run failed", async () => {
    const { h, organization, model } = await setup();
    fake.cutAfter(2);
    const events = await allEvents(await start(h, organization, [promptLink(model)]));
    expect(events.find((e) => e.type === "error")?.data).toEqual({ link: 0, message: "Partial event stream received" });
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "failed" } });
  });

  test("an empty answer is '<An empty string was generated..>'", async () => {
    const { h, organization, model } = await setup();
    fake.reply({ text: "" });
    const events = await allEvents(await start(h, organization, [promptLink(model)]));
    expect(events.find((e) => e.type === "link-finish")?.data).toMatchObject({ output: "<An empty string was generated..>" });
    expect(texts(events)).toBe(RUN_MESSAGES.empty);
  });

  test("Stop closes the provider's request within 100 ms and the run is cancelled with an error", async () => {
    const { h, organization, model } = await setup();
    fake.reply({ text: "word ".repeat(400) });
    fake.chunkDelay(20);
    const res = await start(h, organization, [promptLink(model)]);
    const runId = res.headers.get("x-run-id")!;
    const abortsBefore = fake.aborts.length;
    const { seen, stoppedAt } = await stopWhen(h, res, (e) => e.type === "stream");
    for (let i = 0; i < 20 && fake.aborts.length === abortsBefore; i++) await new Promise((r) => setTimeout(r, 10));
    const abort = fake.aborts.at(-1)!;
    expect(fake.aborts.length).toBe(abortsBefore + 1);
    expect(abort.path).toBe("/v1/chat/completions");
    expect(abort.at - stoppedAt).toBeLessThan(100);
    expect(seen.find((e) => e.type === "error")?.data).toMatchObject({ message: RUN_MESSAGES.cancelled });
    expect(seen.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "cancelled" } });
    const again = await h.call("POST", `/api/v2/nlp/chains/runs/${runId}/stop`, { token: h.adminToken });
    expect(again.status).toBe(409);
  });

  test("a reader that comes back with Last-Event-ID gets exactly the rest; the run went on without it", async () => {
    const { h, organization, model } = await setup();
    fake.reply({ text: "one two three four five six seven eight nine ten eleven twelve" });
    fake.chunkDelay(15);
    const res = await start(h, organization, [promptLink(model)]);
    const runId = res.headers.get("x-run-id")!;
    const first: RunEvent[] = [];
    for await (const e of sseEvents(res)) {
      first.push(e);
      if (first.length === 5) break;
    }
    const last = first.at(-1)!.id;
    const rest = await allEvents(await h.call("GET", `/api/v2/nlp/chains/runs/${runId}/events`, { token: h.adminToken, headers: { "last-event-id": String(last) } }));
    expect(rest[0]!.id).toBe(last + 1);
    const run = (await (await h.call("GET", `/api/v2/nlp/chains/runs/${runId}`, { token: h.adminToken })).json()) as RunWithEvents;
    expect([...first, ...rest]).toEqual(run.events);
    expect(run.status).toBe("finished");
    const after = await allEvents(await h.call("GET", `/api/v2/nlp/chains/runs/${runId}/events?after=${run.events.length - 1}`, { token: h.adminToken }));
    expect(after.map((e) => e.type)).toEqual(["chain-finish"]);
  });

  test("a form link pauses the run with its resolved variables; Continue resumes it with the values", async () => {
    const { h, organization, model } = await setup();
    const chain = [
      { id: "f", type: "form", name: "FORM 1", variables: [{ name: "topic", type: "string", label: "Topic" }, { name: "claims", type: "claims", label: "Claims", singleClaimMode: true }] },
      promptLink(model, "Claims about {{topic}}"),
      { id: "t", type: "template", name: "TEMPLATE 1", template: "{{topic}} / {{PROMPT_1_OUTPUT}}", renderOnly: false },
    ];
    const context = { claims: [{ claimNumber: 2, selected: true }, { claimNumber: 1, selected: true }] };
    const res = await start(h, organization, chain, { context, variables: {}, template: { chain, options: { insertIn: "Claims", insertAt: "End" } } });
    const runId = res.headers.get("x-run-id")!;
    const events: RunEvent[] = [];
    for await (const e of sseEvents(res)) {
      events.push(e);
      if (e.type === "content") break;
    }
    const form = events.at(-1)!;
    expect(form.data).toMatchObject({ link: 0, message: { type: "form", variables: [{ name: "topic", value: null }, { name: "claims", value: [{ claimNumber: 1 }] }] } });
    const waiting = (await (await h.call("GET", `/api/v2/nlp/chains/runs/${runId}`, { token: h.adminToken })).json()) as RunWithEvents;
    expect(waiting).toMatchObject({ status: "waiting", waitingAt: 0 });
    const go = await h.call("POST", `/api/v2/nlp/chains/runs/${runId}/continue`, { token: h.adminToken, body: { values: { topic: "a hinge" } } });
    expect(go.status).toBe(200);
    const rest = await allEvents(await h.call("GET", `/api/v2/nlp/chains/runs/${runId}/events`, { token: h.adminToken, headers: { "last-event-id": String(form.id) } }));
    expect(rest.find((e) => e.type === "link-finish" && e.data.link === 2)?.data).toMatchObject({ variable: "TEMPLATE_1_OUTPUT", output: "a hinge / Echo: Claims about a hinge" });
    expect(rest.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "finished", output: { Claims: "a hinge / Echo: Claims about a hinge" } } });
    const again = await h.call("POST", `/api/v2/nlp/chains/runs/${runId}/continue`, { token: h.adminToken, body: { values: {} } });
    expect(again.status).toBe(409);
  });

  test("one link by index; a query link's refusals end the run with the sandbox's message", async () => {
    const { h, organization, model } = await setup();
    const one = await allEvents(await start(h, organization, [promptLink(model), promptLink(model, "second", "PROMPT 2")], { index: 1 }));
    expect(one.filter((e) => e.type === "link-start").map((e) => e.data)).toMatchObject([{ link: 1, name: "PROMPT 2" }]);
    const cases: [string, string][] = [
      ["SELECT 1; SELECT 2", CHAIN_QUERY_MESSAGES.oneStatement],
      ["ATTACH DATABASE 'x.db' AS x", CHAIN_QUERY_MESSAGES.forbidden("ATTACH")],
      ["PRAGMA table_info(paragraphs)", CHAIN_QUERY_MESSAGES.forbidden("PRAGMA")],
      ["DELETE FROM paragraphs", CHAIN_QUERY_MESSAGES.forbidden("DELETE")],
    ];
    for (const [query, text] of cases) {
      const events = await allEvents(await start(h, organization, [{ id: "q", type: "query", name: "QUERY 1", query }]));
      expect(events.find((e) => e.type === "error")?.data.message, query).toBe(text);
    }
    const ok = await allEvents(await start(h, organization, [{ id: "q", type: "query", name: "QUERY 1", query: "SELECT count(*) AS n FROM inventions WHERE :topic IS NOT NULL" }]));
    expect(ok.find((e) => e.type === "link-finish")?.data).toMatchObject({ variable: "QUERY_1_OUTPUT", output: '[{"n":0}]' });
  });

  test("a runaway query is stopped at the sandbox's deadline", { timeout: 20_000 }, async () => {
    const { h, organization } = await setup();
    const runaway = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n";
    const events = await allEvents(await start(h, organization, [{ id: "q", type: "query", name: "QUERY 1", query: runaway }]));
    expect(events.find((e) => e.type === "error")?.data.message).toBe(CHAIN_QUERY_MESSAGES.tooSlow(5_000));
  });

  test("limits: runs per user at once; another user neither sees nor stops a run", async () => {
    const { h, organization, model } = await setup();
    fake.slowFirstToken(2_000);
    const started: Response[] = [];
    for (let i = 0; i < RUN_LIMITS.perUser; i++) started.push(await start(h, organization, [promptLink(model)]));
    const refused = await start(h, organization, [promptLink(model)]);
    expect(refused.status).toBe(429);
    expect(await message(refused)).toBe(RUN_MESSAGES.tooManyRuns(RUN_LIMITS.perUser));
    const reader = await h.createUser({ email: "reader@example.com" });
    await h.call("PATCH", `/api/auth/users/${reader.id}`, { token: h.adminToken, body: { id: reader.id, permissions: ["prompts.read"] } });
    const token = await h.login("reader@example.com", "secret1");
    const runId = started[0]!.headers.get("x-run-id")!;
    expect((await h.call("GET", `/api/v2/nlp/chains/runs/${runId}`, { token })).status).toBe(404);
    expect((await h.call("POST", `/api/v2/nlp/chains/runs/${runId}/stop`, { token })).status).toBe(404);
    await h.createUser({ email: "none@example.com" });
    expect((await start(h, organization, [promptLink(model)], {}, await h.login("none@example.com", "secret1"))).status).toBe(403);
    for (const res of started) await h.call("POST", `/api/v2/nlp/chains/runs/${res.headers.get("x-run-id")}/stop`, { token: h.adminToken });
    for (const res of started) await res.body?.cancel();
    const empty = await h.call("POST", STREAM, { token: h.adminToken, body: { template: { chain: [] } } });
    expect(empty.status).toBe(400);
    expect(await message(empty)).toBe(RUN_MESSAGES.noLinks);
    const badIndex = await start(h, organization, [promptLink(model)], { index: 3 });
    expect(await message(badIndex)).toBe(RUN_MESSAGES.badIndex);
  });

  test("chat: the history's user authors are the user, the rest the assistant; an empty message runs nothing", async () => {
    const { h, organization, model } = await setup();
    const chat = { type: "chat", model, messages: [{ role: "system", content: "Help with {{topic}}." }] };
    const body = {
      item: { organizations: [organization] },
      chat,
      variables: { topic: "claims" },
      history: [
        { author: "CURRENT_USER", text: "first question" },
        { author: "template-generator", text: "generated" },
        { author: "hub-vectorizer", text: "vectors" },
        { author: "gpt", text: "an answer" },
      ],
      message: "and now?",
    };
    const events = await allEvents(await h.call("POST", "/api/v2/nlp/chat", { token: h.adminToken, body }));
    expect(types(events)[0]).toBe("chat-start");
    expect(events.at(-1)).toMatchObject({ type: "chat-end", data: { status: "finished", output: "Echo: and now?" } });
    const sent = fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages).toEqual([
      { role: "system", content: "Help with claims." },
      { role: "user", content: "first question" },
      { role: "user", content: "generated" },
      { role: "user", content: "vectors" },
      { role: "assistant", content: "an answer" },
      { role: "user", content: "and now?" },
    ]);
    const noHistory = await allEvents(await h.call("POST", "/api/v2/nlp/chat", { token: h.adminToken, body: { ...body, chat: { ...chat, includeHistory: false } } }));
    expect(noHistory.at(-1)?.type).toBe("chat-end");
    expect((fake.requests.at(-1)!.body as { messages: unknown[] }).messages).toHaveLength(2);
    const before = fake.requests.length;
    const empty = await h.call("POST", "/api/v2/nlp/chat", { token: h.adminToken, body: { ...body, message: "   " } });
    expect(empty.status).toBe(204);
    expect(fake.requests.length).toBe(before);
  });

  test("a whole-chain run goes on into its chat: chain → chat events in order, the chat rendered with the chain's outputs; one link does not chat", async () => {
    const { h, organization, model } = await setup();
    const chat = { type: "chat", model, messages: [{ role: "system", content: "Discuss {{PROMPT_1_OUTPUT}}." }, { role: "user", content: "About {{topic}}: {{TEMPLATE_1_OUTPUT}}" }] };
    const chain = [promptLink(model), { id: "t", type: "template", name: "TEMPLATE 1", template: "[{{PROMPT_1_OUTPUT}}]", renderOnly: true }];
    fake.reply({ text: "a hinge claim" });
    const res = await start(h, organization, chain, { template: { chain, chat } });
    const runId = res.headers.get("x-run-id")!;
    const events = await allEvents(res);
    const order = types(events).filter((t) => t !== "stream");
    expect(order).toEqual(["chain-start", "link-start", "link-finish", "link-start", "link-finish", "chat-start", "chat-end", "chain-finish"]);
    const chatStart = events.find((e) => e.type === "chat-start")!;
    expect(chatStart.data).toMatchObject({ runId, name: "CHAT", input: { messages: [{ role: "system", content: "Discuss a hinge claim." }, { role: "user", content: "About a widget: [a hinge claim]" }] } });
    expect(chatStart.data).not.toHaveProperty("message");
    const chatStream = events.filter((e) => e.type === "stream" && e.id > chatStart.id).map((e) => (e.type === "stream" ? e.data : null));
    expect(chatStream.every((d) => d?.link === null)).toBe(true);
    expect(chatStream.map((d) => d?.content).join("")).toBe("Echo: About a widget: [a hinge claim]");
    expect(fake.requests.at(-1)!.body).toMatchObject({ messages: [{ role: "system", content: "Discuss a hinge claim." }, { role: "user", content: "About a widget: [a hinge claim]" }] });
    const end = events.find((e) => e.type === "chat-end")!;
    expect(end.data).toMatchObject({ status: "finished", output: "Echo: About a widget: [a hinge claim]" });
    expect(end.type === "chat-end" && end.data.usage.completionTokens).toBeGreaterThan(0);
    // The result inserted into the document stays the last link's; the run's usage counts the chat's tokens too.
    const run = (await (await h.call("GET", `/api/v2/nlp/chains/runs/${runId}`, { token: h.adminToken })).json()) as RunWithEvents;
    expect(run).toMatchObject({ status: "finished", chat: true, parentId: null });
    expect(run.conversation).toEqual([{ author: "assistant", text: "Echo: About a widget: [a hinge claim]", runId }]);
    const before = fake.requests.length;
    const one = await allEvents(await start(h, organization, chain, { template: { chain, chat }, index: 0 }));
    expect(types(one)).not.toContain("chat-start");
    expect(fake.requests.length).toBe(before + 1);
    const oneRun = (await (await h.call("GET", `/api/v2/nlp/chains/runs/${one[0]!.type === "chain-start" ? one[0]!.data.runId : ""}`, { token: h.adminToken })).json()) as RunWithEvents;
    expect(oneRun.chat).toBe(false);
  });

  test("a message after a chain run's chat carries that run's variables and conversation; a chat with no messages waits for the first", async () => {
    const { h, organization, model } = await setup();
    const chat = { type: "chat", model, includeHistory: true, messages: [{ role: "system", content: "You know {{PROMPT_1_OUTPUT}} and {{topic}}." }, { role: "user", content: "Summarize." }] };
    const chain = [promptLink(model)];
    fake.reply({ text: "claim one" });
    const first = await start(h, organization, chain, { template: { chain, chat } });
    const parent = first.headers.get("x-run-id")!;
    await allEvents(first);
    const follow = (message: string, runId = parent, token = h.adminToken) => h.call("POST", "/api/v2/nlp/chat", { token, body: { runId, message } });
    const a = await follow("Shorter?");
    expect(a.status).toBe(200);
    const aEvents = await allEvents(a);
    expect(aEvents[0]).toMatchObject({ type: "chat-start", data: { message: "Shorter?" } });
    expect(aEvents.at(-1)).toMatchObject({ type: "chat-end", data: { status: "finished", output: "Echo: Shorter?" } });
    expect((fake.requests.at(-1)!.body as { messages: unknown[] }).messages).toEqual([
      { role: "system", content: "You know claim one and a widget." },
      { role: "user", content: "Summarize." },
      { role: "assistant", content: "Echo: Summarize." },
      { role: "user", content: "Shorter?" },
    ]);
    await allEvents(await follow("And again?"));
    expect((fake.requests.at(-1)!.body as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual([
      "You know claim one and a widget.",
      "Summarize.",
      "Echo: Summarize.",
      "Shorter?",
      "Echo: Shorter?",
      "And again?",
    ]);
    const aId = a.headers.get("x-run-id")!;
    const aRun = (await (await h.call("GET", `/api/v2/nlp/chains/runs/${aId}`, { token: h.adminToken })).json()) as RunWithEvents;
    expect(aRun).toMatchObject({ kind: "chat", parentId: parent });
    expect(aRun.conversation.map((m) => [m.author, m.text])).toEqual([["assistant", "Echo: Summarize."], ["CURRENT_USER", "Shorter?"]]);
    const parentRun = (await (await h.call("GET", `/api/v2/nlp/chains/runs/${parent}`, { token: h.adminToken })).json()) as RunWithEvents;
    expect(parentRun.conversation.map((m) => m.text)).toEqual(["Echo: Summarize.", "Shorter?", "Echo: Shorter?", "And again?", "Echo: And again?"]);

    // Another user's run is not found; a run still going takes no message yet; a run without a chat has none.
    const other = await h.createUser({ email: "chatter@example.com" });
    await h.call("PATCH", `/api/auth/users/${other.id}`, { token: h.adminToken, body: { id: other.id, permissions: ["prompts.read"] } });
    expect((await follow("mine?", parent, await h.login("chatter@example.com", "secret1"))).status).toBe(404);
    fake.slowFirstToken(1_000);
    const going = await start(h, organization, chain, { template: { chain, chat } });
    const refused = await follow("too soon", going.headers.get("x-run-id")!);
    expect([refused.status, await message(refused)]).toEqual([409, RUN_MESSAGES.notOver]);
    await h.call("POST", `/api/v2/nlp/chains/runs/${going.headers.get("x-run-id")}/stop`, { token: h.adminToken });
    await going.body?.cancel();
    fake.slowFirstToken(0);
    const plain = await start(h, organization, chain);
    await allEvents(plain);
    const none = await follow("chat?", plain.headers.get("x-run-id")!);
    expect([none.status, await message(none)]).toEqual([400, RUN_MESSAGES.noChat]);

    // No messages configured: the run ends after its links; the first message is the user's.
    const quiet = { ...chat, messages: [] };
    const waits = await start(h, organization, chain, { template: { chain, chat: quiet } });
    const waitsId = waits.headers.get("x-run-id")!;
    expect(types(await allEvents(waits))).not.toContain("chat-start");
    const firstMessage = await allEvents(await follow("Hello", waitsId));
    expect(firstMessage.at(-1)).toMatchObject({ type: "chat-end", data: { output: "Echo: Hello" } });
    expect((fake.requests.at(-1)!.body as { messages: unknown[] }).messages).toEqual([{ role: "user", content: "Hello" }]);
  });

  test("Stop during a chain run's chat closes the provider's request within 100 ms; chat-end and chain-finish say cancelled", async () => {
    const { h, organization, model } = await setup();
    const chat = { type: "chat", model, messages: [{ role: "user", content: "Go on about {{PROMPT_1_OUTPUT}}" }] };
    fake.reply({ text: "short" }, { text: "word ".repeat(400) });
    fake.chunkDelay(20);
    const res = await start(h, organization, [promptLink(model)], { template: { chain: [promptLink(model)], chat } });
    let inChat = false;
    const abortsBefore = fake.aborts.length;
    const { seen, stoppedAt } = await stopWhen(h, res, (e) => {
      if (e.type === "chat-start") inChat = true;
      return inChat && e.type === "stream";
    });
    for (let i = 0; i < 20 && fake.aborts.length === abortsBefore; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fake.aborts.length).toBe(abortsBefore + 1);
    expect(fake.aborts.at(-1)!.at - stoppedAt).toBeLessThan(100);
    expect(types(seen).slice(-3)).toEqual(["error", "chat-end", "chain-finish"]);
    expect(seen.at(-2)).toMatchObject({ data: { status: "cancelled" } });
    expect(seen.at(-1)).toMatchObject({ data: { status: "cancelled" } });
  });

  test("images uploaded onto a prompt's user message go to the model as image parts after the message's text", async () => {
    const { h, organization, model } = await setup();
    const png = "iVBORw0KGgo=";
    const files = [
      { name: "fig 1.png", type: "png", base64: png },
      { name: "fig 2.jpg", type: "jpg", base64: "/9j/\n4AA=" },
    ] as const;
    const withImages = {
      ...promptLink(model),
      messages: [
        { role: "system", content: "You are a patent attorney." },
        { role: "user", content: "Draft a claim for {{topic}}", supplementals: { files } },
      ],
    };
    const events = await allEvents(await start(h, organization, [withImages]));
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "finished" } });
    const sent = fake.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(sent.messages).toEqual([
      { role: "system", content: "You are a patent attorney." },
      {
        role: "user",
        content: [
          { type: "text", text: "Draft a claim for a widget" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AA=" } },
        ],
      },
    ]);
  });

  test("variables/resolve: claims chosen and sorted, a document by code and selector, a run variable", async () => {
    const { h } = await setup();
    const res = await h.call("POST", "/api/v2/nlp/chains/variables/resolve", {
      token: h.adminToken,
      body: {
        variables: [
          { name: "claims", type: "claims" },
          { name: "idf", type: "string", source: { docCode: "IDF", selector: "newest" } },
          { name: "plain", type: "string", value: "given" },
        ],
        context: {
          claims: [{ claimNumber: 3 }, { claimNumber: 1 }],
          documents: [
            { docCode: "IDF", createdAt: "2025-01-01", text: "old" },
            { docCode: "IDF", createdAt: "2025-02-01", text: "new" },
          ],
        },
      },
    });
    expect(await res.json()).toEqual({
      variables: [
        { name: "claims", type: "claims", value: [{ claimNumber: 1 }, { claimNumber: 3 }] },
        { name: "idf", type: "string", value: "new" },
        { name: "plain", type: "string", value: "given" },
      ],
    });
  });
});

describe("run bounds during a run", () => {
  /** The engine on the harness's database with `limits`, the administrator as the actor. */
  async function engine(limits: Partial<RunLimits>) {
    const { h, organization, model } = await setup();
    const db = openDatabase(h.dir);
    const runs = new ChainRuns({
      db,
      now: Date.now,
      ai: createAiAdmin(db, Date.now),
      query: () => {
        throw new Error("no query here");
      },
      log: () => {},
      limits: { ...RUN_LIMITS, ...limits },
    });
    const actor = { id: String(decodePayload(h.adminToken).sub), email: "admin@example.com", permissions: ["prompts"] };
    const finished = async (id: string) => {
      await expect.poll(() => runs.registry.get(id), { timeout: 10_000 }).toBeNull();
      return runs.store.eventsAfter(id, 0);
    };
    return { runs, actor, organization, model, finished, close: () => db.close() };
  }

  test("tokens past the run's bound, an output past the link's bound: the run fails with the limit's message", async () => {
    const e = await engine({ tokens: 10, outputChars: 1_000 });
    const body = { item: { organizations: [e.organization] }, template: { chain: [promptLink(e.model)] }, variables: { topic: "a widget" } };
    const tokens = await e.finished(e.runs.startChain(e.actor, body).id);
    expect(tokens.find((x) => x.type === "error")?.data).toMatchObject({ message: RUN_MESSAGES.tooManyTokens(10) });
    fake.reply({ text: "y".repeat(1_200) });
    const id = e.runs.startChain(e.actor, body).id;
    const output = await e.finished(id);
    expect(output.find((x) => x.type === "error")?.data).toMatchObject({ message: RUN_MESSAGES.outputTooLong(1_000) });
    expect(e.runs.store.get(id)?.status).toBe("failed");
    e.close();
  });

  test("a run past its maximum duration is cancelled though no one listens", async () => {
    const e = await engine({ durationMs: 300 });
    const body = {
      item: { organizations: [e.organization] },
      template: { chain: [{ id: "f", type: "form" as const, name: "FORM 1", variables: [{ name: "x", type: "string" }] }] },
    };
    const events = await e.finished(e.runs.startChain(e.actor, body).id);
    expect(events.find((x) => x.type === "error")?.data).toMatchObject({ message: RUN_MESSAGES.tooLong(300) });
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "cancelled" } });
    e.close();
  });

  test("an open stream pings (no id line, the last event's id) while the run waits at a form", async () => {
    const e = await engine({});
    const body = {
      item: { organizations: [e.organization] },
      template: { chain: [{ id: "f", type: "form" as const, name: "FORM 1", variables: [{ name: "x", type: "string" }] }] },
    };
    const run = e.runs.startChain(e.actor, body);
    await expect.poll(() => run.status).toBe("waiting");
    const res = eventStream(e.runs, run.id, 0, {}, 50);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("event: ping")) text += (await reader.read()).value ?? "";
    const ping = text.slice(text.indexOf("event: ping"));
    expect(ping).not.toMatch(/^id:/m);
    expect(JSON.parse(/data: (.*)/.exec(ping)![1]!)).toMatchObject({ type: "ping", id: run.seq });
    await reader.cancel();
    e.runs.registry.stop(run);
    e.close();
  });
});
