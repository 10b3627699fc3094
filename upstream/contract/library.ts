import { z } from "zod";
import { Audit, FIELD_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, limitText, pageOf } from "./common";
import type { Permission } from "./permissions";

/**
 * The library (spec 3 §2.7, §3, §5, §7): one index over the records that already exist — drawings (spec 2),
 * specifications (spec 1) and prompt chains — with its own category tree and statistics maintained on write.
 */

/** Library item types (spec 3 §9), in the filter's order. */
export const LIBRARY_TYPES = ["drawing", "prompt", "specification"] as const;
export const LibraryType = z.enum(LIBRARY_TYPES);
export type LibraryType = z.infer<typeof LibraryType>;

/** The special category of the uncategorised items (spec 3 §2.7); it is not stored and cannot be edited. */
export const OTHER_CATEGORY = "other";

/** Group-by values (spec 3 §9). */
export const LIBRARY_GROUPS = ["category", "date"] as const;
export const LibraryGroup = z.enum(LIBRARY_GROUPS);
export type LibraryGroup = z.infer<typeof LibraryGroup>;

/** Minimum name length of a library item (spec 3 §9). */
export const MIN_LIBRARY_NAME = 4;

/** The library's texts (spec 3 §2.7, §5, §8). */
export const LIBRARY_MESSAGES = {
  nameRequired: FIELD_MESSAGES.nameRequired,
  nameShort: "Name must be at least 4 characters.",
  saveFailed: "Failed to save entity. Check your input and try again.",
  unknownOrganization: "Unknown Organization",
  unknownCategory: "Unknown Category",
  categoryNotFound: "Category not found.",
  itemNotFound: "Library item not found.",
  otherReadOnly: "The category 'other' cannot be changed.",
  cycle: "A category cannot be moved under itself or its descendants.",
  tokenInvalid: "The download link is invalid or has expired.",
} as const;

/** Which permission reads each type of item (its own domain's), and which writes its settings besides prompts.write. */
export const LIBRARY_TYPE_PERMISSIONS: Record<LibraryType, { read: Permission; write: Permission }> = {
  drawing: { read: "templates.read", write: "templates" },
  prompt: { read: "prompts.read", write: "prompts" },
  specification: { read: "specifications.read", write: "specifications" },
};
/** Editing item settings and categories (spec 3 §6: prompts.write). */
export const LIBRARY_WRITE: Permission = "prompts";

/** Bounds of the library's lists. */
export const LIBRARY_LIMITS = {
  /** Categories of one item, and organizations of one item (spec 3 §9: multi-select limit 50). */
  selection: 50,
  /** Categories in the whole tree. */
  categories: 5_000,
  /** Depth of the tree. */
  depth: 20,
} as const;

const id = limitText(z.string().trim().min(1), "Id", TEXT_LIMITS.id);
const tags = boundedList(limitText(z.string().trim().min(1), "Tag", TEXT_LIMITS.tag), "tags", LIST_LIMITS.tags);
const description = limitText(z.string(), "Description", TEXT_LIMITS.description, { multiline: true });

// ------------------------------------------------------------------ Categories

/** A library category (spec 3 §3): shown as Parent > Child, ordered among its siblings by `order`. */
export const LibraryCategory = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    parentId: z.string().nullable(),
    order: z.number().int(),
  })
  .merge(Audit);
export type LibraryCategory = z.infer<typeof LibraryCategory>;

const categoryName = limitText(
  z.string({ required_error: FIELD_MESSAGES.nameRequired }).trim().min(1, FIELD_MESSAGES.nameRequired),
  "Name",
  TEXT_LIMITS.name,
);

/** POST /api/categories/create */
export const CategoryCreate = z.object({
  name: categoryName,
  description: description.optional().default(""),
  tags: tags.optional().default([]),
  parentId: id.nullable().optional().default(null),
});
export type CategoryCreate = z.input<typeof CategoryCreate>;

/**
 * PUT /api/categories/{id}: the fields sent change. `parentId` re-parents it (null: top level); `order` places it among
 * its new siblings (0 first; past the end: last); a move under itself or a descendant is a 400.
 */
export const CategoryUpdate = z
  .object({
    name: categoryName,
    description,
    tags,
    parentId: id.nullable(),
    order: z.number().int().min(0).max(LIBRARY_LIMITS.categories),
  })
  .partial();
export type CategoryUpdate = z.input<typeof CategoryUpdate>;

/** GET /api/categories/all: every category, parents before children, siblings by order. */
export const CategoryList = z.array(LibraryCategory);

// ------------------------------------------------------------------ Items

