import { RUN_MESSAGES } from "@contract/chain-runs";
import { CONTEXT } from "~/chains/context/texts";
import { RUNS } from "~/chains/run/texts";
import { startFakeLlm } from "../upstream/src/llm/fake-server";
import { ADMIN, expect, expectAccessible, signIn, test, unique } from "./fixtures";

const js = () => test.info().project.name === "js";

/**
 * A chain run from its page (spec 3 §2.9, §4.3) against the fake provider, and the Context tab's invention search. The
 * chain is prompt → form → template → chat: the prompt's tokens stream (with JavaScript; without it the run's page
 * refreshes itself), the form pauses the run and Continue resumes it, the template renders, and the run goes on into
 * the chat, which answers; a message from the run's page follows the conversation, and (with JavaScript) Stop ends
 * its provider request.
 */
test("choose an invention on the Context tab, run prompt → form → template → chat: stream, Continue, the chat answers, a follow-up (and Stop)", async ({ page }) => {
  const fake = await startFakeLlm();
  try {
    const login = await page.request.post("/api/auth/login", { data: ADMIN });
    const { token } = (await login.json()) as { token: string };
    const headers = { Authorization: `Bearer ${token}` };
    const org = (await (await page.request.post("/api/organizations", { headers, data: { name: unique("Run org") } })).json()) as { id: string };
    const config = JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-chat", maxRetries: 0 });
    const modelRes = await page.request.post("/api/v2/nlp/configurations", { headers, data: { name: unique("fake"), provider: "openai-compatible", capability: "chat", organizations: [org.id], config } });
    expect(modelRes.status()).toBe(201);
    const model = ((await modelRes.json()) as { id: string }).id;
    const word = unique("Sprocket").replace(/[^A-Za-z0-9]/g, "");
    const app = await page.request.post("/api/applications", { headers, data: { id: word, title: `${word} assembly`, abstract: "", claims: "", specification: "" } });
    expect(app.status()).toBe(201);
    const links = [
      { id: "p", type: "prompt", name: "PROMPT 1", model, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Draft a claim" }] },
      { id: "f", type: "form", name: "FORM 1", variables: [{ name: "topic", type: "string", label: "Topic" }] },
      { id: "t", type: "template", name: "TEMPLATE 1", template: "Topic: {{topic}}", renderOnly: false },
    ];
    const chat = { type: "chat", model, messages: [{ role: "system", content: "You know {{PROMPT_1_OUTPUT}}." }, { role: "user", content: "Summarize {{TEMPLATE_1_OUTPUT}}" }] };
    const chainRes = await page.request.post("/api/prompts", { headers, data: { name: unique("Run chain"), organizations: [org.id], template: { chain: links, options: {}, chat } } });
    expect(chainRes.status()).toBe(201);
    const chainId = ((await chainRes.json()) as { id: string }).id;

    await signIn(page);
    // The Context tab: the search (by itself after typing with JavaScript; the Search button without), then Choose.
    await page.goto(`/chains/${chainId}?tab=context`);
    await page.getByLabel(CONTEXT.searchLabel).fill(word.toLowerCase());
    if (!js()) await page.getByRole("button", { name: CONTEXT.search, exact: true }).click();
    await page.getByRole("button", { name: `${CONTEXT.choose} ${word} assembly` }).click();
    await expect(page.getByText(CONTEXT.chosen, { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: CONTEXT.remove })).toBeVisible();
    await expectAccessible(page);

    if (js()) {
      fake.reply({ text: "claim ".repeat(80) });
      fake.chunkDelay(25);
    } else {
      fake.reply({ text: "A hinge comprising a pin." });
      fake.chunkDelay(300);
    }
    await page.getByRole("button", { name: RUNS.run }).click();
    await expect(page).toHaveURL(new RegExp(`/chains/${chainId}/runs/[0-9a-f-]{36}$`));
    const answer = page.getByTestId("run-answer").first();
    if (js()) {
      // Streamed: the answer grows while the run is going.
      await expect(answer).toContainText("claim claim claim");
      // A reload mid-stream shows the same run from its log and goes on streaming it.
      const url = page.url();
      await page.reload();
      await expect(page).toHaveURL(url);
      const shown = (await answer.textContent())?.length ?? 0;
      await expect.poll(async () => (await answer.textContent())?.length ?? 0).toBeGreaterThan(shown);
      await expect(page.getByRole("status")).toHaveText(RUNS.status.running);
    }
    // The form pauses the run (without JavaScript the page stops refreshing there); Continue resumes it.
    await expect(page.getByRole("status")).toHaveText(RUNS.status.waiting, { timeout: 20_000 });
    if (!js()) await expect(answer).toHaveText("A hinge comprising a pin.");
    fake.chunkDelay(20);
    await page.getByLabel("Topic").fill("a hinge");
    await page.getByRole("button", { name: RUNS.continue }).click();
    // The template renders, then the chat answers with the run's outputs.
    await expect(page.getByRole("status")).toHaveText(RUNS.status.finished, { timeout: 20_000 });
    await expect(page.getByText("Topic: a hinge", { exact: true })).toBeVisible();
    const chatItem = page.getByTestId("run-item").filter({ has: page.getByRole("heading", { name: /^CHAT/ }) });
    await expect(chatItem.getByTestId("run-answer")).toHaveText("Echo: Summarize Topic: a hinge");
    // A message from the run's page follows its conversation: a chat run of its own, the conversation above it.
    if (js()) {
      fake.reply({ text: "word ".repeat(300) });
      fake.chunkDelay(25);
    }
    await page.getByLabel(RUNS.chatMessage).fill("Shorter?");
    await page.getByRole("button", { name: RUNS.send }).click();
    await expect(page.getByRole("heading", { name: RUNS.conversation })).toBeVisible();
    await expect(page.getByText("Echo: Summarize Topic: a hinge")).toBeVisible();
    if (js()) {
      // Stop during the chat ends its provider request.
      await expect(page.getByTestId("run-answer")).toContainText("word word word");
      const before = fake.aborts.length;
      await page.getByRole("button", { name: RUNS.stop }).click();
      await expect(page.getByRole("status")).toHaveText(RUNS.status.cancelled);
      await expect(page.getByText(RUN_MESSAGES.cancelled)).toBeVisible();
      await expect.poll(() => fake.aborts.length).toBe(before + 1);
    } else {
      await expect(page.getByRole("status")).toHaveText(RUNS.status.finished, { timeout: 20_000 });
      await expect(page.getByTestId("run-answer")).toHaveText("Echo: Shorter?");
    }
    await expectAccessible(page);
  } finally {
    await fake.close();
  }
});
