/**
 * A list's empty cells are written as `&#8212;`, not as the character, so that a page whose content is
 * Latin-1 stays a one-byte string on the server (app/ui/list.tsx, NO_VALUE; docs/decisions/page-render-cost.md).
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, NO_VALUE, tagsCell, type Column } from "~/ui/list";
import { appAsAdmin } from "../helpers/app";

const outsideLatin1 = (text: string) => [...new Set([...text].filter((ch) => ch.charCodeAt(0) > 0xff))];

describe("no value in a list cell", () => {
  type Row = { id: string; note: string; tags: string[] };
  const columns: Column<Row>[] = [
    { header: "Id", cell: (r) => r.id },
    { header: "Note", cell: (r) => r.note || NO_VALUE },
    { header: "Tags", cell: (r) => tagsCell(r.tags) },
  ];
  const rows: Row[] = [
    { id: "a", note: "", tags: [] },
    { id: "b", note: "Zoë", tags: ["x"] },
  ];

  it("is an em dash written as a character reference; other cells are as before", () => {
    const html = renderToString(<DataTable caption="Rows" columns={columns} rows={rows} rowKey={(r) => r.id} empty="None" />);
    expect(outsideLatin1(html)).toEqual([]);
    expect(html.match(/&#8212;/g)).toHaveLength(2);
    expect(html).toContain(">Zoë</td>");
    expect(html).toContain('<li class="tag">x</li>');
    // The first row's cells keep their Element Timing, the dash's cell too.
    expect(html).toMatch(/<td elementtiming="first-row">&#8212;<\/td>/);
  });
});

describe("pages whose data is Latin-1", () => {
  const { admin } = appAsAdmin();

  it("/people is written without a character outside Latin-1, its empty cells showing the dash", async () => {
    const html = await (await admin.get("/people")).text();
    expect(html).toContain("&#8212;");
    expect(outsideLatin1(html)).toEqual([]);
  });
});
