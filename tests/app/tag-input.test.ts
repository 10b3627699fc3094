import { describe, expect, it } from "vitest";
import { joinTags, splitTags, typedProblem } from "~/ui/tag-input";
import { readSuggestions } from "~/ui/suggestions";

describe("splitTags", () => {
  it("splits on ';', trims and drops empty parts", () => {
    expect(splitTags(" a ; b;;  c ;")).toEqual(["a", "b", "c"]);
  });
  it("drops case-insensitive duplicates, keeping the first spelling", () => {
    expect(splitTags("Alpha; beta; ALPHA; Beta")).toEqual(["Alpha", "beta"]);
  });
  it("takes another separator", () => expect(splitTags("a, b", ",")).toEqual(["a", "b"]));
  it("is empty for nothing", () => {
    expect(splitTags("")).toEqual([]);
    expect(splitTags(null)).toEqual([]);
    expect(splitTags(undefined)).toEqual([]);
    expect(splitTags(" ; ")).toEqual([]);
  });
  it("round-trips with joinTags", () => {
    const tags = ["one", "two words", "x@y.z"];
    expect(joinTags(tags)).toBe("one; two words; x@y.z");
    expect(splitTags(joinTags(tags))).toEqual(tags);
  });
});

describe("typedProblem", () => {
  const bad = "“nobody” is not an e-mail address or a recipient variable.";
  it("says the typed entry's problem once: not again when the form's errors already say it", () => {
    expect(typedProblem(bad, undefined)).toBe(bad);
    expect(typedProblem(bad, [])).toBe(bad);
    expect(typedProblem(bad, ["Something else"])).toBe(bad);
    expect(typedProblem(bad, [bad])).toBeNull();
    expect(typedProblem(null, [bad])).toBeNull();
  });
});

describe("suggestion answers", () => {
  it("strings, or { value, label } with the value shown when the label is blank; anything else ignored", () => {
    expect(readSuggestions(["a@firm.test", { value: "b@firm.test", label: "Bea Clerk" }, { value: "c@firm.test", label: " " }, 7, null, { label: "no value" }])).toEqual([
      { value: "a@firm.test", label: "a@firm.test" },
      { value: "b@firm.test", label: "Bea Clerk" },
      { value: "c@firm.test", label: "c@firm.test" },
    ]);
    expect(readSuggestions({ not: "a list" })).toEqual([]);
  });
});
