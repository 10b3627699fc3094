/**
 * GET /api/feedback/canny/redirectUrl — answers the feedback board's URL as plain text (spec 1 §7: "returns a URL");
 * 404 `{ message }` when no board is configured.
 */
export const FEEDBACK_PATH = "/api/feedback/canny/redirectUrl";
