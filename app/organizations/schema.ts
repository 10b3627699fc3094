import { OrganizationCreate } from "@contract/organizations";
import { OrganizationAiCreateSchema, OrganizationAiUpdateSchema } from "~/ai-admin/schema";

/** The organization form: the contract's name (required, trimmed, bounded, its messages). */
export const OrganizationSchema = OrganizationCreate.pick({ name: true });

/** The form's schema: with the AI fields for those who may set them (`administration`), else the name alone. */
export const organizationSchemaOf = (mode: "new" | "edit", withAi: boolean) =>
  !withAi ? OrganizationSchema : mode === "new" ? OrganizationAiCreateSchema : OrganizationAiUpdateSchema;
