import type { ContextObjectAnswer, GenerateAnswer } from "../../upstream/contract/nlp";
import type { ToastData } from "../ui/toast";

/** What the specification workbench's action answers (sample.server `workbenchAction`). */
export type Sample = {
  intent: string;
  template: string;
  document: { name: string; content: string } | null;
  contextObject: ContextObjectAnswer | null;
  result: GenerateAnswer | null;
  output: string | null;
  outputError: string | null;
  uploadError: string | null;
  templateError: string | null;
  toast: ToastData | null;
};
