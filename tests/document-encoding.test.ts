import { gunzipSync } from "node:zlib";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { describe, expect, it } from "vitest";
import { encodeDocument, POOL_FROM_BYTES } from "../server/document-encoding";

/** Just what encodeDocument reads and writes of Express's request and response. */
function exchange(acceptsGzip = true) {
  const headers = new Map<string, string | number>();
  const req = { method: "GET", acceptsEncodings: (e: string) => (acceptsGzip && e === "gzip" ? e : false) } as unknown as ExpressRequest;
  const res = {
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: string | number) => headers.set(name.toLowerCase(), value),
    vary: (name: string) => headers.set("vary", name),
  } as unknown as ExpressResponse;
  return { req, res, headers };
}

const page = (bytes: number) => Buffer.from("<tr><td>someone@example.test</td><td>Someone Else</td></tr>\n".repeat(bytes / 60 + 1).slice(0, bytes));

describe("a rendered page's encoding (server/document-encoding.ts)", () => {
  // Below the threshold the deflate runs on the calling thread, from it on the thread pool: both give the same gzip.
  for (const size of [4 * 1024, POOL_FROM_BYTES - 1, POOL_FROM_BYTES, 200 * 1024, 600 * 1024]) {
    it(`gzips a ${size}-byte page whole, with its length`, async () => {
      const { req, res, headers } = exchange();
      const body = page(size);
      const encoded = await encodeDocument(req, res, body);
      expect(headers.get("content-encoding")).toBe("gzip");
      expect(headers.get("content-length")).toBe(encoded.byteLength);
      expect(headers.get("vary")).toBe("Accept-Encoding");
      expect(encoded.byteLength).toBeLessThan(body.byteLength / 4);
      expect(gunzipSync(encoded).equals(body)).toBe(true);
    });
  }

  it("a large page's deflate leaves the event loop free while it runs", async () => {
    const { req, res } = exchange();
    let turns = 0;
    let done = false;
    const spin = () => {
      if (done) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    await encodeDocument(req, res, page(POOL_FROM_BYTES * 8));
    done = true;
    // On the calling thread the await would resolve before the loop could turn even once.
    expect(turns).toBeGreaterThan(0);
  });

  it("leaves small pages, a client that refuses gzip and an encoded answer alone", async () => {
    const small = exchange();
    expect(await encodeDocument(small.req, small.res, page(500))).toEqual(page(500));
    expect(small.headers.get("content-encoding")).toBeUndefined();
    const refused = exchange(false);
    expect(await encodeDocument(refused.req, refused.res, page(20_000))).toEqual(page(20_000));
    expect(refused.headers.get("content-encoding")).toBeUndefined();
    expect(refused.headers.get("vary")).toBe("Accept-Encoding");
    const encoded = exchange();
    encoded.res.setHeader("Content-Encoding", "br");
    expect(await encodeDocument(encoded.req, encoded.res, page(20_000))).toEqual(page(20_000));
    expect(encoded.headers.get("content-encoding")).toBe("br");
  });
});
