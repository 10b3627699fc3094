/** "First Last", leaving out an empty part. */
export const fullName = (u: { firstName: string; lastName: string }) =>
  [u.firstName, u.lastName].map((s) => s.trim()).filter(Boolean).join(" ");
