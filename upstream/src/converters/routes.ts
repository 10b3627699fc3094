import crypto from "node:crypto";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import {
  CONVERTER_MESSAGES,
  UPLOAD_ACCEPT,
  accepts,
  extensionOf,
  pageImageName,
  type ConvertedText,
  type PageImages,
  type OcrJob,
  type OcrResults,
} from "../../contract/converters";
import { attachment, readUpload, uploadName } from "../files/routes";
import type { FileStore } from "../lib/files";
import { HttpError, badRequest, fieldMessage, notFound, type AppEnv } from "../lib/http";
import { blobBytes, parseMultipartBody } from "../lib/multipart";
import type { JobQueue } from "../queue/types";
import { PermanentJobError, QueueWorker } from "../queue/worker";
import { TooManyPages } from "./office";
import { PoolBusy } from "./pool";
import type { Converters } from "./service";

export const OCR_QUEUE = "ocr";
/** Ended OCR jobs deleted per new request (older first). */
const OCR_PRUNE_BATCH = 20;

type Deps = { converters: Converters; jobs: JobQueue; files: FileStore; requireAuth: MiddlewareHandler<AppEnv>; log: (msg: string) => void };

const UPLOAD_MESSAGES = {
  notMultipart: CONVERTER_MESSAGES.notMultipart,
  oneFile: CONVERTER_MESSAGES.oneFile,
  required: CONVERTER_MESSAGES.required,
  tooLarge: CONVERTER_MESSAGES.tooLarge,
};

/**
 * Runs a conversion and maps what can go wrong: a full pool is 503; a refused input, a converter that failed,
 * timed out or ran out of memory is 400 with the §8 text `failure` (the reason goes to the log, never to the user).
 */
