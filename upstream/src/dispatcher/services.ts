/**
 * What the processing and USPTO jobs do, the USPTO sync, customer-number sync, unmatched marking
 * and the cron schedule. Queues: "processing" (the dispatcher) and "uspto" (downloads).
 */
import { Cron } from "croner";
import { QUEUE_CONSTANTS, type CustomerSyncResult } from "../../contract/queues";
import { NotAtOfficeError, type PatentOffice } from "../patent-office/adapter";
import type { JobQueue, Job, JobOutcome } from "../queue/types";
import { PermanentJobError, QueueWorker } from "../queue/worker";
import type { PortfolioSink } from "./portfolio-sink";
import type { QueueSettings } from "./settings";

export const PROCESSING_QUEUE = "processing";
export const USPTO_QUEUE = "uspto";

const JOB_MESSAGES = {
  notInPortfolio: (id: string) => `Unable to find application with id ${id} in the portfolio.`,
  unmatched: (id: string) => `No portfolio application matches ${id}.`,
  noCustomerNumbers: "USPTO_CUSTOMER_NUMBERS is not set: the firm's customer numbers are needed to find changed applications.",
  syncInProgress: "A sync with the patent office is already in progress.",
} as const;

export type QueueRuntimeOptions = {
  jobs: JobQueue;
  office: PatentOffice;
  sink: PortfolioSink;
  settings: QueueSettings;
  customerNumbers: readonly string[];
  /** Jobs run at once per queue; 0 = no worker in this process (tests drive `runOnce`). */
  concurrency: number;
  now: () => number;
  log: (msg: string) => void;
};

/** The processing job: fetch the record, update the portfolio application and reindex it (the sink does both). */
export function processingHandler(o: Pick<QueueRuntimeOptions, "office" | "sink">) {
  return async (job: Job, signal: AbortSignal): Promise<JobOutcome> => {
    const record = await o.office.getApplication(job.id, signal);
    const result = await o.sink.updateFromOffice(job.id, { title: record.title, abstract: record.abstract, claims: record.claims });
    if (result === "not-found") throw new PermanentJobError(JOB_MESSAGES.notInPortfolio(job.id));
    return { status: "completed", message: null };
  };
}

/**
 * The USPTO download job: fetch; a portfolio application is updated, else the download is marked unmatched
 * (`warning`). An application the office no longer has ends as `delete` (spec 2 §4's USPTO status): nothing to
 * download, the row is there to be deleted.
 */
function downloadHandler(o: Pick<QueueRuntimeOptions, "office" | "sink" | "jobs">) {
  return async (job: Job, signal: AbortSignal): Promise<JobOutcome> => {
    let record;
    try {
      record = await o.office.getApplication(job.id, signal);
    } catch (error) {
      if (error instanceof NotAtOfficeError) return { status: "delete", message: error.message };
      throw error;
    }
    const inPortfolio = (await o.sink.existing([job.id])).has(job.id);
    const result = inPortfolio
      ? await o.sink.updateFromOffice(job.id, { title: record.title, abstract: record.abstract, claims: record.claims })
      : "not-found";
    const unmatched = result === "not-found";
    o.jobs.setUnmatched(USPTO_QUEUE, [job.id], unmatched);
    return unmatched ? { status: "warning", message: JOB_MESSAGES.unmatched(job.id) } : { status: "completed", message: null };
  };
}

export class QueueRuntime {
  readonly processing: QueueWorker;
  readonly downloads: QueueWorker;
  private cron: Cron | null = null;
  private syncing: Promise<void> | null = null;
  lastSyncError: string | null = null;

  constructor(private readonly o: QueueRuntimeOptions) {
    const concurrency = Math.max(1, o.concurrency);
    this.processing = new QueueWorker({
      queue: PROCESSING_QUEUE,
      jobs: o.jobs,
      concurrency,
      handler: processingHandler(o),
      log: o.log,
    });
    this.downloads = new QueueWorker({
      queue: USPTO_QUEUE,
      jobs: o.jobs,
      concurrency,
      handler: downloadHandler(o),
      // download repeat: how long a failed download waits before it is tried again (docs/decisions/job-queue.md)
      backoffMs: () => o.settings.uspto().downloadRepeatMs,
      log: o.log,
    });
  }

  start(): void {
    if (this.o.concurrency <= 0) return;
    this.processing.start();
    this.downloads.start();
    this.reschedule();
  }

  async stop(): Promise<void> {
    this.cron?.stop();
    this.cron = null;
    await Promise.all([this.processing.stop(), this.downloads.stop()]);
    await this.syncing;
  }

