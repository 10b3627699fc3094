import { OrganizationOptions } from "@contract/organizations";
import { ReportsResource, type Report } from "@contract/reports";
import { formatDateTime } from "~/lib/format";
import { resourceClient } from "~/lib/resource.server";
import type { Api } from "~/lib/upstream.server";
import { REPORTS } from "./texts";

/** The reports collection (spec 2 §7: get and patch), through the resource kit. */
export const reports = resourceClient(ReportsResource);

export const organizationOptions = (api: Api) => api.get(OrganizationOptions, "/api/organizations/user");

/** A report as its list row shows it; organization ids named (unknown ones left out). */
export const reportRow = (r: Report, timeZone: string, names: ReadonlyMap<string, string>) => ({
  id: r.id,
  name: r.name,
  identifier: r.identifier,
  type: REPORTS.types[r.type],
  organizations: r.organizations.flatMap((id) => names.get(id) ?? []),
  updatedAt: formatDateTime(r.updatedAt, timeZone),
  updatedBy: r.updatedBy ?? r.createdBy,
});
