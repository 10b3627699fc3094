import { TEAM_MESSAGES } from "@contract/teams";
import { SAVE_TOASTS } from "~/lib/form-texts";

/**
 * Teams texts, verbatim from spec 1 §2, §5, §8 where the spec gives them; the messages the upstream answers too come
 * from the contract. Tests import these.
 */
export const TEAMS = {
  listTitle: "Teams",
  newTitle: "New Team",
  editTitle: "Edit Team",
  addNew: "+ add new",
  searchLabel: "Search teams",
  filter: { legend: "Show", all: "All", assistants: "Assistants", teams: "Teams" },
  columns: { name: "Name", members: "Members", createdAt: "Created At", updatedAt: "Updated At" },
  more: (n: number) => `${n} more...`,
  labels: { name: "Name", assistantsTeam: "Assistants team", email: "Email" },
  yes: "Yes",
  no: "No",
  members: "Members",
  noMembers: "No members yet",
  addMember: "Add a new Member",
  add: "Add",
  remove: (email: string) => `Remove ${email}`,
  cancel: "Cancel",
  save: "Save",
  back: "Back",
  delete: "Delete",
  validation: {
    nameRequired: TEAM_MESSAGES.nameRequired,
    emailRequired: TEAM_MESSAGES.emailRequired,
    emailInvalid: TEAM_MESSAGES.emailInvalid,
    emailTaken: TEAM_MESSAGES.emailTaken,
  },
  toasts: {
    created: "Team created",
    createFailed: SAVE_TOASTS.createFailed,
    memberAdded: "Member Added",
    memberAddFailed: "Failed to add member",
    memberRemoved: "Member Removed",
    memberRemoveFailed: "Failed to remove member",
    deleted: "Team deleted",
    deleteFailed: "Failed to delete team",
  },
  inline: {
    exists: TEAM_MESSAGES.exists,
    createFailed: "Failed to create a new team. Check your input and try again.",
    memberAddFailed: "Failed to add the member. Check the email and try again.",
  },
  confirmDelete: {
    title: "Delete team?",
    message: (name: string) => `The team "${name}" will be deleted. This action can't be undone.`,
    confirm: "Delete",
  },
  readOnlyNote: "You can look at this team; changing it needs the users.write permission.",
  empty: "No teams yet.",
  emptySearch: (q: string) => `No teams match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "team" : "teams"} in total`,
} as const;
