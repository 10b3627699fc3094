import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TEMPLATE_KINDS, acceptOf, templatePaths, type TemplateKind } from "~/templates/kinds";
import { TEMPLATE_EXTENSIONS } from "@contract/templates";
import { appAsAdmin } from "../helpers/app";

const { admin } = appAsAdmin();
const KINDS = Object.keys(TEMPLATE_KINDS) as TemplateKind[];
const ROUTE_PREFIX: Record<TemplateKind, string> = { word: "documents.word", visio: "documents.visio", drawing: "drawings" };
const routeFiles = (kind: TemplateKind) =>
  [`_app.${ROUTE_PREFIX[kind]}._index.tsx`, `_app.${ROUTE_PREFIX[kind]}.create.tsx`, `_app.${ROUTE_PREFIX[kind]}.$id.edit.tsx`, `${ROUTE_PREFIX[kind]}.$id.file.tsx`];

describe("template kinds: one module, configured by kind", () => {
  // Remix needs a file per URL; what a file may hold is its kind's name and calls into the shared module, so that a
  // screen of one kind cannot drift from the others (or be copied with another kind's name left in it).
  it.each(KINDS)("the %s route files only name their kind and call the shared template module", (kind) => {
    for (const file of routeFiles(kind)) {
      const source = readFileSync(path.resolve("app/routes", file), "utf8");
      const code = source
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "" && !line.startsWith("import ") && !line.startsWith("//"));
      expect(code.length, file).toBeLessThanOrEqual(6);
      for (const line of code) {
        const reexport = /^export \{ [\w, ]+ \} from "~\/templates\/TemplateScreens";$/.test(line);
        const configured = new RegExp(`^export (const \\w+ = |default )[^<]*\\b\\w+\\((args, )?"${kind}"(, "\\w+")?\\);$`).test(line);
        expect(reexport || configured, `${file}: ${line}`).toBe(true);
      }
      for (const other of KINDS.filter((k) => k !== kind)) expect(source, file).not.toContain(`"${other}"`);
    }
  });

  it("the accepted file types come from the contract, for the file input, its hint and the form's check", () => {
    for (const kind of KINDS) {
      const { extensions, texts } = TEMPLATE_KINDS[kind];
      expect(extensions).toBe(TEMPLATE_EXTENSIONS[kind]);
      expect(acceptOf(kind)).toBe(extensions.map((e) => `.${e}`).join(","));
      expect(texts.fileHint).toBe(`Accepted: ${extensions.map((e) => `.${e}`).join(" or ")}. The name is taken from the file name.`);
    }
    expect(TEMPLATE_KINDS.drawing.texts.fileHint).toBe("Accepted: .vsdx or .vstx. The name is taken from the file name.");
  });

  it.each(KINDS)("the %s create screen: its title, accepted types, flags and (drawings only) the text template", async (kind) => {
    const { texts, flags, textTemplate } = TEMPLATE_KINDS[kind];
    const html = await (await admin.get(templatePaths(kind).create)).text();
    expect(html).toContain(`<title>${texts.documentTitles.create}</title>`);
    expect(html).toContain(`<h1>${texts.newTitle}</h1>`);
    expect(html).toContain(`id="new-${kind}"`);
    expect(html).toContain(`accept="${acceptOf(kind)}"`);
    expect(html).toContain(texts.fileHint);
    expect(html).toContain(`href="${templatePaths(kind).list}"`);
    for (const flag of ["isPublic", "isStyleMaster"] as const) {
      expect(html.includes(`name="${flag}"`), flag).toBe((flags as readonly string[]).includes(flag));
    }
    expect(html.includes('name="textTemplate"')).toBe(textTemplate);
  });
});
