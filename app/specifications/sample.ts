import type { ContextObjectAnswer, GenerateAnswer } from "@contract/nlp";
import type { ToastData } from "~/ui/toast";

/** A document uploaded once and named by its id afterwards (the page's `?document=` and a hidden field). */
export type KeptDocument = { fileId: string; name: string };

/** What the specification workbench's action answers (sample.server `workbenchAction`). */
export type Sample = {
  intent: string;
  template: string;
  /** The uploaded .docx, kept on the server (POST /api/files): its id and name. */
  document: KeptDocument | null;
  contextObject: ContextObjectAnswer | null;
  result: GenerateAnswer | null;
  output: string | null;
  outputError: string | null;
  uploadError: string | null;
  templateError: string | null;
  toast: ToastData | null;
};
