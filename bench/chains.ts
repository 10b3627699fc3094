/**
 * Chain runs under load (`npm run bench:chains [-- --runs 100 --seconds 30 --ttft 200 --chunk-ms 50 --samples 40 --rounds 3]`),
 * on the production build (BUILD_DIR) with compression on, against the fake provider on loopback
 * (docs/decisions/chain-runs.md):
 *   1. the product's added latency to the first streamed token: the time from `POST /api/v2/nlp/chains/stream` to
 *      the first `stream` event read by the client, less the provider's fixed time to first token (`--ttft`), over
 *      `--samples` runs one after another (goal: p50 ≤ 15 ms, p99 ≤ 50 ms);
 *   2. `--runs` runs at once, each streaming for about `--seconds` (a chunk every `--chunk-ms`): every event's id must
 *      follow the previous one, the text read must be the provider's, and the client's events must be the run's log
 *      (0 lost events); meanwhile pages of the back office are read one after another (goal: p99 ≤ 100 ms);
 *   3. the server's resident memory before, at the peak of, and 15 s after the runs; part 2 is repeated `--rounds`
 *      times (3) so that a leak (growth every round) is told from a high-water mark (a first rise, then level).
 */
import { takeEvents, type RunEvent, type RunWithEvents } from "../upstream/contract/chain-runs";
import { startFakeLlm } from "../upstream/src/llm/fake-server";
import { ADMIN, USER_PASSWORD, api, apiLogin, fmt, grant, median, percentile, pool, rssMb, signIn, sleep, startBackoffice, table } from "./lib";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg("runs", 100);
const SECONDS = arg("seconds", 30);
const TTFT = arg("ttft", 200);
const CHUNK_MS = arg("chunk-ms", 50);
const SAMPLES = arg("samples", 40);
const ROUNDS = arg("rounds", 3);
/** Runs one user may have at once (RUN_LIMITS.perUser): the concurrent runs are spread over this many users each. */
const PER_USER = 5;

type Read = { events: RunEvent[]; firstTokenMs: number; runId: string };

/** Starts a run and reads its events to the end; `firstTokenMs` from the request to the first `stream` event. */
async function runAndRead(base: string, token: string, body: unknown): Promise<Read> {
  const started = performance.now();
  const response = await fetch(`${base}/api/v2/nlp/chains/stream`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Accept-Encoding": "gzip, br" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  if (response.headers.get("content-encoding")) throw new Error(`the event stream was compressed (${response.headers.get("content-encoding")})`);
  const runId = response.headers.get("x-run-id") ?? "";
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: RunEvent[] = [];
  let firstTokenMs = Number.NaN;
  let rest = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const taken = takeEvents(rest + value);
    rest = taken.rest;
    for (const event of taken.events) {
      if (event.type === "ping") continue;
      if (event.type === "stream" && Number.isNaN(firstTokenMs)) firstTokenMs = performance.now() - started;
      events.push(event);
    }
  }
  return { events, firstTokenMs, runId };
}

/** Problems of one read run: a gap in the ids, a text other than the provider's, a difference with the log. */
function lost(read: Read, expected: string, log: RunEvent[]): string[] {
  const problems: string[] = [];
  read.events.forEach((e, i) => {
    if (e.id !== i + 1) problems.push(`event ${i + 1} has id ${e.id}`);
  });
  const text = read.events.flatMap((e) => (e.type === "stream" ? [e.data.content] : [])).join("");
  if (text !== expected) problems.push(`text of ${text.length} characters, ${expected.length} expected`);
  if (read.events.at(-1)?.type !== "chain-finish" || (read.events.at(-1)?.data as { status?: string }).status !== "finished") problems.push("no finished chain-finish");
  if (log.length !== read.events.length) problems.push(`${read.events.length} events read, ${log.length} in the log`);
  return problems;
}

/** A page read whole with a cookie: its time in ms (throws unless 200). */
async function readPage(base: string, page: string, cookie: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(`${base}${page}`, { headers: { cookie } });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${page} answered ${r.status}`);
  return performance.now() - t;
}

/** Time to the first content chunk asking the provider directly (the floor under the product's latency). */
async function directFirstToken(baseURL: string, apiKey: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(`${baseURL}/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "fake-chat", stream: true, messages: [{ role: "user", content: "direct" }] }),
  });
  const reader = r.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let at = Number.NaN;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    if (Number.isNaN(at) && text.includes('"content":"E')) at = performance.now() - t;
  }
  return at;
}

