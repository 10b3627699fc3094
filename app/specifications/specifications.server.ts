import type { ListQueryInput } from "../../upstream/contract/common";
import {
  ContextObjectAnswer,
  Documentation,
  GenerateAnswer,
  type DocumentInput,
  type TemplateInput,
} from "../../upstream/contract/nlp";
import {
  ParamsAnswer,
  Specification,
  SpecificationPage,
  TagSuggestions,
  type SpecificationCreate,
  type SpecificationType,
  type SpecificationUpdate,
} from "../../upstream/contract/specifications";
import { notFound } from "../auth/guard.server";
import { isUpstreamError, type Api } from "../lib/upstream.server";

const path = (id: string) => `/api/specifications/${encodeURIComponent(id)}`;

/** The specifications and generator parts of the upstream contract (spec 1 §7). */
export const specifications = {
  list: (api: Api, query: ListQueryInput, types: readonly SpecificationType[]) =>
    api.get(SpecificationPage, "/api/specifications/", { ...query, types: types.join(",") || "," }),
  get: (api: Api, id: string) => api.get(Specification, path(id)),
  async getOr404(api: Api, id: string) {
    try {
      return await specifications.get(api, id);
    } catch (error) {
      if (isUpstreamError(error, 404)) throw notFound();
      throw error;
    }
  },
  create: (api: Api, body: SpecificationCreate) => api.post(Specification, "/api/specifications/", body),
  update: (api: Api, id: string, body: SpecificationUpdate) => api.patch(Specification, path(id), body),
  remove: (api: Api, id: string) => api.send("DELETE", path(id)),
  params: (api: Api, template: string) => api.post(ParamsAnswer, "/api/specifications/params", { template }),
  documentation: (api: Api) => api.get(Documentation, "/api/nlp/api/v1/generator/documentation"),
  contextObject: (api: Api, templates: TemplateInput[], document: DocumentInput) =>
    api.post(ContextObjectAnswer, "/api/nlp/api/v1/generator/contextObject", { templates, document }),
  generate: (api: Api, templates: TemplateInput[], document: DocumentInput) =>
    api.post(GenerateAnswer, "/api/nlp/api/v1/generator/generate", { templates, document }),
  suggestTags: (api: Api, q: string) => api.get(TagSuggestions, "/api/suggest/tags", { q }),
};
