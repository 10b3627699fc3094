/** A small set of inline SVG icons (no icon font, no extra request). Decorative unless given a title. */
const PATHS = {
  home: "M3 11.5 12 4l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z",
  people:
    "M16 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm-8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm0 2c-2.7 0-6 1.3-6 3.5V19h8v-2.5c0-1.2.5-2.3 1.4-3.1A9.6 9.6 0 0 0 8 13zm8 0c-2.8 0-6 1.4-6 3.8V19h12v-2.2c0-2.4-3.2-3.8-6-3.8z",
  teams:
    "M12 12a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm-6.5 1a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zm13 0a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM12 14c-2.5 0-5 1.2-5 3.2V19h10v-1.8c0-2-2.5-3.2-5-3.2zm-6.5.5c-1.9 0-4 .9-4 2.4V19H5v-1.8c0-1 .4-1.9 1.1-2.6l-.6-.1zm13 0-.6.1c.7.7 1.1 1.6 1.1 2.6V19h3.5v-2.1c0-1.5-2.1-2.4-4-2.4z",
  bot: "M11 2h2v3h4a3 3 0 0 1 3 3v9a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V8a3 3 0 0 1 3-3h4zM8.5 10a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm7 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM8 15.5v1.5h8v-1.5zM1 10h2v5H1zm20 0h2v5h-2z",
  pencil: "M4 17.3V20h2.7l8-8-2.7-2.7zm15.7-9.6a1 1 0 0 0 0-1.4l-2-2a1 1 0 0 0-1.4 0l-1.6 1.6 3.4 3.4z",
  help: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 16h-2v-2h2zm2.1-7.7-.9.9c-.7.7-1.2 1.3-1.2 2.8h-2v-.5c0-1.1.5-2.1 1.2-2.8l1.2-1.3a2 2 0 1 0-3.4-1.4H8a4 4 0 1 1 7.1 2.3z",
  logout: "M10 17v-2h6V9h-6V7h8v10zm-1-9.5L10.5 9 8 11.5H15v2H8l2.5 2.5L9 17.5 4 12.5z",
  menu: "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z",
  chevronLeft: "M15.4 7.4 14 6l-6 6 6 6 1.4-1.4-4.6-4.6z",
  chevronRight: "M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z",
  plus: "M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z",
  search:
    "M15.5 14h-.8l-.3-.3A6.5 6.5 0 1 0 14 15.5l.3.3v.8l5 5 1.5-1.5zm-6 0a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9z",
  close: "M18.3 5.7 16.9 4.3 12 9.2 7.1 4.3 5.7 5.7 10.6 10.6 5.7 15.5l1.4 1.4 4.9-4.9 4.9 4.9 1.4-1.4-4.9-4.9z",
  trash: "M6 19a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V7H6zM19 4h-3.5l-1-1h-5l-1 1H5v2h14z",
  key: "M7 14a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm5.6-4A6 6 0 1 0 12.6 14H16v3h3v-3h2v-4z",
  shield: "M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5z",
  building: "M4 21V3h10v4h6v14h-7v-4h-2v4zm2-2h3v-4h6v4h3V9h-4V5H6zm2-12h2v2H8zm4 0h-1V5h1zM8 11h2v2H8zm4 0h2v2h-2zm4 0h2v2h-2z",
  document: "M6 2h9l5 5v15H6zm8 1.5V8h4.5zM8 12h8v1.5H8zm0 3h8v1.5H8zm0 3h5v1.5H8z",
  settings:
    "M19.4 13a7.7 7.7 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.3 7.3 0 0 0-1.7-1L15 3h-4l-.4 2.9a7.3 7.3 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.7 7.7 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1c.5.4 1.1.8 1.7 1L11 21h4l.4-2.9c.6-.2 1.2-.6 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z",
  // Queue dashboards.
  chart: "M11 2.05V13h10.95A10 10 0 1 1 11 2.05zM13 2.05A10 10 0 0 1 21.95 11H13z",
  download: "M11 3h2v9.2l3.3-3.3 1.4 1.4L12 16l-5.7-5.7 1.4-1.4 3.3 3.3zM4 18h16v2H4z",
  sync: "M12 4V1L8 5l4 4V6a6 6 0 0 1 5.3 8.8l1.5 1.5A8 8 0 0 0 12 4zm0 14a6 6 0 0 1-5.3-8.8L5.2 7.7A8 8 0 0 0 12 20v3l4-4-4-4z",
  // Messages, rules, applications, e-mail connector.
  mail: "M3 5h18a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm1 2.3V17h16V7.3l-8 5.4zM5.4 7l6.6 4.4L18.6 7z",
  calendar: "M7 2h2v2h6V2h2v2h3a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3zM5 9v10h14V9zm2 2h3v3H7z",
  desktop: "M3 4h18a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1h-7v2h3v2H7v-2h3v-2H3a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zm1 2v9h16V6z",
  inbox: "M4 3h16a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm1 2v9h4a3 3 0 0 0 6 0h4V5z",
  // Forms, Word and Visio templates, shapes, drawings, backup.
  form: "M5 3h14v18H5zm2 2v14h10V5zm2 2h6v2H9zm0 4h6v2H9zm0 4h4v2H9z",
  word: "M6 2h9l5 5v15H6zm8 1.5V8h4.5zM8 11h1.6l1 4.2 1.1-4.2h.6l1.1 4.2 1-4.2H16l-1.8 6.5h-.7L12 13l-1.5 4.5h-.7z",
  visio: "M3 4h8v6H3zm10 10h8v6h-8zM6 10h2v5h5v2H6z",
  shapes: "M3 13h8v8H3zm9.5-11 5.5 9.5H7zM17.5 13a4 4 0 1 1 0 8 4 4 0 0 1 0-8z",
  drawing: "M3 17.3V21h3.7l11-11-3.7-3.7zM20.7 7a1 1 0 0 0 0-1.4l-2.3-2.3a1 1 0 0 0-1.4 0L15.2 5l3.7 3.7z",
  archive: "M3 3h18v4H3zm1 5h16v13H4zm5 3v2h6v-2z",
  tag: "M3 3h8.2l9.6 9.6a1.5 1.5 0 0 1 0 2.1l-6.1 6.1a1.5 1.5 0 0 1-2.1 0L3 11.2zm4.5 2.5a2 2 0 1 0 0 4 2 2 0 0 0 0-4z",
  portfolio: "M9 3h6a2 2 0 0 1 2 2v1h3a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h3V5a2 2 0 0 1 2-2zm0 3h6V5H9zM4 8v4h16V8zm0 6v5h16v-5h-6v1h-4v-1z",
  // Workflows: the list's entry, and a template's Activate / Suspend toggle.
  workflow: "M3 3h7v6H3zm11 0h7v6h-7zM3 15h7v6H3zm2.5-6h2v6h-2zM10 5h4v2h-4zm6.5 4h2v5H10v-2h6.5z",
  play: "M8 5v14l11-7z",
  pause: "M6 5h4v14H6zm8 0h4v14h-4z",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, title, className }: { name: IconName; title?: string; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : "icon"}
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      aria-hidden={title ? undefined : true}
      role={title ? "img" : undefined}
      focusable="false"
    >
      {title ? <title>{title}</title> : null}
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
