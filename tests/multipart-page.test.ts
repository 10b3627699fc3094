import { describe, expect, it } from "vitest";
import { PORTFOLIO } from "~/portfolio/texts";
import { appAsAdmin } from "./helpers/app";
import { watchEventLoop } from "./helpers/event-loop";

const MB = 1024 * 1024;
/** A portfolio CSV of about `size` bytes: rows of ~300 bytes, so that 50 MB stays within the import's row limit. */
function csv(size: number): Buffer {
  const rows = ["id,title"];
  for (let i = 0, total = 9; total < size - 400; i++) {
    const row = `MP${String(i).padStart(8, "0")},${"A title of a patent application ".repeat(9)}`;
    rows.push(row);
    total += row.length + 1;
  }
  return Buffer.from(rows.join("\n") + "\n");
}

describe("a page's multipart form (readForm) does not hold the event loop", () => {
  const { admin } = appAsAdmin();

  // The file is named .txt: the action refuses it right after reading the form, so this measures the form's reading
  // (the import of an accepted file reads it, encodes it and hands it to the upstream: see the report on the rest).
  it("a 16 MB and a 50 MB file posted to /portfolio/import", async () => {
    for (const size of [16 * MB, 50 * MB - 64 * 1024]) {
      const file = new File([new Uint8Array(csv(size))], "apps.txt", { type: "text/plain" });
      const { result, longest } = await watchEventLoop(() => admin.postMultipart("/portfolio/import", { file }));
      expect(result.status).toBe(400);
      expect(await result.text()).toContain(PORTFOLIO.import.notCsv);
      console.log(`${size} bytes: the event loop waited at most ${Math.round(longest)} ms`);
      expect(longest, `${size} bytes`).toBeLessThan(1000);
    }
  }, 180_000);
});
