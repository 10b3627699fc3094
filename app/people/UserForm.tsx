import type { FieldMetadata } from "@conform-to/react";
import type { OrganizationOption } from "@contract/organizations";
import { CheckboxGroup, TextField } from "~/ui/fields";
import { TagInput, splitTags } from "~/ui/tag-input";
import { BotFields } from "./BotFields";
import type { BotChoices } from "./bots";
import { PEOPLE } from "./texts";

const L = PEOPLE.labels;

type NameFields = {
  firstName: FieldMetadata<string | undefined>;
  lastName: FieldMetadata<string | undefined>;
  organizations: FieldMetadata<string[] | undefined>;
  assistants: FieldMetadata<string | undefined>;
};

/** Where the Assistants tag input asks for suggestions (a resource route over GET /api/auth/suggest/users). */
const SUGGEST_URL = "/people/suggest";

/** The fields the new-user and edit-user screens share, in the spec's order around the email and password. */
export function NameFieldset({ fields, disabled }: { fields: Pick<NameFields, "firstName" | "lastName">; disabled?: boolean }) {
  return (
    <>
      <TextField meta={fields.firstName} label={L.firstName} autoComplete="off" disabled={disabled} />
      <TextField meta={fields.lastName} label={L.lastName} autoComplete="off" disabled={disabled} />
    </>
  );
}

const isEmail = (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s);

/** Organizations, Assistants (tag input with suggestions), Is Bot with Script and Version (spec 1 §2). */
export function MembershipFieldset({
  fields,
  organizations,
  bot,
  mode,
  email,
  disabled,
}: {
  fields: Pick<NameFields, "organizations" | "assistants">;
  organizations: OrganizationOption[];
  bot: BotChoices & { isBot: boolean };
  mode: "create" | "edit";
  email: string | (() => string);
  disabled?: boolean;
}) {
  const assistants = fields.assistants.initialValue;
  return (
    <>
      <CheckboxGroup
        meta={fields.organizations}
        legend={L.organizations}
        options={organizations.map((o) => ({ value: o.id, label: o.name }))}
        empty={PEOPLE.noOrganizations}
        disabled={disabled}
      />
      <TagInput
        id={fields.assistants.id}
        name={fields.assistants.name}
        label={L.assistants}
        defaultValue={splitTags(typeof assistants === "string" ? assistants : "")}
        suggestUrl={SUGGEST_URL}
        validate={(tag) => (isEmail(tag) ? null : PEOPLE.assistantInvalid(tag))}
        errors={fields.assistants.errors}
        errorId={fields.assistants.errorId}
        disabled={disabled}
        hint={PEOPLE.assistantsHint}
      />
      <BotFields initial={bot} mode={mode} email={email} disabled={disabled} refreshIntent="bot" />
    </>
  );
}
