import { parseWithZod } from "@conform-to/zod";
import { computeDeadlines, parseDate, type ComputedDeadline } from "@contract/deadlines";
import { RulesResource, type Rule } from "@contract/rules";
import { textOf } from "~/lib/form.server";
import { formatDateTime } from "~/lib/format";
import { resourceClient } from "~/lib/resource.server";
import { RuleSchema } from "./schema";
import { RULES } from "./texts";

/** The rules collection (spec 2 §7), through the resource kit. */
export const rules = resourceClient(RulesResource);

export type DeadlinePreview = { trigger: string; deadlines: ComputedDeadline[]; error: null } | { trigger: string; deadlines: null; error: string };

/**
 * The Preview button (editorAction's `preview` intent): the posted rule's deadlines for the posted trigger date,
 * computed here (pure date arithmetic, upstream/contract/deadlines.ts); conform's reply keeps what was typed.
 */
export async function previewRule({ form }: { form: FormData }) {
  const submission = parseWithZod(form, { schema: RuleSchema });
  const trigger = textOf(form, "triggerDate");
  const date = parseDate(trigger);
  let preview: DeadlinePreview;
  if (!date) preview = { trigger, deadlines: null, error: RULES.badTriggerDate };
  else if (submission.status !== "success") preview = { trigger, deadlines: null, error: RULES.previewNeedsValidRule };
  else preview = { trigger, deadlines: computeDeadlines(date, submission.value.deadlines, submission.value.rollWeekends), error: null };
  return { ...submission.reply(), preview, toast: null };
}

/** A rule as its list row shows it. */
export const ruleRow = (r: Rule, timeZone: string) => ({
  id: r.id,
  name: r.name,
  jurisdiction: r.jurisdiction,
  trigger: r.trigger,
  deadlines: r.deadlines.map((d) => `${d.label}: ${d.amount} ${RULES.measures[d.measure]}`),
  updatedAt: formatDateTime(r.updatedAt, timeZone),
  updatedBy: r.updatedBy ?? r.createdBy,
});
