import { describe, expect, it } from "vitest";
import { joinTags, splitTags } from "../../app/ui/tag-input";

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
