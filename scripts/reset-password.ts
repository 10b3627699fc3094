/**
 * Gives a user a new password on the embedded upstream's database, for when the administrator's printed password is
 * lost (the server prints it once, when it creates the administrator on an empty database). Signs the user out
 * everywhere. Run it on the machine that holds DATA_DIR, server stopped or running (SQLite's WAL lets both write).
 *
 *   npm run reset-password -- admin@backoffice.local            # prints a new random password
 *   NEW_PASSWORD='…' npm run reset-password -- you@example.com  # sets this one (at least 6 characters)
 */
import path from "node:path";
import { MIN_PASSWORD_LENGTH } from "@contract/people";
import { hashPasswordSync, randomPassword } from "../upstream/src/auth/passwords";
import { SessionsStore } from "../upstream/src/auth/sessions";
import { UsersStore } from "../upstream/src/people/store";
import { openDatabase } from "../upstream/src/db";

const email = process.argv[2]?.trim();
if (!email) {
  console.error("Usage: npm run reset-password -- <email>   (NEW_PASSWORD=… to choose it; DATA_DIR as the server's)");
  process.exit(2);
}
const password = process.env.NEW_PASSWORD ?? randomPassword();
if (password.length < MIN_PASSWORD_LENGTH) {
  console.error(`NEW_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  process.exit(2);
}
const dataDir = path.resolve(process.env.DATA_DIR ?? "data");
let db;
try {
  db = openDatabase(dataDir);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const users = new UsersStore(db, Date.now);
const found = users.findCredentials(email);
if (!found) {
  console.error(`No user with the email ${email} in ${dataDir}.`);
  process.exit(1);
}
users.update(found.id, { passwordHash: hashPasswordSync(password) }, null);
const signedOut = new SessionsStore(db, Date.now).revokeUser(found.id);
db.close();
console.log(
  `New password for ${email}: ${password}` + (signedOut ? ` (${signedOut} session${signedOut === 1 ? "" : "s"} signed out)` : ""),
);
