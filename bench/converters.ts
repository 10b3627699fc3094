/**
 * The converters' cost: time per page (or per file) of each conversion and the peak memory of the converter
 * processes (resident set of every process this one started, summed, sampled every 20 ms) and of this process.
 * Runs the upstream's `Converters` directly (what the routes call), one conversion at a time.
 *
 *   npm run bench:converters              # 3 rounds (≈ 2–3 min on 2 cores)
 *   npm run bench:converters -- --rounds 1
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Converters } from "../upstream/src/converters/service";
import { patentDocx } from "../tests/fixtures/docx";
import { emailWithAttachment, pptx, renderPage, scannedPdf, textPdf } from "../tests/upstream/converters-files";

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const MB = 1024 * 1024;
const PAGE = 4096;

/** Resident bytes of every descendant of this process (Linux /proc), summed. */
function childrenRss(): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
      rss.set(Number(entry), Number(fields[21]) * PAGE);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) {
      if (p === process.pid) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}

async function measure<T>(work: () => Promise<T>): Promise<{ ms: number; childPeak: number; selfPeak: number; result: T }> {
  let childPeak = 0;
  let selfPeak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    childPeak = Math.max(childPeak, childrenRss());
    selfPeak = Math.max(selfPeak, process.memoryUsage().rss);
  }, 20);
  const start = performance.now();
  try {
    const result = await work();
    return { ms: performance.now() - start, childPeak, selfPeak, result };
  } finally {
    clearInterval(timer);
  }
}

const converters = new Converters();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-converters-"));
const docx = await patentDocx({ pages: 10 });
const deck = pptx(Array.from({ length: 20 }, (_, i) => ({ part: `slide${i + 1}.xml`, paragraphs: [`Slide ${i + 1}`, "A point about the widget", "Another point"] })));
const eml = emailWithAttachment();
const lines = Array.from({ length: 30 }, (_, i) => `Line ${i + 1}: the widget has a frame and a spring; the spring is coiled.`);
const scan = scannedPdf(renderPage(textPdf(lines), dir, 300, "pgm"));
const png = renderPage(textPdf(lines), dir, 300, "png");

type Row = { name: string; unit: string; per: number[]; childPeak: number; selfPeak: number };
const rows: Row[] = [];
async function bench(name: string, unit: string, work: () => Promise<number>) {
  const row: Row = { name, unit, per: [], childPeak: 0, selfPeak: 0 };
  for (let i = 0; i < rounds; i++) {
    const m = await measure(work);
    row.per.push(m.ms / m.result);
    row.childPeak = Math.max(row.childPeak, m.childPeak);
    row.selfPeak = Math.max(row.selfPeak, m.selfPeak);
  }
  rows.push(row);
  console.error(`${name}: done`);
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const loadStart = load();
let pdf: Buffer = Buffer.alloc(0);
let pdfPages = 0;
await bench("office → PDF (.docx, LibreOffice)", "page", async () => {
  pdf = await converters.officeToPdf(docx, "bench.docx");
  const file = path.join(dir, "bench.pdf");
  fs.writeFileSync(file, pdf);
  pdfPages = await converters.pdfPages(file);
  return pdfPages;
});
await bench("office → text (.docx, in-process reader)", "page", async () => (await converters.toText(docx, "bench.docx"), pdfPages));
await bench("office → text (.pptx, 20 slides)", "slide", async () => (await converters.toText(deck, "bench.pptx")).pages ?? 1);
await bench("office → text (.pdf, pdftotext)", "page", async () => (await converters.toText(pdf, "bench.pdf")).pages ?? 1);
await bench("eml → text (postal-mime, worker thread)", "message", async () => (await converters.emlToText(eml), 1));
await bench("PDF → images (pdftoppm 150 dpi, zipped)", "page", async () => (await converters.pdfToImages(pdf), pdfPages));
await bench("OCR (.pdf scan, 300 dpi, tesseract)", "page", async () => (await converters.ocr(scan, "scan.pdf", { pages: 50 })).length);
await bench("OCR (.png, 300 dpi, tesseract)", "page", async () => (await converters.ocr(png, "page.png", { pages: 50 })).length);
fs.rmSync(dir, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`converters, ${rounds} round(s), ${os.availableParallelism()} cores, load ${loadStart} → ${load()}; the .docx made a ${pdfPages}-page PDF`);
console.log("| conversion | median per unit | converter processes' peak RSS | this process's peak RSS |");
console.log("|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.name} | ${median(r.per).toFixed(0)} ms / ${r.unit} | ${(r.childPeak / MB).toFixed(0)} MB | ${(r.selfPeak / MB).toFixed(0)} MB |`);
}
