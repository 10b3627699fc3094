import { ChainCreate, ChainFields } from "@contract/chains";
import { BaseVersion } from "@contract/versions";
import { z } from "zod";
import { textList } from "~/lib/form-fields";

/**
 * The chain settings form (/chains/create, spec 3 §2.9, §5), shared by the browser and the action: the contract's
 * create schema and messages, the tags as the tag input sends them (one text).
 */
export const ChainSettingsSchema = ChainCreate.pick({
  name: true,
  isPublic: true,
  isGeneric: true,
  organizations: true,
  categories: true,
  description: true,
}).extend({ tags: textList(ChainFields.tags) });

/** /chains/{id}/edit: the same, with the version the page showed (a save over a newer one is refused, 409). */
export const ChainEditSchema = ChainSettingsSchema.extend({ baseVersion: z.coerce.number().pipe(BaseVersion).optional() });
