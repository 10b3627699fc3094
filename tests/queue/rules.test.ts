import { describe, expect, it } from "vitest";
import {
  DURATION_PRESETS,
  cronError,
  extractProcessingIds,
  extractUsptoIds,
  formatDuration,
  parseDuration,
  timeoutMinutes,
} from "@contract/queues";

describe("id extraction (spec 2 §5)", () => {
  it("processing: PCT-style or 6+ digits, deduplicated, in order", () => {
    expect(extractProcessingIds("see PCTUS2024012345, 16/123,456 and 16123456; again 16123456 pctep22123456 12345")).toEqual([
      "PCTUS2024012345",
      "PCTEP22123456",
      "16123456",
    ]);
    expect(extractProcessingIds("PCT/US2024/012345")).toEqual(["PCT/US2024/012345"]);
    expect(extractProcessingIds("nothing here 12345")).toEqual([]);
  });
  it("USPTO: PCT/xx00/00000 or 6+ digits", () => {
    expect(extractUsptoIds("PCT/US24/012345 17000001 PCTUS2024012345")).toEqual(["PCT/US24/012345", "17000001", "2024012345"]);
  });
});

describe("cron (spec 2 §5)", () => {
  it.each([
    ["* * * * *", null],
    ["*/15 0-6,22,23 1 1-12/2 1-5", null],
    ["0 2 * * 0", null],
    ["", "Please enter a valid cron expression"],
    ["* * * *", "Cron expression must have at least 5 fields"],
    ["60 * * * *", "Invalid minute: 60"],
    ["* 24 * * *", "Invalid hour: 24"],
    ["* * 0 * *", "Invalid day of month: 0"],
    ["* * * 13 *", "Invalid month: 13"],
    ["* * * * 7", "Invalid day of week: 7"],
    ["* 5-2 * * *", "Invalid hour: 5-2"],
    ["*/0 * * * *", "Invalid minute: */0"],
    ["a * * * *", "Invalid minute: a"],
    ["1,,2 * * * *", "Invalid minute: 1,,2"],
    // The spec says at least 5; six (a leading second) and seven (and a trailing year) are what the scheduler runs.
    ["* * * * * *", null],
    ["30 */15 0-6 * * 1-5", null],
    ["0 0 12 1 1 * 2027", null],
    ["60 * * * * *", "Invalid second: 60"],
    ["0 60 * * * *", "Invalid minute: 60"],
    ["0 0 0 * * 7", "Invalid day of week: 7"],
    ["0 0 0 1 1 * 20270", "Invalid year: 20270"],
    ["* * * * * * * *", "Cron expression must have at most 7 fields"],
  ])("%s → %s", (expr, message) => expect(cronError(expr)).toBe(message));
});

describe("durations (spec 2 §5, §9)", () => {
  it("parses units in any order, empty is no delay, with the spec's messages", () => {
    expect(parseDuration("1d 2h 30m 15s")).toEqual({ ms: 86_400_000 + 2 * 3_600_000 + 30 * 60_000 + 15_000 });
    expect(parseDuration("30m")).toEqual({ ms: 1_800_000 });
    expect(parseDuration("2h1d")).toEqual({ ms: 26 * 3_600_000 });
    expect(parseDuration("  ")).toEqual({ ms: 0 });
    expect(parseDuration("90")).toEqual({ error: "Add time unit: d (days), h (hours), m (minutes), s (seconds)" });
    expect(parseDuration("1x")).toEqual({ error: "Invalid format. Use: 1d 2h 30m 15s" });
    expect(parseDuration("1h 1h")).toEqual({ error: "Invalid format. Use: 1d 2h 30m 15s" });
    expect(parseDuration("31d")).toEqual({ error: "At most 30 days." });
  });
  it("formats, 'No delay' for zero, and round-trips every preset", () => {
    expect(formatDuration(0)).toBe("No delay");
    expect(formatDuration(95_415_000)).toBe("1d 2h 30m 15s");
    expect(formatDuration(60_000)).toBe("1m");
    expect(DURATION_PRESETS.map((p) => p.ms)).toEqual([
      0, 30_000, 60_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000,
      86_400_000, 172_800_000, 604_800_000,
    ]);
    for (const p of DURATION_PRESETS.filter((p) => p.ms <= 30 * 86_400_000)) {
      expect(parseDuration(p.ms ? formatDuration(p.ms) : "")).toEqual({ ms: p.ms });
    }
  });
  it("request time-out: ms shown, minutes sent, rounded", () => {
    expect(timeoutMinutes(90_000)).toBe(2);
    expect(timeoutMinutes(89_000)).toBe(1);
    expect(timeoutMinutes(1000)).toBe(1);
  });
});
