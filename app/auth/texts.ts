/** Sign-in texts (spec 1 §2, §8). */
export const SIGN_IN = {
  greeting: "Hey! Do we know you?",
  submit: "Let me in!",
  failed: "Authentication failed. Check your email/password and try again.",
  unavailable: "Sign-in is unavailable right now. Please, try again later or contact our development team.",
  throttled: (seconds: number) =>
    `Too many failed attempts. Please wait ${seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : seconds === 1 ? "1 second" : `${seconds} seconds`} before trying again.`,
} as const;

/** Single sign-on (spec 1 §2, §8): the buttons' failure toasts (the description is TRY_LATER). */
export const SSO_TEXTS = {
  oidcFailed: "Failed to Sign in with Microsoft",
  samlFailed: "Failed to Sign in with OKTA",
  samlLabel: "Sign in with OKTA",
  /** Separates the local form from the external buttons. */
  or: "or",
} as const;
