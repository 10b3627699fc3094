/**
 * A content link whose source is `ai` (spec 3 §3 "Content link … model, template, images for ai"): its template,
 * rendered with the run's scope, is the prompt of an image-generation model (`/v1/images/generations`); the images
 * answered are the link's content event files and its output variable `{ text, images }`, as a file content link's.
 *
 * The generations call takes no input image, so the link's image variables are not sent: the link's input says so
 * (`AI_CONTENT_MESSAGES.imagesNotSent`). The model is the link's when it is an image-generation model one of the
 * chain's organizations may use, or the organizations' first image-generation model when the link names none.
 * Retries, Stop and usage are the run's, as for a prompt link.
 */
import type { ChainLink } from "../../contract/chains";
import { AI_CONTENT_MESSAGES, RUN_MESSAGES, type RunLimits } from "../../contract/chain-runs";
import { NotConfigured } from "../ai-admin/service";
import { OpenAiCompatible, ProviderError } from "../llm/provider";
import { RunFailure, type LiveRun } from "./engine";
import { retried } from "./retry";
import type { RunnerDeps, Scope } from "./runner";

type AiSource = Extract<Extract<ChainLink, { type: "content" }>["source"], { type: "ai" }>["value"];
type Render = (templates: readonly string[], scope: Scope) => Promise<string[]>;
export type AiContentOutput = { text: string; images: { name: string; type: string; base64: string }[] };

/**
 * The image model: the link's (it must be an image-generation model one of the organizations allows), else the
 * organizations' first. A new client each time, retries left to the run: a generation takes seconds, a client nothing.
 */
function imageModel(deps: RunnerDeps, organizations: readonly string[], modelId: string | null): OpenAiCompatible {
  for (const organization of organizations) {
    try {
      return new OpenAiCompatible({ ...deps.ai.modelFor(organization, modelId, { image: true }).config, maxRetries: 0 });
    } catch (error) {
      if (!(error instanceof NotConfigured)) throw error;
    }
  }
  throw new RunFailure(modelId ? AI_CONTENT_MESSAGES.modelNotAllowed : RUN_MESSAGES.aiNotConfigured);
}

/** Runs the ai content link `index`: its link-start (the prompt, the model, the images not sent), the call, its content. */
export async function aiContent(
  deps: RunnerDeps,
  limits: RunLimits,
  run: LiveRun,
  index: number,
  name: string,
  source: AiSource,
  scope: Scope,
  render: Render,
): Promise<AiContentOutput> {
  const { registry } = deps;
  const [prompt] = await render([source.template], scope);
  registry.emit(run, "link-start", {
    link: index,
    name,
    type: "content",
    input: { source: "ai", model: source.model, prompt: prompt!, images: source.images, ...(source.images.length ? { note: AI_CONTENT_MESSAGES.imagesNotSent } : {}) },
  });
  if (!prompt!.trim()) throw new RunFailure(AI_CONTENT_MESSAGES.emptyPrompt);
  const model = imageModel(deps, scope.organizations, source.model);
  for (let attempt = 1; ; attempt++) {
    try {
      const { images, usage } = await model.generateImages(prompt!, { signal: run.signal });
      if (usage) registry.addUsage(run, usage);
      const files = images.map((image, i) => ({ name: `${name} ${i + 1}.${image.type === "jpeg" ? "jpg" : image.type}`, type: image.type, base64: image.base64 }));
      // The bytes count toward the run's output bound before they are written to its log.
      const chars = files.reduce((n, f) => n + f.base64.length, 0);
      if (run.outputChars + chars > limits.runOutputChars) throw new RunFailure(RUN_MESSAGES.outputTooLong(limits.runOutputChars));
      const text = images.flatMap((image) => (image.revisedPrompt ? [image.revisedPrompt] : [])).join("\n\n");
      registry.emit(run, "content", { link: index, message: { type: "message", author: name, text, files } });
      return { text, images: files };
    } catch (error) {
      if (run.signal.aborted) throw new RunFailure(RUN_MESSAGES.cancelled, "cancelled");
      if (!(error instanceof ProviderError)) throw error;
      if (await retried(registry, run, index, error, attempt, limits)) continue;
      throw new RunFailure(error.message);
    }
  }
}
