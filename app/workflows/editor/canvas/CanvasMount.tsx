import { Component, Suspense, lazy, useState, type ReactNode } from "react";
import { useHydrated } from "~/ui/hydrated";
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

/** A chunk that fails to load (offline, a deploy in between) shows nothing: the server-rendered editor stays. */
class NothingOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

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
