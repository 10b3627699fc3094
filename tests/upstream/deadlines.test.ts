import { describe, expect, test } from "vitest";
import {
  addBusinessDays,
  addMonths,
  addPeriod,
  computeDeadlines,
  formatDate,
  nextBusinessDay,
  parseDate,
  type DeadlineSpec,
} from "@contract/deadlines";

const d = (text: string) => {
  const date = parseDate(text);
  if (!date) throw new Error(`bad date ${text}`);
  return date;
};
const f = formatDate;

describe("deadline arithmetic", () => {
  test("parseDate accepts real calendar dates only", () => {
    expect(parseDate("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });
    for (const bad of ["2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "24-01-01", "2024-1-1", "", "soon"]) {
      expect(parseDate(bad), bad).toBeNull();
    }
    expect(parseDate(" 2024-01-31 ")).not.toBeNull();
  });

  test("months: the same day number, clamped to the month's last day (leap years, year ends)", () => {
    expect(f(addMonths(d("2024-01-31"), 1))).toBe("2024-02-29");
    expect(f(addMonths(d("2023-01-31"), 1))).toBe("2023-02-28");
    expect(f(addMonths(d("2024-03-31"), 1))).toBe("2024-04-30");
    expect(f(addMonths(d("2024-08-31"), 6))).toBe("2025-02-28");
    expect(f(addMonths(d("2024-11-15"), 3))).toBe("2025-02-15");
    expect(f(addMonths(d("2024-12-31"), 12))).toBe("2025-12-31");
    expect(f(addMonths(d("2024-05-31"), 0))).toBe("2024-05-31");
    expect(f(addMonths(d("2024-01-30"), 30))).toBe("2026-07-30");
  });

  test("years: Feb 29 becomes Feb 28 in a common year, stays in a leap year", () => {
    expect(f(addPeriod(d("2024-02-29"), 1, "years"))).toBe("2025-02-28");
    expect(f(addPeriod(d("2024-02-29"), 4, "years"))).toBe("2028-02-29");
    expect(f(addPeriod(d("2096-02-29"), 4, "years"))).toBe("2100-02-28"); // 2100 is not a leap year
    expect(f(addPeriod(d("2000-02-29"), 400, "years"))).toBe("2400-02-29");
  });

  test("days and weeks: plain calendar days, across months, years and daylight-saving changes", () => {
    expect(f(addPeriod(d("2024-12-25"), 10, "days"))).toBe("2025-01-04");
    expect(f(addPeriod(d("2024-02-28"), 1, "days"))).toBe("2024-02-29");
    expect(f(addPeriod(d("2024-03-30"), 1, "days"))).toBe("2024-03-31");
    expect(f(addPeriod(d("2024-10-26"), 2, "weeks"))).toBe("2024-11-09");
    expect(f(addPeriod(d("2024-01-01"), 0, "weeks"))).toBe("2024-01-01");
  });

  test("business days skip Saturdays and Sundays; the trigger day is not counted", () => {
    // 2024-06-07 is a Friday.
    expect(f(addBusinessDays(d("2024-06-07"), 1))).toBe("2024-06-10");
    expect(f(addBusinessDays(d("2024-06-08"), 1))).toBe("2024-06-10"); // Saturday → Monday
    expect(f(addBusinessDays(d("2024-06-09"), 1))).toBe("2024-06-10"); // Sunday → Monday
    expect(f(addBusinessDays(d("2024-06-10"), 5))).toBe("2024-06-17"); // Monday + 5 = next Monday
    expect(f(addBusinessDays(d("2024-06-07"), 10))).toBe("2024-06-21");
    expect(f(addBusinessDays(d("2024-06-05"), 3))).toBe("2024-06-10"); // Wed → Thu, Fri, Mon
    expect(f(addBusinessDays(d("2024-12-27"), 3))).toBe("2025-01-01"); // across the year end (no holidays)
    expect(f(addBusinessDays(d("2024-06-08"), 0))).toBe("2024-06-08");
  });

  test("nextBusinessDay moves Saturday and Sunday to Monday only", () => {
    expect(f(nextBusinessDay(d("2024-06-08")))).toBe("2024-06-10");
    expect(f(nextBusinessDay(d("2024-06-09")))).toBe("2024-06-10");
    expect(f(nextBusinessDay(d("2024-06-07")))).toBe("2024-06-07");
  });

  test("computeDeadlines: due date, each extension counted from the trigger (no month-end drift), final date, weekend roll", () => {
    const oa: DeadlineSpec = { label: "Response to Office Action", amount: 3, measure: "months", extension: { times: 3, amount: 1, measure: "months" } };
    // Trigger 2024-11-30: +3 months = 2025-02-28 (clamped); +4 = 2025-03-30 (Sunday), +5 = 2025-04-30, +6 = 2025-05-30.
    expect(computeDeadlines(d("2024-11-30"), [oa], false)).toEqual([
      { label: oa.label, due: "2025-02-28", extensions: ["2025-03-30", "2025-04-30", "2025-05-30"], final: "2025-05-30" },
    ]);
    expect(computeDeadlines(d("2024-11-30"), [oa], true)[0]!.extensions[0]).toBe("2025-03-31");
    const pct: DeadlineSpec = { label: "National phase", amount: 30, measure: "months", extension: { times: 0, amount: 1, measure: "months" } };
    const grace: DeadlineSpec = { label: "Acknowledge", amount: 2, measure: "businessDays", extension: { times: 2, amount: 1, measure: "weeks" } };
    const [national, ack] = computeDeadlines(d("2024-01-31"), [pct, grace], false);
    expect(national).toEqual({ label: "National phase", due: "2026-07-31", extensions: [], final: "2026-07-31" });
    // 2024-01-31 is a Wednesday: +2 business days = Friday 02-02; extensions of a week from there.
    expect(ack).toEqual({ label: "Acknowledge", due: "2024-02-02", extensions: ["2024-02-09", "2024-02-16"], final: "2024-02-16" });
  });
});
