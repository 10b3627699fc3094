import { z } from "zod";
import { FastLaneEmails } from "@contract/email-connector";
import { textList } from "~/lib/form-fields";

/** The settings form: an unticked checkbox posts nothing (off); the addresses as the tag input sends them. */
export const EmailConnectorSchema = z.object({
  fastLaneCheckUpdates: z.boolean().optional().default(false),
  fastLaneEmails: textList(FastLaneEmails),
});
