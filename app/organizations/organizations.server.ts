import { OrganizationsResource } from "@contract/organizations";
import { resourceClient } from "~/lib/resource.server";

/** The organizations collection of the upstream contract (spec 3 §7), through the resource kit. */
export const organizations = resourceClient(OrganizationsResource);
