/**
 * Cells of every CSV file the product writes (the portfolio export, the import's sample and rejected rows), escaped
 * against formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell starting with `=`, `+`, `-`, `@`, a tab
 * or a carriage return as a formula (`=cmd|' /C calc'!A0`, `=HYPERLINK(...)`), so such a text cell is written with a
 * single quote in front, which spreadsheets read as "this is text" and do not show.
 *
 * Decisions:
 * - Numbers stay numbers. A cell given as a JavaScript number (a score, a line number) is written as `String(n)`,
 *   never escaped: a numeric literal such as `-0.5` cannot run anything, and escaping it would turn a negative score
 *   into text in the spreadsheet. A text that merely looks like a number ("-5" typed as a title) is escaped, as OWASP
 *   says.
 * - The escape is reversible, so importing an exported file gives back the same values: a text that already starts
 *   with quotes followed by a formula character gets one more quote (`'=x` → `''=x`), and the import
 *   (`csvCellValue`) takes exactly one quote off a cell of that shape. A quote before anything else (`'tis`) is left
 *   as it is both ways. A hand-written `'=x` in an imported file therefore means the text `=x`, as in a spreadsheet.
 */

/** A text cell a spreadsheet would evaluate (after any quotes that an earlier escape added). */
const FORMULA = /^'*[=+\-@\t\r]/;
/** An escaped cell: one or more quotes, then a formula character. */
const ESCAPED = /^'+[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined;

/** One cell as written: numbers and booleans as they are, null/undefined empty, texts escaped when they would run. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  return FORMULA.test(value) ? `'${value}` : value;
}

/** One record's cells as written (csvCell of each). */
export const csvRecord = (values: readonly CsvValue[]): string[] => values.map(csvCell);

/** The value of a cell read from a CSV file: the inverse of csvCell (one escaping quote taken off). */
export function csvCellValue(cell: string): string {
  return ESCAPED.test(cell) ? cell.slice(1) : cell;
}
