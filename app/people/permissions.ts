/** One key's grant (spec 1 §4 Permission toggles): none, read ("key.read") or write (the key alone). */
export type Grant = "none" | "read" | "write";

/** The grant of `key` in a user's permission list. */
export function grantOf(permissions: readonly string[], key: string): Grant {
  if (permissions.includes(key)) return "write";
  if (permissions.includes(`${key}.read`)) return "read";
  return "none";
}

/**
 * A click on one of a key's two checkboxes (spec 1 §4): from none, the clicked one is set; when one is set, clicking
 * it again returns to none, and clicking the other makes that one exclusive.
 */
export function toggle(state: Grant, clicked: "read" | "write"): Grant {
  return state === clicked ? "none" : clicked;
}

/**
 * Without JavaScript both boxes can be ticked before Save: the box the user changed wins (the one that differs from
 * the state the page showed); from none with both ticked, write (it includes read).
 */
export function resolveGrant(before: Grant, write: boolean, read: boolean): Grant {
  if (write && read) return before === "write" ? "read" : "write";
  if (write) return "write";
  if (read) return "read";
  return "none";
}

/** The permission list to send for the keys' grants. */
export function permissionsOf(grants: ReadonlyArray<readonly [string, Grant]>): string[] {
  return grants.flatMap(([key, g]) => (g === "write" ? [key] : g === "read" ? [`${key}.read`] : []));
}
