/**
 * Whether a page's body is a form conform can take (docs/decisions/request-guard.md, steps 3 and 4): urlencoded or
 * multipart, at most FORM_LIMITS.fields fields, field names in conform's path syntax with each list's index bounded by
 * its own maximum, and conform's `__intent__`/`__state__` readable. The request guard (guard.ts) runs it on every
 * page body it has read.
 */
import { APPLICATION_LIMITS } from "@contract/portfolio-constants";
import { RULE_LIMITS } from "@contract/rules";
import { matchRoute, type RouteEntry } from "~/lib/routes";
import { readMultipart } from "../upstream/src/lib/multipart";

export const FORM_LIMITS = {
  /** Fields (urlencoded pairs, multipart parts) per body. The largest form today has a few dozen. */
  fields: 1000,
  /**
   * The largest `[N]` of a list that PAGE_LIST_LIMITS does not name (conform builds an array of N + 1 slots). Forms
   * post such lists as repeated names (`organizations=a&organizations=b`), never by index: this only bounds scripts.
   */
  index: 20,
  /** Path segments in a field name (`a.b[0].c` is 4). */
  depth: 16,
  /** Characters in a field name. */
  nameLength: 1000,
} as const;

/**
 * The lists a page's form posts row by row (`deadlines[3].label`), by the route table's path (app/lib/routes.ts): each
 * bounded by its own schema's maximum. For `[N]` conform builds N + 1 slots, the schema checks each and the page
 * renders each again: `deadlines[999]` cost seconds of the event loop and ~150 MB. The index may reach the maximum
 * itself (one row too many), so that a form with one row too many gets the schema's own "at most" message. A list not
 * named here takes FORM_LIMITS.index at most.
 */
const PAGE_LIST_LIMITS: Partial<Record<RouteEntry["path"], Readonly<Record<string, number>>>> = {
  "/rules/create": { deadlines: RULE_LIMITS.deadlines },
  "/rules/:id/edit": { deadlines: RULE_LIMITS.deadlines },
  // The edit-fields dialog's products (app/portfolio/schema.ts EditFieldsSchema).
  "/portfolio": { products: APPLICATION_LIMITS.products },
};

/** The list maxima of the form posted to `path` (PAGE_LIST_LIMITS by its route table entry). */
export function listLimitsOf(path: string): Readonly<Record<string, number>> {
  const entry = matchRoute(path);
  return (entry && PAGE_LIST_LIMITS[entry.path]) ?? {};
}

export type Checked =
  | { ok: true; body: Buffer; contentType: string }
  | { ok: false; status: 400 | 413 | 415; message: string };
export const URLENCODED = "application/x-www-form-urlencoded";
const TOKEN = /([^.[\]]+)|\[(\d*)\]/g;

/** A list's maxima by its path, indexes written `[]` (`deadlines`, `a[].b`): PAGE_LIST_LIMITS' entries. */
export type ListLimits = Readonly<Record<string, number>>;

/** The largest index `list` may take: its own maximum, else FORM_LIMITS.index. */
const maxIndexOf = (list: string, lists: ListLimits) => (Object.hasOwn(lists, list) ? lists[list]! : FORM_LIMITS.index);

const indexAbove = (list: string, max: number) => `A field name has an index above ${max}, the most "${list}" takes.`;

/**
 * Why conform could not take this field name, or null: the syntax conform's parsePath accepts (it throws, a 500, on
 * anything else), no `__proto__`/`constructor`, no index above its list's maximum (`lists`, else FORM_LIMITS.index),
 * no deeper than FORM_LIMITS.depth.
 */
export function fieldNameProblem(name: string, lists: ListLimits = {}): string | null {
  if (name.length > FORM_LIMITS.nameLength) return `A field name is longer than ${FORM_LIMITS.nameLength} characters.`;
  const token = new RegExp(TOKEN);
  let last = 0;
  let depth = 0;
  let list = "";
  let match: RegExpExecArray | null;
  while ((match = token.exec(name))) {
    if (match.index !== last && !(match.index === last + 1 && name[last] === ".")) return "A field name is malformed.";
    const [, key, index] = match;
    if (key === "__proto__" || key === "constructor") return "A field name is malformed.";
    if (index) {
      const max = maxIndexOf(list, lists);
      if (index.length > 6 || Number(index) > max) return indexAbove(list, max);
    }
    if (++depth > FORM_LIMITS.depth) return `A field name is nested deeper than ${FORM_LIMITS.depth} levels.`;
    list += key === undefined ? "[]" : list === "" ? key : `.${key}`;
    last = token.lastIndex;
  }
  if (last !== name.length) return "A field name is malformed.";
  return null;
}

/** conform's reserved fields: a list or field operation posted by a button (JSON), and its client state (JSON). */
const INTENT = "__intent__";
const STATE = "__state__";
const INTENT_UNREADABLE = "The form's intent cannot be read.";

