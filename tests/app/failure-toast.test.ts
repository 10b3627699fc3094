import { describe, expect, it } from "vitest";
import { failureToast, reasonOf, statusOf } from "~/lib/actions.server";
import { TRY_LATER } from "~/lib/form-texts";
import { UpstreamError } from "~/lib/upstream.server";

const refusal = (status: number, message: string) => new UpstreamError(status, message, new Headers());

describe("what an upstream failure tells the user", () => {
  it("a 4xx: its own message, its own status", () => {
    const e = refusal(409, "Team already exists");
    expect(failureToast("Create failed", e).description).toBe(`Team already exists ${TRY_LATER}`);
    expect(statusOf(e)).toBe(409);
  });
  it("a full disk (507) or a database that cannot be written (503): the operator's reason, not only 'try later'", () => {
    const full = refusal(507, "Insufficient storage: the disk holding the server's data is full, so nothing was saved.");
    expect(failureToast("Create failed", full).description).toContain("Insufficient storage");
    expect(statusOf(full)).toBe(507);
    const lost = refusal(503, "The server's database file was deleted or replaced while the server was running, so nothing can be saved: restart the server.");
    expect(reasonOf(lost)).toContain("restart the server");
    expect(statusOf(lost)).toBe(503);
  });
  it("anything else: the generic text and 502", () => {
    const e = refusal(500, "TypeError: x is undefined at /srv/app/upstream/src/x.ts:1");
    expect(failureToast("Create failed", e).description).toBe(TRY_LATER);
    expect(reasonOf(e)).toBe(TRY_LATER);
    expect(statusOf(e)).toBe(502);
  });
});
