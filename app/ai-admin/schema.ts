import { z } from "zod";
import { ModelCreate, ModelParam, SttServiceCreate, configProblem } from "@contract/ai-admin";
import { OrganizationCreate } from "@contract/organizations";
import { ORGANIZATION_AI } from "./texts";

/** The config field: the contract's bound, then where the JSON is broken or which key is wrong (the upstream's words). */
const config = ModelCreate.shape.config.superRefine((text, ctx) => {
  const problem = configProblem(text);
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
});

/** One param row of the form: its options typed as one text, separated by ";" (spec 3 §9's tag-list separator). */
const ParamRow = ModelParam.extend({
  options: z
    .string()
    .optional()
    .transform((text) => (text ?? "").split(";").map((o) => o.trim()).filter(Boolean))
    .pipe(ModelParam.shape.options),
});

/** The model form: the contract's create body, the config checked as the upstream checks it. */
export const ModelFormSchema = ModelCreate.extend({
  config,
  organizations: ModelCreate.shape.organizations,
  params: z.array(ParamRow).default([]),
});

/** The speech-to-text service form. */
export const SttServiceFormSchema = SttServiceCreate.extend({ config });

const idRef = z
  .string()
  .optional()
  .transform((id) => (id ? { id } : null));

/**
 * The organization form with its AI fields (for those holding `administration`): the allowed models are sent on
 * create only when some were chosen, on update always (spec 3 §7), with the speech settings in the same request.
 */
const organizationAi = <M extends z.ZodType<string[] | undefined, z.ZodTypeDef, string[] | undefined>>(models: M) =>
  OrganizationCreate.pick({ name: true })
    .extend({
      enableSpeechToText: z.boolean().default(false),
      speechToTextService: idRef,
      speechPostProcessingModel: idRef,
      models,
    })
    .superRefine((value, ctx) => {
      if (value.enableSpeechToText && !value.speechToTextService) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["speechToTextService"], message: ORGANIZATION_AI.serviceRequired });
      }
    });
const modelIds = z.array(z.string());
export const OrganizationAiCreateSchema = organizationAi(modelIds.optional());
export const OrganizationAiUpdateSchema = organizationAi(modelIds.default([]));
