import { getFormProps, type FieldMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { APPLICATION_LIMITS } from "@contract/portfolio-constants";
import { CheckboxField, DefaultSubmit, FieldErrors, FormError, SaveButton, TextAreaField, TextField } from "~/ui/fields";
import { useSchemaForm } from "~/ui/schema-form";
import { UrlDialog } from "~/ui/url-dialog";
import type { ResultRow } from "./search.server";
import { EditFieldsSchema, addTagSchema } from "./schema";
import { PORTFOLIO } from "./texts";

/**
 * A form over the results (add tag, edit fields): a `UrlDialog` (`addTag=id`, `edit=id`) shown inline in the
 * application's card without JavaScript. Opening it needs no new search (the route's shouldRevalidate).
 */
export function ActionDialog(props: { id: string; title: string; closeTo: string; openerId: string; children: (cancel: ReactNode) => ReactNode }) {
  return <UrlDialog {...props} cancelLabel={PORTFOLIO.addTag.cancel} panelClassName="action-panel" dialogClassName="action-dialog" panelHeading="h3" />;
}

/** A number typed as text (conform's zod parser reads it; empty: none): the kit's text field. */
function NumberField({ meta, label, hint }: { meta: FieldMetadata<number | null | undefined>; label: string; hint?: string }) {
  return (
    <TextField
      meta={meta as unknown as FieldMetadata<string | undefined>}
      label={label}
      hint={hint}
      inputMode="decimal"
      autoComplete="off"
    />
  );
}

/** The add-tag form (spec 2 §5): tag (non-empty, new, no comma or semicolon) and score (default 0). */
export function AddTagForm({ row, actionData, cancel }: { row: ResultRow; actionData: unknown; cancel: ReactNode }) {
  const A = PORTFOLIO.addTag;
  const schema = addTagSchema(row.tags.map((t) => t.name));
  const [form, fields] = useSchemaForm(schema, {
    id: `add-tag-form-${row.id}`,
    actionData,
    defaultValue: { applicationId: row.id, tag: "", score: undefined },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="dialog-form" preventScrollReset>
      <input type="hidden" name="intent" value="addTag" />
      <input type="hidden" name="applicationId" value={row.id} />
      <TextField meta={fields.tag} label={A.tag} maxLength={APPLICATION_LIMITS.tag} autoComplete="off" autoFocus />
      <NumberField meta={fields.score} label={A.score} hint={A.scoreHint} />
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        {cancel}
        <SaveButton form={form} label={A.save} busyLabel="Adding…" />
      </div>
    </Form>
  );
}

const EMPTY_PRODUCT = {
  name: "",
  company: "",
  score: undefined,
  similarityAssessment: "",
  summary: "",
  ultimateParentCompany: "",
  source: 0,
  isInternal: false,
  isCompetitor: false,
};

/**
 * The edit-fields form (spec 2 §7: aiSummary, broadScore, detectableScore, products): products as repeated groups of
 * every §3 product field, at most 100; Add product and Remove are conform list intents, which work without
 * JavaScript too (the server answers the form with the row added or removed).
 */
export function EditFieldsForm({ row, actionData, cancel }: { row: ResultRow; actionData: unknown; cancel: ReactNode }) {
  const E = PORTFOLIO.editFields;
  const P = PORTFOLIO.product;
  const [form, fields] = useSchemaForm(EditFieldsSchema, {
    id: `edit-form-${row.id}`,
    actionData,
    defaultValue: {
      applicationId: row.id,
      aiSummary: row.aiSummary,
      broadScore: row.broadScore ?? undefined,
      detectableScore: row.detectableScore ?? undefined,
      products: row.products.map((p) => ({ ...p, score: p.score ?? undefined })),
    },
  });
  const products = fields.products.getFieldList();
  const full = products.length >= APPLICATION_LIMITS.products;
  return (
    <Form method="post" {...getFormProps(form)} className="dialog-form edit-fields" preventScrollReset>
      <DefaultSubmit value="editFields" />
      <input type="hidden" name="intent" value="editFields" />
      <input type="hidden" name="applicationId" value={row.id} />
      <TextAreaField meta={fields.aiSummary} label={E.aiSummary} rows={5} hint={E.aiSummaryHint} />
      <div className="field-pair">
        <NumberField meta={fields.broadScore} label={E.broadScore} />
        <NumberField meta={fields.detectableScore} label={E.detectableScore} />
      </div>
      <fieldset className="products-editor">
        <legend>{E.products}</legend>
        {products.length === 0 ? <p className="muted small">{E.noProducts}</p> : null}
        {products.map((product, index) => {
          const p = product.getFieldset();
          return (
            <fieldset key={product.key} className="product-row">
              <legend>{E.product(index + 1)}</legend>
              <div className="product-grid">
                <TextField meta={p.name} label={P.name} maxLength={APPLICATION_LIMITS.productText} autoComplete="off" />
                <TextField meta={p.company} label={P.company} maxLength={APPLICATION_LIMITS.productText} autoComplete="off" />
                <TextField meta={p.ultimateParentCompany} label={P.ultimateParentCompany} maxLength={APPLICATION_LIMITS.productText} autoComplete="off" />
                <NumberField meta={p.score} label={P.score} />
                <NumberField meta={p.source} label={P.source} />
                <div className="product-flags">
                  <CheckboxField meta={p.isInternal} label={P.isInternal} />
                  <CheckboxField meta={p.isCompetitor} label={P.isCompetitor} />
                </div>
              </div>
              <TextAreaField meta={p.summary} label={P.summary} rows={2} />
              <TextAreaField meta={p.similarityAssessment} label={P.similarityAssessment} rows={2} />
              <button className="btn btn-secondary btn-small" {...form.remove.getButtonProps({ name: fields.products.name, index })}>
                {E.removeProduct(index + 1)}
              </button>
            </fieldset>
          );
        })}
        <FieldErrors id={fields.products.errorId} errors={fields.products.errors} />
        {full ? null : (
          <button className="btn btn-secondary btn-small" {...form.insert.getButtonProps({ name: fields.products.name, defaultValue: EMPTY_PRODUCT })}>
            {E.addProduct}
          </button>
        )}
      </fieldset>
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        {cancel}
        <SaveButton form={form} label={E.save} busyLabel="Saving…" intent="editFields" />
      </div>
    </Form>
  );
}
