import { jsx } from "react/jsx-runtime";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Stamp } from "~/ui/list";

describe("Stamp", () => {
  it("keeps the date in one piece with no-break spaces, and the author in one text node", () => {
    const html = renderToString(jsx(Stamp, { at: "November 22, 2026, 10:30 AM", by: "ada@example.com" }));
    expect(html).toBe('November\u00a022,\u00a02026,\u00a010:30\u00a0AM<span class="muted small stamp-by"> by ada@example.com</span>');
  });
});
