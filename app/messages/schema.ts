import { MessageCreate, MessageFields } from "@contract/messages";
import { textList } from "~/lib/form-fields";

/**
 * The create/edit form (spec 2 §5 Message): the contract's create schema, with tags and the recipient lists as the
 * tag input sends them (one text, entries separated by ";").
 */
export const MessageSchema = MessageCreate.extend({
  tags: textList(MessageFields.tags),
  to: textList(MessageFields.recipients),
  cc: textList(MessageFields.recipients),
  bcc: textList(MessageFields.recipients),
});
