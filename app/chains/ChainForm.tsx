import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { CheckboxField, CheckboxGroup, DefaultSubmit, FormError, SaveButton, TextAreaField, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, joinTags } from "~/ui/tag-input";
import { ChainEditSchema } from "./schema";
import { CHAINS } from "./texts";

const L = CHAINS.labels;

export type ChainSettings = {
  name: string;
  isPublic: boolean;
  isGeneric: boolean;
  organizations: string[];
  categories: string[];
  tags: string[];
  description: string;
};

/** A new chain's settings (spec 3 §9: private, not generic). */
export const NEW_CHAIN: ChainSettings = { name: "", isPublic: false, isGeneric: false, organizations: [], categories: [], tags: [], description: "" };

type Option = { value: string; label: string };

/**
 * The chain settings form of /chains/create and /chains/{id}/edit (spec 3 §2.9): name, public, generic,
 * organizations, categories, tags, description. `baseVersion` (edit) is the version the page showed.
 */
export function ChainForm({
  id,
  defaults,
  baseVersion,
  organizations,
  categories,
  lastResult,
  canWrite,
  cancelTo,
  after,
}: {
  id: string;
  defaults: ChainSettings;
  baseVersion?: number;
  organizations: Option[];
  categories: Option[];
  lastResult: SubmissionResult<string[]> | undefined;
  canWrite: boolean;
  cancelTo: string;
  after?: ReactNode;
}) {
  const [form, fields] = useSchemaForm(ChainEditSchema, {
    id,
    actionData: lastResult,
    defaultValue: {
      name: defaults.name,
      isPublic: defaults.isPublic,
      isGeneric: defaults.isGeneric,
      organizations: defaults.organizations,
      categories: defaults.categories,
      tags: joinTags(defaults.tags),
      description: defaults.description,
    },
  });
  const disabled = !canWrite;
  const submittedTags = typeof lastResult?.initialValue?.tags === "string" ? lastResult.initialValue.tags : null;
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <DefaultSubmit value="save" />
      {baseVersion !== undefined ? <input type="hidden" name="baseVersion" value={baseVersion} /> : null}
      <TextField meta={fields.name} label={L.name} autoComplete="off" disabled={disabled} />
      <CheckboxField meta={fields.isPublic} label={L.isPublic} disabled={disabled} />
      <CheckboxField meta={fields.isGeneric} label={L.isGeneric} disabled={disabled} />
      <CheckboxGroup meta={fields.organizations} legend={L.organizations} options={organizations} empty={CHAINS.noOrganizations} disabled={disabled} />
      <CheckboxGroup meta={fields.categories} legend={L.categories} options={categories} empty={CHAINS.noCategories} disabled={disabled} />
      <TagInput
        key={submittedTags ?? "tags"}
        id={fields.tags.id}
        name={fields.tags.name}
        label={L.tags}
        defaultValue={submittedTags !== null ? submittedTags.split(";").map((t) => t.trim()).filter(Boolean) : defaults.tags}
        errors={fields.tags.errors}
        errorId={fields.tags.errorId}
        disabled={disabled}
      />
      <TextAreaField meta={fields.description} label={L.description} disabled={disabled} />
      {disabled ? <p className="muted">{CHAINS.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to={cancelTo} className="btn btn-secondary">
          {CHAINS.cancel}
        </Link>
        {canWrite ? <SaveButton form={form} label={CHAINS.save} busyLabel="Saving…" intent="save" /> : null}
      </div>
      {after}
    </Form>
  );
}
