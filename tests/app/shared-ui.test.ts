import { describe, expect, it, vi } from "vitest";
import { formatDate, formatDateTime, formatScore } from "~/lib/format";
import { lastPageOf, loadPage, listQueryOf } from "~/lib/list.server";
import { pageCount, searchProblem } from "~/ui/list";
import { onlySearchChanged } from "~/ui/revalidate";
import { joinSentences, toastText, toastTitle } from "~/ui/toast";
import { hasFieldErrors } from "~/ui/fields";
import { ListQuery, type Page } from "@contract/common";

describe("formatDateTime (spec 3 §9: US-English long format, the user's time zone)", () => {
  it("writes the month out, a 12-hour clock and AM/PM", () => {
    expect(formatDateTime("2026-11-22T10:30:00.000Z", "Europe/London")).toBe("November 22, 2026, 10:30 AM");
    expect(formatDateTime("2026-11-22T15:05:00.000Z", "Europe/London")).toBe("November 22, 2026, 3:05 PM");
    expect(formatDateTime("2026-11-22T00:00:00.000Z", "Europe/London")).toBe("November 22, 2026, 12:00 AM");
  });
  it("says UTC when the user's zone is not known (no JavaScript, none saved): a docket's day can differ", () => {
    expect(formatDateTime("2026-01-01T00:00:00.000Z", "UTC")).toBe("January 1, 2026, 12:00 AM UTC");
    expect(formatDateTime("2026-01-01T00:00:00.000Z", "America/New_York")).toBe("December 31, 2025, 7:00 PM");
  });
  it("converts to the given zone, across a date line", () => {
    expect(formatDateTime("2026-11-22T10:30:00.000Z", "America/New_York")).toBe("November 22, 2026, 5:30 AM");
    expect(formatDateTime("2026-12-31T23:30:00.000Z", "Asia/Tokyo")).toBe("January 1, 2027, 8:30 AM");
  });
  it("uses plain spaces (no narrow no-break space before AM/PM, no ' at ')", () => {
    const text = formatDateTime("2026-11-22T10:30:00.000Z", "UTC");
    expect(text).not.toMatch(/[\u202f\u00a0]| at /);
  });
  it("shows a dash for nothing or garbage", () => {
    expect(formatDateTime(null, "UTC")).toBe("—");
    expect(formatDateTime(undefined, "UTC")).toBe("—");
    expect(formatDateTime("not a date", "UTC")).toBe("—");
  });
});

describe("formatDate (a calendar date: an audit date)", () => {
  it("writes the day in the long format, never moved by a zone", () => {
    expect(formatDate("2026-01-06")).toBe("January 6, 2026");
    expect(formatDate("2025-12-31")).toBe("December 31, 2025");
    expect(formatDate(null)).toBe("—");
    expect(formatDate("soon")).toBe("soon");
  });
});

describe("formatScore (relevance, broad, detectable, tag and product scores)", () => {
  it("rounds to three decimals", () => {
    expect(formatScore(14.2)).toBe("14.2");
    expect(formatScore(0.87654)).toBe("0.877");
    expect(formatScore(-1.23456)).toBe("-1.235");
    expect(formatScore(0)).toBe("0");
  });
  it("a score too small for three decimals keeps its first significant digit, not 0 (bm25's smallest IDF)", () => {
    expect(formatScore(0.000002)).toBe("0.000002");
    expect(formatScore(0.0000024)).toBe("0.000002");
    expect(formatScore(0.0004999)).toBe("0.0005");
    expect(formatScore(0.0005)).toBe("0.001");
    expect(formatScore(-0.000002)).toBe("-0.000002");
    expect(formatScore(1e-30)).toBe("0");
  });
  it("no score: the dash, or the text asked for", () => {
    expect(formatScore(null)).toBe("—");
    expect(formatScore(undefined)).toBe("—");
    expect(formatScore(Number.NaN)).toBe("—");
    expect(formatScore(null, "not scored")).toBe("not scored");
  });
});

