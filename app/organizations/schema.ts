import { OrganizationCreate } from "@contract/organizations";

/** The organization form: the contract's name (required, trimmed, bounded, its messages); the AI fields have screens of their own. */
export const OrganizationSchema = OrganizationCreate.pick({ name: true });
