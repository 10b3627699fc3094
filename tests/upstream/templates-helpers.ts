import type { Harness } from "./helpers";

/** A multipart create or patch of the resource kit: the JSON `data` part plus file parts. */
export function sendMultipart(
  h: Harness,
  method: "POST" | "PATCH",
  url: string,
  data: unknown,
  files: Record<string, { name: string; bytes: Buffer; type?: string }>,
  token: string = h.adminToken,
): Promise<Response> {
  const body = new FormData();
  body.set("data", JSON.stringify(data));
  for (const [field, f] of Object.entries(files)) body.set(field, new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "application/octet-stream" }), f.name);
  return h.up.fetch(
    new Request(`http://upstream.test${url}`, { method, headers: { authorization: `Bearer ${token}` }, body }),
  );
}

export async function bytesOf(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

/** A user holding exactly `permissions` (password secret1). */
export async function withPermissions(h: Harness, email: string, permissions: string[]): Promise<void> {
  const user = await h.createUser({ email });
  await h.call("PATCH", `/api/auth/users/${user.id}`, { token: h.adminToken, body: { id: user.id, permissions } });
}

/** An API answer read loosely in assertions: what `JSON.parse` answers. */
export type Json = ReturnType<typeof JSON.parse>;