describe("pagination clamp", () => {
  const rows = Array.from({ length: 27 }, (_, i) => `row ${i}`);
  const fake = vi.fn(async (q: ListQuery): Promise<Page<string>> => ({
    items: rows.slice((q.page - 1) * q.pageSize, q.page * q.pageSize),
    total: rows.length,
    page: q.page,
    pageSize: q.pageSize,
  }));

  it("counts pages, at least one", () => {
    expect(lastPageOf(0, 25)).toBe(1);
    expect(lastPageOf(25, 25)).toBe(1);
    expect(lastPageOf(26, 25)).toBe(2);
    expect(pageCount(27, 25)).toBe(2);
    expect(pageCount(0, 25)).toBe(1);
  });
  it("serves the last page for a page beyond the end (one more call, only then)", async () => {
    fake.mockClear();
    const page = await loadPage(ListQuery.parse({ page: 999 }), fake);
    expect(page.page).toBe(2);
    expect(page.items).toEqual(["row 25", "row 26"]);
    expect(fake).toHaveBeenCalledTimes(2);
  });
  it("calls once for a page within the list", async () => {
    fake.mockClear();
    const page = await loadPage(ListQuery.parse({ page: 2 }), fake);
    expect(page.items).toHaveLength(2);
    expect(fake).toHaveBeenCalledTimes(1);
  });
  it("an empty list is page 1 of 1", async () => {
    const empty = async (q: ListQuery): Promise<Page<string>> => ({ items: [], total: 0, page: q.page, pageSize: q.pageSize });
    expect((await loadPage(ListQuery.parse({ page: 7 }), empty)).page).toBe(1);
  });
});

describe("listQueryOf", () => {
  const context = { cookieSecure: false };
  it("keeps the page and sort when the search text is over the bound, and searches for nothing", async () => {
    const request = new Request(`http://x/people?q=${"x".repeat(201)}&page=3&sort=newest`);
    const { query } = await listQueryOf(request, context, "people");
    expect(query).toMatchObject({ q: "", page: 3, sort: "newest" });
  });
  it("a bad page falls back to 1, the search kept", async () => {
    const { query } = await listQueryOf(new Request("http://x/people?q=ada&page=-4"), context, "people");
    expect(query).toMatchObject({ q: "ada", page: 1 });
  });
  it("the search box says why a text is refused", () => {
    expect(searchProblem("x".repeat(200))).toBeNull();
    expect(searchProblem("x".repeat(201))).toBe("Search text must be at most 200 characters.");
    expect(searchProblem("a\u0000b")).toBe("Search text contains characters that are not allowed.");
  });
});

describe("layout revalidation", () => {
  const url = (s: string) => new URL(s, "http://x");
  it("skips a GET that only changes the search params of the same page", () => {
    expect(onlySearchChanged({ currentUrl: url("/people"), nextUrl: url("/people?q=a") })).toBe(true);
    expect(onlySearchChanged({ currentUrl: url("/people?q=a"), nextUrl: url("/people?q=ab"), formMethod: "GET" })).toBe(true);
  });
  it("revalidates after actions, on other pages and for the same URL", () => {
    expect(onlySearchChanged({ currentUrl: url("/people"), nextUrl: url("/people?q=a"), formMethod: "POST" })).toBe(false);
    expect(onlySearchChanged({ currentUrl: url("/people"), nextUrl: url("/people?x=1"), actionResult: { ok: 1 } })).toBe(false);
    expect(onlySearchChanged({ currentUrl: url("/people"), nextUrl: url("/teams") })).toBe(false);
    expect(onlySearchChanged({ currentUrl: url("/people?q=a"), nextUrl: url("/people?q=a") })).toBe(false);
  });
});

describe("toast texts read as sentences", () => {
  it("adds a full stop to a title followed by a description", () => {
    expect(toastTitle({ message: "Create failed", description: "Team already exists" })).toBe("Create failed.");
    expect(toastTitle({ message: "Team created" })).toBe("Team created");
    expect(toastTitle({ message: "Saved!", description: "x" })).toBe("Saved!");
  });
  it("separates the server's message from the try-later text", () => {
    expect(
      toastText({
        message: "Create failed",
        description: "Team already exists Please, try again later or contact our development team.",
      }),
    ).toBe("Create failed. Team already exists. Please, try again later or contact our development team.");
  });
  it("joins sentences", () => {
    expect(joinSentences("Team already exists", "Please, try again later…")).toBe("Team already exists. Please, try again later…");
    expect(joinSentences("Done.", null, "", "Next")).toBe("Done. Next");
  });
});

describe("SaveButton's refusal", () => {
  it("counts field errors, not the form-level failure text of a 409 or 5xx", () => {
    expect(hasFieldErrors({ dirty: true, valid: false, allErrors: { "": ["Team already exists"] } })).toBe(false);
    expect(hasFieldErrors({ dirty: true, valid: false, allErrors: { name: ["Name is required"] } })).toBe(true);
    expect(hasFieldErrors({ dirty: true, valid: false })).toBe(true);
  });
});
