import { describe, expect, it } from "vitest";
import { MARK_END, MARK_START, fragmentsOf } from "../../upstream/src/search/highlight";

/** The highlight fragments cut from FTS5's marked text (upstream/src/search/highlight.ts). */
const o = (fragmentSize: number, fragments: number, noMatchSize = 0) => ({ fragmentSize, fragments, noMatchSize, pre: "<em>", post: "</em>" });
const m = (word: string) => `${MARK_START}${word}${MARK_END}`;

describe("fragmentsOf", () => {
  it("marks the matches, escapes the text and never the tags", () => {
    expect(fragmentsOf(`a <b> & ${m("c'd")} "e"`, "", o(100, 0))).toEqual(["a &#60;b&#62; &#38; <em>c&#39;d</em> &#34;e&#34;"]);
  });

  it("drops empty and stray marks", () => {
    expect(fragmentsOf(`x${MARK_START}${MARK_END} y${MARK_END} ${m("z")}${MARK_START}`, "", o(100, 0))).toEqual(["x y <em>z</em>"]);
    expect(fragmentsOf(`plain${MARK_END} text`, "", o(100, 0))).toBeNull();
  });

  it("cuts fragments at words, any Unicode space counting as one, and keeps the windows with most matches", () => {
    const text = `alpha\u3000beta gamma\u00a0delta ${m("one")} epsilon zeta eta theta iota kappa lambda mu ${m("two")} nu ${m("two")} xi`;
    const [best] = fragmentsOf(text, "", o(24, 1))!;
    expect(best).toBe("lambda mu <em>two</em> nu <em>two</em> xi");
    expect(fragmentsOf(text, "", o(24, 2))).toEqual(["gamma\u00a0delta <em>one</em> epsilon zeta", best]);
  });

  it("without a match: the first no_match_size characters, cut at a word, or nothing", () => {
    expect(fragmentsOf(null, "first second\u2003third", o(100, 1, 15))).toEqual(["first second"]);
    expect(fragmentsOf(null, "first second", o(100, 1, 0))).toBeNull();
  });
});