/**
 * Why conform could not take this `__intent__`, or null. conform parses it as JSON (a 500 when it is not) and then
 * applies it to the form before the schema runs: `update`/`reset` set the field `name` (with `[index]` when given),
 * `insert`/`remove`/`reorder` splice the list `name` at `index`/`from`/`to`. So the names are checked as field names
 * and the positions against the list's own maximum, as for fields.
 */
export function intentProblem(value: string, lists: ListLimits = {}): string | null {
  let intent: unknown;
  try {
    intent = JSON.parse(value);
  } catch {
    return INTENT_UNREADABLE;
  }
  if (typeof intent !== "object" || intent === null) return INTENT_UNREADABLE;
  const { type, payload } = intent as { type?: unknown; payload?: unknown };
  if (typeof type !== "string" || typeof payload !== "object" || payload === null) return INTENT_UNREADABLE;
  const { name = "", index, from, to } = payload as Record<string, unknown>;
  if (typeof name !== "string") return INTENT_UNREADABLE;
  const problem = fieldNameProblem(name, lists);
  if (problem) return problem;
  // The list the positions index: `name` itself, with any index in it written `[]`.
  const list = name.replace(/\[\d*\]/g, "[]");
  const max = maxIndexOf(list, lists);
  for (const position of [index, from, to]) {
    if (position === undefined) continue;
    if (!Number.isSafeInteger(position) || (position as number) < 0) return INTENT_UNREADABLE;
    if ((position as number) > max) return indexAbove(list, max);
  }
  return null;
}

/** Fields as both parsers give them: names in order, and the values of one name. */
type Fields = { keys(): Iterable<string>; getAll(name: string): (string | File)[] };

function checkFields(fields: Fields, lists: ListLimits): Checked | null {
  let count = 0;
  for (const name of fields.keys()) {
    if (++count > FORM_LIMITS.fields) return tooManyFields;
    const problem = fieldNameProblem(name, lists);
    if (problem) return { ok: false, status: 400, message: problem };
  }
  // conform reads the first of each (a File there is a 500 in conform).
  const [intent] = fields.getAll(INTENT);
  if (intent !== undefined) {
    const problem = typeof intent === "string" ? intentProblem(intent, lists) : INTENT_UNREADABLE;
    if (problem) return { ok: false, status: 400, message: problem };
  }
  const [state] = fields.getAll(STATE);
  if (state !== undefined && (typeof state !== "string" || !isJson(state))) {
    return { ok: false, status: 400, message: "The form's state cannot be read." };
  }
  return null;
}

const tooManyFields: Checked = { ok: false, status: 400, message: `A form may have at most ${FORM_LIMITS.fields} fields.` };

function occurrences(body: Buffer, needle: Buffer | number, max: number): number {
  let count = 0;
  for (let at = body.indexOf(needle); at !== -1 && count <= max; at = body.indexOf(needle, at + 1)) count++;
  return count;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A page body as a form: urlencoded (kept as sent) or multipart (parsed by the reader the routes use, readMultipart,
 * so every route reads a well-formed body). An empty body is an
 * empty urlencoded form, whatever its type. Anything else: 415. Fields are counted before anything is parsed; list
 * indexes are bounded by `lists` (the route's, `listLimitsOf`).
 */
export async function checkForm(body: Buffer, contentType: string | undefined, lists: ListLimits = {}): Promise<Checked> {
  if (body.byteLength === 0) return { ok: true, body, contentType: URLENCODED };
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === URLENCODED) {
    if (occurrences(body, 0x26, FORM_LIMITS.fields) >= FORM_LIMITS.fields) return tooManyFields;
    const refused = checkFields(new URLSearchParams(body.toString("utf8")), lists);
    return refused ?? { ok: true, body, contentType: contentType! };
  }
  if (type === "multipart/form-data") {
    const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType!);
    if (!boundary) return { ok: false, status: 400, message: "The multipart body has no boundary." };
    const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
    if (occurrences(body, delimiter, FORM_LIMITS.fields + 1) > FORM_LIMITS.fields + 1) return tooManyFields;
    let form: FormData;
    try {
      // The routes' own reader (readForm): parsed a slice at a time, so a large upload never holds the event loop.
      form = await readMultipart(body, contentType, { parts: FORM_LIMITS.fields + 1 });
    } catch {
      return { ok: false, status: 400, message: "The multipart body cannot be read." };
    }
    const refused = checkFields(form, lists);
    if (refused) return refused;
    // Kept as sent: every route reads it with the reader that has just read it.
    return { ok: true, body, contentType: contentType! };
  }
  return {
    ok: false,
    status: 415,
    message: "Pages accept forms only: application/x-www-form-urlencoded or multipart/form-data.",
  };
}
