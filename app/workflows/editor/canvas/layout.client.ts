/**
 * Auto-layout in the browser: ELK's layered algorithm in its own web worker (public/elk, copied there by
 * scripts/copy-elk.mjs), so laying out 300 steps never blocks the main thread. The worker starts on the first
 * press of Auto-layout and stays for the next ones.
 */
import ELK from "elkjs/lib/elk-api.js";
import { elkGraphOf, positionsOf } from "./layout";

const WORKER_URL = "/elk/elk-worker.min.js";

let elk: InstanceType<typeof ELK> | null = null;

export async function layoutPositions(doc: Parameters<typeof elkGraphOf>[0]): Promise<Map<string, { x: number; y: number }>> {
  elk ??= new ELK({ workerUrl: WORKER_URL });
  try {
    return positionsOf(await elk.layout(elkGraphOf(doc)));
  } catch (error) {
    // A worker that failed to start stays failed: the next press starts a fresh one.
    elk.terminateWorker();
    elk = null;
    throw error;
  }
}
