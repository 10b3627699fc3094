/**
 * Texts of the editor's forms added with the canvas's modals (the spec leaves them open): the roadmap stage picker
 * and the template's events in Properties. The rest are the editor's (../texts.ts). Tests import these.
 */
export const FORM_TEXTS = {
  stagePicker: {
    label: "Roadmap stage picker",
    step: "Step",
    /** Spec 3 §4.1: the roadmap icon marks a stage with steps ok, an empty one an error; said in words in a choice. */
    option: (name: string, mark: "ok" | "error") => (mark === "ok" ? `${name} (has steps)` : `${name} (no steps yet)`),
    mark: { ok: "Has steps", error: "No steps yet" },
  },
  /** The template's events in Properties (spec 3 §3 Event). */
  events: {
    legend: "Events",
    none: "No events: no milestone is created from this template.",
    event: (n: number) => `Event ${n}`,
    type: "Type",
    types: { create: "Create a milestone", update: "Update the open milestone" },
    code: "Event",
    chooseCode: "Choose an event",
    title: "Milestone title",
    outcome: "On update",
    outcomes: { "": "Change it only", finish: "Finish it", delete: "Delete it" },
    outcomeHint: "For an update event only.",
    add: "Add event",
    remove: (n: number) => `Remove event ${n}`,
  },
} as const;
