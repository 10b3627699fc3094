import { describe, expect, test } from "vitest";
import { AI_CONTENT_MESSAGES, RUN_MESSAGES, type RunWithEvents } from "@contract/chain-runs";
import type { ChainLinkInput } from "@contract/chains";
import { ModelConfiguration } from "@contract/ai-admin";
import { fakePng, type FakeLlm } from "../../upstream/src/llm/fake-server";
import { withFakeLlm } from "../helpers/fake-llm";
import { harness, type Harness } from "./helpers";
import { allEvents, fakeModelOrg, stopWhen } from "./chain-runs-helpers";

let fake: FakeLlm;
withFakeLlm((started) => (fake = started));

const STREAM = "/api/v2/nlp/chains/stream";

/** An organization allowed a chat model and, unless `withImage` is false, an image-generation model of the fake. */
async function setup(withImage = true): Promise<{ h: Harness; organization: string; chat: string; image: string | null }> {
  const h = await harness();
  const { organization, model: chat } = await fakeModelOrg(h, fake);
  if (!withImage) return { h, organization, chat, image: null };
  const res = await h.call("POST", "/api/v2/nlp/configurations", {
    token: h.adminToken,
    body: {
      name: "fake-image",
      provider: "openai-compatible",
      capability: "image-generation",
      organizations: [organization],
      config: JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-image", timeoutMs: 10_000 }),
    },
  });
  expect(res.status).toBe(201);
  return { h, organization, chat, image: ModelConfiguration.parse(await res.json()).id };
}

const aiLink = (model: string | null, images: string[] = []): ChainLinkInput => ({
  id: "c1",
  type: "content",
  name: "CONTENT 1",
  source: { type: "ai", value: { model, template: "A drawing of {{topic}}", images } },
});

const start = (h: Harness, organization: string, chain: unknown[]) =>
  h.call("POST", STREAM, { token: h.adminToken, body: { item: { organizations: [organization] }, template: { chain }, variables: { topic: "a widget" } } });

const PROMPT = "A drawing of a widget";

describe("a content link whose source is ai, against the fake provider", () => {
  test("the rendered template is the prompt; the image is the link's content file and its output; the usage is the run's", async () => {
    const { h, organization, image } = await setup();
    const res = await start(h, organization, [aiLink(image)]);
    const runId = res.headers.get("x-run-id")!;
    const events = await allEvents(res);
    expect(fake.requests.at(-1)).toMatchObject({ path: "/v1/images/generations", body: { model: "fake-image", prompt: PROMPT, response_format: "b64_json" } });
    expect(events.find((e) => e.type === "link-start")?.data).toEqual({
      link: 0,
      name: "CONTENT 1",
      type: "content",
      input: { source: "ai", model: image, prompt: PROMPT, images: [] },
    });
    const png = fakePng(PROMPT).toString("base64");
    const file = { name: "CONTENT 1 1.png", type: "png", base64: png };
    expect(events.find((e) => e.type === "content")?.data).toEqual({ link: 0, message: { type: "message", author: "CONTENT 1", text: "", files: [file] } });
    const finish = events.find((e) => e.type === "link-finish");
    expect(finish?.data).toMatchObject({ link: 0, variable: "CONTENT_1_OUTPUT" });
    expect(JSON.parse((finish?.data as { output: string }).output)).toEqual({ text: "", images: [file] });
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "finished" } });
    const run = (await (await h.call("GET", `/api/v2/nlp/chains/runs/${runId}`, { token: h.adminToken })).json()) as RunWithEvents;
    expect(run).toMatchObject({ status: "finished", usage: { promptTokens: 5, completionTokens: 100 }, error: null });
  });

  test("without a model named, the organizations' image-generation model (never their chat model)", async () => {
    const { h, organization } = await setup();
    const events = await allEvents(await start(h, organization, [aiLink(null)]));
    expect(fake.requests.at(-1)).toMatchObject({ path: "/v1/images/generations", body: { model: "fake-image" } });
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "finished" } });
  });

  test("a 429 is a retry event with the spec's text, then the image", async () => {
    const { h, organization, image } = await setup();
    fake.fail({ status: 429, retryAfterSeconds: 0 });
    const events = await allEvents(await start(h, organization, [aiLink(image)]));
    expect(events.find((e) => e.type === "retry")?.data).toMatchObject({ link: 0, message: "An error occured. Retrying...", attempt: 1 });
    expect(events.find((e) => e.type === "content")).toBeDefined();
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "finished" } });
  });

  test("a 4xx is the link's error with the provider's message, not retried", async () => {
    const { h, organization, image } = await setup();
    fake.fail({ status: 400, message: "Your request was rejected by the safety system." });
    const before = fake.requests.length;
    const events = await allEvents(await start(h, organization, [aiLink(image)]));
    expect(events.find((e) => e.type === "error")?.data).toEqual({
      link: 0,
      message: "The model provider refused the request (400): Your request was rejected by the safety system.",
    });
    expect(events.some((e) => e.type === "retry")).toBe(false);
    expect(fake.requests.length - before).toBe(1);
  });

  test("Stop closes the provider's image request within 100 ms and the run is cancelled", async () => {
    const { h, organization, image } = await setup();
    fake.slowFirstToken(5_000);
    const abortsBefore = fake.aborts.length;
    const { seen, stoppedAt } = await stopWhen(h, await start(h, organization, [aiLink(image)]), async (e) => {
      if (e.type !== "link-start") return false;
      // The request is at the provider once the fake has recorded it.
      await expect.poll(() => fake.requests.at(-1)?.path).toBe("/v1/images/generations");
      return true;
    });
    await expect.poll(() => fake.aborts.length, { timeout: 1_000 }).toBe(abortsBefore + 1);
    expect(fake.aborts.at(-1)!.path).toBe("/v1/images/generations");
    expect(fake.aborts.at(-1)!.at - stoppedAt).toBeLessThan(100);
    expect(seen.find((e) => e.type === "error")?.data).toMatchObject({ message: RUN_MESSAGES.cancelled });
    expect(seen.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "cancelled" } });
  });

  test("no image-generation model: the run says so; a chat model named is refused for it", async () => {
    const { h, organization, chat } = await setup(false);
    const before = fake.requests.length;
    const none = await allEvents(await start(h, organization, [aiLink(null)]));
    expect(none.find((e) => e.type === "error")?.data).toEqual({ link: 0, message: "No image-generation model is configured: an AI content link cannot run." });
    expect(none.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "failed" } });
    const named = await allEvents(await start(h, organization, [aiLink(chat)]));
    expect(named.find((e) => e.type === "error")?.data).toEqual({ link: 0, message: AI_CONTENT_MESSAGES.modelNotAllowed });
    expect(fake.requests.length).toBe(before);
  });

  test("the link's image variables are not sent to the generations call, and its input says so", async () => {
    const { h, organization, image } = await setup();
    const events = await allEvents(await start(h, organization, [aiLink(image, ["SKETCH"])]));
    expect(events.find((e) => e.type === "link-start")?.data).toMatchObject({
      input: { images: ["SKETCH"], note: "The image model takes no input image: only the prompt was sent, not the link's image variables." },
    });
    expect(Object.keys(fake.requests.at(-1)!.body as object).sort()).toEqual(["model", "n", "prompt", "response_format", "size"]);
    expect(events.at(-1)).toMatchObject({ type: "chain-finish", data: { status: "finished" } });
  });
});
