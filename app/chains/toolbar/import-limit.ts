/** The longest import read: the upstream takes a chain of at most its 1 MB body bound, so more cannot be saved. */
export const IMPORT_MAX_CHARS = 1_000_000;
