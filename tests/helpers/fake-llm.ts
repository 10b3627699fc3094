import { afterAll, afterEach, beforeAll } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../upstream/src/llm/fake-server";

/**
 * The fake provider for one test file (upstream/src/llm/fake-server.ts): started before the file's tests and handed to
 * `started`, closed after them, and its slow first token and delay between chunks reset after each test, so a test
 * that slows it leaves the next one a prompt provider.
 */
export function withFakeLlm(started: (fake: FakeLlm) => void): void {
  let fake: FakeLlm | undefined;
  beforeAll(async () => {
    fake = await startFakeLlm();
    started(fake);
  });
  afterAll(() => fake?.close());
  afterEach(() => {
    fake?.slowFirstToken(0);
    fake?.chunkDelay(0);
  });
}
