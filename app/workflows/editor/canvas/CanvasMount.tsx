import { Suspense, lazy, useState, type ReactNode } from "react";
import { useHydrated } from "~/ui/hydrated";
import { NothingOnError } from "~/ui/nothing-on-error";
import type { CanvasProps } from "./Canvas.client";

export const CANVAS_REQUESTED = "canvas-requested";

/**
 * The canvas's chunk (@xyflow/react and the editor): requested only when this route renders it, in the browser. The
 * mark lets bench/canvas.ts tell the canvas's own start-up from the page's.
 */
const Canvas = lazy(() => {
  performance.mark(CANVAS_REQUESTED);
  return import("./Canvas.client");
});

/**
 * The template editor's canvas over the server-rendered table editor (`fallback`): without JavaScript, and until the
 * canvas has mounted, the table is the editor; then the canvas replaces it. The table keeps its place in the tree
 * meanwhile, so the hydrated table is never mounted a second time as a Suspense fallback (at 300 steps it is
 * thousands of elements).
 */
export function CanvasMount({ fallback, ...props }: CanvasProps & { fallback: ReactNode }) {
  const hydrated = useHydrated();
  const [ready, setReady] = useState(false);
  return (
    <>
      {ready ? null : fallback}
      {hydrated ? (
        <NothingOnError>
          <Suspense fallback={null}>
            <Canvas {...props} onReady={() => setReady(true)} />
          </Suspense>
        </NothingOnError>
      ) : null}
    </>
  );
}
