/**
 * The permission model shared by the back office and the embedded upstream (spec 1 §6, spec 2 §6, spec 3 §6).
 *
 * A permission is granted by the exact string or by its first segment: holding "users" grants "users" and
 * "users.read". A user's entry for a key is either the key alone (read and write) or "key.read" (read only).
 */

/** Every permission key the spec names, in the order the permissions screen lists them. */
export const PERMISSION_KEYS = [
  "users",
  "organizations",
  "specifications",
  "portfolio",
  "templates",
  "forms",
  "messages",
  "uspto",
  "docketing_tasks",
  "applications",
  "administration",
  "workflows",
  "prompts",
] as const;

export type PermissionKey = (typeof PERMISSION_KEYS)[number];

/** Every permission string a user can hold: each key alone (read and write) and each key with ".read". */
export const ALL_PERMISSIONS: readonly string[] = PERMISSION_KEYS.flatMap((key) => [key, `${key}.read`]);

/**
 * What a screen or an endpoint needs: a key alone (read and write: only the key itself grants it) or "key.read"
 * (the key or "key.read" grants it). A misspelt key is a type error.
 */
export type Permission = PermissionKey | `${PermissionKey}.read`;

/** True when `permissions` grants `needed`: by the exact string, or by the first segment of `needed`. */
export function can(permissions: readonly string[] | undefined, needed: Permission): boolean {
  if (!permissions) return false;
  if (permissions.includes(needed)) return true;
  const dot = needed.indexOf(".");
  return dot > 0 && permissions.includes(needed.slice(0, dot));
}
