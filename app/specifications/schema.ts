import { z } from "zod";
import { LIST_LIMITS, TEXT_LIMITS, limitText } from "../../upstream/contract/common";
import { MIN_SPECIFICATION_NAME, SPECIFICATION_TYPES } from "../../upstream/contract/specifications";
import { splitTags } from "../ui/tag-input";
import { SPECIFICATIONS } from "./texts";

const V = SPECIFICATIONS.validation;
const L = SPECIFICATIONS.labels;
const tag = limitText(z.string(), SPECIFICATIONS.limits.tagLabel, TEXT_LIMITS.tag);

/** The create/edit form (spec 1 §5 Specification). Shared by the browser and the action; bounded like the contract. */
export const SpecificationSchema = z.object({
  name: limitText(
    z.string({ required_error: V.nameRequired }).trim().min(1, V.nameRequired).min(MIN_SPECIFICATION_NAME, V.nameShort),
    L.name,
    TEXT_LIMITS.name,
  ),
  type: z.enum(SPECIFICATION_TYPES, { required_error: V.typeRequired, invalid_type_error: V.typeRequired }),
  description: limitText(z.string(), L.description, TEXT_LIMITS.description, { multiline: true }).optional().default(""),
  /** One text field, tags joined by "; " (the tag input), split on the server; each tag and their number bounded. */
  tags: z
    .string()
    .optional()
    .transform((v) => splitTags(v))
    .superRefine((list, ctx) => {
      if (list.length > LIST_LIMITS.tags) {
        ctx.addIssue({ code: "custom", message: SPECIFICATIONS.limits.tooManyTags });
        return;
      }
      const problem = list.map((t) => tag.safeParse(t)).find((r) => !r.success);
      if (problem?.error) ctx.addIssue({ code: "custom", message: problem.error.issues[0]!.message });
    }),
  isPublic: z.boolean().optional().default(false),
  template: limitText(z.string({ required_error: V.templateRequired }), L.template, TEXT_LIMITS.template, {
    multiline: true,
  }).refine((t) => t.trim() !== "", V.templateRequired),
});
export type SpecificationForm = z.infer<typeof SpecificationSchema>;

/** The detail screen's Save: the template alone. */
export const TemplateSchema = SpecificationSchema.pick({ template: true });
