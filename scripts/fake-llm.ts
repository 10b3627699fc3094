/**
 * Opt-in demo: a fake OpenAI-compatible model provider on loopback (chat, vision, embeddings, speech to text).
 *   npm run fake:llm [port=4500]
 * then, under Administration → Models, give a model the config JSON it prints.
 */
import { startFakeLlm } from "../upstream/src/llm/fake-server";

const port = Number(process.argv[2] ?? 4500);
const fake = await startFakeLlm({ port, apiKey: "demo-llm-key" });
console.log(`Fake model provider on ${fake.baseURL} with models ${fake.models.join(", ")}. A model's config JSON:`);
console.log(JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: fake.models[0] }, null, 2));
const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
