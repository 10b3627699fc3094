import { z } from "zod";
import type { FieldType } from "@contract/workflow-contracts";
import type { Form, FormProperty } from "@contract/milestone-templates";
import { splitTags } from "~/ui/tag-input";
import { MILESTONES } from "./texts";

/**
 * The form completing a task fills (`Task.form`, from its template's path) as one zod schema, shared by the page
 * (instant feedback) and the action (the authority before the upstream checks again). Its inputs are named `f0`,
 * `f1`… by position, not by the property's name: a property named "Filing date" or "a.b" would otherwise be read as a
 * path by conform. `valuesOf` maps them back to the keys the upstream stores (`property`, else `name`).
 */

/** The input name of the `index`-th property. */
export const inputName = (index: number) => `f${index}`;
/** The key of a property's value in `TaskCompletion.values` (what the upstream checks and stores). */
export const valueKey = (p: Pick<FormProperty, "property" | "name">) => p.property || p.name;
/** The port choice's input (a task leaving by several ports). */
export const PORT_FIELD = "port";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** What `<input type="datetime-local">` sends: a wall-clock time, in the user's time zone. */
const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const TEXT_MAX = 100_000;

const V = MILESTONES.validation;

function valueSchema(p: FormProperty): z.ZodTypeAny {
  const label = p.name;
  const required = { required_error: V.required(label), invalid_type_error: V.type(label, p.type) };
  const optional = (s: z.ZodTypeAny) => (p.required ? s : s.optional());
  const text = () => z.string(required).max(TEXT_MAX, V.tooLong(label));
  const byType: Record<FieldType, () => z.ZodTypeAny> = {
    string: () => optional(text()),
    formPicker: () => optional(text()),
    email: () => optional(z.string(required).trim().email(V.email(label)).max(320, V.tooLong(label))),
    number: () => optional(z.number(required)),
    date: () => optional(z.string(required).regex(DATE, V.type(label, "date"))),
    datetime: () => optional(z.string(required).regex(LOCAL_DATETIME, V.type(label, "datetime"))),
    // A list of people is one text field of addresses separated by ";" (the tag input), with or without JavaScript.
    people: () =>
      z
        .string(required)
        .optional()
        .transform((v) => splitTags(v))
        .pipe(
          z
            .array(z.string().email(V.email(label)))
            .max(50)
            .min(p.required ? 1 : 0, V.required(label)),
        ),
    // An unticked box is "no": never missing (the upstream treats a required boolean the same way).
    boolean: () => z.boolean().optional().default(false),
    file: () => optional(z.instanceof(File, { message: V.required(label) })),
  };
  return byType[p.type]();
}

/** The completion form's schema: one input per property, and the port when the task leaves by several. */
export function taskFormSchema(form: Form | null, ports: readonly string[]) {
  const shape: Record<string, z.ZodTypeAny> = {};
  (form?.properties ?? []).forEach((p, i) => {
    shape[inputName(i)] = valueSchema(p);
  });
  if (ports.length > 1) {
    shape[PORT_FIELD] = z.enum(ports as [string, ...string[]], { errorMap: () => ({ message: MILESTONES.form.portRequired }) });
  } else if (ports.length === 1) {
    shape[PORT_FIELD] = z.string().optional();
  }
  return z.object(shape);
}

/**
 * The parsed inputs as `TaskCompletion.values` (keyed by the properties' keys). `datetime` values are wall-clock times
 * in `timeZone`, sent as instants; files are whatever `upload` made of them (the stored upload's id).
 */
export async function valuesOf(
  form: Form | null,
  parsed: Record<string, unknown>,
  timeZone: string,
  upload: (file: File) => Promise<string>,
): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  const properties = form?.properties ?? [];
  for (let i = 0; i < properties.length; i++) {
    const p = properties[i]!;
    const v = parsed[inputName(i)];
    if (v === undefined) continue;
    if (p.type === "datetime" && typeof v === "string") values[valueKey(p)] = zonedToIso(v, timeZone);
    else if (p.type === "file" && v instanceof File) values[valueKey(p)] = await upload(v);
    else values[valueKey(p)] = v;
  }
  return values;
}

/** The input of the property whose value key is `key` (an upstream 400 names the key: "filingDate: …"). */
export function inputOfKey(form: Form | null, key: string): string | null {
  const i = (form?.properties ?? []).findIndex((p) => valueKey(p) === key);
  return i < 0 ? null : inputName(i);
}

/** A stored value as the form shows it again (a completed task's values, a property's default). */
export function shownValue(p: FormProperty, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.join("; ");
  if (typeof value === "boolean") return value ? MILESTONES.form.yes : "";
  return String(value);
}

/** Milliseconds `timeZone` is ahead of UTC at `instant`. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (t: Intl.DateTimeFormatPartTypes) => Number(parts.find((x) => x.type === t)?.value);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - Math.floor(instant / 1000) * 1000;
}

/**
 * A wall-clock time ("2026-11-27T09:30") in `timeZone` as an ISO instant. The offset is read at the guess and again
 * at the corrected instant, so a time next to a daylight-saving change lands on the right side of it.
 */
export function zonedToIso(local: string, timeZone: string): string {
  const [d, t = "00:00"] = local.split("T");
  const [y, mo, da] = d!.split("-").map(Number);
  const [h, mi, s] = t.split(":").map(Number);
  const asUtc = Date.UTC(y!, mo! - 1, da!, h!, mi!, Math.floor(s ?? 0));
  let instant = asUtc - offsetAt(asUtc, timeZone);
  instant = asUtc - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}