/** A library item (spec 3 §3) as the index answers it: the shared fields of its record. */
export const LibraryItem = z
  .object({
    id: z.string(),
    libraryType: LibraryType,
    name: z.string(),
    isPublic: z.boolean(),
    isGeneric: z.boolean(),
    organizations: z.array(z.string()),
    description: z.string(),
    tags: z.array(z.string()),
    categories: z.array(z.string()),
  })
  .merge(Audit);
export type LibraryItem = z.infer<typeof LibraryItem>;

/** A page of items; with groupBy=category an item appears once under each of its categories (`group`). */
export const LibraryItemPage = pageOf(LibraryItem.extend({ group: z.string() }));
export type LibraryItemPage = z.infer<typeof LibraryItemPage>;

const listOf = (label: string) =>
  z
    .string()
    .max(5_000)
    .optional()
    .transform((v) =>
      v === undefined
        ? undefined
        : v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
    )
    .pipe(boundedList(limitText(z.string(), label, TEXT_LIMITS.name), label, LIBRARY_LIMITS.selection).optional());

/**
 * GET /api/library/items (spec 3 §7): `groupBy` orders by category (tree order, then name) or by date (last modified,
 * newest first); `name` is a substring of the name; each list filter is comma-separated and matches any of its values
 * (`type`, `organization`, `author` — last edited by —, `tag`, `categories`); `from`/`to` bound the last change (ISO).
 */
export const LibraryItemsQuery = z.object({
  groupBy: LibraryGroup.optional().default("category"),
  name: limitText(z.string().trim(), "Search text", TEXT_LIMITS.search).optional().default(""),
  type: listOf("Type").pipe(z.array(LibraryType).optional()),
  organization: listOf("Organization"),
  author: listOf("Author"),
  tag: listOf("Tag"),
  categories: listOf("Category"),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(200).optional().default(50),
});
export type LibraryItemsQuery = z.infer<typeof LibraryItemsQuery>;
export type LibraryItemsQueryInput = z.input<typeof LibraryItemsQuery>;

/**
 * PATCH /api/library/items/{id}: the item's settings (spec 3 §2.7), saved through its own domain. Name required,
 * trimmed, at least 4 characters (spec 3 §5).
 */
export const LibrarySettings = z.object({
  // One message at a time: a blank name is required, not also short.
  name: z
    .string({ required_error: LIBRARY_MESSAGES.nameRequired })
    .trim()
    .min(1, LIBRARY_MESSAGES.nameRequired)
    .pipe(limitText(z.string().min(MIN_LIBRARY_NAME, LIBRARY_MESSAGES.nameShort), "Name", TEXT_LIMITS.name)),
  isPublic: z.boolean(),
  isGeneric: z.boolean(),
  organizations: boundedList(id, "organizations", LIBRARY_LIMITS.selection),
  description,
  tags,
  categories: boundedList(id, "categories", LIBRARY_LIMITS.selection),
});
export type LibrarySettings = z.infer<typeof LibrarySettings>;

/** POST /api/library/items: a new item with the spec's defaults (private, not generic, 'new {type}', a description). */
export const LibraryItemCreate = z.object({ libraryType: LibraryType });
export const newItemDefaults = (type: LibraryType) => ({
  name: `new ${type}`,
  description: `new ${type}`,
  isPublic: false,
  isGeneric: false,
});

// ------------------------------------------------------------------ Statistics

/**
 * Dimensions of the statistics (spec 3 §3): counts by category, type, author (creator), tag, organization, month and
 * year of the last change; and by last editor, whose keys are the 'last edited by' filter's choices.
 */
export const STAT_DIMENSIONS = ["category", "type", "author", "editor", "tag", "organization", "month", "year"] as const;
export type StatDimension = (typeof STAT_DIMENSIONS)[number];
const StatCounts = z.record(z.string(), z.number().int().nonnegative());
/** GET /api/library/stats: per dimension, key → number of items (an item counts once per category, tag, organization). */
export const LibraryStats = z.object({
  total: z.number().int().nonnegative(),
  counts: z.object({
    category: StatCounts,
    type: StatCounts,
    author: StatCounts,
    editor: StatCounts,
    tag: StatCounts,
    organization: StatCounts,
    month: StatCounts,
    year: StatCounts,
  } satisfies Record<StatDimension, typeof StatCounts>),
});
export type LibraryStats = z.infer<typeof LibraryStats>;

// ------------------------------------------------------------------ Drawing token

/** GET /api/drawings/{id}/token: a short-lived token that only opens this drawing's content. */
export const DrawingToken = z.object({ token: z.string(), expiresAt: z.string() });
export type DrawingToken = z.infer<typeof DrawingToken>;
/** How long a drawing token opens the content. */
export const DRAWING_TOKEN_SECONDS = 60;
