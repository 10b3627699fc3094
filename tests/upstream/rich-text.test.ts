import { describe, expect, test } from "vitest";
import { MilestoneTemplate } from "@contract/milestone-templates";
import { isBlankRichText, richTextToStore, sanitizeRichText } from "@contract/rich-text";
import * as appRichText from "~/lib/rich-text.server";
import { harness } from "./helpers";
import { WF, createWorkflow, g, json } from "./workflows-helpers";

const LINK = 'rel="noopener noreferrer nofollow" target="_blank"';

/**
 * The one rich-text rule (contract/rich-text.ts): what is stored for what was sent. The upstream's template store
 * and the back office's pages read this same function; the cases below run against it, then through the store.
 */
const CASES: readonly [what: string, input: string, stored: string][] = [
  ["TipTap's empty document", "<p></p>", ""],
  ["spaces and non-breaking spaces only", "<p> &nbsp; </p>", ""],
  ["nothing at all", "   ", ""],
  ["plain text (a textarea without JavaScript): escaped, one paragraph", "a < b & c", "<p>a &lt; b &amp; c</p>"],
  ["plain text: a paragraph per blank line, a <br> per line", "one\r\ntwo\n\nthree", "<p>one<br />two</p><p>three</p>"],
  ["the editor's headings, lists, quotes and marks kept", "<h3>T</h3><ul><li><strong>a</strong> <em>b</em> <s>c</s> <u>d</u></li></ul><blockquote>q</blockquote><pre><code>x</code></pre><hr>", "<h3>T</h3><ul><li><strong>a</strong> <em>b</em> <s>c</s> <u>d</u></li></ul><blockquote>q</blockquote><pre><code>x</code></pre><hr />"],
  ["an ordered list keeps its start", '<ol start="3"><li>c</li></ol>', '<ol start="3"><li>c</li></ol>'],
  ["scripts dropped with their text", "<p>Hi<script>alert(1)</script></p>", "<p>Hi</p>"],
  ["event handlers and styles dropped", '<p style="color:red" onclick="x()">A</p>', "<p>A</p>"],
  ["images, frames and forms dropped", '<img src=x onerror=alert(1)><iframe src="https://x.test"></iframe><form><input></form><p>B</p>', "<p>B</p>"],
  ["https links kept, opened without the opener", '<a href="https://ok.test">ok</a>', `<a href="https://ok.test" ${LINK}>ok</a>`],
  ["mailto links kept", '<a href="mailto:a@b.test">mail</a>', `<a href="mailto:a@b.test" ${LINK}>mail</a>`],
  ["javascript: links lose their href", '<a href="javascript:alert(1)">bad</a>', `<a ${LINK}>bad</a>`],
  ["protocol-relative links lose their href", '<a href="//evil.test">bad</a>', `<a ${LINK}>bad</a>`],
  ["a link's own rel and target replaced", '<a href="http://ok.test" target="_self" rel="opener">ok</a>', `<a href="http://ok.test" target="_blank" rel="noopener noreferrer nofollow">ok</a>`],
  ["spans and tables (not the editor's) unwrapped; what is left a paragraph", "<span>s</span><table><tr><td>t &amp; u</td></tr></table>", "<p>st &amp; u</p>"],
];

describe("the rich-text rule (contract/rich-text.ts)", () => {
  test.each(CASES)("%s", (_what, input, stored) => {
    expect(richTextToStore(input)).toBe(stored);
    // What a page renders of the stored text is the stored text: sanitizing again changes nothing.
    expect(sanitizeRichText(stored)).toBe(stored);
    expect(isBlankRichText(stored)).toBe(stored === "");
  });

  test("the back office reads the same functions, not a copy", () => {
    expect(appRichText.sanitizeRichText).toBe(sanitizeRichText);
    expect(appRichText.richTextToStore).toBe(richTextToStore);
    expect(appRichText.isBlankRichText).toBe(isBlankRichText);
  });

  test("the template store keeps notes, path notes and instructions by the rule; empty notes dropped", async () => {
    const h = await harness();
    const t = h.adminToken;
    const w = await createWorkflow(h, { title: "Rich text" });
    const inputs = CASES.map(([, input]) => input);
    const kept = CASES.map(([, , stored]) => stored).filter((s) => s !== "");
    const created = MilestoneTemplate.parse(
      await json(
        await h.call("POST", `${WF}/${w.id}/milestones/draft/template`, {
          token: t,
          body: { workflowId: w.id, data: { title: "Notes", events: [{ code: "correspondence.recieved", action: { notes: inputs } }] } },
        }),
        201,
      ),
    );
    expect(created.events[0]!.action.notes).toEqual(kept);
    const content = {
      ...created,
      steps: [
        g.step("start", "milestone-start"),
        g.step("t1", "task", { options: { instructions: CASES[8]![1] } }),
        g.step("t2", "task", { options: { instructions: "<p></p>" } }),
        g.step("finish", "finish"),
      ],
      paths: [
        g.path("start", "t1", { to: { action: { notes: inputs } } }),
        g.path("t1", "t2", { to: { action: { notes: [{ predicates: [], value: inputs }] } } }),
        g.path("t2", "finish"),
      ],
    };
    const saved = MilestoneTemplate.parse(await json(await h.call("PUT", `${WF}/${w.id}/milestones/${created.id}`, { token: t, body: content }), 200));
    const step = (id: string) => saved.steps.find((s) => s.id === id)!;
    expect(step("t1").options.instructions).toBe(CASES[8]![2]);
    expect(step("t2").options.instructions).toBe("");
    expect(saved.paths.find((p) => p.to.step === "t1")!.to.action.notes).toEqual(kept);
    expect(saved.paths.find((p) => p.to.step === "t2")!.to.action.notes).toEqual([{ predicates: [], value: kept }]);
  });
});
