/**
 * The named-change differ of prompt chains (spec 3 §2.9 compare, the versions kit's named changes): links matched by
 * id, so a renamed or moved link is one link changed, not one removed and one added; each change in the chain's own
 * words ("link PROMPT 2 model gpt-a → gpt-b", "link QUERY 1 query changed"). Pure and linear in the chain's size: the
 * compare page and its tests call the same function. Long texts (messages, SQL, templates) are named as changed, not
 * quoted: the versions themselves show them.
 */
import type { ChainChat, ChainDocument, ChainLink, FormVariable } from "./chains";

export type ChainChangeKind = "added" | "removed" | "changed" | "renamed" | "moved";
/** One change, named: `text` is what a person reads; `link` the link's id it concerns, if any. */
export type ChainChange = { kind: ChainChangeKind; text: string; link?: string };

type Any = ChainLink | ChainChat;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const shown = (v: unknown) => (v === null || v === undefined || v === "" ? "none" : typeof v === "string" ? v : JSON.stringify(v));
const list = (v: readonly string[]) => (v.length ? v.join(", ") : "none");

/** The short fields of a link whose values are said (before → after); the rest only as "changed". */
const SAID: readonly (readonly [string, string])[] = [
  ["model", "model"],
  ["temperature", "temperature"],
  ["max_tokens", "max tokens"],
  ["renderOnly", "render only"],
  ["includeHistory", "include history"],
];
/** The long or structured fields, named when they differ. */
const NAMED: readonly (readonly [string, string])[] = [
  ["query", "query"],
  ["template", "template"],
  ["params", "params"],
  ["functions", "functions"],
  ["attachments", "attachments"],
  ["source", "source"],
];

/** A default-value selector as said: `invention title else "n/a"`, `"n/a"`, or none. */
function defaultText(d: FormVariable["defaultValue"]): string {
  const place = d?.which ? `${d.which} ${d.property || "?"}` : "";
  const literal = d?.value ? JSON.stringify(d.value) : "";
  return place && literal ? `${place} else ${literal}` : place || literal || "none";
}

/**
 * A form's variables: each variable's default said before → after (matched by name); any other difference named as
 * "variables changed", so a default changed alone is that one line.
 */
function variableChanges(name: string, b: readonly FormVariable[], a: readonly FormVariable[], say: (kind: ChainChangeKind, text: string) => void) {
  const bare = (list: readonly FormVariable[]) => list.map(({ defaultValue: _d, ...v }) => v);
  if (!same(bare(b), bare(a))) say("changed", `${name} variables changed`);
  const was = new Map(b.map((v) => [v.name, defaultText(v.defaultValue)]));
  for (const v of a) {
    const [before, after] = [was.get(v.name), defaultText(v.defaultValue)];
    if (before !== undefined && before !== after) say("changed", `${name} variable ${v.name} default ${before} → ${after}`);
  }
}

function linkChanges(noun: string, b: Any, a: Any, out: ChainChange[]) {
  const say = (kind: ChainChangeKind, text: string) => out.push({ kind, text, link: a.id });
  const name = `${noun} ${a.name}`;
  if (b.name !== a.name) say("renamed", `${noun} ${b.name} renamed to ${a.name}`);
  if (b.type !== a.type) {
    say("changed", `${name} type ${b.type} → ${a.type}`);
    return;
  }
  const [rb, ra] = [b as Record<string, unknown>, a as Record<string, unknown>];
  for (const [key, label] of SAID) if (key in ra && !same(rb[key], ra[key])) say("changed", `${name} ${label} ${shown(rb[key])} → ${shown(ra[key])}`);
  if ("messages" in b && "messages" in a) {
    const [mb, ma] = [b.messages, a.messages];
    for (let i = 0; i < Math.max(mb.length, ma.length); i++) {
      const [x, y] = [mb[i], ma[i]];
      if (x && !y) say("removed", `${name} message ${i + 1} (${x.role}) removed`);
      else if (y && !x) say("added", `${name} message ${i + 1} (${y.role}) added`);
      else if (x && y && !same(x, y)) say("changed", `${name} message ${i + 1} (${y.role}) changed`);
    }
  }
  for (const [key, label] of NAMED) if (key in ra && !same(rb[key], ra[key])) say("changed", `${name} ${label} changed`);
  if (b.type === "form" && a.type === "form") variableChanges(name, b.variables, a.variables, say);
}

/** The named changes from `before` to `after` (settings, options, links, the chat), in the chain's order. */
export function diffChains(before: ChainDocument, after: ChainDocument): ChainChange[] {
  const out: ChainChange[] = [];
  const setting = (label: string, b: unknown, a: unknown) => {
    if (!same(b, a)) out.push({ kind: "changed", text: `${label} ${shown(b)} → ${shown(a)}` });
  };
  setting("name", before.name, after.name);
  setting("public", before.isPublic, after.isPublic);
  setting("generic", before.isGeneric, after.isGeneric);
  for (const key of ["organizations", "categories", "tags"] as const) {
    if (!same(before[key], after[key])) out.push({ kind: "changed", text: `${key} ${list(before[key])} → ${list(after[key])}` });
  }
  if (before.description !== after.description) out.push({ kind: "changed", text: "description changed" });
  const [ob, oa] = [before.template.options, after.template.options];
  setting("insert in section", ob.insertIn, oa.insertIn);
  setting("insert at", ob.insertAt, oa.insertAt);

  const was = new Map(before.template.chain.map((l, i) => [l.id, { link: l, at: i }]));
  const is = new Set(after.template.chain.map((l) => l.id));
  for (const l of before.template.chain) if (!is.has(l.id)) out.push({ kind: "removed", text: `link ${l.name} removed`, link: l.id });
  // Moves are said relative to the links both versions have: adding or removing one does not "move" the others.
  const keptBefore = before.template.chain.filter((l) => is.has(l.id)).map((l) => l.id);
  const keptAfter = after.template.chain.filter((l) => was.has(l.id)).map((l) => l.id);
  after.template.chain.forEach((l, i) => {
    const old = was.get(l.id);
    if (!old) {
      out.push({ kind: "added", text: `link ${l.name} added at ${i + 1}`, link: l.id });
      return;
    }
    if (keptBefore.indexOf(l.id) !== keptAfter.indexOf(l.id)) out.push({ kind: "moved", text: `link ${l.name} moved from ${old.at + 1} to ${i + 1}`, link: l.id });
    linkChanges("link", old.link, l, out);
  });

  const [cb, ca] = [before.template.chat, after.template.chat];
  if (cb && !ca) out.push({ kind: "removed", text: `chat ${cb.name} removed` });
  else if (ca && !cb) out.push({ kind: "added", text: `chat ${ca.name} added` });
  else if (cb && ca) linkChanges("chat", cb, ca, out);
  return out;
}
