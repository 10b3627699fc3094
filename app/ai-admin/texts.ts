import { AI_ADMIN_MESSAGES } from "@contract/ai-admin";
import { LLM_MESSAGES } from "@contract/llm";

/**
 * The AI administration's texts. Spec 3 §8 gives the failure titles ("Failed to create model", "Failed to update
 * speech to text service") with the server's message, and the in-use texts (the contract's AI_ADMIN_MESSAGES, which
 * the upstream answers); the rest follows the other screens.
 */
const failures = (thing: string) => ({
  createFailed: `Failed to create ${thing}`,
  updateFailed: `Failed to update ${thing}`,
  deleteFailed: `Failed to delete ${thing}`,
});

export const AI_ADMIN = {
  title: "Administration",
  intro: "Language models, speech-to-text services and what each organization may use.",
  models: {
    heading: "Models",
    add: "+ add model",
    empty: "No models yet. Add one so that prompt chains can run.",
    columns: { name: "Name", capability: "Capability", provider: "Provider", version: "Version", organizations: "Organizations" },
    none: "None",
  },
  services: {
    heading: "Speech-to-text services",
    add: "+ add service",
    empty: "No speech-to-text services yet.",
    columns: { name: "Name", provider: "Provider", description: "Description", usedBy: "Used by" },
  },
  organizations: {
    heading: "Organizations",
    empty: "No organizations yet.",
    columns: {
      name: "Organization",
      speech: "Speech to text",
      service: "Service",
      postProcessing: "Post-processing model",
      models: "Allowed models",
    },
    on: "On",
    off: "Off",
  },
  backup: { heading: "Template storage", text: "Export or import every template and form.", link: "Template backup" },
  notConfigured: LLM_MESSAGES.notConfigured,
} as const;

export const MODELS = {
  newTitle: "Create model",
  editTitle: "Edit model",
  labels: {
    name: "Name",
    provider: "Provider",
    capability: "Capability",
    version: "Version",
    description: "Description",
    organizations: "Organizations",
    config: "Config",
    params: "Params",
    paramName: "Param name",
    paramDefault: "Default",
    paramOptions: "Options (separated by ;)",
  },
  capabilities: { chat: "Chat", "chat-with-vision": "Chat with vision", "image-generation": "Image generation" },
  configHint: "JSON: baseURL, apiKey, model; optional organization, timeoutMs, maxRetries. The saved apiKey shows as its last 4 characters; leave it so to keep it.",
  noOrganizations: "No organizations yet.",
  noParams: "No params.",
  addParam: "Add param",
  removeParam: (n: number) => `Remove param ${n}`,
  test: "Test connection",
  testing: "Testing…",
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  inUseHint: AI_ADMIN_MESSAGES.organizationInUseHint,
  toasts: { created: "Model created", updated: "Model updated", deleted: "Model deleted", ...failures("model") },
  inline: { saveFailed: "Failed to save the model. Check your input and try again." },
  confirmDelete: { title: "Delete model?", message: (name: string) => `${name} will be deleted. This action can't be undone.`, confirm: "Delete" },
} as const;

export const STT_SERVICES = {
  newTitle: "Create speech-to-text service",
  editTitle: "Edit speech-to-text service",
  labels: { name: "Name", provider: "Provider", description: "Description", config: "Config" },
  configHint: MODELS.configHint,
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  toasts: {
    created: "Speech-to-text service created",
    updated: "Speech-to-text service updated",
    deleted: "Speech-to-text service deleted",
    ...failures("speech to text service"),
  },
  inline: { saveFailed: "Failed to save the speech-to-text service. Check your input and try again." },
  confirmDelete: {
    title: "Delete speech-to-text service?",
    message: (name: string) => `${name} will be deleted. This action can't be undone.`,
    confirm: "Delete",
  },
} as const;

/** The organization form's AI fields (spec 3 §3 organization). */
export const ORGANIZATION_AI = {
  heading: "Speech to text and models",
  enable: "Enable speech to text",
  service: "Speech-to-text service",
  postProcessing: "Speech post-processing model",
  models: "Allowed models",
  none: "None",
  noModels: "No models yet: add one under Administration.",
  serviceRequired: "Choose a speech-to-text service to enable speech to text",
} as const;
