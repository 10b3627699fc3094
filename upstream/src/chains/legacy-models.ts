/**
 * Old chains name a link's model by its deployment (spec 3 §4.2: "old data with missing model ids is mapped through
 * a deployment in the model config"): a model value that is no model's id, or no model but a `deployment` field, is
 * read as the deployment name a model config's JSON carries (`deployment`, else `model`, the name the provider
 * knows the model by) and answered as that model's id. Reads only: the mapped id is stored with the next save.
 */
import type { ChainTemplate } from "../../contract/chains";
import type { Db } from "../db";
import { prepared } from "../lib/collection";

/** The model ids by deployment name, read once per answer and only when a link names an unknown model. */
export function deploymentsOf(db: Db): () => ReadonlyMap<string, string> {
  let index: Map<string, string> | null = null;
  return () => {
    if (index) return index;
    index = new Map();
    // Oldest first, so that two configs naming one deployment map to the first made, whatever is added later.
    const rows = prepared(db, "select id, json_extract(data, '$.config') as config from ai_models order by created_at, id").all() as { id: string; config: string | null }[];
    for (const row of rows) {
      for (const name of deploymentNames(row.config)) if (!index.has(name)) index.set(name, row.id);
    }
    return index;
  };
}

function deploymentNames(config: string | null): string[] {
  try {
    const parsed = JSON.parse(config ?? "") as Record<string, unknown>;
    return [parsed.deployment, parsed.model].filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
  } catch {
    return [];
  }
}

type Modelled = { model?: string | null; deployment?: unknown };

/** `template` with every model that names no model mapped through `deployments` (unchanged when nothing maps). */
export function withModelIds(template: ChainTemplate, exists: (id: string) => boolean, deployments: () => ReadonlyMap<string, string>): ChainTemplate {
  let changed = false;
  const map = <T extends Modelled>(holder: T): T => {
    const legacy = typeof holder.deployment === "string" ? holder.deployment.trim() : "";
    const name = holder.model ? (exists(holder.model) ? "" : holder.model) : legacy;
    const id = name ? deployments().get(name) : undefined;
    if (!id) return holder;
    changed = true;
    const { deployment: _legacy, ...rest } = holder;
    return { ...rest, model: id } as T;
  };
  const chain = template.chain.map((link) => {
    if (link.type === "prompt") return map(link);
    if (link.type === "content" && link.source.type === "ai") {
      const value = map(link.source.value);
      return value === link.source.value ? link : { ...link, source: { ...link.source, value } };
    }
    return link;
  });
  const chat = template.chat ? map(template.chat) : null;
  return changed ? { ...template, chain, chat } : template;
}
