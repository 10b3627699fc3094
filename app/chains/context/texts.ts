import { INVENTION_SEARCH } from "@contract/inventions";
import { SPECIFICATIONS } from "~/specifications/texts";

const D = SPECIFICATIONS.detail;

/** The Context tab's texts (spec 3 §2.9; the spec names only the §8 toast and the .docx rule). */
export const CONTEXT = {
  invention: "Invention",
  noInvention: "No invention chosen.",
  searchLabel: "Search inventions",
  search: "Search",
  searching: "Searching…",
  results: (total: number) => (total === 1 ? "1 invention" : `${total.toLocaleString("en-US")} inventions`),
  noResults: "No invention matches the search.",
  choose: "Choose",
  chosen: "Chosen",
  remove: "Remove",
  reference: (id: string) => `Reference ${id}`,
  document: "Context document",
  noDocument: "No context document uploaded.",
  documentLabel: "Context document (.docx)",
  upload: "Upload",
  claims: "Claims",
  noClaims: "The context document has no claims.",
  claimLabel: (n: number) => `Claim ${n}`,
  independent: "independent",
  dependsOn: (parents: readonly number[]) => `depends on ${parents.join(", ")}`,
  saveSelection: "Save selection",
  selectedCount: (n: number, of: number) => `${n} of ${of} selected`,
  pageSize: INVENTION_SEARCH.size,
  /** Spec 3 §8. */
  contextFailed: SPECIFICATIONS.toasts.contextFailed,
  docxOnly: D.docxOnly,
  inventionGone: "That invention is no longer in the portfolio.",
  saved: "Context saved",
} as const;
