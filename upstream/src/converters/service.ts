import fs from "node:fs";
import path from "node:path";
import { CONVERTER_LIMITS, extensionOf } from "../../contract/converters";
import { readDocx } from "../nlp/docx";
import { createZipWriter } from "../lib/zip-writer";
import { InputRefused, TooManyPages, inspectPackage, readSlides } from "./office";
import { ConverterPool } from "./pool";
import { ConverterError, inTempDir, runOk } from "./process";
import { decodeText, emailText, parseEmail } from "./text";

/** The programs the converters run (Debian's libreoffice-*-nogui, poppler-utils, tesseract-ocr). */
export type ConverterCommands = { soffice: string; pdfinfo: string; pdftotext: string; pdftoppm: string; tesseract: string };

const DEFAULT_COMMANDS: ConverterCommands = {
  soffice: "soffice",
  pdfinfo: "pdfinfo",
  pdftotext: "pdftotext",
  pdftoppm: "pdftoppm",
  tesseract: "tesseract",
};

export type ConverterLimits = {
  -readonly [K in keyof typeof CONVERTER_LIMITS]: number;
};

export type ConverterOptions = {
  commands?: Partial<ConverterCommands>;
  /** Tighter or looser bounds (tests, operators); default `CONVERTER_LIMITS`. */
  limits?: Partial<ConverterLimits>;
};

const PAGES = /^Pages:\s+(\d+)\s*$/m;

/** Runs every conversion through one pool; each child process with its own temp directory, time and memory limit. */
export class Converters {
  readonly commands: ConverterCommands;
  readonly limits: ConverterLimits;
  readonly pool: ConverterPool;

  constructor(options: ConverterOptions = {}) {
    this.commands = { ...DEFAULT_COMMANDS, ...options.commands };
    this.limits = { ...CONVERTER_LIMITS, ...options.limits };
    this.pool = new ConverterPool(this.limits.concurrency, this.limits.queue);
  }

  private tool(signal?: AbortSignal) {
    return { timeMs: this.limits.toolMs, memoryBytes: this.limits.toolMemoryBytes, signal };
  }

  /** Office file → PDF through LibreOffice, its own profile directory per run; `signal` kills it (a run stopped). */
  async officeToPdf(bytes: Uint8Array, name: string, signal?: AbortSignal): Promise<Buffer> {
    const ext = extensionOf(name);
    await inspectPackage(bytes);
    return this.pool.use(() =>
      inTempDir(async (dir) => {
        const input = path.join(dir, `input${ext}`);
        await fs.promises.writeFile(input, bytes);
        await runOk(
          this.commands.soffice,
          [
            `-env:UserInstallation=file://${path.join(dir, "profile")}`,
            "--headless",
            "--norestore",
            "--nolockcheck",
            "--nodefault",
            "--convert-to",
            "pdf",
            "--outdir",
            path.join(dir, "out"),
            input,
          ],
          { timeMs: this.limits.officeMs, memoryBytes: this.limits.officeMemoryBytes, cwd: dir, signal },
        );
        const output = path.join(dir, "out", "input.pdf");
        if (!fs.existsSync(output)) throw new ConverterError("exit", "LibreOffice wrote no PDF");
        return fs.promises.readFile(output);
      }),
    );
  }

  /** The page count of a PDF written at `file` (pdfinfo reads only the cross-reference table). */
  async pdfPages(file: string, signal?: AbortSignal): Promise<number> {
    const { stdout } = await runOk(this.commands.pdfinfo, [file], this.tool(signal));
    const pages = Number(PAGES.exec(stdout.toString("utf8"))?.[1] ?? NaN);
    if (!Number.isInteger(pages) || pages < 0) throw new ConverterError("input", "pdfinfo found no page count");
    return pages;
  }

  private async checkPages(file: string, max: number, signal?: AbortSignal): Promise<number> {
    const pages = await this.pdfPages(file, signal);
    if (pages > max) throw new TooManyPages(pages, max);
    return pages;
  }

