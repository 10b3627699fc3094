import { WORKFLOW_LIMITS } from "@contract/workflow-constants";
import { EVENT_CODES } from "@contract/workflow-contracts";
import { WorkflowExport } from "@contract/workflows";

const SENTENCE = "Docket the office action and check every claim. ";

/**
 * A valid export string (spec 3 §3) of `templates` templates whose notes bring it to about `bytes` bytes: what a large
 * practice's workflow exports to. Each template is one creation event, its notes each within WORKFLOW_LIMITS.note.
 */
export function largeExport(title: string, templates: number, bytes: number): string {
  const perTemplate = Math.ceil(bytes / templates);
  const perNote = Math.floor((WORKFLOW_LIMITS.note - 7) / SENTENCE.length);
  const sentences = Math.ceil(perTemplate / SENTENCE.length);
  const notes = Array.from({ length: Math.ceil(sentences / perNote) }, (_, i) => `<p>${SENTENCE.repeat(Math.min(perNote, sentences - i * perNote))}</p>`);
  const text = JSON.stringify({
    workflow: { title, clientCodes: [] },
    templates: Array.from({ length: templates }, (_, i) => ({
      title: `Template ${String(i + 1).padStart(2, "0")}`,
      events: [{ code: EVENT_CODES.applicationCreated, action: { notes } }],
    })),
  });
  // Valid by the contract's own reading, so a refusal can only be the size.
  WorkflowExport.parse(JSON.parse(text));
  return text;
}
