import { USER_MESSAGES } from "@contract/people-constants";
import { SETTINGS_MESSAGES } from "@contract/settings-constants";
import { FORM_TEXTS, SAVE_TOASTS } from "~/lib/form-texts";

/**
 * People texts, verbatim from spec 1 §2, §5, §8. The messages the upstream answers too come from the contract's zod-free
 * modules (the people list ships no zod). Tests import these.
 */
export const PEOPLE = {
  listTitle: "People",
  addNew: "+ add new",
  botTitle: "This is a bot user",
  searchLabel: "Search people",
  columns: {
    email: "Email",
    fullName: "Fullname",
    registrationNumbers: "Registration Number(s)",
    customerNumbers: "Customer Number(s)",
    createdAt: "Created At",
    updatedAt: "Updated At",
  },
  newTitle: "New User",
  editTitle: "Edit User",
  labels: {
    firstName: "First name",
    lastName: "Last name",
    email: "Email",
    password: "Password",
    organizations: "Organizations",
    isBot: "Is Bot",
    assistants: "Assistants",
    script: "Script",
    version: "Version",
  },
  randomize: "Randomize password",
  save: "Save",
  cancel: "Cancel",
  update: "Update",
  delete: "Delete",
  noOrganizations: "No organizations yet.",
  readOnlyNote: "You can look at this user; changing it needs the users.write permission.",
  ownAccount: USER_MESSAGES.selfDelete,
  validation: {
    firstNameRequired: USER_MESSAGES.firstNameRequired,
    lastNameRequired: USER_MESSAGES.lastNameRequired,
    emailRequired: USER_MESSAGES.emailRequired,
    emailInvalid: USER_MESSAGES.emailInvalid,
    passwordRequired: USER_MESSAGES.passwordRequired,
    passwordShort: USER_MESSAGES.passwordTooShort,
  },
  toasts: {
    createFailed: SAVE_TOASTS.createFailed,
    updateFailed: SAVE_TOASTS.updateFailed,
    deleted: "User deleted",
    deleteFailed: "Failed to delete user",
    created: "User created",
    updated: "User updated",
    /** The user was saved, its assistants team was not (a partial success: a warning titled created/updated). */
    assistantsFailed: (reason: string) => `The assistants team could not be updated: ${reason}`,
  },
  inline: {
    createFailed: "Failed to create a new user. Check your input and try again.",
    updateFailed:
      "Failed to update a user. Check your input and try again. If an error still occurs, please, contact our developers.",
  },
  confirmDelete: {
    title: "Delete user?",
    message: (fullName: string, email: string) =>
      `${fullName ? `${fullName} (${email})` : email} will be deleted. This action can't be undone.`,
    confirm: "Delete",
  },
  /** Bots (spec 1 §4 Bot toggle). */
  bot: {
    hint: (script: string) => `We found "${script}" as a script candidate based on the email.`,
    hintEdit: (script: string) => `We found "${script}" as a script candidate based on the email. Click update to save it.`,
    chooseScript: "Choose a script",
    chooseVersion: "Choose a version",
    noScripts: "No scripts yet. Upload one on the bot's edit screen.",
    noVersions: "This script has no version ending in js.",
    /** With JavaScript, when the scripts or versions could not be asked for (offline, or refused). */
    loadFailed: "Scripts and versions could not be loaded. Try again.",
    /** Without JavaScript: the round trip that loads scripts and versions. */
    refresh: "Load scripts and versions",
    versionLabel: (v: { version: number | null; message: string; date: string }) =>
      `v${v.version ?? "?"}${v.message ? ` — ${v.message}` : ""} (${v.date})`,
    uploadTitle: "Upload a new script version",
    uploadFile: "Script file",
    uploadScript: "Script name",
    uploadScriptHint: "A new version of this script is stored; earlier versions stay as they are.",
    uploadMessage: "Message",
    upload: "Upload",
    uploaded: "Script uploaded",
    uploadFailed: "Upload failed",
    fileRequired: "Choose a file to upload.",
  },
  assistantsHint: "Emails separated by \";\". They become the members of this user's assistants team.",
  assistantInvalid: (email: string) => `"${email}" is not a valid email.`,
  links: {
    title: "More for this user",
    changePassword: "Change password",
    permissions: "Manage permissions",
    authorization: "Manage authorization",
    userSettings: "Manage user settings",
  },
  back: "Back",
  password: {
    title: "Change Password",
    failed:
      "Failed to change password for user. Check your input and try again. If an error still occurs, please, contact our developers.",
    changed: "Password changed",
  },
  permissions: {
    title: "Permissions",
    write: "Read and write",
    read: "Read",
    key: "Permission",
    save: "Save",
    saved: "Permissions updated",
    failed:
      "Failed to change permissions for user. Check your input and try again. If an error still occurs, please, contact our developers.",
    failedTitle: SAVE_TOASTS.updateFailed,
    /** A post that does not carry every permission's previous state (not from this form): nothing is changed. */
    incomplete: FORM_TEXTS.incomplete,
  },
  authorization: {
    title: "Authorization",
    intro: "The portfolio this user may see: their registration numbers and customer numbers.",
    registrationNumbers: "Registration Number(s)",
    customerNumbers: "Customer Number(s)",
    registrationHint: "USPTO registration numbers, 5 or 6 digits, separated by \";\".",
    customerHint: "USPTO customer numbers, 5 to 9 digits, separated by \";\".",
    save: "Save",
    saved: "Authorization updated",
    failedTitle: SAVE_TOASTS.updateFailed,
    failed: "Failed to update the authorization. Check your input and try again.",
  },
  settings: {
    title: "User Settings",
    key: "Key",
    value: "Value",
    secure: "Secure",
    addRow: "Add row",
    removeRow: "Remove",
    save: "Save",
    empty: "No settings yet.",
    keyHint: "Letters, digits, hyphens, dots, underscores and tildes; use underscores between words.",
    objectValue: "Object values are read-only here.",
    keyRequired: SETTINGS_MESSAGES.keyRequired,
    valueRequired: SETTINGS_MESSAGES.valueRequired,
    duplicate: (key: string) => `Key "${key}" already exists.`,
    fetchFailed: "Settings fetch failed",
    updated: "Settings updated",
    updateFailed: "Settings update failed",
    deleted: "Setting deleted",
    deleteFailed: "Setting delete failed",
    storeFailed: "Failed to store user settings...",
  },
  empty: "No people yet.",
  emptySearch: (q: string) => `No people match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "person" : "people"} in total`,
} as const;
