/**
 * The categorization's resizable panels (spec 2 §2: left panel size 25, minimum 25, maximum 75), remembered in the
 * prefs cookie under `id` so the server renders them.
 */
export const PANEL = { id: "categorization", initial: 25, min: 25, max: 75, step: 5 } as const;

export function clampPanel(value: number): number {
  if (!Number.isFinite(value)) return PANEL.initial;
  return Math.min(PANEL.max, Math.max(PANEL.min, Math.round(value)));
}