  /** (Re)starts the cron job from the saved schedule; only when the patent office is configured. */
  reschedule(): void {
    this.cron?.stop();
    this.cron = null;
    if (this.o.concurrency <= 0 || this.o.office.missing() || !this.o.customerNumbers.length) return;
    this.cron = new Cron(this.o.settings.uspto().schedule, { protect: true }, () => {
      void this.startSync();
    });
  }

  get syncInProgress(): boolean {
    return this.syncing !== null;
  }

  /**
   * Starts a sync in the background: its outcome (how many downloads it queued, or the error), or null when one is
   * already running. The outcome is also kept for `sync/status` (`lastError`).
   */
  startSync(): Promise<{ queued: number } | { error: string }> | null {
    if (this.syncing) return null;
    const run = this.sync().then(
      (queued) => {
        this.lastSyncError = null;
        return { queued };
      },
      (error: unknown) => {
        this.lastSyncError = (error as Error).message;
        this.o.log(`uspto sync failed: ${(error as Error).message}`);
        return { error: (error as Error).message };
      },
    );
    this.syncing = run.then(() => undefined).finally(() => {
      this.syncing = null;
    });
    return run;
  }

  /** Finds the applications changed for each customer number since the last sync and queues their downloads. */
  async sync(): Promise<number> {
    const missing = this.o.office.missing();
    if (missing) throw new Error(missing);
    if (!this.o.customerNumbers.length) throw new Error(JOB_MESSAGES.noCustomerNumbers);
    let queued = 0;
    for (const customer of this.o.customerNumbers) {
      const key = `uspto.watermark.${customer}`;
      const since = this.o.settings.read<string>(key) ?? null;
      const started = new Date(this.o.now()).toISOString();
      const changed = await this.o.office.searchByCustomer(customer, since);
      if (changed.length) {
        this.o.jobs.enqueue(
          USPTO_QUEUE,
          changed.map((a) => ({ id: a.applicationNumber, customerNumber: customer, applicationChangedAt: a.changedAt })),
        );
      }
      queued += changed.length;
      this.o.settings.write(key, started);
    }
    this.downloads.poke();
    return queued;
  }

  /** Sets each download's customer number from the office's search per customer number. */
  async syncCustomerNumbers(): Promise<CustomerSyncResult> {
    const missing = this.o.office.missing();
    if (missing) return { updated: 0, skipped: 0, errors: [missing] };
    if (!this.o.customerNumbers.length) return { updated: 0, skipped: 0, errors: [JOB_MESSAGES.noCustomerNumbers] };
    const result: CustomerSyncResult = { updated: 0, skipped: 0, errors: [] };
    for (const customer of this.o.customerNumbers) {
      try {
        for (const a of await this.o.office.searchByCustomer(customer, null)) {
          const job = this.o.jobs.get(USPTO_QUEUE, a.applicationNumber);
          if (!job) continue;
          if (job.customerNumber === customer) result.skipped++;
          else {
            this.o.jobs.setCustomerNumber(USPTO_QUEUE, job.id, customer);
            result.updated++;
          }
        }
      } catch (error) {
        result.errors.push(`${customer}: ${(error as Error).message}`);
      }
    }
    return result;
  }

  /** Marks downloads matching no portfolio application as unmatched (and clears the mark on the others). */
  async markUnmatched(): Promise<number> {
    let skip = 0;
    let marked = 0;
    for (;;) {
      const { data } = this.o.jobs.page(USPTO_QUEUE, { sort: "oldest", skip, limit: 500 });
      if (!data.length) return marked;
      const existing = await this.o.sink.existing(data.map((j) => j.id));
      const unmatched = data.filter((j) => !existing.has(j.id)).map((j) => j.id);
      this.o.jobs.setUnmatched(USPTO_QUEUE, data.filter((j) => existing.has(j.id)).map((j) => j.id), false);
      marked += this.o.jobs.setUnmatched(USPTO_QUEUE, unmatched, true);
      skip += data.length;
      if (skip > QUEUE_CONSTANTS.maxSchedule * 1000) return marked;
    }
  }

  /** Forgets the sync watermarks: the next sync fetches every application of the customer numbers again. */
  deleteCache(): number {
    return this.o.settings.clear("uspto.watermark.");
  }

  nextRuns(n = 5): string[] {
    try {
      return new Cron(this.o.settings.uspto().schedule, { paused: true }).nextRuns(n).map((d) => d.toISOString());
    } catch {
      return [];
    }
  }
}
