import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";
import { useHydrated } from "./hydrated";

/**
 * Two panels side by side with a separator between them (WAI-ARIA window splitter: drag it, or focus it and use the
 * arrow keys, Home and End). The first panel's share (per cent) is rendered by the server from the prefs cookie, so
 * the page never jumps; `onCommit` saves a new size once a drag or a key press ends. Without JavaScript the separator
 * cannot move: the panels stack (the `noscript` style) and everything in them still works. Narrow screens stack too.
 */
export function SplitPanels({
  first,
  second,
  size,
  min,
  max,
  step = 5,
  label,
  onCommit,
  className,
}: {
  first: ReactNode;
  second: ReactNode;
  size: number;
  min: number;
  max: number;
  step?: number;
  label: string;
  onCommit: (size: number) => void;
  className?: string;
}) {
  const hydrated = useHydrated();
  const [value, setValue] = useState(size);
  const container = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const latest = useRef(size);
  useEffect(() => {
    setValue(size);
    latest.current = size;
  }, [size]);

  const clamp = (n: number) => Math.min(max, Math.max(min, Math.round(n)));
  const set = (n: number) => {
    const next = clamp(n);
    latest.current = next;
    setValue(next);
    return next;
  };

  function onPointerDown(e: PointerEvent<HTMLDivElement>) {
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.preventDefault();
  }
  function onPointerMove(e: PointerEvent<HTMLDivElement>) {
    if (!dragging.current || !container.current) return;
    const box = container.current.getBoundingClientRect();
    set(((e.clientX - box.left) / box.width) * 100);
  }
  function onPointerUp(e: PointerEvent<HTMLDivElement>) {
    if (!dragging.current) return;
    dragging.current = false;
    e.currentTarget.releasePointerCapture(e.pointerId);
    onCommit(latest.current);
  }
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = { ArrowLeft: value - step, ArrowRight: value + step, Home: min, End: max };
    const target = moves[e.key];
    if (target === undefined) return;
    e.preventDefault();
    const next = set(target);
    if (next !== size) onCommit(next);
  }

  return (
    <div
      ref={container}
      className={`split-panels${className ? ` ${className}` : ""}`}
      style={{ ["--split-first" as string]: `${value}%` }}
    >
      <noscript>
        <style>{".split-panels { display: block !important; } .split-separator { display: none !important; } .split-second { margin-top: 1rem; }"}</style>
      </noscript>
      <div className="split-panel split-first">{first}</div>
      <div
        className="split-separator"
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-valuenow={value}
        aria-valuemin={min}
        aria-valuemax={max}
        tabIndex={hydrated ? 0 : -1}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onKeyDown={onKeyDown}
      />
      <div className="split-panel split-second">{second}</div>
    </div>
  );
}
