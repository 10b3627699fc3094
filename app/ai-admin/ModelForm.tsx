import { getFieldsetProps, getFormProps } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { DEFAULT_MODEL_CONFIG, MODEL_CAPABILITIES, type ConnectionTest, type ModelConfiguration } from "@contract/ai-admin";
import { CheckboxGroup, FieldErrors, FormError, SaveButton, SelectField, TextAreaField, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { ConfigField } from "./ConfigField";
import { ModelFormSchema } from "./schema";
import { MODELS } from "./texts";

const L = MODELS.labels;
const CAPABILITY_OPTIONS = MODEL_CAPABILITIES.map((c) => ({ value: c, label: MODELS.capabilities[c] }));
const BLANK_PARAM = { name: "", default: "", options: "" };

/** What the form starts from: the saved model, or a new one with the spec's sample config (§9). */
function defaultsOf(model: ModelConfiguration | null, providers: readonly string[]) {
  return {
    name: model?.name ?? "",
    provider: model?.provider ?? providers[0] ?? "",
    capability: model?.capability ?? "chat",
    version: model?.version ?? "",
    description: model?.description ?? "",
    organizations: model?.organizations ?? [],
    config: model?.config ?? DEFAULT_MODEL_CONFIG,
    params: (model?.params ?? []).map((p) => ({ name: p.name, default: p.default, options: p.options.join("; ") })),
  };
}

/**
 * The model form (spec 3 §2.10, §3): name, provider, capability, version, description, the organizations allowed
 * (checkboxes), the config JSON (Monaco with a textarea without JavaScript; where it does not parse is said under it,
 * nothing typed lost), the params, and Test connection (the typed config, answered in place).
 */
export function ModelForm({
  id,
  model,
  providers,
  organizations,
  actionData,
}: {
  id: string;
  model: ModelConfiguration | null;
  providers: readonly string[];
  organizations: readonly { id: string; name: string }[];
  actionData: unknown;
}) {
  const [form, fields] = useSchemaForm(ModelFormSchema, { id, actionData, defaultValue: defaultsOf(model, providers) });
  const params = fields.params.getFieldList();
  const navigation = useNavigation();
  const testing = navigation.state === "submitting" && navigation.formData?.get("intent") === "test";
  const test = testOf(actionData);
  // The server renders them ticked without JavaScript; with it, the checkboxes the user unticked are set again.
  const restored = restoredOf(actionData);
  useEffect(() => {
    if (!restored) return;
    // Set on the inputs themselves: conform's `update` would post the form again (and the refusal's toast go).
    for (const input of document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="${fields.organizations.name}"]`)) {
      if (input.form?.id !== form.id || input.checked || !restored.organizations.includes(input.value)) continue;
      input.checked = true;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    // Once per refusal (its token), not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [restored?.token]);
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <TextField meta={fields.name} label={L.name} autoComplete="off" />
      <SelectField meta={fields.provider} label={L.provider} options={providers.map((p) => ({ value: p, label: p }))} />
      <SelectField meta={fields.capability} label={L.capability} options={CAPABILITY_OPTIONS} />
      <TextField meta={fields.version} label={L.version} autoComplete="off" />
      <TextAreaField meta={fields.description} label={L.description} />
      <CheckboxGroup
        meta={fields.organizations}
        legend={L.organizations}
        options={organizations.map((o) => ({ value: o.id, label: o.name }))}
        empty={MODELS.noOrganizations}
      />
      <ConfigField meta={fields.config} label={L.config} hint={MODELS.configHint} sample={DEFAULT_MODEL_CONFIG} rows={10} />
      <div className="field">
        {/* Posts the form (intent=test): the action answers with the result and the form as typed, with or without JavaScript. */}
        <button type="submit" name="intent" value="test" className="btn btn-secondary">
          {testing ? MODELS.testing : MODELS.test}
        </button>
        <p role="status" className={test && !test.ok ? "field-error" : "field-hint"} data-testid="connection-test">
          {test?.message ?? ""}
        </p>
      </div>
      <fieldset {...getFieldsetProps(fields.params)} className="params">
        <legend>{L.params}</legend>
        {params.length === 0 ? <p className="field-hint">{MODELS.noParams}</p> : null}
        {params.map((param, index) => {
          const p = param.getFieldset();
          return (
            <fieldset key={param.key} className="field-row">
              <legend className="visually-hidden">{`${L.params} ${index + 1}`}</legend>
              <TextField meta={p.name} label={L.paramName} autoComplete="off" />
              <TextField meta={p.default} label={L.paramDefault} autoComplete="off" />
              <TextField meta={p.options} label={L.paramOptions} autoComplete="off" />
              <button {...form.remove.getButtonProps({ name: fields.params.name, index })} className="btn btn-secondary btn-small">
                {MODELS.removeParam(index + 1)}
              </button>
            </fieldset>
          );
        })}
        <FieldErrors id={fields.params.errorId} errors={fields.params.errors} />
        <button {...form.insert.getButtonProps({ name: fields.params.name, defaultValue: BLANK_PARAM })} className="btn btn-secondary">
          {MODELS.addParam}
        </button>
      </fieldset>
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/administration" className="btn btn-secondary">
          {MODELS.cancel}
        </Link>
        <SaveButton form={form} label={MODELS.save} busyLabel="Saving…" intent="save" />
      </div>
    </Form>
  );
}

/** A save refused as in use answers the organizations still allowed (`restored`: a token per refusal, `initialValue`). */
function restoredOf(data: unknown): { token: string; organizations: string[] } | null {
  if (!data || typeof data !== "object" || !("restored" in data) || !("initialValue" in data)) return null;
  const value = (data.initialValue as { organizations?: unknown } | null)?.organizations;
  return { token: String(data.restored), organizations: Array.isArray(value) ? value.map(String) : [] };
}

function testOf(data: unknown): ConnectionTest | null {
  return data && typeof data === "object" && "test" in data ? (data.test as ConnectionTest) : null;
}
