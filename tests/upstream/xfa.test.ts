import { describe, expect, it } from "vitest";
import { MAX_CHECKED_ELEMENTS, MAX_XML_DEPTH, XML_LIMIT_MESSAGES, XmlLimitError, readXml } from "../../upstream/src/lib/xml";
import { watchEventLoop } from "../helpers/event-loop";
import { pdf } from "../fixtures/office";
import { harness, message } from "./helpers";
import { sendMultipart } from "./templates-helpers";

/** An XFA model nested `depth` elements deep (closed, or left open); 3.5 MB at 500,000, under the 5 MB model bound. */
const deepModel = (depth: number, closed = true) =>
  `<?xml version="1.0"?><xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template>${"<f>".repeat(depth)}${closed ? "</f>".repeat(depth) : ""}</template>${closed ? "</xdp:xdp>" : ""}`;

/**
 * A form's XFA model is checked as XML before it is stored (templates/office.ts through lib/xml.ts): nesting and
 * element count are bounded while parsing, so a hostile model is refused at once with a 400 naming the bound, and
 * the event loop keeps turning.
 */
describe("XFA model bounds", () => {
  it("a model nested 500,000 deep is refused quickly, closed or not, without holding the loop", async () => {
    for (const closed of [true, false]) {
      const { result, longest } = await watchEventLoop(() => readXml(deepModel(500_000, closed)).catch((e: Error) => e));
      expect(result).toBeInstanceOf(XmlLimitError);
      expect((result as Error).message).toBe(XML_LIMIT_MESSAGES.depth(MAX_XML_DEPTH));
      // Unbounded, saxes held the loop 1.0–1.3 s over the closed model and 2.6–4.5 s over the open one.
      expect(longest).toBeLessThan(500);
    }
  });

  it("nesting up to the bound is read; one more level is refused", async () => {
    await expect(readXml(deepModel(MAX_XML_DEPTH - 2))).resolves.toBeNull();
    await expect(readXml(deepModel(MAX_XML_DEPTH - 1))).rejects.toThrow(XML_LIMIT_MESSAGES.depth(MAX_XML_DEPTH));
    // The tree reader has the same bound.
    await expect(readXml(deepModel(MAX_XML_DEPTH - 1), 10_000)).rejects.toBeInstanceOf(XmlLimitError);
  });

  it("a check reads at most MAX_CHECKED_ELEMENTS elements", async () => {
    await expect(readXml(`<a>${"<b/>".repeat(MAX_CHECKED_ELEMENTS - 1)}</a>`)).resolves.toBeNull();
    await expect(readXml(`<a>${"<b/>".repeat(MAX_CHECKED_ELEMENTS)}</a>`)).rejects.toThrow(XML_LIMIT_MESSAGES.elements(MAX_CHECKED_ELEMENTS));
  });

  it("POST /api/forms with a 500,000-deep model: 400 naming the bound, a concurrent request stays fast", async () => {
    const h = await harness();
    const model = Buffer.from(deepModel(500_000));
    let probeTime = 0;
    const { result: res, longest } = await watchEventLoop(async () => {
      const upload = sendMultipart(h, "POST", "/api/forms/", { type: "xfa", fileNameTemplate: "{{matter}}.pdf" }, {
        formFile: { name: "F.pdf", bytes: pdf() },
        modelFile: { name: "deep.xfa", bytes: model },
      });
      const started = performance.now();
      const probe = await h.call("GET", "/api/forms/", { token: h.adminToken });
      probeTime = performance.now() - started;
      expect(probe.status).toBe(200);
      return upload;
    });
    expect(res.status).toBe(400);
    expect(await message(res)).toBe(`modelFile: The file is not a valid XFA model (.xfa): ${XML_LIMIT_MESSAGES.depth(MAX_XML_DEPTH)}.`);
    expect(longest).toBeLessThan(1000);
    expect(probeTime).toBeLessThan(1000);
    expect(((await (await h.call("GET", "/api/forms/", { token: h.adminToken })).json()) as { items: unknown[] }).items).toEqual([]);
  });
});
