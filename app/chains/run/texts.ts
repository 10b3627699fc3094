import { RUN_MESSAGES } from "@contract/chain-runs";

/** The output pane's and the run page's texts (spec 3 §2.9, §4.3; the §8 texts are the contract's RUN_MESSAGES). */
export const RUNS = {
  run: "Run chain",
  runLink: (name: string) => `Run ${name}`,
  /** A link's execute button (its name says which: runLink). */
  runOne: "Run",
  runFailed: "Run failed",
  actionFailed: "Failed",
  title: (chain: string) => `Run of ${chain}`,
  output: "Output",
  stop: "Stop",
  reset: "Reset",
  continue: "Continue",
  backToChain: "Back to the chain",
  status: {
    starting: "Starting…",
    running: "Running…",
    waiting: "Waiting for the form",
    finished: "Finished",
    failed: "Failed",
    cancelled: "Stopped",
  },
  refreshing: "This page refreshes itself while the run is going.",
  noEvents: "Nothing yet.",
  input: "Sent",
  answer: "Answer",
  outputVariable: (name: string) => `Saved as ${name}`,
  tokens: (u: { promptTokens: number; completionTokens: number }) =>
    `${u.promptTokens.toLocaleString("en-US")} tokens in, ${u.completionTokens.toLocaleString("en-US")} out`,
  time: (ms: number) => `${(ms / 1000).toFixed(1)} s`,
  formTitle: "The run waits for these values",
  claimsSingle: "Choose one claim",
  claimsMany: "Choose the claims",
  claimLabel: (n: number) => `Claim ${n}`,
  chatMessage: "Message to the chat",
  send: "Send",
  conversation: "Conversation",
  you: "You",
  assistant: "Chat",
  messages: RUN_MESSAGES,
} as const;
