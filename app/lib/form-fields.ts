import { z } from "zod";
import { splitTags } from "~/ui/tag-input";

/**
 * A contract list field (`boundedList(...)`) as a form sends it: one text of items separated by ";" (the tag input),
 * split, then checked by the contract's own schema; its first problem is the field's message (conform shows a field's
 * errors, not those of `tags[3]`). Empty or absent: an empty list.
 */
export function textList<L extends z.ZodType<string[]>>(list: L) {
  return z
    .string()
    .optional()
    .transform((text) => splitTags(text))
    .superRefine((items, ctx) => {
      const checked = list.safeParse(items);
      if (!checked.success) ctx.addIssue({ code: "custom", message: checked.error.issues[0]!.message });
    });
}
