/** The not-found answer (spec 1 §2): unknown routes and routes the user lacks the permission for. */
export function notFound(setCookie?: string | null): Response {
  const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
  return new Response("Not found", { status: 404, statusText: "Not Found", headers });
}
