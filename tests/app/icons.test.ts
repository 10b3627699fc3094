import { readFileSync } from "node:fs";
import { jsx } from "react/jsx-runtime";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ICON_NAMES, Icon } from "../../app/ui/icons";
import { Stamp } from "../../app/ui/list";

const css = readFileSync(new URL("../../app/styles/app.css", import.meta.url), "utf8");

describe("icons: one element each, shaped by the stylesheet", () => {
  it("every icon name has its shape in app.css, and every shape there has a name", () => {
    const shapes = [...css.matchAll(/^\.i-([a-zA-Z]+) \{ --i: url\("data:image\/svg\+xml,%3Csvg [^"]*%3Cpath d='[^']+'\/%3E%3C\/svg%3E"\); \}$/gm)].map((m) => m[1]);
    expect(shapes.sort()).toEqual([...ICON_NAMES].sort());
    // The mask is drawn in the text colour, kept in forced colours and in print.
    const rule = /\.icon \{([^}]*)\}/.exec(css)![1]!;
    for (const part of ["background-color: currentColor", "mask: var(--i)", "-webkit-mask: var(--i)", "forced-color-adjust: none", "print-color-adjust: exact"]) {
      expect(rule).toContain(part);
    }
  });

  it("renders a decorative icon as one hidden element, and a titled one as a named image", () => {
    expect(renderToString(jsx(Icon, { name: "pencil" }))).toBe('<span class="icon i-pencil" aria-hidden="true"></span>');
    expect(renderToString(jsx(Icon, { name: "bot", title: "This is a bot user", className: "bot-icon" }))).toBe(
      '<span class="icon i-bot bot-icon" role="img" aria-label="This is a bot user" title="This is a bot user"></span>',
    );
  });
});

describe("Stamp", () => {
  it("keeps the date in one piece with no-break spaces, and the author in one text node", () => {
    const html = renderToString(jsx(Stamp, { at: "November 22, 2026, 10:30 AM", by: "ada@example.com" }));
    expect(html).toBe('November\u00a022,\u00a02026,\u00a010:30\u00a0AM<span class="muted small stamp-by"> by ada@example.com</span>');
  });
});
