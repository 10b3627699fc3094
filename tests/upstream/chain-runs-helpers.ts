import type { ChainLinkInput } from "@contract/chains";
import { takeEvents, type RunEvent } from "@contract/chain-runs";
import { ModelConfiguration } from "@contract/ai-admin";
import { Organization } from "@contract/organizations";
import type { FakeLlm } from "../../upstream/src/llm/fake-server";
import type { Harness } from "./helpers";

async function json<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** An organization allowed one model of the fake provider ("fake-chat"); answers the organization's id. */
export async function fakeModelOrg(h: Harness, fake: FakeLlm): Promise<{ organization: string; model: string }> {
  const org = Organization.parse(await json(await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name: "Acme" } }), 201));
  const model = ModelConfiguration.parse(
    await json(
      await h.call("POST", "/api/v2/nlp/configurations", {
        token: h.adminToken,
        body: {
          name: "fake-chat",
          provider: "openai-compatible",
          capability: "chat",
          organizations: [org.id],
          config: JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-chat", timeoutMs: 10_000 }),
        },
      }),
      201,
    ),
  );
  return { organization: org.id, model: model.id };
}

export const promptLink = (model: string, content = "Draft a claim for {{topic}}", name = "PROMPT 1"): ChainLinkInput => ({
  id: name,
  type: "prompt",
  name,
  model,
  messages: [
    { role: "system", content: "You are a patent attorney." },
    { role: "user", content },
  ],
});

/** The events of a server-sent event stream, as they come (pings included). */
export async function* sseEvents(res: Response): AsyncGenerator<RunEvent> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const taken = takeEvents(rest + value);
      rest = taken.rest;
      yield* taken.events;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Every event until the stream closes. */
export async function allEvents(res: Response): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const e of sseEvents(res)) out.push(e);
  return out;
}

/**
 * Reads a run's stream and stops the run (its starter's POST …/stop, 200) at the first event `when` accepts; answers
 * every event seen and when the stop was sent, for a test to compare with when the provider saw its connection close.
 */
export async function stopWhen(
  h: Harness,
  res: Response,
  when: (e: RunEvent) => boolean | Promise<boolean>,
): Promise<{ seen: RunEvent[]; stoppedAt: number }> {
  const runId = res.headers.get("x-run-id")!;
  const seen: RunEvent[] = [];
  let stoppedAt = 0;
  for await (const e of sseEvents(res)) {
    seen.push(e);
    if (!stoppedAt && (await when(e))) {
      stoppedAt = Date.now();
      const stop = await h.call("POST", `/api/v2/nlp/chains/runs/${runId}/stop`, { token: h.adminToken });
      if (stop.status !== 200) throw new Error(`stop answered ${stop.status}`);
    }
  }
  return { seen, stoppedAt };
}
