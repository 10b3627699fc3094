/** What the product shows for no value (an em dash): dates (app/lib/format.ts), and a list's empty cells. */
export const NO_VALUE = "—";