async function converting<T>(failure: string, log: (msg: string) => void, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PoolBusy) throw new HttpError(503, CONVERTER_MESSAGES.busy);
    if (error instanceof HttpError) throw error;
    log(`converters: ${failure} ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    throw new HttpError(400, failure);
  }
}

/** One uploaded `file` of at most the converters' size, with one of the `accepted` extensions (400 `invalid` if not). */
async function uploaded(c: Context<AppEnv>, maxBytes: number, accepted: readonly string[], invalid: string) {
  const { file } = await readUpload(c, maxBytes, UPLOAD_MESSAGES);
  const name = uploadName(file.name);
  if (!accepts(accepted, name)) throw badRequest(fieldMessage(["file"], invalid));
  return { name, bytes: await blobBytes(file) };
}

const pdfName = (name: string) => `${name.replace(/\.[^.]+$/, "")}.pdf`;

type OcrPayload = { owner: string; files: { name: string; key: string }[] };

/**
 * /api/converters/* and /api/hub-pdf/* (spec 3 §7). Any signed-in user. OCR runs as a job on the durable queue
 * (`ocr`), worked here one at a time; its inputs and results are kept in the file store under `ocr/{jobId}/`.
 */
export function converterRoutes(deps: Deps): { converters: Hono<AppEnv>; hubPdf: Hono<AppEnv>; worker: QueueWorker } {
  const { converters, jobs, files, requireAuth, log } = deps;
  const limits = converters.limits;

  const convertersApp = new Hono<AppEnv>();
  convertersApp.use("*", requireAuth);
  convertersApp.post("/office2pdf", async (c) => {
    const { name, bytes } = await uploaded(c, limits.fileBytes, UPLOAD_ACCEPT.office, CONVERTER_MESSAGES.convertOffice);
    const pdf = await converting(CONVERTER_MESSAGES.convertOffice, log, () => converters.officeToPdf(bytes, name));
    return c.body(new Uint8Array(pdf), 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": attachment(pdfName(name)),
      "Cache-Control": "private, no-store",
    });
  });
  convertersApp.post("/office2txt", async (c) => {
    const { name, bytes } = await uploaded(c, limits.fileBytes, UPLOAD_ACCEPT.text, CONVERTER_MESSAGES.invalidTextFile);
    const failure = name.toLowerCase().endsWith(".txt")
      ? CONVERTER_MESSAGES.readTxt
      : name.toLowerCase().endsWith(".eml")
        ? CONVERTER_MESSAGES.extractEml
        : CONVERTER_MESSAGES.extractOffice;
    const { text, pages } = await converting(failure, log, () => converters.toText(bytes, name));
    return c.json({ name, text, pages } satisfies ConvertedText);
  });
  // A file's pages as images for a vision model (a chain message's attachments): `max` pages at most, the caller's bound.
  convertersApp.post("/pages", async (c) => {
    const max = Math.min(limits.imagePages, Math.max(1, Math.floor(Number(c.req.query("max")) || limits.imagePages)));
    const failure = (name: string) => (extensionOf(name) === ".pdf" ? CONVERTER_MESSAGES.convertMany : CONVERTER_MESSAGES.convertOffice);
    const { name, bytes } = await uploaded(c, limits.fileBytes, UPLOAD_ACCEPT.pages, CONVERTER_MESSAGES.convertMany);
    const pages = await converting(failure(name), log, async () => {
      try {
        return await converters.pageImages(bytes, name, max);
      } catch (error) {
        if (error instanceof TooManyPages) throw badRequest(CONVERTER_MESSAGES.tooManyPages(max));
        throw error;
      }
    });
    const answer: PageImages = { name, pages: pages.map((png, i) => ({ name: pageImageName(name, i + 1), type: "png", base64: png.toString("base64") })) };
    return c.json(answer);
  });
  convertersApp.post("/eml2txt", async (c) => {
    const { name, bytes } = await uploaded(c, limits.fileBytes, [".eml"], CONVERTER_MESSAGES.convertEml);
    const text = await converting(CONVERTER_MESSAGES.convertEml, log, () => converters.emlToText(bytes));
    return c.json({ name, text, pages: null } satisfies ConvertedText);
  });

  const hubPdf = new Hono<AppEnv>();
  hubPdf.use("*", requireAuth);
  hubPdf.post("/convert/toimages", async (c) => {
    const { name, bytes } = await uploaded(c, limits.fileBytes, [".pdf"], CONVERTER_MESSAGES.convertMany);
    const zip = await converting(CONVERTER_MESSAGES.convertMany, log, () => converters.pdfToImages(bytes));
    return c.body(new Uint8Array(zip), 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": attachment(`${name.replace(/\.[^.]+$/, "")}-pages.zip`),
      "Cache-Control": "private, no-store",
    });
  });

  hubPdf.post("/ocr", async (c) => {
    if (!/^multipart\/form-data/i.test(c.req.header("content-type") ?? "")) throw badRequest(CONVERTER_MESSAGES.notMultipart);
    let body: Record<string, string | File | (string | File)[]>;
    try {
      body = await parseMultipartBody(c.req.raw, { all: true, limits: { parts: limits.ocrFiles + 8, fileBytes: limits.fileBytes } });
    } catch {
      throw badRequest(CONVERTER_MESSAGES.notMultipart);
    }
    const parts = [body.files, body.file].flat().filter((p): p is File => p instanceof File && p.size > 0);
    if (!parts.length) throw badRequest(fieldMessage(["files"], CONVERTER_MESSAGES.required));
    if (parts.length > limits.ocrFiles) throw badRequest(fieldMessage(["files"], CONVERTER_MESSAGES.tooManyFiles));
    if (parts.some((p) => p.size > limits.fileBytes) || parts.reduce((n, p) => n + p.size, 0) > limits.ocrBytes) {
      throw new HttpError(413, CONVERTER_MESSAGES.tooLarge);
    }
    if (parts.some((p) => !accepts(UPLOAD_ACCEPT.ocr, uploadName(p.name)))) {
      throw badRequest(fieldMessage(["files"], CONVERTER_MESSAGES.convertMany));
    }
    await pruneEnded();
    const jobId = crypto.randomUUID();
    const stored: OcrPayload["files"] = [];
    for (const [i, part] of parts.entries()) {
      const key = `ocr/${jobId}/input-${i}`;
      await files.put(key, await blobBytes(part), { maxBytes: limits.fileBytes });
      stored.push({ name: uploadName(part.name), key });
    }
    const payload: OcrPayload = { owner: c.get("actor").id, files: stored };
    jobs.enqueue(OCR_QUEUE, [{ id: jobId, payload, maxAttempts: 3 }]);
    worker.poke();
    return c.json({ jobId } satisfies OcrJob, 202);
  });

  hubPdf.get("/results/:jobId", async (c) => {
    const job = jobs.get(OCR_QUEUE, c.req.param("jobId"));
    if (!job || (job.payload as OcrPayload).owner !== c.get("actor").id) throw notFound(CONVERTER_MESSAGES.jobNotFound);
    if (job.status === "completed") {
      const stream = files.stream(`ocr/${job.id}/results.json`);
      if (!stream) throw notFound(CONVERTER_MESSAGES.jobNotFound);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return c.json(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OcrResults);
    }
    // A failure that retrying cannot fix (or the last attempt's) ends the job; a transient one waits for its retry.
    if (job.status === "dead" || (job.status === "failed" && job.attempts >= job.maxAttempts)) {
      throw new HttpError(400, job.message || CONVERTER_MESSAGES.convertMany);
    }
    return c.text(CONVERTER_MESSAGES.pending, 202);
  });

  const readStored = async (key: string): Promise<Buffer> => {
    const stream = files.stream(key);
    if (!stream) throw new PermanentJobError(CONVERTER_MESSAGES.convertMany);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  const worker = new QueueWorker({
    queue: OCR_QUEUE,
    jobs,
    concurrency: 1,
    // Renewed every third of it while tesseract works; a server that dies mid-job hands it on after this long.
    leaseMs: 60_000,
    log,
    handler: async (job, signal) => {
      const payload = job.payload as OcrPayload;
      const budget = { pages: limits.ocrPages };
      const results: OcrResults = [];
      try {
        for (const file of payload.files) {
          const txtResults = await converters.ocr(await readStored(file.key), file.name, budget, signal);
          results.push({ name: file.name, pages: txtResults.length, txtResults });
        }
      } catch (error) {
        if (error instanceof PoolBusy) throw error; // transient: retried after a backoff
        if (signal.aborted) throw error;
        log(`converters: OCR job ${job.id}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
        await removeInputs(payload);
        throw new PermanentJobError(CONVERTER_MESSAGES.convertMany);
      }
      await files.put(`ocr/${job.id}/results.json`, Buffer.from(JSON.stringify(results)));
      await removeInputs(payload);
      return { status: "completed" };
    },
  });
  /**
   * Deletes the jobs (and their files) that ended more than `ocrResultsMs` ago, a batch per new OCR request, as the
   * file store prunes its expired uploads: results are read by a poll within minutes, never kept for good.
   */
  const pruneEnded = async () => {
    const cutoff = Date.now() - limits.ocrResultsMs;
    const { data } = jobs.page(OCR_QUEUE, { statuses: ["completed", "dead", "failed"], sort: "oldest", skip: 0, limit: OCR_PRUNE_BATCH });
    for (const job of data) {
      if (job.updatedAt > cutoff || (job.status === "failed" && job.attempts < job.maxAttempts)) continue;
      await removeInputs(job.payload as OcrPayload);
      await files.delete(`ocr/${job.id}/results.json`).catch(() => false);
      jobs.remove(OCR_QUEUE, job.id);
    }
  };
  const removeInputs = async (payload: OcrPayload) => {
    for (const file of payload.files) await files.delete(file.key).catch(() => false);
  };
  return { converters: convertersApp, hubPdf, worker };
}
