import { describe, expect, it } from "vitest";
import { ModelConfiguration } from "@contract/ai-admin";
import type { ChainLinkInput } from "@contract/chains";
import { RUN_MESSAGES, type RunEvent } from "@contract/chain-runs";
import { Organization } from "@contract/organizations";
import { RUNS } from "~/chains/run/texts";
import { answerOf, isGoing, paneOf } from "~/chains/run/view";
import { type FakeLlm } from "../../upstream/src/llm/fake-server";
import { withFakeLlm } from "../helpers/fake-llm";
import { appAsAdmin, uniq, unescapeHtml } from "../helpers/app";
import { chainsOf } from "../helpers/chains";

/** Runs from the chain page (spec 3 §2.9, §4.3) against the fake provider: the run page without JavaScript, the stream route. */
const { app, admin } = appAsAdmin();
const chains = chainsOf(app);
let fake: FakeLlm;
withFakeLlm((started) => (fake = started));

let setup: Promise<{ organization: string; model: string }> | null = null;
/** One organization allowed one model of the fake provider. */
function fakeModel() {
  setup ??= (async () => {
    const org = Organization.parse(await (await app.adminApi("POST", "/api/organizations", { name: `Acme ${uniq()}` })).json());
    const res = await app.adminApi("POST", "/api/v2/nlp/configurations", {
      name: `fake-${uniq()}`,
      provider: "openai-compatible",
      capability: "chat",
      organizations: [org.id],
      config: JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-chat", timeoutMs: 10_000 }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return { organization: org.id, model: ModelConfiguration.parse(await res.json()).id };
  })();
  return setup;
}

const prompt = (model: string, content = "Draft a claim for {{topic}}"): ChainLinkInput => ({
  id: "p",
  type: "prompt",
  name: "PROMPT 1",
  model,
  messages: [
    { role: "system", content: "You are a patent attorney." },
    { role: "user", content },
  ],
});

async function chainOf(links: ChainLinkInput[], chat: Record<string, unknown> | null = null) {
  const { organization } = await fakeModel();
  return chains.create({ name: `Run ${uniq()}`, organizations: [organization], template: { chain: links, options: {}, chat } });
}

/** Posts Run (or one link) and answers the run page's address. */
async function run(chainId: string, index?: number) {
  const res = await admin.post(`/chains/${chainId}/runs`, index === undefined ? {} : { index: String(index) });
  expect(res.status).toBe(302);
  const location = res.headers.get("Location")!;
  expect(location).toMatch(new RegExp(`^/chains/${chainId}/runs/[^/]+$`));
  return location;
}

/** The run page once `done` holds of it (the no-JS page is reloaded as its refresh would). */
async function pageWhen(url: string, done: (html: string) => boolean, as: Pick<typeof admin, "get"> = admin) {
  for (let i = 0; i < 200; i++) {
    const html = unescapeHtml(await (await as.get(url)).text()).replace(/&lt;/g, "<").replace(/&gt;/g, ">");
    if (done(html)) return html;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the run page never got there: ${url}`);
}
const over = (html: string) => !html.includes('http-equiv="refresh"') && !html.includes(`>${RUNS.stop}<`);

describe("running a chain from its page", () => {
  it("Run lands on the run's page: it refreshes itself while running, then shows the answer, what was sent, tokens and time", async () => {
    const { model } = await fakeModel();
    const chain = await chainOf([prompt(model, "Draft a claim for a hinge")]);
    const page = await (await admin.get(`/chains/${chain.id}`)).text();
    expect(page).toContain(`action="/chains/${chain.id}/runs"`);
    fake.reply({ text: "one two three four five six" });
    fake.chunkDelay(60);
    const url = await run(chain.id);
    const going = unescapeHtml(await (await admin.get(url)).text());
    expect(going).toContain('<meta http-equiv="refresh" content="2"/>');
    expect(going).toContain(`>${RUNS.stop}<`);
    const done = await pageWhen(url, over);
    expect(done).toContain(RUNS.status.finished);
    expect(done).toContain("one two three four five six");
    expect(done).toContain(RUNS.outputVariable("PROMPT_1_OUTPUT"));
    expect(done).toMatch(/\d+ tokens in, \d+ out/);
    expect(done).toContain("Draft a claim for a hinge");
    expect(done).toContain(`>${RUNS.reset}<`);
  });

  it("a 429 shows the retry text then the answer; an empty answer and a cut stream show the spec's texts", async () => {
    const { model } = await fakeModel();
    const chain = await chainOf([prompt(model, "Draft")]);
    fake.fail({ status: 429 });
    const retried = await pageWhen(await run(chain.id), over);
    expect(retried).toContain(RUN_MESSAGES.retrying);
    expect(retried).toContain("Echo: Draft");
    fake.reply({ text: "" });
    expect(await pageWhen(await run(chain.id), over)).toContain(RUN_MESSAGES.empty);
    fake.reply({ text: "a b c d e f g h" });
    fake.cutAfter(2);
    const cut = await pageWhen(await run(chain.id), over);
    expect(cut).toContain(RUN_MESSAGES.partialStream);
    expect(cut).toContain(RUNS.status.failed);
  });

  it("a form step is a server form: Continue posts its values and the run goes on; one link runs alone by index", async () => {
    const { model } = await fakeModel();
    const chain = await chainOf([
      { id: "f", type: "form", name: "FORM 1", variables: [{ name: "topic", type: "string", label: "Topic" }] } as ChainLinkInput,
      prompt(model, "Claims about {{topic}}"),
    ]);
    const url = await run(chain.id);
    const waiting = await pageWhen(url, (html) => html.includes(`>${RUNS.continue}<`));
    expect(waiting).toContain(RUNS.status.waiting);
    expect(waiting).not.toContain('http-equiv="refresh"');
    expect(waiting).toContain('name="var:topic"');
    const go = await admin.post(url, { intent: "continue", "var:topic": "a hinge" });
    expect([go.status, go.headers.get("Location")]).toEqual([302, url]);
    const done = await pageWhen(url, over);
    expect(done).toContain("Echo: Claims about a hinge");

    const one = await pageWhen(await run(chain.id, 1), over);
    expect(one).toContain("Echo: Claims about ");
    expect(one).not.toContain("FORM 1");
  });

  it("a whole-chain run goes on into its chat: the page shows the chat's answer and its box; a message follows with the run's variables and history", async () => {
    const { model } = await fakeModel();
    const chat = { type: "chat", model, includeHistory: true, messages: [{ role: "system", content: "You know {{PROMPT_1_OUTPUT}}." }, { role: "user", content: "Summarize." }] };
    const chain = await chainOf([prompt(model, "Draft a claim for a hinge")], chat);
    fake.reply({ text: "a hinge claim" });
    const url = await run(chain.id);
    const runId = url.split("/").at(-1)!;
    const done = await pageWhen(url, over);
    expect(done).toContain(RUNS.status.finished);
    expect(done).toContain("Echo: Summarize.");
    expect(done).toContain("You know a hinge claim.");
    expect(done).toContain(RUNS.chatMessage);
    expect(done).toContain(`name="run" value="${runId}"`);
    // Each item's facts are joined by " · "; the chat has no output variable, and its facts start with its tokens.
    const facts = [...done.matchAll(/class="muted run-facts">([^<]*)</g)].map((m) => m[1]!);
    expect(facts.length).toBeGreaterThanOrEqual(2);
    for (const line of facts) expect(line).not.toMatch(/^ ?·|· ?$/);
    // An empty message is ignored: back on the run's page.
    const empty = await admin.post(`/chains/${chain.id}/runs`, { intent: "chat", message: " ", run: runId });
    expect([empty.status, empty.headers.get("Location")]).toEqual([302, url]);
    const sent = await admin.post(`/chains/${chain.id}/runs`, { intent: "chat", message: "Shorter?", run: runId });
    expect(sent.status).toBe(302);
    const next = sent.headers.get("Location")!;
    expect(next).toMatch(new RegExp(`^/chains/${chain.id}/runs/[^/]+$`));
    expect(next).not.toBe(url);
    const answered = await pageWhen(next, over);
    expect(answered).toContain("Echo: Shorter?");
    expect(answered).toContain(RUNS.conversation);
    expect(answered).toContain("Echo: Summarize.");
    // The next message from here follows the same chain run.
    expect(answered).toContain(`name="run" value="${runId}"`);
    expect((fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages.map((m) => [m.role, m.content])).toEqual([
      ["system", "You know a hinge claim."],
      ["user", "Summarize."],
      ["assistant", "Echo: Summarize."],
      ["user", "Shorter?"],
    ]);
    // The chain run's page shows what followed its chat's answer.
    const back = unescapeHtml(await (await admin.get(url)).text());
    expect(back).toContain("Shorter?");
    expect(back).toContain("Echo: Shorter?");
  });

  it("each link has its Run button, posting its index through the page's one run form (editor and read-only view)", async () => {
    const { model } = await fakeModel();
    const chain = await chainOf([prompt(model, "Draft"), { id: "t", type: "template", name: "TEMPLATE 1", template: "x", renderOnly: false } as ChainLinkInput]);
    const buttons = (html: string) => [...html.matchAll(/<button[^>]*form="chain-run"[^>]*>/g)].map((m) => m[0]);
    const page = unescapeHtml(await (await admin.get(`/chains/${chain.id}`)).text());
    expect(page).toMatch(/<form[^>]*id="chain-run"/);
    expect(page).not.toContain("Run one link");
    const editor = buttons(page);
    expect(editor).toHaveLength(2);
    expect(editor[0]).toContain(`aria-label="${RUNS.runLink("PROMPT 1")}"`);
    expect(editor[0]).toContain('name="index" value="0"');
    expect(editor[1]).toContain(`aria-label="${RUNS.runLink("TEMPLATE 1")}"`);
    expect(editor[1]).toContain('value="1"');
    const email = `runner-${uniq()}@test.local`;
    await app.createUser(email, ["prompts.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const view = buttons(unescapeHtml(await (await reader.get(`/chains/${chain.id}`)).text()));
    expect(view.map((b) => /aria-label="([^"]*)"/.exec(b)![1])).toEqual([RUNS.runLink("PROMPT 1"), RUNS.runLink("TEMPLATE 1")]);
    // The button's post: the run form's fields with its index.
    const one = await reader.post(`/chains/${chain.id}/runs`, { index: "1" });
    expect(one.headers.get("Location")).toMatch(new RegExp(`^/chains/${chain.id}/runs/[^/]+$`));
    const html = await pageWhen(one.headers.get("Location")!, over, reader);
    expect(html).toContain(RUNS.status.finished);
    expect(html).toContain("TEMPLATE 1");
    expect(html).not.toContain("PROMPT 1");
  });

  it("Stop ends the provider's request at once; the page says the run was stopped", async () => {
    const { model } = await fakeModel();
    const chain = await chainOf([prompt(model, "Long")]);
    fake.reply({ text: "word ".repeat(400) });
    fake.chunkDelay(20);
    const url = await run(chain.id);
    await pageWhen(url, (html) => html.includes("word word"));
    const before = fake.aborts.length;
    const clicked = Date.now();
    expect((await admin.post(url, { intent: "stop" })).status).toBe(302);
    for (let i = 0; i < 50 && fake.aborts.length === before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fake.aborts.length).toBe(before + 1);
    expect(fake.aborts.at(-1)!.at - clicked).toBeLessThan(100);
    const stopped = await pageWhen(url, over);
    expect(stopped).toContain(RUNS.status.cancelled);
    expect(stopped).toContain(RUN_MESSAGES.cancelled);
  });

  it("the events route streams the log after Last-Event-ID as text/event-stream; a run is its starter's only", async () => {
    const { model } = await fakeModel();
    const chain = await chainOf([prompt(model, "Draft")]);
    const url = await run(chain.id);
    await pageWhen(url, over);
    const all = await admin.send(new Request(`http://localhost${url}/events`, { headers: { Cookie: admin.header() } }));
    expect(all.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const text = await all.text();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids[0]).toBe(1);
    expect(text).toContain("event: chain-finish");
    const rest = await (await admin.send(new Request(`http://localhost${url}/events`, { headers: { Cookie: admin.header(), "Last-Event-ID": "2" } }))).text();
    expect([...rest.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual(ids.filter((id) => id > 2));

    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["prompts.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    expect((await reader.get(url)).status).toBe(404);
    expect((await reader.post(url, { intent: "stop" })).status).toBe(404);
    expect((await admin.get(`/chains/${chain.id}/runs/no-such-run`)).status).toBe(404);
  });

  it("the chat: an empty message is ignored; a message runs with the conversation so far as its history", async () => {
    const { model } = await fakeModel();
    // Spec 3 §4.2: a chain without links has no chat.
    const chain = await chainOf([prompt(model)], { type: "chat", model, messages: [{ role: "system", content: "You answer briefly." }], includeHistory: true });
    const page = unescapeHtml(await (await admin.get(`/chains/${chain.id}`)).text());
    expect(page).toContain(RUNS.chatMessage);
    const empty = await admin.post(`/chains/${chain.id}/runs`, { intent: "chat", message: "  " });
    expect([empty.status, empty.headers.get("Location")]).toEqual([302, `/chains/${chain.id}`]);
    const first = await admin.post(`/chains/${chain.id}/runs`, { intent: "chat", message: "Hello there" });
    const url = first.headers.get("Location")!;
    expect(url).toMatch(new RegExp(`^/chains/${chain.id}/runs/[^/]+$`));
    const answered = await pageWhen(url, over);
    expect(answered).toContain("Echo: Hello there");
    expect(answered).toContain(RUNS.conversation);
    const second = await admin.post(`/chains/${chain.id}/runs`, { intent: "chat", message: "And again" });
    const next = await pageWhen(second.headers.get("Location")!, over);
    expect(next).toContain("Echo: And again");
    expect(next).toContain("Echo: Hello there");
    const sent = fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.map((m) => [m.role, m.content])).toEqual([
      ["system", "You answer briefly."],
      ["user", "Hello there"],
      ["assistant", "Echo: Hello there"],
      ["user", "And again"],
    ]);
  });
});

describe("the output pane's model of a chain run that goes on into its chat", () => {
  const at = "2026-11-28T09:00:00.000Z";
  const usage = { promptTokens: 3, completionTokens: 2 };
  const events: RunEvent[] = [
    { id: 1, type: "chain-start", at, data: { runId: "r", chainId: "c", links: 1, index: null, chat: true } },
    { id: 2, type: "link-start", at, data: { link: 0, name: "PROMPT 1", type: "prompt", input: null } },
    { id: 3, type: "stream", at, data: { link: 0, content: "claim" } },
    { id: 4, type: "link-finish", at, data: { link: 0, variable: "PROMPT_1_OUTPUT", output: "claim", usage, ms: 5 } },
    { id: 5, type: "chat-start", at, data: { runId: "r", chainId: "c", name: "CHAT", input: { messages: [] } } },
    { id: 6, type: "stream", at, data: { link: null, content: "Echo" } },
    { id: 7, type: "chat-end", at, data: { status: "finished", usage, output: "Echo: x" } },
    { id: 8, type: "chain-finish", at, data: { status: "finished", usage: { promptTokens: 6, completionTokens: 4 }, output: {} } },
  ];

  it("the chat is one more item; its end is not the run's, chain-finish is", () => {
    const chatting = paneOf(events.slice(0, 7));
    expect(chatting).toMatchObject({ kind: "chain", chat: true, status: "running" });
    expect(isGoing(chatting.status)).toBe(true);
    const chat = chatting.items.at(-1)!;
    expect([chat.name, chat.type, answerOf(chat), chat.usage]).toEqual(["CHAT", "chat", "Echo: x", usage]);
    const done = paneOf(events);
    expect([done.status, done.usage]).toEqual(["finished", { promptTokens: 6, completionTokens: 4 }]);
  });

  it("a chat stopped mid-answer keeps what streamed; a chat run's chat-end ends it", () => {
    const stopped = paneOf([...events.slice(0, 6), { id: 7, type: "chat-end", at, data: { status: "cancelled", usage, output: "" } }]);
    expect(answerOf(stopped.items.at(-1)!)).toBe("Echo");
    expect(stopped.status).toBe("running");
    const chatRun = paneOf(events.slice(4, 7).map((e, i) => ({ ...e, id: i + 1 })));
    expect([chatRun.kind, chatRun.status]).toEqual(["chat", "finished"]);
  });
});
