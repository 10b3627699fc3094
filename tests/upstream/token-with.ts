import type { Harness } from "./helpers";

/** A signed-in user holding exactly `permissions` (password "secret1"). */
export async function tokenWith(h: Harness, email: string, permissions: string[]): Promise<string> {
  const user = await h.createUser({ email });
  await h.call("PATCH", `/api/auth/users/${user.id}`, { token: h.adminToken, body: { id: user.id, permissions } });
  return h.login(email, "secret1");
}
