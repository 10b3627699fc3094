/**
 * The back office's icons: each is one element whose CSS mask is the icon's 24 × 24 shape, drawn in the text colour
 * (app/styles/app.css, "Icons" and "icon shapes"). No icon font, no extra request, and no markup per path: an inline
 * <svg><path> was two elements and a long attribute in every row and navigation entry (issue 10). Decorative unless
 * given a title: then it is an image with that name.
 */
export const ICON_NAMES = [
  "home",
  "people",
  "teams",
  "bot",
  "pencil",
  "help",
  "logout",
  "menu",
  "chevronLeft",
  "chevronRight",
  "plus",
  "search",
  "close",
  "trash",
  "key",
  "shield",
  "building",
  "document",
  "settings",
  "chart",
  "download",
  "sync",
  "mail",
  "calendar",
  "desktop",
  "inbox",
  "form",
  "word",
  "visio",
  "shapes",
  "drawing",
  "archive",
  "tag",
  "portfolio",
] as const;

export type IconName = (typeof ICON_NAMES)[number];

export function Icon({ name, title, className }: { name: IconName; title?: string; className?: string }) {
  const classes = className ? `icon i-${name} ${className}` : `icon i-${name}`;
  return title ? (
    <span className={classes} role="img" aria-label={title} title={title} />
  ) : (
    <span className={classes} aria-hidden="true" />
  );
}
