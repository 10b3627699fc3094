import { Hono, type MiddlewareHandler } from "hono";
import { HttpError, type AppEnv } from "../lib/http";

/** /api/feedback/* */
export function feedbackRoutes(deps: {
  feedbackUrl: string | undefined;
  requireAuth: MiddlewareHandler<AppEnv>;
}): Hono<AppEnv> {
  const { feedbackUrl, requireAuth } = deps;
  const app = new Hono<AppEnv>();
  app.get("/canny/redirectUrl", requireAuth, (c) => {
    if (!feedbackUrl) throw new HttpError(404, "No feedback board is configured.");
    return c.text(feedbackUrl);
  });
  return app;
}
