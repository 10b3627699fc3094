import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { runs } from "~/chains/run/runs.server";

/**
 * A run's events as server-sent events (the browser never calls /api): the upstream's stream passed through chunk by
 * chunk, from `Last-Event-ID` (an EventSource's reconnect) or `?after=`. Compression leaves event streams alone
 * (server/event-stream.ts) and the headers are flushed at once; a browser that goes away cancels the upstream read
 * (the run itself goes on: its page shows it again from the log).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const url = new URL(args.request.url);
  const raw = args.request.headers.get("last-event-id") ?? url.searchParams.get("after") ?? "0";
  const after = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  const upstream = await runs.events(api, args.params.run ?? "", after);
  const reader = upstream.body?.getReader();
  const stop = () => void reader?.cancel().catch(() => undefined);
  args.request.signal.addEventListener("abort", stop, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = reader ? await reader.read() : { done: true as const, value: undefined };
      if (next.done) {
        args.request.signal.removeEventListener("abort", stop);
        controller.close();
      } else controller.enqueue(next.value);
    },
    cancel: stop,
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
