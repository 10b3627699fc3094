import { z } from "zod";
import { CategoryCreate, LibrarySettings } from "@contract/library";
import { splitTags } from "~/ui/tag-input";

/** The item settings form (spec 3 §2.7, §5): the contract's rules; tags typed as one field separated by ';'. */
export const SettingsSchema = z.object({
  name: LibrarySettings.shape.name,
  isPublic: z.boolean().optional().default(false),
  isGeneric: z.boolean().optional().default(false),
  organizations: LibrarySettings.shape.organizations.optional().default([]),
  description: LibrarySettings.shape.description.optional().default(""),
  tags: z
    .string()
    .max(10_000)
    .optional()
    .transform((v) => splitTags(v))
    .pipe(LibrarySettings.shape.tags),
  categories: LibrarySettings.shape.categories.optional().default([]),
});

/** 'Add category' (spec 3 §5): a name is required. */
export const CategorySchema = z.object({
  name: CategoryCreate.shape.name,
  parentId: z.string().max(100).optional(),
});
