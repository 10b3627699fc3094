import type { FieldMetadata } from "@conform-to/react";
import { CheckboxField, CheckboxGroup, SelectField } from "~/ui/fields";
import { ORGANIZATION_AI } from "./texts";

export type OrganizationAiChoices = {
  models: { value: string; label: string }[];
  services: { value: string; label: string }[];
};

/** The organization form's AI fields (spec 3 §3 organization): speech to text, its service, the post-processing model, the models allowed. */
export function OrganizationAiFields({
  choices,
  fields,
  disabled,
}: {
  choices: OrganizationAiChoices;
  fields: {
    enableSpeechToText: FieldMetadata<boolean | undefined>;
    speechToTextService: FieldMetadata<string | undefined>;
    speechPostProcessingModel: FieldMetadata<string | undefined>;
    models: FieldMetadata<string[] | undefined>;
  };
  disabled?: boolean;
}) {
  return (
    <fieldset className="field-group">
      <legend>{ORGANIZATION_AI.heading}</legend>
      <CheckboxField meta={fields.enableSpeechToText} label={ORGANIZATION_AI.enable} disabled={disabled} />
      <SelectField
        meta={fields.speechToTextService}
        label={ORGANIZATION_AI.service}
        options={choices.services}
        placeholder={ORGANIZATION_AI.none}
        disabled={disabled}
      />
      <SelectField
        meta={fields.speechPostProcessingModel}
        label={ORGANIZATION_AI.postProcessing}
        options={choices.models}
        placeholder={ORGANIZATION_AI.none}
        disabled={disabled}
      />
      <CheckboxGroup meta={fields.models} legend={ORGANIZATION_AI.models} options={choices.models} empty={ORGANIZATION_AI.noModels} disabled={disabled} />
    </fieldset>
  );
}
