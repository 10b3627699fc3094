import type { DocketSystem } from "./adapter";
import type { FipRow, FipStore } from "./store";

/** FIP sync: re-fetches a matter from the docket system and records the outcome (spec 2 §4 "A manual sync ..."). */
export class FipSync {
  private timer: NodeJS.Timeout | null = null;
  private feedRunning = false;

  constructor(
    private readonly docket: DocketSystem,
    private readonly store: FipStore,
    private readonly now: () => number,
    private readonly log: (msg: string) => void,
  ) {}

  async syncMatter(fipId: string): Promise<FipRow> {
    try {
      const m = await this.docket.getMatter(fipId);
      return this.store.record(fipId, { matterNumber: m.matterNumber, auditDate: m.auditDate });
    } catch (error) {
      return this.store.record(fipId, { error: (error as Error).message });
    }
  }

  /** Syncs every matter the docket system reports changed since the last feed read. */
  async syncFeed(since: string | null): Promise<{ synchronized: number; failed: number }> {
    const ids = await this.docket.changedMatters(since);
    let synchronized = 0;
    for (const fipId of ids) if ((await this.syncMatter(fipId)).synchronized) synchronized++;
    return { synchronized, failed: ids.length - synchronized };
  }

  /** Reads the feed every `everyMs` while the docket system is configured. */
  start(everyMs: number, read: () => string | null, write: (since: string) => void): void {
    if (this.docket.missing() || this.timer) return;
    const tick = async () => {
      if (this.feedRunning) return;
      this.feedRunning = true;
      const started = new Date(this.now()).toISOString();
      try {
        await this.syncFeed(read());
        write(started);
      } catch (error) {
        this.log(`fip feed failed: ${(error as Error).message}`);
      } finally {
        this.feedRunning = false;
      }
    };
    this.timer = setInterval(() => void tick(), everyMs);
    this.timer.unref();
    void tick();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
