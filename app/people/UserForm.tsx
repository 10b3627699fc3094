import type { FieldMetadata } from "@conform-to/react";
import type { OrganizationOption } from "../../upstream/contract/organizations";
import { CheckboxField, CheckboxGroup, TextField } from "../ui/fields";
import { PEOPLE } from "./texts";

const L = PEOPLE.labels;

type NameFields = {
  firstName: FieldMetadata<string | undefined>;
  lastName: FieldMetadata<string | undefined>;
  organizations: FieldMetadata<string[] | undefined>;
  isBot: FieldMetadata<boolean | undefined>;
};

/** The fields the new-user and edit-user screens share, in the spec's order around the email and password. */
export function NameFieldset({ fields, disabled }: { fields: Pick<NameFields, "firstName" | "lastName">; disabled?: boolean }) {
  return (
    <>
      <TextField meta={fields.firstName} label={L.firstName} autoComplete="off" disabled={disabled} />
      <TextField meta={fields.lastName} label={L.lastName} autoComplete="off" disabled={disabled} />
    </>
  );
}

export function MembershipFieldset({
  fields,
  organizations,
  disabled,
}: {
  fields: Pick<NameFields, "organizations" | "isBot">;
  organizations: OrganizationOption[];
  disabled?: boolean;
}) {
  return (
    <>
      <CheckboxGroup
        meta={fields.organizations}
        legend={L.organizations}
        options={organizations.map((o) => ({ value: o.id, label: o.name }))}
        empty={PEOPLE.noOrganizations}
        disabled={disabled}
      />
      <CheckboxField meta={fields.isBot} label={L.isBot} disabled={disabled} />
    </>
  );
}
