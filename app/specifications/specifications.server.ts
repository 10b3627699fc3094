import {
  ContextObjectAnswer,
  Documentation,
  GenerateAnswer,
  type DocumentInput,
  type TemplateInput,
} from "@contract/nlp";
import {
  ParamsAnswer,
  SPECIFICATION_TYPES,
  SpecificationsResource,
  TagSuggestions,
  type Specification,
} from "@contract/specifications";
import { formatDateTime } from "~/lib/format";
import { resourceClient } from "~/lib/resource.server";
import type { Api } from "~/lib/upstream.server";

/** The specifications collection (spec 1 §7), through the resource kit. */
export const specifications = resourceClient(SpecificationsResource);

/** The generator and helper calls of the specification screens (spec 1 §7). */
export const generator = {
  params: (api: Api, template: string) => api.post(ParamsAnswer, "/api/specifications/params", { template }),
  documentation: (api: Api) => api.get(Documentation, "/api/nlp/api/v1/generator/documentation"),
  contextObject: (api: Api, templates: TemplateInput[], document: DocumentInput) =>
    api.post(ContextObjectAnswer, "/api/nlp/api/v1/generator/contextObject", { templates, document }),
  generate: (api: Api, templates: TemplateInput[], document: DocumentInput) =>
    api.post(GenerateAnswer, "/api/nlp/api/v1/generator/generate", { templates, document }),
  suggestTags: (api: Api, q: string) => api.get(TagSuggestions, "/api/suggest/tags", { q }),
};

/** The list's remembered type filter (spec 1 §2): `?filtered=1&type=…`, sent upstream as `types=a,b`. */
export const SPECIFICATION_FILTERS = { types: { param: "type", options: SPECIFICATION_TYPES } } as const;

/** A specification as its list row shows it. */
export const specificationRow = (s: Specification, timeZone: string) => ({
  id: s.id,
  name: s.name,
  description: s.description,
  tags: s.tags,
  type: s.type,
  updatedAt: formatDateTime(s.updatedAt, timeZone),
  updatedBy: s.updatedBy,
  createdBy: s.createdBy,
});
