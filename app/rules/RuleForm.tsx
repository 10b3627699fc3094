import { getFieldsetProps, getFormProps, type FieldMetadata } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { MEASURES } from "@contract/deadlines";
import { RULE_LIMITS, type Deadline } from "@contract/rules";
import {
  CheckboxField,
  DefaultSubmit,
  FieldErrors,
  FormError,
  SaveButton,
  SelectField,
  TextAreaField,
  TextField,
} from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import type { DeadlinePreview } from "./rules.server";
import { RULES } from "./texts";
import { RuleSchema } from "./schema";

const L = RULES.labels;

export type RuleDefaults = {
  name: string;
  description: string;
  jurisdiction: string;
  trigger: string;
  deadlines: Deadline[];
  rollWeekends: boolean;
};

const BLANK_DEADLINE: Deadline = {
  label: "",
  amount: 1,
  measure: "months",
  extension: { times: 0, amount: 1, measure: "months" },
};
export const NEW_RULE: RuleDefaults = {
  name: "",
  description: "",
  jurisdiction: "",
  trigger: "",
  deadlines: [BLANK_DEADLINE],
  rollWeekends: true,
};

/** Today as YYYY-MM-DD (the preview's first trigger date). */
const today = () => new Date().toISOString().slice(0, 10);

function previewOf(data: unknown): DeadlinePreview | null {
  return data && typeof data === "object" && "preview" in data
    ? (data.preview as DeadlinePreview)
    : null;
}

/** The measures (Days, Business Days, Weeks, Months, Years) as select options. */
const MEASURE_OPTIONS = MEASURES.map((m) => ({ value: m, label: RULES.measures[m] }));

/** A whole-number input (numeric keyboard; the schema's message when it is not a whole number in range). */
function NumberField({
  meta,
  label,
  disabled,
}: {
  meta: FieldMetadata<number | undefined>;
  label: string;
  disabled: boolean;
}) {
  return (
    <TextField
      meta={meta as FieldMetadata<string | undefined>}
      label={label}
      inputMode="numeric"
      autoComplete="off"
      disabled={disabled}
    />
  );
}

/**
 * The create and edit form of a docketing rule: name, jurisdiction, triggering event, description, the weekend roll
 * and its deadlines (label, amount, measure, extensions; rows added and removed with or without JavaScript), plus a
 * deadline preview for a trigger date, computed on the server.
 */
export function RuleForm({
  id,
  defaults,
  actionData,
  canWrite,
}: {
  id: string;
  defaults: RuleDefaults;
  actionData: unknown;
  canWrite: boolean;
}) {
  const [form, fields] = useSchemaForm(RuleSchema, {
    id,
    actionData,
    defaultValue: defaults,
  });
  const disabled = !canWrite;
  const deadlines = fields.deadlines.getFieldList();
  const preview = previewOf(actionData);
  return (
    <Form method="post" {...getFormProps(form)} className="form-card">
      <DefaultSubmit value="save" />
      <TextField
        meta={fields.name}
        label={L.name}
        autoComplete="off"
        disabled={disabled}
      />
      <TextField
        meta={fields.jurisdiction}
        label={L.jurisdiction}
        hint={RULES.jurisdictionHint}
        autoComplete="off"
        disabled={disabled}
      />
      <TextField
        meta={fields.trigger}
        label={L.trigger}
        autoComplete="off"
        disabled={disabled}
      />
      <TextAreaField meta={fields.description} label={L.description} disabled={disabled} />
      <CheckboxField
        meta={fields.rollWeekends}
        label={L.rollWeekends}
        disabled={disabled}
      />
      <fieldset {...getFieldsetProps(fields.deadlines)} className="deadlines">
        <legend>{L.deadlines}</legend>
        {deadlines.map((deadline, index) => {
          const d = deadline.getFieldset();
          const e = d.extension.getFieldset();
          return (
            <fieldset key={deadline.key} className="deadline-row">
              <legend className="visually-hidden">
                {RULES.deadlineLegend(index + 1)}
              </legend>
              <TextField
                meta={d.label}
                label={L.label}
                autoComplete="off"
                disabled={disabled}
              />
              <NumberField
                meta={d.amount}
                label={L.amount}
                disabled={disabled}
              />
              <SelectField meta={d.measure} label={L.measure} options={MEASURE_OPTIONS} disabled={disabled} />
              <NumberField
                meta={e.times}
                label={L.extensionTimes}
                disabled={disabled}
              />
              <NumberField
                meta={e.amount}
                label={L.extensionAmount}
                disabled={disabled}
              />
              <SelectField meta={e.measure} label={L.extensionMeasure} options={MEASURE_OPTIONS} disabled={disabled} />
              {canWrite && deadlines.length > 1 ? (
                <button
                  {...form.remove.getButtonProps({
                    name: fields.deadlines.name,
                    index,
                  })}
                  className="btn btn-secondary btn-small deadline-remove"
                >
                  {RULES.removeDeadline(index + 1)}
                </button>
              ) : null}
            </fieldset>
          );
        })}
        <p className="field-hint">{RULES.extensionHint}</p>
        <FieldErrors
          id={fields.deadlines.errorId}
          errors={fields.deadlines.errors}
        />
        {canWrite && deadlines.length < RULE_LIMITS.deadlines ? (
          <button
            {...form.insert.getButtonProps({
              name: fields.deadlines.name,
              defaultValue: BLANK_DEADLINE,
            })}
            className="btn btn-secondary"
          >
            {RULES.addDeadline}
          </button>
        ) : null}
      </fieldset>
      {canWrite ? (
        <section className="preview" aria-labelledby={`${id}-preview`}>
          <h2 id={`${id}-preview`}>{RULES.previewTitle}</h2>
          <div className="field-row">
            <div className="field">
              <label htmlFor={`${id}-trigger-date`}>{RULES.triggerDate}</label>
              <input
                id={`${id}-trigger-date`}
                name="triggerDate"
                type="date"
                defaultValue={preview?.trigger || today()}
              />
            </div>
            <button
              type="submit"
              name="intent"
              value="preview"
              className="btn btn-secondary"
            >
              {RULES.preview}
            </button>
          </div>
          <div aria-live="polite">
            {preview?.error ? (
              <p className="preview-error" role="alert">
                {preview.error}
              </p>
            ) : preview?.deadlines ? (
              <div
                className="table-wrap"
                role="region"
                aria-label={RULES.previewTitle}
                tabIndex={0}
              >
                <table className="data-table">
                  <caption className="visually-hidden">
                    {RULES.previewTitle}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">{RULES.previewColumns.label}</th>
                      <th scope="col">{RULES.previewColumns.due}</th>
                      <th scope="col">{RULES.previewColumns.extensions}</th>
                      <th scope="col">{RULES.previewColumns.final}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.deadlines.map((d, i) => (
                      <tr key={i}>
                        <td>{d.label}</td>
                        <td>{d.due}</td>
                        <td>
                          {d.extensions.length
                            ? d.extensions.join(", ")
                            : RULES.noExtensions}
                        </td>
                        <td>{d.final}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </div>
        </section>
      ) : null}
      {disabled ? <p className="muted">{RULES.readOnlyNote}</p> : null}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <Link to="/rules" className="btn btn-secondary">
          {RULES.cancel}
        </Link>
        {canWrite ? (
          <SaveButton
            form={form}
            label={RULES.save}
            busyLabel="Saving…"
            intent="save"
          />
        ) : null}
      </div>
    </Form>
  );
}
