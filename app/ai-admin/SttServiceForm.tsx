import { getFormProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { DEFAULT_STT_CONFIG, type SttService } from "@contract/ai-admin";
import { FormError, SaveButton, SelectField, TextAreaField, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { ConfigField } from "./ConfigField";
import { SttServiceFormSchema } from "./schema";
import { STT_SERVICES } from "./texts";

const L = STT_SERVICES.labels;

/** The speech-to-text service form (spec 3 §2.10, §3): name, provider, description, config JSON. */
export function SttServiceForm({
  id,
  service,
  providers,
  actionData,
}: {
  id: string;
  service: SttService | null;
  providers: readonly string[];
  actionData: unknown;
}) {
  const [form, fields] = useSchemaForm(SttServiceFormSchema, {
    id,
    actionData,
    defaultValue: {
      name: service?.name ?? "",
      sttProvider: service?.sttProvider ?? providers[0] ?? "",
      description: service?.description ?? "",
      config: service?.config ?? DEFAULT_STT_CONFIG,
    },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <TextField meta={fields.name} label={L.name} autoComplete="off" />
      <SelectField meta={fields.sttProvider} label={L.provider} options={providers.map((p) => ({ value: p, label: p }))} />
      <TextAreaField meta={fields.description} label={L.description} />
      <ConfigField meta={fields.config} label={L.config} hint={STT_SERVICES.configHint} sample={DEFAULT_STT_CONFIG} rows={8} />
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/administration" className="btn btn-secondary">
          {STT_SERVICES.cancel}
        </Link>
        <SaveButton form={form} label={STT_SERVICES.save} busyLabel="Saving…" intent="save" />
      </div>
    </Form>
  );
}
