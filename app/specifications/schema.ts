import { z } from "zod";
import { MIN_SPECIFICATION_NAME, SPECIFICATION_TYPES } from "../../upstream/contract/specifications";
import { splitTags } from "../ui/tag-input";
import { SPECIFICATIONS } from "./texts";

const V = SPECIFICATIONS.validation;

/** The create/edit form (spec 1 §5 Specification). Shared by the browser and the action. */
export const SpecificationSchema = z.object({
  name: z
    .string({ required_error: V.nameRequired })
    .trim()
    .min(1, V.nameRequired)
    .min(MIN_SPECIFICATION_NAME, V.nameShort)
    .max(200),
  type: z.enum(SPECIFICATION_TYPES, { required_error: V.typeRequired, invalid_type_error: V.typeRequired }),
  description: z.string().max(5000).optional().default(""),
  /** One text field, tags joined by "; " (the tag input), split on the server. */
  tags: z
    .string()
    .optional()
    .transform((v) => splitTags(v)),
  isPublic: z.boolean().optional().default(false),
  template: z.string({ required_error: V.templateRequired }).refine((t) => t.trim() !== "", V.templateRequired),
});
export type SpecificationForm = z.infer<typeof SpecificationSchema>;

/** The detail screen's Save: the template alone. */
export const TemplateSchema = SpecificationSchema.pick({ template: true });
