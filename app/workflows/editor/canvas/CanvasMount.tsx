import { Component, Suspense, lazy, type ReactNode } from "react";
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

/** A chunk that fails to load (offline, a deploy in between) leaves the server-rendered editor in place. */
class KeepFallback extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * The template editor's canvas over the server-rendered table editor (`fallback`): without JavaScript, and until the
 * canvas's chunk has loaded, the table is the editor; then the canvas replaces it.
 */
export function CanvasMount({ fallback, ...props }: CanvasProps & { fallback: ReactNode }) {
  const hydrated = useHydrated();
  if (!hydrated) return <>{fallback}</>;
  return (
    <KeepFallback fallback={fallback}>
      <Suspense fallback={fallback}>
        <Canvas {...props} />
      </Suspense>
    </KeepFallback>
  );
}