  /** A PDF's text layer, page by page (pdftotext; pages end with a form feed). */
  async pdfToText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
    return this.pool.use(() =>
      inTempDir(async (dir) => {
        const input = path.join(dir, "input.pdf");
        await fs.promises.writeFile(input, bytes);
        const pages = await this.checkPages(input, this.limits.textPages);
        const { stdout } = await runOk(this.commands.pdftotext, ["-enc", "UTF-8", "-eol", "unix", input, "-"], {
          ...this.tool(),
          maxOutputBytes: this.limits.textChars * 4,
        });
        const text = stdout
          .toString("utf8")
          .split("\f")
          .map((page) => page.trim())
          .filter(Boolean)
          .join("\n\n");
        return { text, pages };
      }),
    );
  }

  /** Renders pages `first..last` of `input` as PNG files under `dir` (longest side `pixels`), in page order. */
  private async render(
    input: string,
    dir: string,
    pixels: number,
    options: { gray?: boolean; crisp?: boolean; signal?: AbortSignal } = {},
  ): Promise<string[]> {
    const out = path.join(dir, "pages");
    await fs.promises.mkdir(out);
    await runOk(
      this.commands.pdftoppm,
      [
        "-png",
        "-scale-to",
        String(pixels),
        ...(options.gray ? ["-gray"] : []),
        ...(options.crisp ? ["-aa", "no", "-aaVector", "no"] : []),
        input,
        path.join(out, "page"),
      ],
      this.tool(options.signal),
    );
    const files = (await fs.promises.readdir(out)).filter((f) => /^page-\d+\.png$/.test(f));
    files.sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
    return files.map((f) => path.join(out, f));
  }

  /** A PDF's pages as PNG images (page-001.png …), zipped. */
  async pdfToImages(bytes: Uint8Array): Promise<Buffer> {
    return this.pool.use(() =>
      inTempDir(async (dir) => {
        const input = path.join(dir, "input.pdf");
        await fs.promises.writeFile(input, bytes);
        await this.checkPages(input, this.limits.imagePages);
        const pages = await this.render(input, dir, this.limits.imagePixels);
        const zip = createZipWriter();
        const chunks: Buffer[] = [];
        zip.output.on("data", (chunk: Buffer) => chunks.push(chunk));
        const ended = new Promise<void>((resolve, reject) => {
          zip.output.once("end", resolve);
          zip.output.once("error", reject);
        });
        for (const [i, page] of pages.entries()) {
          await zip.add(`page-${String(i + 1).padStart(3, "0")}.png`, await fs.promises.readFile(page));
        }
        await zip.finish();
        await ended;
        return Buffer.concat(chunks);
      }),
    );
  }

  /**
   * A PDF's or a zip-based office file's pages (.docx, .pptx, .pptm, .vsdx: LibreOffice's PDF first) as PNG images for
   * a vision model, in page order: at most `maxPages` (a file with more is refused, `TooManyPages`, before any page is
   * rendered), longest side `attachmentPixels`, drawn without anti-aliasing (text stays legible, the PNG ~5× smaller).
   * An office file that is not a package is refused: LibreOffice would read stray bytes as a text document.
   */
  async pageImages(bytes: Uint8Array, name: string, maxPages: number, signal?: AbortSignal): Promise<Buffer[]> {
    const ext = extensionOf(name);
    if (ext !== ".pdf" && !(await inspectPackage(bytes))) throw new InputRefused(`${name} is not an office package`);
    const pdf = ext === ".pdf" ? bytes : await this.officeToPdf(bytes, name, signal);
    return this.pool.use(() =>
      inTempDir(async (dir) => {
        const input = path.join(dir, "input.pdf");
        await fs.promises.writeFile(input, pdf);
        await this.checkPages(input, Math.min(maxPages, this.limits.imagePages), signal);
        const pages = await this.render(input, dir, this.limits.attachmentPixels, { crisp: true, signal });
        return Promise.all(pages.map((page) => fs.promises.readFile(page)));
      }),
    );
  }

  /**
   * Recognises the text of a PDF (every page rendered at ~300 dpi) or an image: one text per page. `budget` holds the
   * pages the job may still read; a PDF with more is refused before any page is rendered.
   */
  async ocr(bytes: Uint8Array, name: string, budget: { pages: number }, signal?: AbortSignal): Promise<string[]> {
    const ext = extensionOf(name);
    return this.pool.use(() =>
      inTempDir(async (dir) => {
        const input = path.join(dir, `input${ext}`);
        await fs.promises.writeFile(input, bytes);
        let images: string[];
        if (ext === ".pdf") {
          const pages = await this.checkPages(input, budget.pages, signal);
          budget.pages -= pages;
          images = await this.render(input, dir, this.limits.ocrPixels, { gray: true, signal });
        } else {
          if (budget.pages < 1) throw new InputRefused("too many pages");
          budget.pages -= 1;
          images = [input];
        }
        const texts: string[] = [];
        for (const image of images) {
          const { stdout } = await runOk(this.commands.tesseract, [image, "-", "-l", "eng", "--psm", "3"], {
            ...this.tool(signal),
            maxOutputBytes: 1024 * 1024,
          });
          texts.push(stdout.toString("utf8").trim());
        }
        return texts;
      }),
    );
  }

  /** The text of a file a "load text from a file" field takes (spec 3 §5): docx, pptx/pptm, pdf, txt, eml. */
  async toText(bytes: Uint8Array, name: string): Promise<{ text: string; pages: number | null }> {
    const ext = extensionOf(name);
    let result: { text: string; pages: number | null };
    switch (ext) {
      case ".docx": {
        await inspectPackage(bytes);
        const docx = await readDocx(bytes);
        result = { text: docx.paragraphs.map((p) => p.text).join("\n").trim(), pages: null };
        break;
      }
      case ".pptx":
      case ".pptm": {
        const zip = await inspectPackage(bytes);
        if (!zip) throw new InputRefused("not a zip");
        const slides = await readSlides(zip);
        result = { text: slides.filter(Boolean).join("\n\n"), pages: slides.length };
        break;
      }
      case ".pdf":
        result = await this.pdfToText(bytes);
        break;
      case ".txt": {
        const text = decodeText(bytes);
        if (text === null) throw new InputRefused("not text");
        result = { text, pages: null };
        break;
      }
      case ".eml":
        result = { text: await this.emlToText(bytes), pages: null };
        break;
      default:
        throw new InputRefused(`${ext || "no extension"} is not a text file`);
    }
    if (result.text.length > this.limits.textChars) throw new InputRefused(`more than ${this.limits.textChars} characters`);
    return result;
  }

  async emlToText(bytes: Uint8Array): Promise<string> {
    const email = await this.pool.use(() => parseEmail(bytes, { timeMs: this.limits.toolMs, heapMb: 256 }));
    return emailText(email);
  }
}
