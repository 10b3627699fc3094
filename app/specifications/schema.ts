import {
  SPECIFICATION_MESSAGES,
  SpecificationCreate,
  SpecificationFields,
} from "@contract/specifications";
import { textList } from "~/lib/form-fields";

/**
 * The create/edit form (spec 1 §5 Specification), shared by the browser and the action: the contract's create schema
 * and messages, with the tags as the tag input sends them (one text) and a template of blanks refused as missing.
 */
export const SpecificationSchema = SpecificationCreate.extend({
  tags: textList(SpecificationFields.tags),
  template: SpecificationFields.template.refine((t) => t.trim() !== "", SPECIFICATION_MESSAGES.templateRequired),
});
