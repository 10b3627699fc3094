/** The portfolio's reindex screen (spec 2 §7 POST /api/applications/reindex). Tests import these. */
export const REINDEX = {
  title: "Reindex portfolio",
  intro:
    "Rebuilds the search index of every portfolio application from the stored records. While it runs, changes to applications (tags, fields, CSV imports) are refused.",
  start: "Reindex",
  starting: "Starting…",
  statusTitle: "Progress",
  never: "No reindex has run since the server started.",
  running: (processed: number, total: number) =>
    `Reindexing: ${processed.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} applications.`,
  refreshing: "This page refreshes itself until it is done.",
  completed: (at: string, total: number) => `Completed on ${at}: ${total.toLocaleString("en-US")} applications indexed.`,
  failed: (at: string) => `Failed on ${at}.`,
  startedAt: (at: string) => `Started on ${at}.`,
  readOnly: "Starting a reindex needs the portfolio permission.",
  toasts: { started: "Reindex started", failed: "Reindex failed" },
} as const;