async function main() {
  const fake = await startFakeLlm();
  const server = await startBackoffice();
  try {
    const admin = await apiLogin(server.base);
    const organization = await api<{ id: string }>(server.base, admin, "POST", "/api/organizations/", { name: "Bench chains" });
    const model = await api<{ id: string }>(server.base, admin, "POST", "/api/v2/nlp/configurations", {
      name: "fake-chat",
      provider: "openai-compatible",
      capability: "chat",
      organizations: [organization.id],
      config: JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-chat", timeoutMs: 120_000 }),
    });
    const body = (question: string) => ({
      item: { organizations: [organization.id] },
      template: {
        chain: [
          {
            id: "p1",
            type: "prompt",
            name: "PROMPT 1",
            model: model.id,
            messages: [
              { role: "system", content: "You are a patent attorney." },
              { role: "user", content: "{{question}}" },
            ],
          },
        ],
      },
      variables: { question },
    });

    // 1. Added latency to the first token, one run at a time.
    // No delay between chunks here: the fake waits that long after each chunk, the empty role chunk included.
    fake.slowFirstToken(TTFT);
    fake.chunkDelay(0);
    for (let i = 0; i < 5; i++) await runAndRead(server.base, admin, body(`warm up ${i}`));
    const added: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const read = await runAndRead(server.base, admin, body(`sample ${i} of the first token`));
      added.push(read.firstTokenMs - TTFT);
    }
    // The machine's own floor at this moment: the bench asking the fake directly (no product in between).
    const direct: number[] = [];
    for (let i = 0; i < SAMPLES; i++) direct.push((await directFirstToken(fake.baseURL, fake.apiKey)) - TTFT);

    // 2. Many runs at once, each streaming for about SECONDS.
    const users = Math.ceil(RUNS / PER_USER);
    const tokens = await pool(
      Array.from({ length: users }, (_, i) => i),
      4,
      async (i) => {
        const email = `chains${i}@bench.test`;
        const user = await api<{ id: string }>(server.base, admin, "POST", "/api/auth/users", { firstName: "Run", lastName: `User${i}`, email, password: USER_PASSWORD });
        await grant(server.base, admin, user.id, ["prompts.read"]);
        return apiLogin(server.base, email, USER_PASSWORD);
      },
    );
    // The fake sends about three characters a chunk: a question this long streams for SECONDS at CHUNK_MS a chunk.
    const chunks = Math.round((SECONDS * 1000) / CHUNK_MS);
    const question = (i: number) => `run ${String(i).padStart(3, "0")} `.concat("abc".repeat(Math.max(1, chunks - 5))).slice(0, chunks * 3 - 6);
    fake.chunkDelay(CHUNK_MS);
    const cookie = await signIn(server.base, ADMIN.email, ADMIN.password);
    const pages = ["/", "/chains", "/people"];
    await sleep(2_000);
    const quietPageMs: number[] = [];
    for (let i = 0; i < 30; i++) quietPageMs.push(await readPage(server.base, pages[i % pages.length]!, cookie));
    const baseline = rssMb(server.pid);
    type Round = { pageMs: number[]; events: number; wallS: number; problems: string[]; peak: number; after: number };
    const rounds: Round[] = [];
    // The same burst ROUNDS times: memory that grows round after round is a leak; a first rise that stays level
    // afterwards is the heap's and the allocator's high-water mark, reused by the next burst.
    for (let round = 0; round < ROUNDS; round++) {
      let peak = rssMb(server.pid);
      let going = true;
      const pageMs: number[] = [];
      const pageReader = (async () => {
        for (let i = 0; going; i++) {
          pageMs.push(await readPage(server.base, pages[i % pages.length]!, cookie));
          peak = Math.max(peak, rssMb(server.pid));
          await sleep(100);
        }
      })();
      const t0 = performance.now();
      const reads = await Promise.all(Array.from({ length: RUNS }, (_, i) => runAndRead(server.base, tokens[Math.floor(i / PER_USER)]!, body(question(i)))));
      const wallS = (performance.now() - t0) / 1000;
      going = false;
      await pageReader;
      const problems: string[] = [];
      await pool(reads, 8, async (read, i) => {
        const run = await api<RunWithEvents>(server.base, tokens[Math.floor(i / PER_USER)]!, "GET", `/api/v2/nlp/chains/runs/${read.runId}`);
        for (const p of lost(read, `Echo: ${question(i)}`, run.events)) problems.push(`run ${i}: ${p}`);
      });
      const events = reads.reduce((n, r) => n + r.events.length, 0);
      await sleep(15_000);
      rounds.push({ pageMs, events, wallS, problems, peak, after: rssMb(server.pid) });
    }
    const pageMs = rounds.flatMap((r) => r.pageMs);
    const problems = rounds.flatMap((r) => r.problems);

    console.log(`\nChain runs through the production server (compression on), fake provider: first token after ${TTFT} ms, a chunk every ${CHUNK_MS} ms\n`);
    console.log(
      table(
        ["measure", "p50", "p99", "max", "goal"],
        [
          ["added latency to the first token (ms)", fmt(median(added)), fmt(percentile(added, 99)), fmt(Math.max(...added)), "p50 ≤ 15, p99 ≤ 50"],
          ["the fake asked directly, for comparison (ms)", fmt(median(direct)), fmt(percentile(direct, 99)), fmt(Math.max(...direct)), ""],
          ["pages before the runs (ms, 30 reads)", fmt(median(quietPageMs)), fmt(percentile(quietPageMs, 99)), fmt(Math.max(...quietPageMs)), ""],
          [`pages during ${RUNS} runs (ms, ${pageMs.length} reads)`, fmt(median(pageMs)), fmt(percentile(pageMs, 99)), fmt(Math.max(...pageMs)), "p99 ≤ 100"],
        ],
      ),
    );
    for (const [i, r] of rounds.entries()) {
      console.log(`\nround ${i + 1}: ${RUNS} runs at once, ${r.events} events in ${fmt(r.wallS)} s, ${r.problems.length} problems (lost events) ${r.problems.slice(0, 5).join("; ")}`);
    }
    console.log(`\nserver memory (RSS MB): before ${fmt(baseline)}; ${rounds.map((r, i) => `round ${i + 1} peak ${fmt(r.peak)}, 15 s after ${fmt(r.after)}`).join("; ")}`);
    if (problems.length) process.exitCode = 1;
  } finally {
    await server.stop();
    await fake.close();
  }
}

await main();
