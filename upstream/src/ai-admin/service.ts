import { isVisionCapability } from "../../contract/ai-admin";
import { LLM_MESSAGES, parseProviderConfig } from "../../contract/llm";
import type { Db } from "../db";
import { OpenAiCompatible } from "../llm/provider";
import { AiAdminRules } from "./rules";
import { ModelPermissions, ModelsStore, OrganizationUsage, SttServicesStore } from "./store";

/** No model (or service) an organization may use is configured: the caller shows the message, never a fake answer. */
export class NotConfigured extends Error {
  constructor(message: string = LLM_MESSAGES.notConfigured) {
    super(message);
    this.name = "NotConfigured";
  }
}

export type AiAdmin = ReturnType<typeof createAiAdmin>;

/**
 * The AI administration's stores and rules, and what the rest of the upstream asks of it: the provider adapter of a
 * model an organization may use (the prompt chains), and of an organization's speech-to-text service.
 */
export function createAiAdmin(db: Db, now: () => number) {
  const models = new ModelsStore(db, now);
  const services = new SttServicesStore(db, now);
  const permissions = new ModelPermissions(db);
  const usage = new OrganizationUsage(db, permissions);
  const rules = new AiAdminRules({ models, services, permissions, usage });

  const clearService = db.prepare(
    "update organizations set data = json_set(data, '$.speechToTextService', json('null')) where json_extract(data, '$.speechToTextService.id') = ?",
  );

  const adapterOf = (config: string, notConfigured: string) => {
    const parsed = parseProviderConfig(config);
    // A stored config was valid when saved; one that no longer parses (a later, stricter contract) is not usable.
    if (!parsed.ok) throw new NotConfigured(notConfigured);
    return new OpenAiCompatible(parsed.config);
  };

  return {
    models,
    services,
    permissions,
    usage,
    rules,
    transaction: <T>(work: () => T): T => db.transaction(work)(),
    /** A deleted service leaves the organizations that named it (with speech to text off: the rules refuse otherwise). */
    forgetService: (id: string) => void clearService.run(id),
    /**
     * The adapter of model `modelId` when `organizationId` may use it; without `modelId`, of the organization's first
     * allowed chat model (a vision model when `vision`). With `image`, only an image-generation model answers, named or
     * not. `NotConfigured` (LLM_MESSAGES.notConfigured) otherwise.
     */
    modelFor(organizationId: string, modelId?: string | null, options: { vision?: boolean; image?: boolean } = {}): OpenAiCompatible {
      const allowed = permissions.modelsOf(organizationId);
      const candidates = modelId ? allowed.filter((id) => id === modelId) : allowed;
      for (const id of candidates) {
        const model = models.get(id);
        if (!model) continue;
        if (options.image) {
          if (model.capability !== "image-generation") continue;
        } else if (!modelId && (model.capability === "image-generation" || (options.vision && !isVisionCapability(model.capability)))) continue;
        return adapterOf(model.config, LLM_MESSAGES.notConfigured);
      }
      throw new NotConfigured();
    },
    /** The adapter of the organization's speech-to-text service, when speech to text is enabled for it. */
    speechToTextFor(organizationId: string): OpenAiCompatible {
      const org = usage.get(organizationId);
      const service = org?.enableSpeechToText && org.speechToTextService ? services.get(org.speechToTextService) : null;
      if (!service) throw new NotConfigured(LLM_MESSAGES.sttNotConfigured);
      return adapterOf(service.config, LLM_MESSAGES.sttNotConfigured);
    },
  };
}
